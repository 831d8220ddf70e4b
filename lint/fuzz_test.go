package lint_test

import (
	"bytes"
	"encoding/json"
	"runtime/metrics"
	"slices"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/rules"
)

// Fuzz targets of the whole engine. The parsers, the dialect readers, the suppression comments
// and the config loader have their own targets next to their code; these feed any bytes through
// everything at once (FuzzLint) and through the fix loop (FuzzFix). Seeds: the rule examples
// (they trigger every rule and every fix) and testdata/fuzz/<target>/ (committed, replayed by
// plain go test). `make fuzz` runs them for FUZZTIME each.

var fuzzFormats = []doc.Format{doc.YAML, doc.JSON, doc.TOML, doc.Gin, doc.Python}

// fuzzInput picks the framework ("" = detect) and format from two fuzzed bytes.
func fuzzInput(fw, format uint8) (string, doc.Format) {
	names := append([]string{""}, dialectNames()...)
	return names[int(fw)%len(names)], fuzzFormats[int(format)%len(fuzzFormats)]
}

// addExampleSeeds adds every rule example as a seed, with its own framework and format.
func addExampleSeeds(f *testing.F, add func(text []byte, fw, format uint8)) {
	names := append([]string{""}, dialectNames()...)
	for _, rule := range rules.ArchiveNames() {
		for _, e := range rules.Examples(rule) {
			fw := slices.Index(names, e.Framework)
			if fw < 0 {
				fw = 0
			}
			add([]byte(e.Text), uint8(fw), uint8(slices.Index(fuzzFormats, e.Format)))
		}
	}
}

// checkDiagnostics verifies what every diagnostic must hold whatever the input: no internal
// error, positions inside the text and consistent with the byte offsets, fix edits inside the
// text and at the positions they claim.
func checkDiagnostics(t *testing.T, src []byte, diags []lint.Diagnostic) {
	t.Helper()
	x := doc.NewLineIndex(src)
	for _, d := range diags {
		if d.Code == lint.InternalError.Code {
			t.Fatalf("internal error: %s", d.Message)
		}
		s := d.Span
		if s.Start.Offset < 0 || s.End.Offset > len(src) || s.Start.Offset > s.End.Offset {
			t.Fatalf("%s: span %d-%d outside the %d-byte text", d.Rule, s.Start.Offset, s.End.Offset, len(src))
		}
		if p := x.Pos(s.Start.Offset); p.Line != d.Line || p.Col != d.Column {
			t.Fatalf("%s: reported at %d:%d, its offset %d is at %d:%d", d.Rule, d.Line, d.Column, s.Start.Offset, p.Line, p.Col)
		}
		if d.Message == "" || d.Code == "" || d.Rule == "" {
			t.Fatalf("diagnostic without code, rule or message: %+v", d)
		}
		if d.Fix == nil {
			continue
		}
		for _, e := range d.Fix.Edits {
			if e.Start < 0 || e.End > len(src) || e.Start > e.End {
				t.Fatalf("%s: fix edit %d-%d outside the %d-byte text", d.Rule, e.Start, e.End, len(src))
			}
			if p := x.Pos(e.Start); p.Line != e.Line || p.Col != e.Column {
				t.Fatalf("%s: fix edit at %d:%d, its offset %d is at %d:%d", d.Rule, e.Line, e.Column, e.Start, p.Line, p.Col)
			}
		}
	}
}

// heapAllocs is the number of bytes allocated since the program started.
func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// lintBudget is what linting src may allocate: a fixed part that holds the YAML alias allowance
// of the default limits (100,000 nodes, about 25 MB once the dialects and rules have walked
// them) and 2,000 bytes per byte of input. A blow-up like issue 15's (nodes that each held a
// copy of their key path: 8,700 bytes a byte for deep brackets, far more for aliases of a deep
// anchor) fails the fuzzer instead of passing it.
func lintBudget(src []byte) uint64 { return 64<<20 + 2000*uint64(len(src)) }

