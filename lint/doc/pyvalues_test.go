package doc

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/corpustest"
)

// TestYAMLValuesAgreeWithPyYAML: the reader's tree holds what PyYAML's safe_load_all builds from
// the same file (the structure, every key, every string, the numbers, booleans and nulls), for
// the corpus's YAML and mutants of it that both read, so a finding about a value is about the
// value the framework gets. Three differences are by design and allowed:
//   - a number OmegaConf's float pattern takes and PyYAML's does not (an exponent without a dot
//     or a sign: "1e-4", "1.0e5") is a float to the reader, as OmegaConf, jsonargparse and
//     pydantic read it, and a string to PyYAML alone;
//   - YAML 1.1's base-60 numbers ("1:20", as values or keys) are strings to the reader, so no
//     rule reads a number from them;
//   - so are dates, as OmegaConf and jsonargparse read them (both drop PyYAML's timestamp
//     resolver).
//
// A key PyYAML builds as a number or null is compared by value only, and an empty stream is one
// empty document to the reader.
func TestYAMLValuesAgreeWithPyYAML(t *testing.T) {
	pieces := []string{"[", "]", "{", "}", ",", ":", ": ", "- ", "-", "'", "\"", "\n", "  ", " ", "#", " #",
		"\\", "&a ", "*a", "<<: *a\n", "? ", "|\n", ">\n", "|-\n", "|+\n", ">-\n", "yes", "no", "on", "off",
		"1e-4", "0x1F", "0o7", "010", "1_000", "1:20", "~", "null", "\u00e9", ".inf", "-.inf", ".nan", "2001-12-14",
		"\"\\x41\"", "\"\\e\"", "\"\\t\"", "\"\\/\"", "'it''s'", "key: value\n", "\"a\\\n  b\"", "- item\n", "  - x\n",
		"x: |\n  a\n", "{a: 1}", "[1, 2]", "[a:]", "{a:b}", "1.0", "+1", "-0", "0.", ".5", "1e3", "True", "FALSE",
		"Null", "NULL", "!!str ", "!!int ", "!!float ", "\u00a0", "\t"}
	valuesAgree(t, YAML, ".yaml", pieces, 41, 1500, "yaml", "list(yaml.safe_load_all(src))")
}

// TestJSONValuesAgreeWithPython does the same for JSON with Python's json module, which reads a
// DeepSpeed config for transformers and accelerate (a repeated key keeps its last value).
func TestJSONValuesAgreeWithPython(t *testing.T) {
	pieces := []string{"[", "]", "{", "}", ",", ":", "\"", " ", "\\", "0", "-0", "1e5", "1E-5", "1.5", "-1",
		"1e400", "-1e400", "123456789012345678901234567890", "0.1e1", "true", "false", "null", "NaN", "Infinity",
		"-Infinity", "\"\\u00e9\"", "\"\\n\"", "\"\\/\"", "\"a\": 1, ", "\"a\":", "é", "\"\\ud83d\\ude00\""}
	valuesAgree(t, JSON, ".json", pieces, 43, 1500, "json", `[json.loads(src.decode("utf-8"))]`)
}

// TestTOMLValuesAgreeWithTomllib does the same for TOML with tomllib, torchtitan's loader (a date
// or time is compared by type only).
func TestTOMLValuesAgreeWithTomllib(t *testing.T) {
	pieces := []string{"[", "]", "[[", "]]", "{", "}", ",", "=", "'", "\"", "\"\"\"", "'''", "\n", " ", "#",
		"\\", ".", "a.b", "\"k\"", "1_000", "0x1F", "0o7", "0b1", "1e-3", "1.5", "+1", "-0", "-0.0", "inf",
		"nan", "+inf", "-inf", "true", "false", "1979-05-27", "1979-05-27T07:32:00Z", "07:32:00", "\\u00e9",
		"\\t", "é", "x = 1\n", "[t]\n", "[[a]]\n", "a = {b = 1}\n", "9223372036854775807", "1e400"}
	valuesAgree(t, TOML, ".toml", pieces, 47, 1500, "tomllib", `[tomllib.loads(src.decode("utf-8"))]`)
}

