package lsp

import (
	"context"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/trainlint/trainlint/cmd/trainlint/internal/lsp/lsptest"
	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/config"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/rules"
)

// testEngine is what cmd/trainlint gives the server: every rule, config discovery per file.
func testEngine() Engine {
	rs := rules.All()
	return Engine{Rules: rs, Version: "test", CheckConfig: func(path string, src []byte) error {
		_, err := config.NewLoader(rs).Parse(path, src)
		return err
	}, Config: func() ConfigSource {
		loader := config.NewLoader(rs)
		return func(path string) (lint.Options, error) {
			cfg, err := loader.ForFile(path)
			if err != nil {
				return lint.Options{}, err
			}
			return cfg.Options(path), nil
		}
	}}
}

type session struct {
	t      *testing.T
	ctx    context.Context
	server protocol.Server
	rec    *lsptest.Recorder
	done   chan error
	texts  map[uri.URI]string
	vers   map[uri.URI]int32
}

// start runs a server in-process over a pipe and initializes it with the given folders.
func start(t *testing.T, folders ...string) *session {
	t.Helper()
	return startWith(t, 5*time.Millisecond, nil, folders...)
}

// startWith is start with a debounce delay and the client's position encodings.
func startWith(t *testing.T, delay time.Duration, encodings []protocol.PositionEncodingKind, folders ...string) *session {
	t.Helper()
	var caps protocol.ClientCapabilities
	if encodings != nil {
		caps.General = &protocol.GeneralClientCapabilities{PositionEncodings: encodings}
	}
	return startCaps(t, delay, caps, folders...)
}

// startCaps is start with a debounce delay and the client's capabilities.
func startCaps(t *testing.T, delay time.Duration, caps protocol.ClientCapabilities, folders ...string) *session {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	a, b := net.Pipe()
	s := &session{t: t, ctx: ctx, rec: lsptest.NewRecorder(),
		done: make(chan error, 1), texts: map[uri.URI]string{}, vers: map[uri.URI]int32{}}
	go func() { s.done <- Serve(ctx, a, a, testEngine(), Options{Delay: delay}) }()
	_, conn, server := protocol.NewClient(ctx, s.rec, jsonrpc2.NewStream(b))
	s.server = server
	t.Cleanup(func() {
		cancel()
		conn.Close()
		b.Close()
		a.Close()
	})
	var wf []protocol.WorkspaceFolder
	for _, f := range folders {
		wf = append(wf, protocol.WorkspaceFolder{URI: uri.File(f), Name: filepath.Base(f)})
	}
	params := &protocol.InitializeParams{}
	params.WorkspaceFolders = protocol.NewNullable(wf)
	params.Capabilities = caps
	res, err := server.Initialize(ctx, params)
	if err != nil {
		t.Fatalf("initialize: %v", err)
	}
	if res.ServerInfo.Name != "trainlint" {
		t.Fatalf("server name %q", res.ServerInfo.Name)
	}
	if err := server.Initialized(ctx, &protocol.InitializedParams{}); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *session) open(path string) uri.URI {
	s.t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		s.t.Fatal(err)
	}
	u := uri.File(path)
	s.texts[u], s.vers[u] = string(b), 1
	lang := strings.TrimPrefix(filepath.Ext(path), ".")
	if err := s.server.DidOpen(s.ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: protocol.LanguageKind(lang), Version: 1, Text: string(b)}}); err != nil {
		s.t.Fatal(err)
	}
	return u
}

func (s *session) change(u uri.URI, text string) {
	s.t.Helper()
	s.vers[u]++
	s.texts[u] = text
	if err := s.server.DidChange(s.ctx, &protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: s.vers[u]},
		ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangeWholeDocument{Text: text}},
	}); err != nil {
		s.t.Fatal(err)
	}
}

// completeAt asks for completion at line and char (UTF-16 units) of u.
func (s *session) completeAt(u uri.URI, line, char int) []protocol.CompletionItem {
	s.t.Helper()
	res, err := s.server.Completion(s.ctx, &protocol.CompletionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: uint32(line), Character: uint32(char)}}})
	if err != nil {
		s.t.Fatal(err)
	}
	items, _ := res.(protocol.CompletionItemSlice)
	return items
}

// hoverAt is the hover text at line and char of u, "" for none.
func (s *session) hoverAt(u uri.URI, line, char int) string {
	s.t.Helper()
	h, err := s.server.Hover(s.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: uint32(line), Character: uint32(char)}}})
	if err != nil {
		s.t.Fatal(err)
	}
	if h == nil {
		return ""
	}
	return h.Contents.(*protocol.MarkupContent).Value
}

// wait returns the next publication for u that satisfies ok (publications of other files and
// of older versions are skipped).
func (s *session) wait(u uri.URI, ok func([]protocol.Diagnostic) bool) []protocol.Diagnostic {
	s.t.Helper()
	deadline := time.After(10 * time.Second)
	var last []protocol.Diagnostic
	for {
		select {
		case p := <-s.rec.Diags:
			if p.URI != u {
				continue
			}
			last = p.Diagnostics
			if ok(p.Diagnostics) {
				return p.Diagnostics
			}
		case <-deadline:
			s.t.Fatalf("no matching diagnostics for %s; last: %s", u, codes(last))
		}
	}
}