// FuzzLint: any bytes, read as any format with any dialect forced (or detected), end in
// diagnostics that hold the invariants above, the same on a second run, and render as JSON.
func FuzzLint(f *testing.F) {
	addExampleSeeds(f, func(text []byte, fw, format uint8) { f.Add(text, fw, format) })
	rs := rules.All()
	f.Fuzz(func(t *testing.T, src []byte, fwByte, formatByte uint8) {
		fw, format := fuzzInput(fwByte, formatByte)
		in := lint.File{Path: "fuzz." + string(format), Text: src, Format: format}
		o := lint.Options{Framework: fw, Hosts: int(fwByte % 4), DevicesPerHost: int(formatByte % 9)}
		before := heapAllocs()
		info, diags := lint.LintFile(in, rs, o)
		if got := heapAllocs() - before; got > lintBudget(src) {
			t.Fatalf("linting %d bytes allocated %d bytes, over the budget of %d\nsrc: %q", len(src), got, lintBudget(src), src)
		}
		if fw != "" && info.Framework != fw {
			t.Fatalf("framework %q, want the forced %q", info.Framework, fw)
		}
		if info.Format != string(format) {
			t.Fatalf("format %q, want %q", info.Format, format)
		}
		checkDiagnostics(t, src, diags)
		_, again := lint.LintFile(in, rs, o)
		a, _ := json.Marshal(diags)
		b, err := json.Marshal(again)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Fatalf("two runs differ:\n%s\n%s", a, b)
		}
	})
}

// FuzzFix: applying the fixes of any input changes only the edited spans (the rest of the text
// is kept byte for byte, in order), and a text that parsed before still parses after, through
// one round of ApplyFixes and through the FixFile loop the CLI's --fix uses.
func FuzzFix(f *testing.F) {
	addExampleSeeds(f, func(text []byte, fw, format uint8) {
		f.Add(text, fw, format, false)
		f.Add(text, fw, format, true)
	})
	rs := rules.All()
	f.Fuzz(func(t *testing.T, src []byte, fwByte, formatByte uint8, unsafe bool) {
		fw, format := fuzzInput(fwByte, formatByte)
		in := lint.File{Path: "fuzz." + string(format), Text: src, Format: format}
		o := lint.Options{Framework: fw}
		_, diags := lint.LintFile(in, rs, o)
		out, n := lint.ApplyFixes(src, in.Path, diags, unsafe)
		want, wantN := applyOracle(src, in.Path, diags, unsafe)
		if n != wantN || !bytes.Equal(out, want) {
			t.Fatalf("ApplyFixes applied %d fixes giving\n%q\nwant %d giving\n%q", n, out, wantN, want)
		}
		if n == 0 {
			if !bytes.Equal(out, src) {
				t.Fatalf("no fix applied but the text changed")
			}
			return
		}
		before := doc.Parse(in.Path, src, format, doc.Limits{})
		after := doc.Parse(in.Path, out, format, doc.Limits{})
		if parsesClean(before) && !parsesClean(after) {
			t.Fatalf("the fixed text no longer parses: %v\nbefore:\n%s\nafter:\n%s", after.Problems, src, out)
		}
		res, err := lint.FixFile(in, rs, o, unsafe)
		if err != nil {
			t.Fatalf("FixFile: %v", err)
		}
		checkDiagnostics(t, res.Text, res.Diagnostics)
	})
}

func parsesClean(d *doc.Document) bool {
	return d.Root != nil && !d.HasSyntaxError()
}

