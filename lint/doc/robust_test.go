package doc

import (
	"bytes"
	"math/rand"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Hostile and odd inputs: each must end quickly with a sensible problem or a clean result, and
// never panic. How long each takes is measured by BenchmarkHostile in package lint.

func parseChecked(t *testing.T, f Format, src []byte, lim Limits) *Document {
	t.Helper()
	d := parse(t, "x."+string(f), src, f, lim)
	if err := checkDoc(d); err != nil {
		t.Fatal(err)
	}
	return d
}

func wantOnly(t *testing.T, d *Document, kind ProblemKind, msg string) {
	t.Helper()
	if len(d.Problems) == 0 {
		t.Fatalf("no problem, want %s %q", kind, msg)
	}
	p := d.Problems[0]
	if p.Kind != kind || !regexpMatch(msg, p.Message) {
		t.Fatalf("got %s %q, want %s %q", p.Kind, p.Message, kind, msg)
	}
	if kind != DuplicateKey && d.Root != nil {
		t.Fatalf("%s must leave Root nil", kind)
	}
}

func TestRobustAliasBomb(t *testing.T) {
	var b strings.Builder
	b.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	for c := 'b'; c <= 'i'; c++ {
		p := string(c - 1)
		b.WriteString(string(c) + ": &" + string(c) + " [" + strings.Repeat("*"+p+",", 8) + "*" + p + "]\n")
	}
	d := parseChecked(t, YAML, []byte(b.String()), Limits{})
	wantOnly(t, d, LimitExceeded, `aliases are expanded more than 10000 times`)
	// With a huge alias budget the node budget still stops it.
	d = parseChecked(t, YAML, []byte(b.String()), Limits{MaxAliases: 1 << 30, MaxNodes: 100000})
	wantOnly(t, d, LimitExceeded, `aliases expand the document to more than 5342 nodes.*max_nodes`)
}

func TestRobustAliasCycle(t *testing.T) {
	for _, src := range []string{"a: &a [*a]\n", "a: &a {b: *a}\n", "a: &a\n  b: &b\n    c: *a\n"} {
		d := parseChecked(t, YAML, []byte(src), Limits{})
		wantOnly(t, d, Syntax, `inside its own anchor's value`)
	}
}

func TestRobustDeepNesting(t *testing.T) {
	const n = 100000
	cases := []struct {
		f   Format
		src string
		msg string
	}{
		{YAML, strings.Repeat("[", n) + strings.Repeat("]", n), "nesting is deeper"},
		{YAML, strings.Repeat("{a: ", n) + "1" + strings.Repeat("}", n), "nesting is deeper"},
		{YAML, strings.Repeat("- ", n) + "x\n", "deeper"},
		{JSON, strings.Repeat("[", n) + strings.Repeat("]", n), "nesting is deeper than 1000 levels"},
		{JSON, strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n), "nesting is deeper than 1000 levels"},
		{TOML, "a = " + strings.Repeat("[", n) + strings.Repeat("]", n), "nested deeper"},
		{TOML, "a = " + strings.Repeat("{b = ", n) + "1" + strings.Repeat("}", n), "nested deeper"},
		{TOML, strings.Repeat("a.", n) + "a = 1\n", "nesting is deeper than 1000 levels"},
	}
	for _, c := range cases {
		d := parseChecked(t, c.f, []byte(c.src), Limits{})
		wantOnly(t, d, LimitExceeded, c.msg)
	}
	// Within a raised limit, deep but finite nesting parses.
	d := parseChecked(t, JSON, []byte(strings.Repeat("[", 3000)+strings.Repeat("]", 3000)), Limits{MaxDepth: 5000})
	if len(d.Problems) != 0 || d.Root == nil {
		t.Fatalf("3000-deep JSON with MaxDepth 5000: %+v", d.Problems)
	}
}

// bigConfig returns about size bytes of a valid config in the format: many small tables.
func bigConfig(f Format, size int) []byte {
	var b bytes.Buffer
	i := 0
	switch f {
	case JSON:
		b.WriteString("{")
		for b.Len() < size {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n  \"layer_" + itoa(i) + "\": {\"lr\": 0.001, \"name\": \"block\", \"dims\": [1, 2, 3]}")
			i++
		}
		b.WriteString("\n}\n")
	case TOML:
		for b.Len() < size {
			b.WriteString("[layer_" + itoa(i) + "]\nlr = 0.001\nname = \"block\"\ndims = [1, 2, 3]\n")
			i++
		}
	default:
		for b.Len() < size {
			b.WriteString("layer_" + itoa(i) + ":\n  lr: 0.001\n  name: block\n  dims: [1, 2, 3]\n")
			i++
		}
	}
	return b.Bytes()
}