func codes(ds []protocol.Diagnostic) string {
	var cs []string
	for _, d := range ds {
		cs = append(cs, string(d.Code.(protocol.String)))
	}
	sort.Strings(cs)
	return strings.Join(cs, ",")
}

func has(code string) func([]protocol.Diagnostic) bool {
	return func(ds []protocol.Diagnostic) bool { return find(ds, code) != nil }
}

func hasNot(code string) func([]protocol.Diagnostic) bool {
	return func(ds []protocol.Diagnostic) bool { return find(ds, code) == nil }
}

func find(ds []protocol.Diagnostic, code string) *protocol.Diagnostic {
	for i := range ds {
		if c, ok := ds[i].Code.(protocol.String); ok && string(c) == code {
			return &ds[i]
		}
	}
	return nil
}

// apply applies a workspace edit to the session's copy of a document (edits in reverse order).
func (s *session) apply(u uri.URI, e *protocol.WorkspaceEdit) string {
	s.t.Helper()
	edits := e.Changes[u]
	if len(edits) == 0 {
		s.t.Fatalf("edit changes nothing in %s: %+v", u, e)
	}
	t := newText([]byte(s.texts[u]))
	sort.Slice(edits, func(i, j int) bool { return before(edits[j].Range.Start, edits[i].Range.Start) })
	src := t.src
	for _, ed := range edits {
		a, b := t.offset(ed.Range.Start, utf16Units), t.offset(ed.Range.End, utf16Units)
		src = append(append(append([]byte(nil), src[:a]...), ed.NewText...), src[b:]...)
	}
	return string(src)
}

// exampleContext is the launch context of make demo, as a config file.
const exampleContext = "[context]\nhosts = 2\ndevices-per-host = 8\n"

func copyExample(t *testing.T, dir, name string) string {
	t.Helper()
	var b []byte
	if name == ".trainlint.toml" {
		// The examples state no launch context (make demo passes --hosts); the tests that need
		// several hosts get it from a config file, as a repository would give it.
		b = []byte(exampleContext)
	} else {
		var err error
		if b, err = os.ReadFile(filepath.Join("..", "..", "examples", name)); err != nil {
			t.Fatal(err)
		}
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func (s *session) actions(u uri.URI, d protocol.Diagnostic) []*protocol.CodeAction {
	s.t.Helper()
	res, err := s.server.CodeAction(s.ctx, &protocol.CodeActionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: u}, Range: d.Range,
		Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{d}},
	})
	if err != nil {
		s.t.Fatal(err)
	}
	var out []*protocol.CodeAction
	for _, r := range res {
		if a, ok := r.(*protocol.CodeAction); ok {
			out = append(out, a)
		}
	}
	return out
}

func TestDiagnosticsQuickFixAndSuppress(t *testing.T) {
	dir := t.TempDir()
	path := copyExample(t, dir, "hf-sft.yaml")
	s := start(t, dir)
	u := s.open(path)
	ds := s.wait(u, has("TL202"))
	d := find(ds, "TL202")
	if d.Severity != protocol.DiagnosticSeverityWarning {
		t.Errorf("severity %v, want warning", d.Severity)
	}
	if !strings.Contains(string(d.CodeDescription.Href), "/rules/eval-batch-smaller-than-train/") {
		t.Errorf("codeDescription href %q", d.CodeDescription.Href)
	}
	if d.Range.Start.Line != 8 || d.Range.Start.Character != 28 || d.Range.End.Character != 29 {
		t.Errorf("range %+v, want line 8 (0-based) characters 28-29 (the value 4)", d.Range)
	}
	if len(d.RelatedInformation) == 0 || d.RelatedInformation[0].Location.Range != (protocol.Range{
		Start: protocol.Position{Line: 7, Character: 29}, End: protocol.Position{Line: 7, Character: 31}}) {
		t.Errorf("related information %+v, want the train batch 16 on line 7 (characters 29-31)", d.RelatedInformation)
	}

	acts := s.actions(u, *d)
	var fix, suppress *protocol.CodeAction
	for _, a := range acts {
		switch {
		case strings.HasPrefix(a.Title, "set per_device_eval_batch_size"):
			fix = a
		case strings.HasPrefix(a.Title, "suppress eval-batch-smaller-than-train"):
			suppress = a
		}
	}
	if fix == nil || suppress == nil {
		var titles []string
		for _, a := range acts {
			titles = append(titles, a.Title)
		}
		t.Fatalf("actions %q: want the rule's fix and a suppression", titles)
	}
	if fix.Kind == nil || *fix.Kind != protocol.CodeActionKindQuickFix || fix.IsPreferred == nil || !*fix.IsPreferred {
		t.Errorf("fix is not a preferred quick fix: %+v", fix)
	}

	// The suppression comment, applied, silences the finding without a new one.
	suppressed := s.apply(u, suppress.Edit)
	if !strings.Contains(suppressed, "# trainlint: disable=eval-batch-smaller-than-train -- ") {
		t.Fatalf("suppressed text:\n%s", suppressed)
	}
	s.change(u, suppressed)
	ds = s.wait(u, hasNot("TL202"))
	if find(ds, "TL007") != nil || find(ds, "TL008") != nil {
		t.Errorf("the suppression is reported: %s", codes(ds))
	}

	// Back to the original, then the quick fix.
	orig, _ := os.ReadFile(path)
	s.change(u, string(orig))
	d = find(s.wait(u, has("TL202")), "TL202")
	for _, a := range s.actions(u, *d) {
		if strings.HasPrefix(a.Title, "set per_device_eval_batch_size") {
			fix = a
		}
	}
	fixed := s.apply(u, fix.Edit)
	if !strings.Contains(fixed, "per_device_eval_batch_size: 16") {
		t.Fatalf("fixed text:\n%s", fixed)
	}
	s.change(u, fixed)
	s.wait(u, hasNot("TL202"))
}

