package compose

import (
	"bufio"
	"encoding/json"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
)

// TestHydraValueAgreesWithHydra holds the override-value reader to Hydra's own parser.
// testdata/hydra-override-values.jsonl holds 710 values (from the grammar's pieces: numbers,
// words, quotes, escapes, interpolations, lists, dicts, function calls and sweeps, nested and
// spaced) with what Hydra 1.3.2 made of `k=VALUE` (OverridesParser.parse_override, its parsers
// generated from hydra/grammar/*.g4 with Debian's antlr4): refused, a sweep, or the value, typed.
// Sampled from 80,000 such values on 2026-12-02, on which the reader refused none that Hydra
// reads, read none that Hydra refuses and read every value as Hydra does; it leaves unknown
// about 8% of them that Hydra refuses, calls of Hydra's functions with arguments they reject
// when evaluated (it refuses unknown functions and positional arguments after keyword ones). The reader must refuse or leave unknown
// what Hydra refuses, leave sweeps unknown, and read values as Hydra types them; it may leave a
// function call's value unknown. testdata/hydra_oracle.py (values) regenerates the verdicts.
func TestHydraValueAgreesWithHydra(t *testing.T) {
	f, err := os.Open("testdata/hydra-override-values.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	count := map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var row struct {
			In    string          `json:"in"`
			Hydra json.RawMessage `json:"hydra"`
		}
		if err := json.Unmarshal(sc.Bytes(), &row); err != nil {
			t.Fatal(err)
		}
		text, opaque, at, why := hydraValue(row.In)
		switch string(row.Hydra) {
		case `"refused"`:
			switch {
			case at >= 0:
				count["refused by both"]++
			case opaque:
				count["refused by Hydra, unknown here"]++
			default:
				t.Errorf("%q: Hydra refuses it, read here as %s", row.In, text)
			}
		case `"sweep"`:
			if at >= 0 || !opaque {
				t.Errorf("%q: a sweep to Hydra, here refused (%s) or read as %s", row.In, why, text)
			}
			count["sweeps"]++
		default:
			var want any
			if err := json.Unmarshal(row.Hydra, &want); err != nil {
				t.Fatal(err)
			}
			switch {
			case at >= 0:
				t.Errorf("%q: Hydra reads it, refused here: %s", row.In, why)
			case opaque:
				if !strings.Contains(row.In, "(") {
					t.Errorf("%q: Hydra reads it (no function call), left unknown here", row.In)
				}
				count["function values unknown here"]++
			default:
				d := doc.ParseWith("override", []byte(text), doc.YAML, doc.Options{})
				if d.Root == nil || len(d.Problems) > 0 {
					t.Errorf("%q: read as %q, which the YAML reader does not take: %v", row.In, text, d.Problems)
				} else if got := hydraCanon(d.Root); !sameCanon(got, want) {
					t.Errorf("%q: read as %q = %v, Hydra's value %v", row.In, text, got, want)
				} else {
					count["same value"]++
				}
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if count["same value"] < 300 || count["refused by both"] < 100 || count["sweeps"] < 40 {
		t.Errorf("too few cases of a kind: %v", count)
	}
	t.Log(count)
}

// hydraCanon is n in the form the test data gives Hydra's values: ["null"], ["bool", "true"],
// ["int", "10"], ["float", "0.5"], ["str", s], ["list", [...]], ["dict", [[key, value]...]].
func hydraCanon(n *doc.Node) any {
	switch n.Kind {
	case doc.Seq:
		items := []any{}
		for _, c := range n.Children {
			items = append(items, hydraCanon(c))
		}
		return []any{"list", items}
	case doc.Map:
		items := []any{}
		for _, c := range n.Children {
			items = append(items, []any{[]any{"str", c.Key}, hydraCanon(c)})
		}
		return []any{"dict", items}
	}
	switch n.Type {
	case doc.Null:
		return []any{"null"}
	case doc.Bool:
		return []any{"bool", strings.ToLower(n.Value)}
	case doc.Int:
		return []any{"int", strings.ReplaceAll(n.Value, "_", "")}
	case doc.Float:
		return []any{"float", n.Value}
	}
	return []any{"str", n.Value}
}

// sameCanon compares a canonical value made here with Hydra's: numbers by value, and a dict key
// Hydra made an int (`{1: x}`) with the key's text.
func sameCanon(got, want any) bool {
	g, w := got.([]any), want.([]any)
	if len(g) == 0 || len(w) == 0 {
		return false
	}
	gk, wk := g[0].(string), w[0].(string)
	switch {
	case gk == "float" && wk == "float":
		return sameFloat(g[1].(string), w[1].(string))
	case gk == "list" && wk == "list":
		gi, wi := g[1].([]any), w[1].([]any)
		if len(gi) != len(wi) {
			return false
		}
		for i := range gi {
			if !sameCanon(gi[i], wi[i]) {
				return false
			}
		}
		return true
	case gk == "dict" && wk == "dict":
		gi, wi := g[1].([]any), w[1].([]any)
		if len(gi) != len(wi) {
			return false
		}
		for i := range gi {
			gp, wp := gi[i].([]any), wi[i].([]any)
			gkey, wkey := gp[0].([]any), wp[0].([]any)
			if len(wkey) != 2 || gkey[1] != wkey[1] || !sameCanon(gp[1], wp[1]) {
				return false
			}
		}
		return true
	case gk != wk || len(g) != len(w):
		return false
	}
	return len(g) == 1 || g[1] == w[1]
}

// sameFloat compares a YAML float text with Python's repr of a float.
func sameFloat(yaml, py string) bool {
	parse := func(s string) float64 {
		switch strings.ToLower(strings.TrimPrefix(s, "+")) {
		case ".inf", "inf":
			return math.Inf(1)
		case "-.inf", "-inf":
			return math.Inf(-1)
		case ".nan", "nan":
			return math.NaN()
		}
		f, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64)
		if err != nil {
			return math.NaN() - 1 // never equal
		}
		return f
	}
	a, b := parse(yaml), parse(py)
	if math.IsNaN(a) || math.IsNaN(b) {
		return strings.Contains(strings.ToLower(yaml), "nan") && py == "nan"
	}
	return a == b
}

// TestOverrideKeysAgreeWithHydra holds the override's key check to Hydra's parser:
// testdata/hydra-override-keys.jsonl has 700 overrides (keys of names, digits, dots, slashes,
// @, $, spaces, tabs and other characters, after +, ++, ~ or nothing, with and without "=")
// with Hydra 1.3.2's verdict on each (OverridesParser.parse_override), sampled from 60,000 on
// which the check agreed with Hydra on every one. An override Hydra refuses is refused here
// (rejected-at-startup); one Hydra reads is not (an empty key, which Hydra reads, is reported
// as not applied). testdata/hydra_oracle.py (keys) regenerates the verdicts.
func TestOverrideKeysAgreeWithHydra(t *testing.T) {
	b, err := os.ReadFile("testdata/hydra-override-keys.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	verdicts := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var row struct{ Override, Hydra string }
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatal(err)
		}
		if refused, pre := keyRefused(row.Override); refused != (row.Hydra == "refused") {
			t.Errorf("%q: Hydra says %s, refused here: %v (%v)", row.Override, row.Hydra, refused, pre)
		}
		verdicts[row.Hydra]++
	}
	// Rarer forms, each given to Hydra 1.3.2 too.
	for o, hydra := range map[string]string{"~a\t": "refused", "~ ": "refused", "~a ": "refused", "a=1\t": "ok",
		" a=1": "refused", "a =1": "refused", "a[0]=1": "refused", "=1": "ok", "a/b@c.d=1": "ok", "a/$b=1": "refused",
		"0.a=1": "ok", "00.a=1": "refused", "a.1__0=1": "refused"} {
		if refused, pre := keyRefused(o); refused != (hydra == "refused") {
			t.Errorf("%q: Hydra says %s, refused here: %v (%v)", o, hydra, refused, pre)
		}
	}
	if verdicts["ok"] < 300 || verdicts["refused"] < 300 {
		t.Errorf("too few cases of a kind: %v", verdicts)
	}
}

// keyRefused reads override o and reports whether the key check refused it (the parse's
// refusal, not one of the composition's), with the problems it made.
func keyRefused(o string) (bool, []Problem) {
	c := &composer{fsys: mapFS(map[string]string{"c/x.yaml": "a: 1\n"})}
	c.parseOverride(o)
	for _, p := range c.pre {
		if p.Kind == Refused && strings.Contains(p.Message, "a key Hydra can read") {
			return true, c.pre
		}
	}
	return false, c.pre
}