// valuesAgree writes the corpus's files of format f and n mutants of them (mutate with pieces,
// seeded by seed) to a folder, and compares the values of every file both read: the reader's
// tree against what a python3 that can import module builds with load (a list of documents
// from the file's bytes, src).
func valuesAgree(t *testing.T, f Format, ext string, pieces []string, seed int64, n int, module, load string) {
	t.Helper()
	py := corpustest.Python(t, module)
	files := corpusBytes(t, f)
	dir := t.TempDir()
	r := rand.New(rand.NewSource(seed))
	var ours []string
	for i := 0; i < len(files)+n; i++ {
		src := files[i%len(files)]
		if i >= len(files) {
			src = mutate(r, files[r.Intn(len(files))], pieces, 3, 8)
		}
		d := Parse("m"+ext, src, f, Limits{})
		tree := "refused"
		if !hasProblem(d, Syntax, LimitExceeded) {
			var docs []any
			for _, root := range append([]*Node{d.Root}, d.More...) {
				docs = append(docs, valueTree(root))
			}
			b, _ := json.Marshal(docs)
			tree = string(b)
		}
		ours = append(ours, tree)
		if err := os.WriteFile(filepath.Join(dir, strconv.Itoa(i)+ext), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script := "import sys, json, " + module + "\n" + pyValueTree + `
d, n = sys.argv[1], int(sys.argv[2])
for i in range(n):
    with open(f"{d}/{i}` + ext + `", "rb") as f:
        src = f.read()
    try:
        print(json.dumps([tree(x) for x in ` + load + `]))
    except Exception as e:
        print("refused")
`
	theirs := corpustest.RunPython(t, py, script, "", len(ours), dir, strconv.Itoa(len(ours)))
	compared, bad := 0, 0
	for i := range ours {
		if ours[i] == "refused" || theirs[i] == "refused" {
			continue // whether each reads the file: the oracleAgrees tests
		}
		var a, b []any
		json.Unmarshal([]byte(ours[i]), &a)
		json.Unmarshal([]byte(theirs[i]), &b)
		if len(b) == 0 && len(a) == 1 && a[0] == nil {
			continue
		}
		compared++
		var diffs []string
		sameValues("", a, b, &diffs)
		if len(diffs) > 0 {
			if bad++; bad <= 10 {
				t.Errorf("file %d (%d a mutant): %s", i, i-len(files), strings.Join(diffs[:min(3, len(diffs))], "; "))
			}
		}
	}
	t.Logf("%d files read by both, %d with different values", compared, bad)
	if compared < n/4 {
		t.Errorf("only %d files compared", compared)
	}
}

// pyValueTree is the Python function tree(x), which writes a loaded value as valueTree writes
// the reader's (through JSON): maps, sequences (a tuple, a range and a dict view too) and typed
// scalars, any other value as its type's name and text.
const pyValueTree = `def tree(x):
    if isinstance(x, dict):
        return {"m": [[k if isinstance(k, str) else repr(k), tree(v)] for k, v in x.items()]}
    if isinstance(x, (list, tuple, range, type({}.keys()), type({}.values()), type({}.items()))):
        return {"s": [tree(v) for v in x]}
    if isinstance(x, bool):
        return ["bool", "true" if x else "false"]
    if isinstance(x, (int, float)):
        return [type(x).__name__, repr(x)]
    if x is None:
        return ["null", ""]
    return ["string" if isinstance(x, str) else type(x).__name__, str(x)]
`

// valueTree is a node's value as TestYAMLValuesAgreeWithPyYAML compares it: a map's entries with
// a repeated key's last value at its first place (as a Python dict keeps it), a list's items, a
// scalar's type and text.
func valueTree(n *Node) any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case Map:
		out := [][2]any{}
		at := map[string]int{}
		for _, c := range n.Children {
			if i, ok := at[c.Key]; ok {
				out[i][1] = valueTree(c)
				continue
			}
			at[c.Key] = len(out)
			out = append(out, [2]any{c.Key, valueTree(c)})
		}
		return map[string]any{"m": out}
	case Seq:
		out := []any{}
		for _, c := range n.Children {
			out = append(out, valueTree(c))
		}
		return map[string]any{"s": out}
	}
	return []string{n.Type.String(), n.Value}
}