func TestJSONGetsNoSuppressAction(t *testing.T) {
	dir := t.TempDir()
	path := copyExample(t, dir, "deepspeed-zero2.json")
	copyExample(t, dir, ".trainlint.toml") // hosts = 2: the finding needs several hosts
	s := start(t, dir)
	u := s.open(path)
	d := find(s.wait(u, has("TL602")), "TL602")
	for _, a := range s.actions(u, *d) {
		if strings.HasPrefix(a.Title, "suppress") {
			t.Errorf("JSON has no comments, yet got %q", a.Title)
		}
	}
}

func TestHover(t *testing.T) {
	dir := t.TempDir()
	path := copyExample(t, dir, "hf-sft.yaml")
	s := start(t, dir)
	u := s.open(path)
	s.wait(u, has("TL202"))
	hover := func(line, char int) string { return s.hoverAt(u, line, char) }
	// On a key: its meaning, default and the version the default was checked against.
	got := hover(11, 3) // eval_steps
	for _, want := range []string{"**eval_steps**", "Hugging Face Trainer", "transformers"} {
		if !strings.Contains(got, want) {
			t.Errorf("hover on eval_steps lacks %q:\n%s", want, got)
		}
	}
	got = hover(7, 5) // per_device_train_batch_size
	if !strings.Contains(got, "Default: `8`") {
		t.Errorf("hover on per_device_train_batch_size lacks its default 8:\n%s", got)
	}
	// On a finding: the rule's documentation with its link.
	got = hover(8, 28)
	for _, want := range []string{"TL202 eval-batch-smaller-than-train", "https://trainlint.github.io/rules/eval-batch-smaller-than-train/", "per_device_eval_batch_size"} {
		if !strings.Contains(got, want) {
			t.Errorf("hover on the finding lacks %q:\n%s", want, got)
		}
	}
	if got := hover(0, 3); got != "" {
		t.Errorf("hover on a comment: %q", got)
	}
}

func TestCompletion(t *testing.T) {
	dir := t.TempDir()
	path := copyExample(t, dir, "hf-sft.yaml")
	s := start(t, dir)
	u := s.open(path)
	s.wait(u, has("TL202"))
	complete := func(line, char int) []protocol.CompletionItem { return s.completeAt(u, line, char) }
	orig := s.texts[u]
	text := orig + "dataloader_\n"
	s.change(u, text)
	items := complete(strings.Count(text, "\n")-1, len("dataloader_"))
	var got *protocol.CompletionItem
	for i := range items {
		if items[i].Label == "dataloader_num_workers" {
			got = &items[i]
		}
		if !strings.HasPrefix(items[i].Label, "dataloader_") {
			t.Errorf("item %q does not match the typed prefix", items[i].Label)
		}
	}
	if got == nil {
		t.Fatalf("no dataloader_num_workers among %d items", len(items))
	}
	if te := got.TextEdit.(*protocol.TextEdit); te.NewText != "dataloader_num_workers: 0" {
		t.Errorf("inserts %q, want the key with its default", te.NewText)
	}
	if d, _ := got.Detail.Get(); !strings.Contains(d, "default 0") {
		t.Errorf("detail %q", d)
	}
	// Keys already written are not offered again.
	s.change(u, orig+"per_device\n")
	for _, it := range complete(strings.Count(s.texts[u], "\n")-1, len("per_device")) {
		if it.Label == "per_device_train_batch_size" {
			t.Errorf("offers per_device_train_batch_size, which the file sets")
		}
	}
	// Values: a key's allowed values, even while another line does not parse (the framework
	// detected before is kept).
	s.change(u, orig+"dataloader_\nsave_strategy: \n")
	items = complete(strings.Count(s.texts[u], "\n")-1, len("save_strategy: "))
	var vals []string
	for _, it := range items {
		vals = append(vals, it.Label)
	}
	if strings.Join(vals, ",") != "no,steps,epoch,best" {
		t.Errorf("save_strategy values %v", vals)
	}
}