func TestRobustHugeFile(t *testing.T) {
	for _, f := range []Format{YAML, JSON, TOML} {
		src := bigConfig(f, 30<<20)
		d := parseChecked(t, f, src, Limits{})
		wantOnly(t, d, LimitExceeded, `file is 30 MiB, over the size limit of 10 MiB.*limits.max_bytes`)
		// Parsing the whole 30 MB with a raised limit takes seconds to tens of seconds on a
		// loaded machine (it is linear; see the report), so by default a file just over the
		// default limit shows that raising it works; TRAINLINT_BIG=1 parses the 30 MB.
		if os.Getenv("TRAINLINT_BIG") == "" {
			if f != JSON {
				continue
			}
			src = bigConfig(f, 11<<20)
		}
		d = parseChecked(t, f, src, Limits{MaxBytes: 64 << 20, MaxNodes: 1 << 30})
		if len(d.Problems) != 0 || d.Root == nil || len(d.Root.Children) < 100000 {
			t.Fatalf("%s %d bytes with raised limit: %+v", f, len(src), d.Problems)
		}
	}
}

func TestRobustLongLine(t *testing.T) {
	long := strings.Repeat("x", 20<<20)
	for _, c := range []struct {
		f   Format
		src string
	}{
		{YAML, "a: " + long + "\n"},
		{JSON, `{"a": "` + long + `"}`},
		{TOML, `a = "` + long + `"`},
	} {
		d := parseChecked(t, c.f, []byte(c.src), Limits{})
		wantOnly(t, d, LimitExceeded, "over the size limit")
		d = parseChecked(t, c.f, []byte(c.src), Limits{MaxBytes: 32 << 20})
		if len(d.Problems) != 0 || len(d.Root.Get("a").Value) != len(long) {
			t.Fatalf("%s long line: %+v", c.f, d.Problems)
		}
	}
}

func TestRobustBinary(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	garbage := make([]byte, 1<<16)
	r.Read(garbage)
	for _, f := range []Format{YAML, JSON, TOML} {
		d := parseChecked(t, f, garbage, Limits{})
		wantOnly(t, d, Syntax, `NUL byte|not UTF-8`)
		d = parseChecked(t, f, []byte("a: 1\x00\n"), Limits{})
		wantOnly(t, d, Syntax, `file contains a NUL byte at line 1 column 5`)
		d = parseChecked(t, f, []byte("a = \"\xc3\x28\"\n"), Limits{})
		wantOnly(t, d, Syntax, `file is not UTF-8 text: invalid byte 0xc3 at line 1 column 6`)
		d = parseChecked(t, f, []byte("<<<<<<< HEAD\na = 1\n=======\na = 2\n>>>>>>> other\n"), Limits{})
		wantOnly(t, d, Syntax, `unresolved git merge conflict`)
		// Printable garbage that is valid UTF-8 must not panic either.
		text := make([]byte, 4096)
		for i := range text {
			const cs = " \n\t:-[]{}\"',#&*!|>?%@`=.abc123"
			text[i] = cs[r.Intn(len(cs))]
		}
		parseChecked(t, f, text, Limits{})
	}
}

// A Git LFS pointer left where a config was (a checkout without LFS objects) is reported as
// one, in every format, rather than as its first word's syntax error; a config that merely
// mentions the spec is read as usual.
func TestLFSPointer(t *testing.T) {
	ptr := []byte("version https://git-lfs.github.com/spec/v1\noid sha256:5b38f65703ddd426111ba45e6f6b8b82ee2049c7e754e977a5c6269aa2d94ade\nsize 3968\n")
	for _, f := range []Format{YAML, JSON, TOML, Gin, Python} {
		d := parseChecked(t, f, ptr, Limits{})
		wantOnly(t, d, Syntax, `^this is a Git LFS pointer, not the file`)
		if d.Root != nil || d.Problems[0].Span.Start.Line != 1 || d.Problems[0].Span.End.Col != 43 {
			t.Errorf("%s: root %v, span %+v", f, d.Root, d.Problems[0].Span)
		}
	}
	if !IsLFSPointer(ptr) || IsLFSPointer([]byte("version https://git-lfs.github.com/spec/v1\nsize 3\n")) {
		t.Error("a pointer has a version line and an oid line")
	}
	d := parseChecked(t, YAML, []byte("version: https://git-lfs.github.com/spec/v1\noid: 1\n"), Limits{})
	if len(d.Problems) != 0 || d.Root.Get("oid") == nil {
		t.Errorf("a YAML map is no pointer: %+v", d.Problems)
	}
}

