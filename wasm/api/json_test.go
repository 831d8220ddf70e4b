package api

import (
	"bytes"
	"encoding/json"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
)

// tricky strings: every escape encoding/json writes, HTML characters, invalid UTF-8, U+2028.
var trickyStrings = []string{"", "plain", "q\"b\\s/", "<a href='x'>&amp;</a>", "\x00\x01\b\f\n\r\t\x1f\x7f", "ünï\u2028\u2029😀", "bad\xffutf8\xc3", "\u202e bidi"}

// fill sets every exported field reachable from v to a non-zero value (strings cycle through
// trickyStrings), so a field the hand-written writer misses shows up as a difference.
func fill(v reflect.Value, n *int) {
	switch v.Kind() {
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n)
			}
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		for i := 0; i < 2; i++ {
			k, e := reflect.New(v.Type().Key()).Elem(), reflect.New(v.Type().Elem()).Elem()
			fill(k, n)
			fill(e, n)
			v.SetMapIndex(k, e)
		}
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := 0; i < 2; i++ {
			fill(v.Index(i), n)
		}
	case reflect.String:
		*n++
		v.SetString(trickyStrings[*n%len(trickyStrings)] + string(rune('a'+*n%26)))
	case reflect.Int:
		*n++
		v.SetInt(int64(*n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Interface:
		*n++
		vals := []any{3, 0.5, 1e-7, 1e21, true, "s<", []string{"a", "b&"}, nil, 12345678.0}
		if x := vals[*n%len(vals)]; x != nil {
			v.Set(reflect.ValueOf(x))
		} else {
			v.Set(reflect.Zero(v.Type()))
		}
	}
}

func stdIndent(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err)
	}
	return buf.Bytes()
}

// TestJSONLikeStdlib: the replies are byte for byte what encoding/json writes, for values with
// every field set, with every optional field empty, and for option defaults of every type.
func TestJSONLikeStdlib(t *testing.T) {
	for i := 0; i < 30; i++ {
		n := i
		var res lint.Result
		fill(reflect.ValueOf(&res).Elem(), &n)
		res.Diagnostics[1].Key, res.Diagnostics[1].Related, res.Diagnostics[1].Fix = "", nil, nil
		w := &jw{pretty: true}
		w.result(&res)
		if got, want := append(w.b, '\n'), stdIndent(&res); !bytes.Equal(got, want) {
			t.Fatalf("result:\n%s\nencoding/json:\n%s", got, want)
		}

		var fr FixResult
		fill(reflect.ValueOf(&fr).Elem(), &n)
		fr.Files[1].Error = ""
		w = &jw{html: true}
		w.fixResult(&fr)
		if want, _ := json.Marshal(&fr); !bytes.Equal(w.b, want) {
			t.Fatalf("fix result:\n%s\nencoding/json:\n%s", w.b, want)
		}

		var rs []lint.RuleInfo
		fill(reflect.ValueOf(&rs).Elem(), &n)
		rs[1].Anchor, rs[1].Playbook, rs[1].Off = "", "", false
		w = &jw{html: true}
		if err := w.rules(rs); err != nil {
			t.Fatal(err)
		}
		if want, _ := json.Marshal(rs); !bytes.Equal(w.b, want) {
			t.Fatalf("rules:\n%s\nencoding/json:\n%s", w.b, want)
		}

		var fs []FrameworkInfo
		fill(reflect.ValueOf(&fs).Elem(), &n)
		w = &jw{html: true}
		w.frameworks(fs)
		if want, _ := json.Marshal(fs); !bytes.Equal(w.b, want) {
			t.Fatalf("frameworks:\n%s\nencoding/json:\n%s", w.b, want)
		}
	}
	// Empty and nil collections.
	for _, res := range []*lint.Result{{}, {Files: []lint.FileInfo{}, Diagnostics: []lint.Diagnostic{}}} {
		w := &jw{pretty: true}
		w.result(res)
		if got, want := append(w.b, '\n'), stdIndent(res); !bytes.Equal(got, want) {
			t.Errorf("empty result:\n%s\nencoding/json:\n%s", got, want)
		}
	}
	if got, want := string(RulesJSON()), mustMarshal(Rules()); got != want {
		t.Errorf("RulesJSON differs from encoding/json:\n%s\n%s", got, want)
	}
	if got, want := string(ErrorJSON(errString("a <b> & \"c\""))), `{"error":"a \u003cb\u003e \u0026 \"c\""}`; got != want {
		t.Errorf("ErrorJSON = %s, want %s", got, want)
	}
}

type errString string

func (e errString) Error() string { return string(e) }