func TestCompletionNestedYAMLAndTOML(t *testing.T) {
	got := func(format, src string, line int) string {
		tx := newText([]byte(src))
		l := string(tx.line(line))
		p, _, _ := completionContext(doc.Format(format), tx, line, l, nil, 0)
		return p
	}
	yaml := "trainer:\n  max_steps: 10\n  callbacks:\n    - class_path: x\n      init_args:\n        mon\n"
	if p := got("yaml", yaml, 5); p != "trainer.callbacks[].init_args" {
		t.Errorf("YAML parent %q", p)
	}
	if p := got("yaml", yaml, 1); p != "trainer" {
		t.Errorf("YAML parent %q", p)
	}
	// on a list item's dash line, the item's mapping
	if p := got("yaml", "trainer:\n  callbacks:\n    - mon\n", 2); p != "trainer.callbacks[]" {
		t.Errorf("YAML parent on a dash line %q", p)
	}
	if p := got("yaml", "trainer:\n  callbacks:\n  - mon\n", 2); p != "trainer.callbacks[]" {
		t.Errorf("YAML parent on a dash line %q", p)
	}
	toml := "seed = 1\n[checkpoint]\nkeep = 3\nint\n"
	if p := got("toml", toml, 3); p != "checkpoint" {
		t.Errorf("TOML parent %q", p)
	}
}

func TestDefinition(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	write := func(p, s string) string {
		p = filepath.Join(dir, p)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("ds/zero2.json", "{\"zero_optimization\": {\"stage\": 2}}\n")
	write("configs/trainer/gpu.yaml", "accelerator: gpu\n")
	write("configs/model/big.yaml", "hidden: 1\n")
	write("configs/base.yaml", "seed: 1\n")
	os.WriteFile(filepath.Join(outside, "secret.json"), []byte("{}"), 0o644)
	sft := write("recipes/sft.yaml", "per_device_train_batch_size: 8\ndeepspeed: ds/zero2.json\nother: "+filepath.Join(outside, "secret.json")+"\n")
	train := write("configs/train.yaml", "defaults:\n  - base\n  - trainer: gpu\n  - override /model: big\n  - _self_\nseed: 3\ndeepspeed: "+filepath.Join(outside, "secret.json")+"\n")
	exp := write("configs/experiment/x.yaml", "defaults:\n  - override /trainer: gpu\n  - trainer: gpu\n")
	s := start(t, dir)
	def := func(u uri.URI, line, char uint32) string {
		res, err := s.server.Definition(s.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: line, Character: char}}})
		if err != nil {
			t.Fatal(err)
		}
		if loc, ok := res.(*protocol.Location); ok && loc != nil {
			rel, _ := filepath.Rel(dir, loc.URI.FsPath())
			return filepath.ToSlash(rel)
		}
		return ""
	}
	u := s.open(sft)
	if got := def(u, 1, 14); got != "ds/zero2.json" {
		t.Errorf("deepspeed: goes to %q (from the workspace root)", got)
	}
	if got := def(u, 0, 3); got != "" {
		t.Errorf("a plain key goes to %q", got)
	}
	// trainlint's own include: extend in .trainlint.toml.
	write("configs/base.toml", "fail-on = \"error\"\n")
	tl := s.open(write(".trainlint.toml", "extend = \"configs/base.toml\"\n"))
	if got := def(tl, 0, 12); got != "configs/base.toml" {
		t.Errorf("extend goes to %q", got)
	}
	v := s.open(train)
	for _, c := range []struct {
		line, char uint32
		want       string
	}{{1, 5, "configs/base.yaml"}, {2, 14, "configs/trainer/gpu.yaml"}, {3, 22, "configs/model/big.yaml"}, {4, 6, ""}, {6, 14, ""}} {
		if got := def(v, c.line, c.char); got != c.want {
			t.Errorf("line %d: goes to %q, want %q", c.line, got, c.want)
		}
	}
	// In a group file: an absolute group is found at the config root above it; a relative one
	// would be experiment/trainer/gpu.yaml, which does not exist.
	e := s.open(exp)
	if got := def(e, 1, 24); got != "configs/trainer/gpu.yaml" {
		t.Errorf("absolute group: goes to %q", got)
	}
	if got := def(e, 2, 14); got != "" {
		t.Errorf("relative group resolved outside its folder: %q", got)
	}
}