var base60 = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$`)

// sameValues appends to diffs where ours (valueTree's, through JSON) and theirs (PyYAML's)
// differ, allowing what TestYAMLValuesAgreeWithPyYAML allows.
func sameValues(path string, ours, theirs any, diffs *[]string) {
	switch o := ours.(type) {
	case []any:
		if th, ok := theirs.([]any); ok && len(o) == 2 && len(th) == 2 {
			if _, scalar := o[0].(string); scalar {
				if msg := sameScalar(o[0].(string), o[1].(string), th[0].(string), th[1].(string)); msg != "" {
					*diffs = append(*diffs, path+": "+msg)
				}
				return
			}
		}
		th, ok := theirs.([]any)
		if !ok || len(th) != len(o) {
			*diffs = append(*diffs, fmt.Sprintf("%s: %d documents or a different shape", path, len(o)))
			return
		}
		for i := range o {
			sameValues(fmt.Sprintf("%sdoc%d", path, i), o[i], th[i], diffs)
		}
	case map[string]any:
		tm, ok := theirs.(map[string]any)
		switch {
		case !ok:
			*diffs = append(*diffs, fmt.Sprintf("%s: a collection, PyYAML has %v", path, theirs))
		case o["m"] != nil && tm["m"] != nil:
			om, thm := o["m"].([]any), tm["m"].([]any)
			byKey := map[string]any{}
			for _, e := range thm {
				byKey[e.([]any)[0].(string)] = e.([]any)[1]
			}
			if len(om) != len(thm) {
				*diffs = append(*diffs, fmt.Sprintf("%s: %d keys, PyYAML %d", path, len(om), len(thm)))
				return
			}
			for _, e := range om {
				k := e.([]any)[0].(string)
				v, ok := byKey[k]
				if !ok {
					v, ok = byKey[pyKeyRepr(k)]
				}
				if !ok && base60.MatchString(k) {
					continue
				}
				if !ok {
					*diffs = append(*diffs, fmt.Sprintf("%s: key %q not in PyYAML's", path, k))
					continue
				}
				sameValues(path+"."+k, e.([]any)[1], v, diffs)
			}
		case o["s"] != nil && tm["s"] != nil:
			os, ts := o["s"].([]any), tm["s"].([]any)
			if len(os) != len(ts) {
				*diffs = append(*diffs, fmt.Sprintf("%s: %d items, PyYAML %d", path, len(os), len(ts)))
				return
			}
			for i := range os {
				sameValues(fmt.Sprintf("%s[%d]", path, i), os[i], ts[i], diffs)
			}
		default:
			*diffs = append(*diffs, fmt.Sprintf("%s: a different collection", path))
		}
	case nil:
		if th, ok := theirs.([]any); theirs != nil && !(ok && len(th) == 2 && th[0] == "null") {
			*diffs = append(*diffs, fmt.Sprintf("%s: empty, PyYAML %v", path, theirs))
		}
	}
}

// pyKeyRepr is how PyYAML's tree names a key it built as a number, a boolean or null.
func pyKeyRepr(k string) string {
	switch strings.ToLower(k) {
	case "", "~", "null":
		return "None"
	case "true", "yes", "on":
		return "True"
	case "false", "no", "off":
		return "False"
	}
	if i, err := strconv.ParseInt(strings.ReplaceAll(k, "_", ""), 0, 64); err == nil {
		return strconv.FormatInt(i, 10)
	}
	if f, err := strconv.ParseFloat(k, 64); err == nil && !math.IsInf(f, 0) {
		return strconv.FormatFloat(f, 'g', -1, 64)
	}
	return k
}

// sameScalar compares a scalar of the reader's (type and text) with PyYAML's (Python type and
// repr or text); "" when they agree.
func sameScalar(ot, ov, tt, tv string) string {
	differ := fmt.Sprintf("%s %q, PyYAML %s %q", ot, ov, tt, tv)
	switch {
	case ot == "float" && tt == "string" && omegaFloat.MatchString(ov) && ov == tv,
		ot == "string" && (tt == "int" || tt == "float") && base60.MatchString(ov),
		ot == "string" && (tt == "date" || tt == "datetime"):
		return "" // by design (the test's comment)
	case tt == "string" && (ot == "string" || ot == "unknown"):
		if ov != tv {
			return differ
		}
	case tt == "null":
		if ot != "null" {
			return differ
		}
	case tt == "bool" && ot == "bool":
		if (strings.ToLower(ov) == "true" || strings.ToLower(ov) == "yes" || strings.ToLower(ov) == "on") != (tv == "true") {
			return differ
		}
	case tt == "int" && ot == "int":
		i, ok := new(big.Int).SetString(ov, 0)
		if !ok || i.String() != tv {
			return differ
		}
	case tt == "float" && (ot == "float" || ot == "int"):
		x, err1 := strconv.ParseFloat(strings.ReplaceAll(strings.ToLower(strings.TrimLeft(ov, "+")), ".inf", "inf"), 64)
		if errors.Is(err1, strconv.ErrRange) {
			err1 = nil // past float64: ±Inf to both (Node.Float then reads no number: silent)
		}
		y, err2 := strconv.ParseFloat(strings.TrimSuffix(tv, "."), 64)
		if err1 != nil || err2 != nil || x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
			return differ
		}
	default:
		return differ
	}
	return ""
}

// hasProblem reports whether d has a problem of one of the kinds.
func hasProblem(d *Document, kinds ...ProblemKind) bool {
	for _, p := range d.Problems {
		for _, k := range kinds {
			if p.Kind == k {
				return true
			}
		}
	}
	return false
}

// TestExponentUnderscoreIsText: "1.0e_8" (a gpt-neox config's eps) is a string to PyYAML and
// OmegaConf, so it is a string in the tree and no number is read from it, written plain or
// quoted; yaml.v3 alone reads 1e8. An explicit !!float tag converts it as PyYAML does.
func TestExponentUnderscoreIsText(t *testing.T) {
	for _, noDirect := range []bool{false, true} {
		d := ParseWith("x.yaml", []byte("a: 1.0e_8\nb: \"1.0e_8\"\nc: 1_000.5\nd: !!float 1.0e_8\n"), YAML, Options{NoDirectYAML: noDirect})
		for _, k := range []string{"a", "b"} {
			n := d.Root.Get(k)
			if v, ok := n.Float(); n.Type != String || ok {
				t.Errorf("noDirect %v: %s is %v, Float %v %v; want a string and no number", noDirect, k, n.Type, v, ok)
			}
		}
		if v, ok := d.Root.Get("c").Float(); !ok || v != 1000.5 {
			t.Errorf("noDirect %v: c = %v %v", noDirect, v, ok)
		}
		if n := d.Root.Get("d"); n.Type != Float {
			t.Errorf("noDirect %v: the tagged d is %v", noDirect, n.Type)
		}
	}
}
