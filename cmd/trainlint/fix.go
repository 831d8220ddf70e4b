package main

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/trainlint/trainlint/lint"
)

// fixSummary counts what --fix or --diff did.
type fixSummary struct {
	Fixes, Files int
}

// runFixes is the fixing step of check (--fix, --diff). Each file is fixed in memory by
// lint.FixFile (fix, re-lint, repeat); a file that is the primary of a composed run (runs.go)
// is then fixed in its run by lint.FixRun, which applies the fixes of the run's findings on
// values the file writes itself, kept when no other run reads the file (readAlone). --diff prints a unified diff of the result and writes
// nothing, --fix replaces the file atomically (safewrite.go says when it refuses to). Standard input cannot be written back, so --fix
// refuses it (--diff shows its diff). Errors (unwritable file, a fix that breaks parsing) are
// returned per file and the other files are still fixed.
func runFixes(c *checkConfig, ins []input, stdin io.Reader, rules []*lint.Rule, runs *runPlan, full optionsFunc, stdout io.Writer) (fixSummary, []error) {
	var sum fixSummary
	var errs []error
	opts := runs.options(rules, full)
	if c.Fix && !c.Diff {
		defer cleanupOnInterrupt()()
	}
	for _, in := range ins {
		var text []byte
		var size int64
		var err error
		if in.Stdin {
			if !c.Diff {
				errs = append(errs, fmt.Errorf("--fix cannot write standard input back; use --diff to see the fixes"))
				continue
			}
			if stdin == nil {
				errs = append(errs, fmt.Errorf("cannot read standard input: no standard input"))
				continue
			}
			text, size, err = readLimited(stdin, -1, maxBytes(opts(in)))
		} else {
			text, size, err = readInput(in.FSPath, opts(in))
		}
		if err != nil {
			errs = append(errs, readError(in.Path, err))
			continue
		}
		if size > int64(len(text)) {
			continue // over the size limit: the lint that follows reports it
		}
		if notAConfig(in, text, opts(in)) {
			continue // skipped by the lint too: a fix there would change a file no report shows
		}
		out, err := lint.FixFile(lint.File{Path: in.Path, Text: text}, rules, opts(in), c.UnsafeFixes)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		t, specs := runs.primaryOf(in)
		for _, s := range specs {
			ro, err := lint.FixRun(t.fsys, s, out.Text, rules, full(in), c.UnsafeFixes)
			if err != nil {
				out.Applied = 0 // the file is left as it is, as the error says
				errs = append(errs, errors.New(t.prefix+err.Error()))
				break
			}
			if ro.Applied > 0 && !t.readAlone(s.Primary, full) {
				break // other runs read the primary: an edit for this one would change theirs
			}
			out.Text, out.Applied = ro.Text, out.Applied+ro.Applied
		}
		if !out.Changed() || string(out.Text) == string(text) {
			continue
		}
		sum.Fixes += out.Applied
		sum.Files++
		if c.Diff {
			io.WriteString(stdout, unifiedDiff(in.Path, string(text), string(out.Text)))
			continue
		}
		if err := writeFix(in.FSPath, in.Root, text, out.Text); err != nil {
			errs = append(errs, fmt.Errorf("cannot write the fixes to %q: %v", in.Path, err))
			sum.Fixes -= out.Applied
			sum.Files--
		} else {
			runs.forget() // the runs read the fixed text from now on
		}
	}
	return sum, errs
}