func TestConfigReloadAndErrors(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755) // discovery stops at the repository's top
	path := copyExample(t, dir, "hf-sft.yaml")
	s := start(t, dir)
	u := s.open(path)
	s.wait(u, has("TL202"))
	cfgPath := filepath.Join(dir, ".trainlint.toml")
	reload := func() {
		if err := s.server.DidChangeWatchedFiles(s.ctx, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: uri.File(cfgPath), Type: protocol.FileChangeTypeChanged}}}); err != nil {
			t.Fatal(err)
		}
	}
	os.WriteFile(cfgPath, []byte("ignore = [\"TL202\"]\n"), 0o644)
	reload()
	s.wait(u, hasNot("TL202"))

	// A broken config file: its mistake is shown on it, at its line, and the file is linted with
	// the defaults meanwhile.
	os.WriteFile(cfgPath, []byte("# comment\nfail_on = \"error\"\n"), 0o644)
	reload()
	cu := uri.File(cfgPath)
	ds := s.wait(cu, func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })
	if ds[0].Range.Start.Line != 1 || !strings.Contains(string(ds[0].Message.(protocol.String)), "fail_on") {
		t.Errorf("config error %+v", ds[0])
	}
	os.WriteFile(cfgPath, []byte("select = [\"TL202\"]\n"), 0o644)
	reload()
	s.wait(cu, func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
	ds = s.wait(u, has("TL202"))
	if codes(ds) != "TL202" {
		t.Errorf("select = TL202 gives %s", codes(ds))
	}
}

func TestMultiRootEachFolderItsConfig(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	for _, d := range []string{a, b} {
		os.Mkdir(filepath.Join(d, ".git"), 0o755)
	}
	os.WriteFile(filepath.Join(a, ".trainlint.toml"), []byte("ignore = [\"TL202\"]\n"), 0o644)
	pa, pb := copyExample(t, a, "hf-sft.yaml"), copyExample(t, b, "hf-sft.yaml")
	s := start(t, a, b)
	ua := s.open(pa)
	s.wait(ua, func(ds []protocol.Diagnostic) bool { return len(ds) > 0 && find(ds, "TL202") == nil })
	ub := s.open(pb)
	s.wait(ub, has("TL202"))
}

func TestShutdownExit(t *testing.T) {
	s := start(t)
	if err := s.server.Shutdown(s.ctx); err != nil {
		t.Fatal(err)
	}
	s.server.Exit(s.ctx)
	select {
	case err := <-s.done:
		if err != nil {
			t.Errorf("Serve after shutdown and exit: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the server did not stop on exit")
	}
}

func TestPositionEncodings(t *testing.T) {
	tx := newText([]byte("a: \"é😀x\"\nb: 1\r\n"))
	// 'x' is at byte 10: after é (2 bytes, 1 UTF-16 unit) and 😀 (4 bytes, 2 units).
	for _, c := range []struct {
		enc  encoding
		char uint32
	}{{utf16Units, 7}, {utf8Bytes, 10}, {utf32Runes, 6}} {
		p := tx.position(10, c.enc)
		if p.Line != 0 || p.Character != c.char {
			t.Errorf("enc %d: position %+v, want 0:%d", c.enc, p, c.char)
		}
		if off := tx.offset(p, c.enc); off != 10 {
			t.Errorf("enc %d: offset %d, want 10", c.enc, off)
		}
	}
	if off := tx.offset(protocol.Position{Line: 0, Character: 6}, utf16Units); off != 6 {
		t.Errorf("inside a surrogate pair: offset %d, want 6 (before the character)", off)
	}
	if off := tx.offset(protocol.Position{Line: 1, Character: 99}, utf16Units); off != 17 {
		t.Errorf("past the line's end: offset %d, want 17 (its end, before \\n)", off)
	}
	if p := tx.posFromLineCol(1, 4, utf16Units); p.Line != 0 || p.Character != 3 {
		t.Errorf("line 1 col 4: %+v", p)
	}
}

// A gin config is linted like any other format; a Python file that is not a config (a script)
// is left alone, as the CLI leaves the .py files it walks.
func TestGinLintedPythonScriptLeftAlone(t *testing.T) {
	dir := t.TempDir()
	const ginText = "from t5x import utils\nutils.SaveCheckpointConfig.period = 1000\nutils.SaveCheckpointConfig.keep = 2\n"
	const script = "import argparse\n\ndef main():\n    cfg = dict(batch_size=4)\n    print(cfg)\n"
	gin := filepath.Join(dir, "train.gin")
	py := filepath.Join(dir, "tool.py")
	os.WriteFile(gin, []byte(ginText), 0o644)
	os.WriteFile(py, []byte(script), 0o644)
	s := start(t, dir)
	gu, pu := uri.File(gin), uri.File(py)
	for _, doc := range []protocol.TextDocumentItem{{URI: pu, LanguageID: "python", Version: 1, Text: script}, {URI: gu, LanguageID: "gin", Version: 1, Text: ginText}} {
		if err := s.server.DidOpen(s.ctx, &protocol.DidOpenTextDocumentParams{TextDocument: doc}); err != nil {
			t.Fatal(err)
		}
	}
	deadline := time.After(10 * time.Second)
	for done := false; !done; {
		select {
		case p := <-s.rec.Diags:
			if p.URI == pu {
				t.Fatalf("a Python script was linted: %s", codes(p.Diagnostics))
			}
			if p.URI == gu {
				d := find(p.Diagnostics, "TL301")
				if d == nil || d.Range.Start.Line != 2 {
					t.Fatalf("gin file: want TL301 on line 3, got %s", codes(p.Diagnostics))
				}
				done = true
			}
		case <-deadline:
			t.Fatal("no diagnostics for the gin file")
		}
	}
	res, err := s.server.Hover(s.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: pu}, Position: protocol.Position{Line: 3, Character: 10}}})
	if err != nil || res != nil {
		t.Errorf("hover in a Python script: %v %v", res, err)
	}
}