// applyOracle is ApplyFixes' documented contract written the simplest way, to check it against:
// fixes are taken in diagnostic order, all or nothing; a fix whose edit overlaps (or starts at
// the same offset as) an edit already taken is skipped; every byte outside the taken edits is
// kept. The output is built by marking bytes, not by splicing, so it shares no code with it.
func applyOracle(src []byte, path string, diags []lint.Diagnostic, unsafe bool) ([]byte, int) {
	replaced := make([]bool, len(src))
	insertAt := map[int][]byte{} // new text written before byte i (i may be len(src))
	var taken [][2]int
	n := 0
	for _, d := range diags {
		fx := d.Fix
		if fx == nil || len(fx.Edits) == 0 || (fx.Applicability != lint.Safe && !unsafe) {
			continue
		}
		ok := true
		var mine [][2]int
		for _, e := range fx.Edits {
			if e.File != path || e.Start < 0 || e.End < e.Start || e.End > len(src) {
				ok = false
				break
			}
			for _, s := range append(slices.Clone(taken), mine...) {
				if e.Start < s[1] && s[0] < e.End || e.Start == s[0] {
					ok = false
				}
			}
			mine = append(mine, [2]int{e.Start, e.End})
		}
		if !ok {
			continue
		}
		for _, e := range fx.Edits {
			for i := e.Start; i < e.End; i++ {
				replaced[i] = true
			}
			insertAt[e.Start] = append(insertAt[e.Start], e.NewText...)
		}
		taken = append(taken, mine...)
		n++
	}
	if n == 0 {
		return src, 0
	}
	var out []byte
	for i := 0; i <= len(src); i++ {
		out = append(out, insertAt[i]...)
		if i < len(src) && !replaced[i] {
			out = append(out, src[i])
		}
	}
	return out, n
}

// FuzzFixRuns feeds any primary through the fixes of composed runs (FixFiles, the browser's
// fix all; FixRun underneath the CLI's): an MMEngine run over a fixed base, or a Hydra primary
// over a fixed group file. The base and group files are never changed, a primary that parsed
// still parses, and every finding left is well formed.
func FuzzFixRuns(f *testing.F) {
	f.Add([]byte(mmRunFiles["own.py"]), false, false)
	f.Add([]byte(mmRunFiles["vianame.py"]), false, true)
	f.Add([]byte("_base_ = ['./base.py']\nval_dataloader = dict(batch_size=1)\ntest_dataloader = val_dataloader\n"), false, false)
	f.Add([]byte("defaults:\n  - data: default\n  - _self_\n\neval:\n  batch_size: 4\n"), true, false)
	f.Add([]byte("defaults:\n  - data: default\n  - _self_\n\neval:\n  batch_size: 4\ntrainer:\n  val_check_interval: 0\n"), true, true)
	rs := rules.All()
	f.Fuzz(func(t *testing.T, src []byte, hydra, unsafe bool) {
		files := []lint.File{{Path: "base.py", Text: []byte(mmRunFiles["base.py"])}, {Path: "run.py", Text: src}}
		if hydra {
			files = []lint.File{{Path: "configs/data/default.yaml", Text: []byte("# @package _global_\ntrain:\n  batch_size: 32\n")},
				{Path: "configs/train.yaml", Text: src}}
		}
		outs, res, errs := lint.FixFiles(files, nil, rs, lint.Options{}, unsafe)
		if errs[1] != nil {
			t.Fatalf("FixFiles: %v", errs[1])
		}
		if !bytes.Equal(outs[0].Text, files[0].Text) || outs[0].Applied != 0 {
			t.Fatalf("the base changed:\n%s", outs[0].Text)
		}
		format := doc.Python
		if hydra {
			format = doc.YAML
		}
		if parsesClean(doc.Parse("x", src, format, doc.Limits{})) && !parsesClean(doc.Parse("x", outs[1].Text, format, doc.Limits{})) {
			t.Fatalf("the fixed primary no longer parses:\n%s", outs[1].Text)
		}
		if outs[1].Applied == 0 && !bytes.Equal(outs[1].Text, src) {
			t.Fatalf("no fix applied but the primary changed")
		}
		var mine []lint.Diagnostic
		for _, d := range res.Diagnostics {
			if d.File == files[1].Path {
				mine = append(mine, d)
			}
		}
		checkDiagnostics(t, outs[1].Text, mine)
	})
}