// unifiedDiff renders a unified diff (3 lines of context) of a file before and after fixing, in
// the form patch and git apply read. Lines keep their own endings, so a CRLF file's diff shows
// (and applies) CRLF lines.
func unifiedDiff(path, a, b string) string {
	x, y := splitLines(a), splitLines(b)
	ops := diffLines(x, y)
	const ctx = 3
	var sb strings.Builder
	// Relative paths get git's a/ and b/ prefixes (patch -p1); absolute ones are printed as they
	// are, since "a//tmp/x" would name a different file (patch -p0).
	if p := filepath.ToSlash(path); filepath.IsAbs(path) {
		fmt.Fprintf(&sb, "--- %s\n+++ %s\n", p, p)
	} else {
		fmt.Fprintf(&sb, "--- a/%s\n+++ b/%s\n", p, p)
	}
	// Group changes into hunks separated by more than 2*ctx unchanged lines.
	i := 0
	for i < len(ops) {
		if ops[i].kind == ' ' {
			i++
			continue
		}
		start := max(i-ctx, 0)
		end := i
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*ctx {
				end = min(end+ctx, len(ops))
				break
			}
			end = run
		}
		h := ops[start:end]
		aStart, bStart := h[0].ai, h[0].bi
		var aLen, bLen int
		for _, op := range h {
			if op.kind != '+' {
				aLen++
			}
			if op.kind != '-' {
				bLen++
			}
		}
		fmt.Fprintf(&sb, "@@ -%s +%s @@\n", hunkRange(aStart, aLen), hunkRange(bStart, bLen))
		for _, op := range h {
			sb.WriteByte(op.kind)
			sb.WriteString(op.text)
			if !strings.HasSuffix(op.text, "\n") {
				sb.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = end
	}
	return sb.String()
}

func hunkRange(start, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", start)
	}
	if n == 1 {
		return fmt.Sprintf("%d", start+1)
	}
	return fmt.Sprintf("%d,%d", start+1, n)
}

// splitLines splits after each "\n", keeping the endings.
func splitLines(s string) []string {
	var out []string
	for len(s) > 0 {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			out = append(out, s)
			break
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// diffOp is one line of an edit script: ' ' kept, '-' removed, '+' added; ai and bi are the line
// indexes (0-based) in the old and new text where the op sits.
type diffOp struct {
	kind   byte
	text   string
	ai, bi int
}

// diffLines is Myers' O((N+M)·D) shortest edit script. Fixes change few lines, so D is small and
// large files stay cheap; the common prefix and suffix are trimmed first.
func diffLines(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	for i := 0; i < pre; i++ {
		ops = append(ops, diffOp{' ', a[i], i, i})
	}
	ops = append(ops, myers(a[pre:len(a)-suf], b[pre:len(b)-suf], pre, pre)...)
	for k := 0; k < suf; k++ {
		i, j := len(a)-suf+k, len(b)-suf+k
		ops = append(ops, diffOp{' ', a[i], i, j})
	}
	return ops
}

func myers(a, b []string, aOff, bOff int) []diffOp {
	n, m := len(a), len(b)
	maxD := n + m
	off := maxD + 1
	v := make([]int, 2*maxD+3)
	var trace [][]int
	d := 0
search:
	for ; d <= maxD; d++ {
		snap := make([]int, len(v))
		copy(snap, v)
		trace = append(trace, snap)
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || (k != d && v[off+k-1] < v[off+k+1]) {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x++
				y++
			}
			v[off+k] = x
			if x >= n && y >= m {
				break search
			}
		}
	}
	// Backtrack from (n, m) through the saved frontiers.
	var rev []diffOp
	x, y := n, m
	for ; d > 0; d-- {
		vp := trace[d]
		k := x - y
		var pk int
		if k == -d || (k != d && vp[off+k-1] < vp[off+k+1]) {
			pk = k + 1
		} else {
			pk = k - 1
		}
		px := vp[off+pk]
		py := px - pk
		for x > px && y > py {
			x--
			y--
			rev = append(rev, diffOp{' ', a[x], aOff + x, bOff + y})
		}
		if x == px {
			y--
			rev = append(rev, diffOp{'+', b[y], aOff + x, bOff + y})
		} else {
			x--
			rev = append(rev, diffOp{'-', a[x], aOff + x, bOff + y})
		}
	}
	for x > 0 && y > 0 {
		x--
		y--
		rev = append(rev, diffOp{' ', a[x], aOff + x, bOff + y})
	}
	ops := make([]diffOp, len(rev))
	for i, op := range rev {
		ops[len(rev)-1-i] = op
	}
	return ops
}