func TestPyprojectConfigApplies(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, "pyproject.toml"), []byte("[project]\nname = \"x\"\n\n[tool.trainlint]\nselect = [\"TL301\"]\n"), 0o644)
	path := copyExample(t, dir, "hf-sft.yaml")
	s := start(t, dir)
	u := s.open(path)
	if got := codes(s.wait(u, func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })); got != "TL301" {
		t.Errorf("[tool.trainlint] select = TL301 gives %s", got)
	}
}

func TestWorkspaceFolderAddedLater(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	os.WriteFile(filepath.Join(b, "zero3.json"), []byte("{\"zero_optimization\": {\"stage\": 3}}\n"), 0o644)
	cfg := filepath.Join(a, "sft.yaml")
	os.WriteFile(cfg, []byte("deepspeed: "+filepath.Join(b, "zero3.json")+"\n"), 0o644)
	s := start(t, a)
	u := s.open(cfg)
	def := func() bool {
		res, err := s.server.Definition(s.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: protocol.Position{Line: 0, Character: 14}}})
		if err != nil {
			t.Fatal(err)
		}
		loc, ok := res.(*protocol.Location)
		return ok && loc != nil
	}
	if def() {
		t.Fatal("a file outside the workspace was offered")
	}
	if err := s.server.DidChangeWorkspaceFolders(s.ctx, &protocol.DidChangeWorkspaceFoldersParams{Event: protocol.WorkspaceFoldersChangeEvent{
		Added: []protocol.WorkspaceFolder{{URI: uri.File(b), Name: "b"}}}}); err != nil {
		t.Fatal(err)
	}
	if !def() {
		t.Error("the added folder is not part of the workspace")
	}
	s.server.DidChangeWorkspaceFolders(s.ctx, &protocol.DidChangeWorkspaceFoldersParams{Event: protocol.WorkspaceFoldersChangeEvent{
		Removed: []protocol.WorkspaceFolder{{URI: uri.File(b), Name: "b"}}}})
	if def() {
		t.Error("the removed folder is still part of the workspace")
	}
}

// A client that does not watch files still reloads the config when the user saves it in the
// editor.
func TestConfigReloadOnSave(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	cfgPath := filepath.Join(dir, ".trainlint.toml")
	os.WriteFile(cfgPath, []byte("# empty\n"), 0o644)
	path := copyExample(t, dir, "hf-sft.yaml")
	s := start(t, dir)
	u := s.open(path)
	s.wait(u, has("TL202"))
	cu := s.open(cfgPath)
	os.WriteFile(cfgPath, []byte("ignore = [\"eval-batch-smaller-than-train\"]\n"), 0o644)
	if err := s.server.DidSave(s.ctx, &protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: cu}}); err != nil {
		t.Fatal(err)
	}
	s.wait(u, hasNot("TL202"))
}

// An open config file is checked as it is typed, before it is saved.
func TestConfigFileCheckedAsTyped(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	cfgPath := filepath.Join(dir, ".trainlint.toml")
	os.WriteFile(cfgPath, []byte("fail-on = \"error\"\n"), 0o644)
	s := start(t, dir)
	cu := s.open(cfgPath)
	s.wait(cu, func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
	s.change(cu, "fail-on = \"error\"\nselcet = [\"TL202\"]\n")
	ds := s.wait(cu, func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })
	if msg := string(ds[0].Message.(protocol.String)); ds[0].Range.Start.Line != 1 || !strings.Contains(msg, "selcet") || !strings.Contains(msg, "select") {
		t.Errorf("config mistake: line %d, %q", ds[0].Range.Start.Line, msg)
	}
	s.change(cu, "fail-on = \"error\"\nselect = [\"TL202\"]\n")
	s.wait(cu, func(ds []protocol.Diagnostic) bool { return len(ds) == 0 })
}

// Typing re-lints once the typing pauses, not once per keystroke.
func TestChangesAreDebounced(t *testing.T) {
	dir := t.TempDir()
	path := copyExample(t, dir, "hf-sft.yaml")
	s := startWith(t, 300*time.Millisecond, nil, dir)
	u := s.open(path)
	s.wait(u, has("TL202"))
	orig := s.texts[u]
	// Twenty keystrokes, well inside the delay of each other.
	for i := range 20 {
		s.change(u, orig+"# typing "+strings.Repeat("x", i)+"\n")
		time.Sleep(5 * time.Millisecond)
	}
	final := s.vers[u]
	var versions []int32
	deadline := time.After(10 * time.Second)
	for done := false; !done; {
		select {
		case p := <-s.rec.Diags:
			if p.URI == u {
				v, _ := p.Version.Get()
				versions = append(versions, v)
				done = v == final
			}
		case <-deadline:
			t.Fatalf("no publication for the last version %d; got %v", final, versions)
		}
	}
	if len(versions) > 2 {
		t.Errorf("%d lints for 20 quick changes (versions %v): not debounced", len(versions), versions)
	}
}