func mustMarshal(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// TestDecodeLikeStdlib: requests read as encoding/json reads them, and what it refuses is
// refused.
func TestDecodeLikeStdlib(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 300; i++ {
		var req Request
		n := rng.Intn(1000)
		fill(reflect.ValueOf(&req).Elem(), &n)
		req.Files = req.Files[:rng.Intn(3)]
		b, _ := json.Marshal(req)
		if rng.Intn(2) == 0 {
			b = stdIndent(req)
		}
		got, err := decodeRequest(b)
		if err != nil {
			t.Fatalf("%s: %v", b, err)
		}
		var want Request
		json.Unmarshal(b, &want)
		if !reflect.DeepEqual(got, want) && !(len(got.Files) == 0 && len(want.Files) == 0) {
			t.Fatalf("%s:\n got %#v\nwant %#v", b, got, want)
		}
	}
	for _, s := range []string{`{"files":[{"path":"a\ud83d\ude00\u00e9\/\n","text":"\ud800x"}],"options":{"hosts":2,"devicesPerHost":8,"select":["a"],"x":{"y":[1,2,null]}}}`,
		`{}`, `null`, ` {"files": [] } `, `{"options":{"framework":"\u0041"}}`,
		`{"options":{"overrides":["experiment=x","+a.b=[1,2]"],"targets":{"trl":"0.19.0","transformers":"","x\u00e9":"1"}}}`} {
		got, err := decodeRequest([]byte(s))
		var want Request
		werr := json.Unmarshal([]byte(s), &want)
		if (err == nil) != (werr == nil) || (err == nil && !reflect.DeepEqual(got, want) && !(len(got.Files) == 0 && len(want.Files) == 0)) {
			t.Errorf("%s: got %#v (%v), encoding/json %#v (%v)", s, got, err, want, werr)
		}
	}
	for _, s := range []string{`{`, `{"files":`, `[1]`, `{"files":{}}`, `{"files":[1]}`, `{"options":{"hosts":"2"}}`, `{"options":{"hosts":2.5}}`,
		`{"a":1}x`, `{"a":tru}`, `{"a":"\x"}`, `{"a":"` + "\x01" + `"}`, `{"a":01}`, `{"a":-}`, `{'a':1}`, `{"options":{"select":[1]}}`,
		`{"options":{"targets":{"trl":1}}}`, `{"options":{"targets":[]}}`, `{"options":{"overrides":[null]}}`} {
		if _, err := decodeRequest([]byte(s)); err == nil {
			t.Errorf("%s: accepted", s)
		}
	}
}

// FuzzDecodeRequest: any bytes give a request or an error, never a panic, and whatever is
// accepted is also valid JSON to encoding/json.
func FuzzDecodeRequest(f *testing.F) {
	for _, s := range []string{`{"files":[{"path":"a.yaml","text":"x: 1\n"}],"options":{"hosts":2}}`, `{"a":"\ud83d\ude00"}`, `[[[[`, `{"files":[null]}`, `"\u"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if _, err := decodeRequest(b); err == nil && !json.Valid(b) {
			t.Errorf("accepted invalid JSON %q", b)
		}
	})
}

// FuzzStringLikeStdlib: a JSON string is read as encoding/json reads it (jr.str's runs of plain
// bytes and its escapes), and what it refuses is refused.
func FuzzStringLikeStdlib(f *testing.F) {
	for _, s := range []string{`plain`, `a\nb\tc\"d\\e`, `\u00e9\ud83d\ude00x`, "caf\xc3\xa9 \xff end", `\ud800`, "ctl\x01", `\x`, `unterminated\`, `a"b`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		in := append(append([]byte{'"'}, body...), '"')
		r := &jr{s: in}
		got := r.str()
		ok := r.err == nil && r.i == len(in)
		var want string
		werr := json.Unmarshal(in, &want)
		if ok != (werr == nil) || ok && got != want {
			t.Errorf("%q: got %q (ok %v), encoding/json %q (%v)", in, got, ok, want, werr)
		}
	})
}

// FuzzWriteStringLikeStdlib: a string is written as encoding/json writes it, with and without
// its HTML escapes.
func FuzzWriteStringLikeStdlib(f *testing.F) {
	for _, s := range []string{`plain`, "a\nb\tc\"d\\e", "é😀x", "caf\xc3\xa9 \xff end", "<a&b>", "\u2028\u2029", "ctl\x01\x7f"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, html := range []bool{true, false} {
			w := &jw{html: html}
			w.str(s)
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(html)
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			if want := strings.TrimSuffix(b.String(), "\n"); string(w.b) != want {
				t.Errorf("%q (html %v): got %s, encoding/json %s", s, html, w.b, want)
			}
		}
	})
}