func TestRobustHugeNumbers(t *testing.T) {
	for _, c := range []struct {
		f   Format
		src string
	}{
		{YAML, "a: 1e400\nb: 99999999999999999999999\n"},
		{JSON, `{"a": 1e400, "b": 99999999999999999999999}`},
		{TOML, "a = 1e400\nb = 99999999999999999999999\n"},
	} {
		d := parseChecked(t, c.f, []byte(c.src), Limits{})
		if len(d.Problems) != 0 {
			t.Fatalf("%s: %+v", c.f, d.Problems)
		}
		if _, ok := d.Root.Get("b").Int(); ok {
			t.Errorf("%s: 99999999999999999999999 became an int64", c.f)
		}
		if v, ok := d.Root.Get("a").Int(); ok {
			t.Errorf("%s: 1e400 became int %d", c.f, v)
		}
	}
}

func TestRobustManyDuplicates(t *testing.T) {
	const n = 100000
	for _, f := range []Format{YAML, JSON, TOML} {
		var b strings.Builder
		switch f {
		case JSON:
			b.WriteString("{")
			for i := 0; i < n; i++ {
				if i > 0 {
					b.WriteString(",\n")
				}
				b.WriteString(`"k": 1`)
			}
			b.WriteString("}")
		case TOML:
			for i := 0; i < n; i++ {
				b.WriteString("k = 1\n")
			}
		default:
			for i := 0; i < n; i++ {
				b.WriteString("k: 1\n")
			}
		}
		d := parseChecked(t, f, []byte(b.String()), Limits{})
		if len(d.Problems) != maxDupProblems {
			t.Fatalf("%s: %d problems, want the cap %d", f, len(d.Problems), maxDupProblems)
		}
		wantOnly(t, d, DuplicateKey, `key "k" is repeated`)
		if last := d.Problems[len(d.Problems)-1].Message; !strings.Contains(last, "not reported") {
			t.Errorf("%s: last problem does not say the rest were dropped: %q", f, last)
		}
		if d.Root == nil {
			t.Fatalf("%s: duplicates must not drop the tree", f)
		}
	}
	// Many distinct keys in one mapping stay linear.
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString("k" + itoa(i) + ": 1\n")
	}
	d := parseChecked(t, YAML, []byte(b.String()), Limits{})
	if len(d.Problems) != 0 || len(d.Root.Children) != n {
		t.Fatalf("distinct keys: %d problems", len(d.Problems))
	}
}

// Memory of hostile inputs inside the default limits (issue 15). Each case is parsed once; the
// test measures what the parse allocates in total and what the finished Document keeps alive,
// and fails when either is out of proportion to the file's size. The bounds are loose on
// purpose (they catch a blow-up, several times the expected figure, not a few per cent); the
// figures themselves are logged (go test -v -run Memory) and recorded in the package doc.

// memCase is a hostile input with the memory it may take: perByte bytes per source byte plus a
// fixed allowance.
type memCase struct {
	name    string
	f       Format
	src     []byte
	perByte int
	want    string // rule of the first problem, "" for none
}

// memBranches is n branches of depth-deep brackets, [[[…]]], in a list (any format).
func memBranches(f Format, n, depth int) []byte {
	one := strings.Repeat("[", depth) + strings.Repeat("]", depth)
	body := "[" + strings.TrimSuffix(strings.Repeat(one+",", n), ",") + "]"
	if f == TOML {
		return []byte("a = " + body + "\n")
	}
	return []byte(body)
}

// memAnchor is a depth-deep anchored value aliased n times (a few KB of YAML).
func memAnchor(n, depth int) []byte {
	return []byte("a: &a " + strings.Repeat("[", depth) + strings.Repeat("]", depth) + "\nb: [" +
		strings.TrimSuffix(strings.Repeat("*a, ", n), ", ") + "]\n")
}

// memNumbers is a flat list of n one-digit numbers (2 bytes a node).
func memNumbers(f Format, n int) []byte {
	body := "[" + strings.TrimSuffix(strings.Repeat("1,", n), ",") + "]"
	if f == TOML {
		return []byte("a = " + body + "\n")
	}
	return []byte(body)
}