// A client that counts in UTF-8 gets byte offsets; others UTF-16 units.
func TestPositionEncodingNegotiated(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sft.yaml")
	// One line, so that the finding on the value 4 comes after "é😀": 6 bytes, 3 UTF-16 units.
	line := `{model_name_or_path: "é😀", eval_strategy: steps, per_device_train_batch_size: 16, per_device_eval_batch_size: 4}`
	os.WriteFile(path, []byte(line+"\n"), 0o644)
	at := strings.Index(line, ": 4}") + 2
	for _, c := range []struct {
		offer []protocol.PositionEncodingKind
		char  int
	}{{[]protocol.PositionEncodingKind{"utf-8", "utf-16"}, at}, {nil, at - 3}} {
		s := startWith(t, 5*time.Millisecond, c.offer, dir)
		u := s.open(path)
		d := find(s.wait(u, has("TL202")), "TL202")
		if d.Range.Start.Line != 0 || int(d.Range.Start.Character) != c.char || int(d.Range.End.Character) != c.char+1 {
			t.Errorf("encodings offered %v: range %+v, want 0:%d-%d", c.offer, d.Range, c.char, c.char+1)
		}
		h, err := s.server.Hover(s.ctx, &protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: d.Range.Start}})
		if err != nil || h == nil || !strings.Contains(h.Contents.(*protocol.MarkupContent).Value, "TL202") {
			t.Errorf("encodings offered %v: hover at the finding: %v %v", c.offer, h, err)
		}
		var fix *protocol.CodeAction
		for _, a := range s.actions(u, *d) {
			if strings.HasPrefix(a.Title, "set ") {
				fix = a
			}
		}
		if fix == nil {
			t.Fatalf("encodings offered %v: no fix", c.offer)
		}
		if e := fix.Edit.Changes[u][0]; e.Range != d.Range || e.NewText != "16" {
			t.Errorf("encodings offered %v: fix edit %+v", c.offer, e)
		}
	}
}

// A run finder that joins a file's `deepspeed:` JSON to it (what composed runs will do): the
// JSON's findings are published to the JSON file, and the finder sees the editor's unsaved text.
func TestRunsPublishEveryFile(t *testing.T) {
	dir := t.TempDir()
	copyExample(t, dir, ".trainlint.toml")
	ds := copyExample(t, dir, "deepspeed-zero2.json")
	sft := filepath.Join(dir, "sft.yaml")
	os.WriteFile(sft, []byte("per_device_train_batch_size: 8\n"), 0o644)
	eng := testEngine()
	var sawUnsaved bool
	eng.Runs = func(path string, read func(string) ([]byte, bool), folder string) []Run {
		if filepath.Base(path) != "sft.yaml" {
			return SingleFileRuns(path, read, folder)
		}
		text, _ := read(path)
		sawUnsaved = sawUnsaved || strings.Contains(string(text), "deepspeed:")
		return []Run{{Files: []string{path, ds}}}
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	rec := lsptest.NewRecorder()
	go Serve(ctx, a, a, eng, Options{Delay: time.Millisecond})
	_, _, server := protocol.NewClient(ctx, rec, jsonrpc2.NewStream(b))
	if _, err := server.Initialize(ctx, &protocol.InitializeParams{}); err != nil {
		t.Fatal(err)
	}
	u := uri.File(sft)
	server.DidOpen(ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: u, LanguageID: "yaml", Version: 1, Text: "per_device_train_batch_size: 8\ndeepspeed: deepspeed-zero2.json\n"}})
	deadline := time.After(10 * time.Second)
	for {
		select {
		case p := <-rec.Diags:
			if p.URI == uri.File(ds) && find(p.Diagnostics, "TL602") != nil {
				if !sawUnsaved {
					t.Error("the run finder read the disk, not the editor's text")
				}
				return
			}
		case <-deadline:
			t.Fatal("the JSON file of the run got no diagnostics")
		}
	}
}

