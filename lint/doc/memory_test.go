package doc

import (
	"runtime"
	"strings"
	"testing"
	"time"
)

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
	cs = append(cs, memCase{name: "990-deep anchor aliased 200 times", f: YAML, src: memAnchor(200, 990), perByte: 400, want: "input-limit-exceeded"})
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
				got = d.Problems[0].Rule
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