func memCases() []memCase {
	var cs []memCase
	for _, f := range []Format{YAML, JSON, TOML} {
		cs = append(cs, memCase{name: "200 branches 990 deep " + string(f), f: f, src: memBranches(f, 200, 990), perByte: 400})
	}
	cs = append(cs, memCase{name: "990-deep anchor aliased 200 times", f: YAML, src: memAnchor(200, 990), perByte: 400, want: "limit-exceeded"})
	cs = append(cs, memCase{name: "990-deep anchor aliased 40 times", f: YAML, src: memAnchor(40, 990), perByte: 400})
	for _, f := range []Format{YAML, JSON, TOML} {
		cs = append(cs, memCase{name: "two million numbers " + string(f), f: f, src: memNumbers(f, 1_999_000), perByte: 400})
	}
	return cs
}

// measure parses src and returns the bytes allocated during the parse, the bytes the Document
// keeps alive, and the time taken.
func measure(f Format, src []byte) (d *Document, alloc, live uint64, took time.Duration) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	start := time.Now()
	d = Parse("x."+string(f), src, f, Limits{})
	took = time.Since(start)
	runtime.ReadMemStats(&after)
	alloc = after.TotalAlloc - before.TotalAlloc
	runtime.GC()
	runtime.ReadMemStats(&after)
	live = after.HeapAlloc - min(after.HeapAlloc, before.HeapAlloc)
	runtime.KeepAlive(d)
	return d, alloc, live, took
}

func TestRobustMemoryBounded(t *testing.T) {
	for _, c := range memCases() {
		t.Run(c.name, func(t *testing.T) {
			d, alloc, live, took := measure(c.f, c.src)
			t.Logf("%s: %d bytes, allocated %.1f MB, kept %.1f MB, %v", c.name, len(c.src), float64(alloc)/1e6, float64(live)/1e6, took.Round(time.Millisecond))
			got := ""
			if len(d.Problems) > 0 {
				got = d.Problems[0].Kind.String()
			}
			if got != c.want {
				t.Errorf("first problem %q, want %q (%+v)", got, c.want, d.Problems)
			}
			const fixed = 32 << 20 // the alias allowance: 100,000 nodes
			if bound := uint64(c.perByte*len(c.src) + fixed); alloc > bound {
				t.Errorf("allocated %d bytes for %d bytes of input, over %d", alloc, len(c.src), bound)
			}
		})
	}
}

// TestConflictMarkersStart checks that a merge-conflict marker counts only at the start of a
// line, as the search for "\n<<<<<<< " it replaced did: random texts of markers, line breaks
// and the other markers' bytes give the same answer and offset as that search.
func TestConflictMarkersStart(t *testing.T) {
	ref := func(src []byte) int {
		if bytes.HasPrefix(src, []byte("<<<<<<< ")) {
			if bytes.Contains(src, []byte("\n=======")) && bytes.Contains(src, []byte("\n>>>>>>> ")) {
				return 0
			}
			return -1
		}
		i := bytes.Index(src, []byte("\n<<<<<<< "))
		if i < 0 {
			return -1
		}
		rest := src[i+1:]
		if !bytes.Contains(rest, []byte("\n=======")) || !bytes.Contains(rest, []byte("\n>>>>>>> ")) {
			return -1
		}
		return i + 1
	}
	parts := []string{"<<<<<<< ", "<<<<<<<", "<", " ", "\n", "a", "\n=======", "\n>>>>>>> ", "x <<<<<<< y"}
	r := rand.New(rand.NewSource(3))
	cases := []string{
		"a: \"x <<<<<<< y\"\n<<<<<<< HEAD\na: 1\n=======\na: 2\n>>>>>>> b\n",
		"a: \"x <<<<<<< y\"\n=======\n>>>>>>> b\n",
		"<<<<<<< HEAD\n=======\n>>>>>>> b\n",
		"<<<<<<<< HEAD\n=======\n>>>>>>> b\n",
	}
	for i := 0; i < 8000; i++ {
		var b strings.Builder
		for n := r.Intn(12); n > 0; n-- {
			b.WriteString(parts[r.Intn(len(parts))])
		}
		cases = append(cases, b.String())
	}
	found := 0
	for _, c := range cases {
		d := &Document{Src: []byte(c)}
		got, want := -1, ref(d.Src)
		if conflictMarkers(d) {
			got = d.Problems[0].Span.Start.Offset
			found++
		}
		if got != want {
			t.Errorf("%q: marker at %d, want %d", c, got, want)
		}
	}
	if found < 100 {
		t.Errorf("only %d of the texts have a marker: the test tries too few", found)
	}
}