// source.fixAll applies every safe fix of the file, as check --fix does.
func TestFixAll(t *testing.T) {
	dir := t.TempDir()
	path := copyExample(t, dir, "hf-sft.yaml")
	s := start(t, dir)
	u := s.open(path)
	s.wait(u, has("TL202"))
	ask := func(only ...protocol.CodeActionKind) []protocol.CommandOrCodeAction {
		res, err := s.server.CodeAction(s.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u},
			Context: protocol.CodeActionContext{Only: only, TriggerKind: protocol.CodeActionTriggerKindAutomatic}})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	if got := ask(protocol.CodeActionKindQuickFix); len(got) != 0 {
		t.Errorf("quick fixes at 0:0 (no finding there): %d", len(got))
	}
	got := ask("source.fixAll")
	if len(got) != 1 {
		t.Fatalf("source.fixAll: %d actions", len(got))
	}
	a := got[0].(*protocol.CodeAction)
	if *a.Kind != FixAllKind {
		t.Errorf("kind %q", *a.Kind)
	}
	fixed := s.apply(u, a.Edit)
	if !strings.Contains(fixed, "per_device_eval_batch_size: 16") || !strings.HasPrefix(fixed, "# Supervised fine-tuning") {
		t.Fatalf("fixed text:\n%s", fixed)
	}
	s.change(u, fixed)
	s.wait(u, hasNot("TL202"))
	if got := ask("source.fixAll"); len(got) != 0 {
		t.Errorf("nothing left to fix, yet %d actions", len(got))
	}
}

// An editor opens every Python file: only one that reads as a config of a known framework, or
// as an ml_collections config (a get_config that returns a ConfigDict: score_sde's configs),
// gets a format (and is linted); a .gin file always does, and so does an untitled gin buffer.
func TestCodeConfigFormats(t *testing.T) {
	for _, c := range []struct {
		path, lang, text string
		want             doc.Format
	}{
		{"/w/tool.py", "python", "import argparse\n\ndef main():\n    print(dict(a=1))\n", ""},
		{"/w/helpers.py", "python", "def helper(x):\n    return x + 1\n", ""},
		{"/w/retinanet.py", "python", "_base_ = ['../_base_/default_runtime.py']\ntrain_dataloader = dict(batch_size=2, num_workers=2)\n", doc.Python},
		{"/w/vit.py", "python", "import ml_collections\n\ndef get_config():\n  config = ml_collections.ConfigDict()\n  config.input = dict(batch_size=4096, prefetch=8)\n  config.total_steps = 90_000\n  return config\n", doc.Python},
		{"/w/configs/ve/cifar10.py", "python", "import ml_collections\n\ndef get_config():\n  config = ml_collections.ConfigDict()\n  config.training = training = ml_collections.ConfigDict()\n  training.batch_size = 128\n  return config\n", doc.Python},
		{"/w/configs/plain.py", "python", "def get_config():\n  return dict(batch_size=8)\n", ""},
		{"/w/train.gin", "gin", "train.total_steps = 1000\n", doc.Gin},
		{"untitled:Untitled-1", "gin", "train.total_steps = 1000\n", doc.Gin},
	} {
		u := uri.URI(c.path)
		if !strings.Contains(c.path, ":") {
			u = uri.File(c.path)
		}
		if got := newDocument(u, c.lang, 1, []byte(c.text)).format; got != c.want {
			t.Errorf("%s: format %q, want %q", c.path, got, c.want)
		}
	}
}

// LintRun lints a run's files (absolute paths, the primary first) as a tree relative to the
// primary's folder and gives every path back as it came: the finding's file, its related
// location's file, the result's files.
func TestLintRunPaths(t *testing.T) {
	dir := t.TempDir()
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }
	files := []lint.File{
		{Path: p("conf/train.yaml"), Text: []byte("defaults:\n  - callbacks: default\n  - _self_\nseed: 1\n")},
		{Path: p("conf/callbacks/default.yaml"), Text: []byte("defaults:\n  - model_checkpoint\n  - _self_\nmodel_checkpoint:\n  monitor: val/acc\n")},
		{Path: p("conf/callbacks/model_checkpoint.yaml"), Text: []byte("model_checkpoint:\n  _target_: lightning.pytorch.callbacks.ModelCheckpoint\n  monitor: null\n  save_top_k: 1\n  mode: min\n")},
	}
	res := LintRun(files, nil, rules.All(), lint.Options{})
	var d *lint.Diagnostic
	for i := range res.Diagnostics {
		if res.Diagnostics[i].Code == "TL310" {
			d = &res.Diagnostics[i]
		}
	}
	if d == nil || d.File != files[2].Path || len(d.Related) != 1 || d.Related[0].File != files[1].Path {
		t.Fatalf("TL310 %+v, want it in %s with %s related", d, files[2].Path, files[1].Path)
	}
	for i, f := range res.Files {
		if f.Path != files[i].Path {
			t.Errorf("result file %d is %q, want %q", i, f.Path, files[i].Path)
		}
	}
	// With an override the run changes; a run of one file without overrides is lint.Lint's.
	res = LintRun(files, []string{"callbacks.model_checkpoint.mode=max"}, rules.All(), lint.Options{})
	for _, d := range res.Diagnostics {
		if d.Code == "TL310" {
			t.Errorf("TL310 with mode=max: %+v", d)
		}
	}
	alone := LintRun(files[2:], nil, rules.All(), lint.Options{})
	if got, want := alone, lint.Lint(files[2:], rules.All(), lint.Options{}); len(got.Diagnostics) == 0 || !reflect.DeepEqual(got, want) {
		t.Errorf("the group file alone: %+v, want lint.Lint's %+v", got.Diagnostics, want.Diagnostics)
	}
}
