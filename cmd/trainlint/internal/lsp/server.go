package lsp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/config"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
)

// Engine is what the server needs from its driver (cmd/trainlint): the rule set and the CLI's own
// config discovery, so that the editor shows exactly what `trainlint check FILE` reports.
type Engine struct {
	Rules []*lint.Rule
	// Config returns a fresh config source with an empty cache. The server calls it at start and
	// again whenever a .trainlint.toml or pyproject.toml changes, or a Repository file.
	Config func() ConfigSource
	// Runs finds the runs that include a file; nil means SingleFileRuns.
	Runs RunFinder
	// Lint lints one run: its files (the primary config first, each with the editor's text
	// where it is open) and its overrides. Nil means LintRun (lint.LintFiles, what check does
	// with a tree).
	Lint func(files []lint.File, overrides []string, rules []*lint.Rule, o lint.Options) *lint.Result
	// CheckConfig validates a config file's text as it is being edited (nil: config files are
	// checked only as they are loaded from disk).
	CheckConfig func(path string, src []byte) error
	// Version is shown to the client as the server's version.
	Version string
	// Repository are the names (filepath.Match patterns on a file's base name) of the files
	// besides config files that Config's options are read from (a repository's pins, train
	// scripts, argument dataclasses): the server asks the client to watch them too, and a change
	// or a save of one calls Config afresh, as for a config file.
	Repository []string
}

// ConfigSource gives a file on disk the options `trainlint check FILE` would lint it with: its
// nearest .trainlint.toml or [tool.trainlint] in pyproject.toml. A broken config file is an error
// (a config.Errors with positions when the file could be read).
type ConfigSource func(path string) (lint.Options, error)

// Run is one training run that includes the edited file: the files one launch reads, its
// primary config first, and the Hydra overrides it is composed with (an experiment's run is
// the primary with experiment=<name>).
type Run struct {
	Files     []string
	Overrides []string
	// Root, when set, is the folder the run's paths are read from (a recipe's `deepspeed:`
	// path is written from the repository's root): the run is linted by LintRunAt from there.
	// Empty: the primary's folder, through Engine.Lint.
	Root string
	// MainDir is the folder (slash path from where the run is linted) the repository's
	// scripts name as config_path: lint.Options.HydraMainDir.
	MainDir string
	// MainCandidates are the folders it may be when it is not known:
	// lint.Options.HydraMainCandidates.
	MainCandidates []string
}

// RunFinder returns the runs that include path (path among each run's files). read gives a
// file's current text (the editor's, unsaved, for open files; else the disk's), so a defaults
// list being typed counts. folder is the workspace folder that holds path ("" when none
// does): the finder may search it for the configs that read path where no repository root
// (.git) says where a project starts. cmd/trainlint composes Hydra runs (lint/compose); a file
// no run includes is a run of one (SingleFileRuns).
type RunFinder func(path string, read func(path string) ([]byte, bool), folder string) []Run

// SingleFileRuns makes every file a run of its own.
func SingleFileRuns(path string, _ func(string) ([]byte, bool), _ string) []Run {
	return []Run{{Files: []string{path}}}
}

// LintRun lints one run's files with lint.LintFiles, as check lints a tree: the paths are made
// relative to the primary's folder (the config directory) for the composition and given back
// absolute in the result. A run of one file without overrides is lint.Lint's.
func LintRun(files []lint.File, overrides []string, rules []*lint.Rule, o lint.Options) *lint.Result {
	if len(files) < 2 && len(overrides) == 0 {
		return lint.Lint(files, rules, o)
	}
	return LintRunAt(filepath.Dir(files[0].Path), files, overrides, rules, o)
}

// LintRunAt is LintRun with the paths made relative to root instead of the primary's folder.
func LintRunAt(root string, files []lint.File, overrides []string, rules []*lint.Rule, o lint.Options) *lint.Result {
	abs := map[string]string{} // relative slash path -> the path given
	in := make([]lint.File, len(files))
	for i, f := range files {
		in[i] = f
		if r, err := filepath.Rel(root, f.Path); err == nil && filepath.IsLocal(r) {
			in[i].Path = filepath.ToSlash(r)
			abs[in[i].Path] = f.Path
		}
	}
	back := func(p *string) {
		if a, ok := abs[*p]; ok {
			*p = a
		}
	}
	res := lint.LintFiles(in, overrides, rules, o)
	for i := range res.Files {
		back(&res.Files[i].Path)
	}
	for i := range res.Diagnostics {
		d := &res.Diagnostics[i]
		back(&d.File)
		for j := range d.Related {
			back(&d.Related[j].File)
		}
		if d.Fix != nil {
			for j := range d.Fix.Edits {
				back(&d.Fix.Edits[j].File)
			}
		}
	}
	return res
}

// DefaultDelay is how long the server waits after the last change before it lints (typing a
// word re-lints once, not once per key).
const DefaultDelay = 150 * time.Millisecond

// Options tune a server (tests shorten the delay).
type Options struct {
	Delay time.Duration
}

// Serve runs a language server on in/out (standard input and output for `trainlint lsp`) until
// the client sends exit or closes the stream. It returns nil after a clean shutdown.
func Serve(ctx context.Context, in io.Reader, out io.Writer, eng Engine, opts Options) error {
	rw := &stdio{in: in, out: out}
	stream := jsonrpc2.NewStream(rw)
	conn := jsonrpc2.NewConn(stream, jsonrpc2.WithCodec(codec{}))
	s := newServer(eng, protocol.ClientDispatcher(conn), opts)
	// Requests are handled in the order they arrive, on the read loop: a didChange is applied
	// before the hover that follows it. Linting runs on timers, off the loop, so a slow lint
	// never holds up typing.
	h := protocol.ServerHandler(s, jsonrpc2.MethodNotFoundHandler)
	conn.Go(ctx, func(ctx context.Context, req *jsonrpc2.Request) (res any, err error) {
		// A bug in one feature answers that request with an error; it must not take the
		// server (and every other feature) down with it, as a panic in a handler would.
		defer func() {
			if r := recover(); r != nil {
				res, err = nil, nil
				if req.IsCall() {
					err = jsonrpc2.NewError(jsonrpc2.InternalError, fmt.Sprintf("trainlint: %s failed: %v", req.Method(), r))
				}
			}
		}()
		res, err = h(ctx, req)
		if !req.IsCall() && err != nil {
			// An unknown or failed notification must not end the connection (jsonrpc2
			// treats a notification's error as fatal); the client cannot be told anyway.
			return nil, nil
		}
		return res, err
	})
	select {
	case <-conn.Done():
	case <-s.exited:
	case <-ctx.Done():
	}
	s.stop()
	// No graceful Close: it waits for the read loop, which may sit in a read of standard input
	// that only the client can end. Closing the input ends it where that is possible (pipes in
	// tests); the process exits in any case.
	rw.Close()
	if s.isShutdown() {
		return nil
	}
	if err := conn.Err(); err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrClosedPipe) {
		return err
	}
	return ErrNoShutdown
}

// ErrNoShutdown is Serve's error when the client left (exit, or the stream closed) without asking
// for shutdown first; the protocol wants exit code 1 then.
var ErrNoShutdown = errors.New("the client left without shutdown")

// stdio joins standard input and output into the ReadWriteCloser jsonrpc2 reads and writes.
type stdio struct {
	in  io.Reader
	out io.Writer
}

func (s *stdio) Read(p []byte) (int, error)  { return s.in.Read(p) }
func (s *stdio) Write(p []byte) (int, error) { return s.out.Write(p) }
func (s *stdio) Close() error {
	if c, ok := s.in.(io.Closer); ok {
		c.Close()
	}
	return nil
}

// codec marshals payloads with the protocol package's union-aware encoder (what its own
// NewServer installs; we build the connection ourselves to keep requests in order).
type codec struct{}

func (codec) Marshal(v any) ([]byte, error) {
	if m, ok := v.(jsonrpc2.RawMessage); ok {
		if m == nil {
			return []byte("null"), nil
		}
		return m, nil
	}
	return protocol.Marshal(v)
}

func (codec) Unmarshal(data []byte, v any) error {
	if p, ok := v.(*jsonrpc2.RawMessage); ok {
		*p = append(jsonrpc2.RawMessage(nil), data...)
		return nil
	}
	return protocol.Unmarshal(data, v)
}

// document is one file the client has open.
type document struct {
	uri     uri.URI
	path    string // file system path; for other schemes a name that carries the extension
	onDisk  bool   // a file: URI (config discovery and references apply)
	format  doc.Format
	version int32
	text    *text
	// framework is the last framework detected in this document (other than generic): completion
	// and hover keep using it while a half-typed line stops the file from parsing.
	framework string
	// python marks a Python document, which is linted from the moment it reads as a config
	// (format is "" until then: a new file being written, a script).
	python bool
	// notExec is the text execConfig last found no file of settings under the options of
	// generation notExecGen (server.cfgGen): it is not asked again until either changes.
	notExec    *text
	notExecGen int
}

// published is what the last lint said about one file: the engine's diagnostics (with their
// fixes, as byte offsets into text) and the text they were computed on.
type published struct {
	version int32
	text    *text
	diags   []lint.Diagnostic
	format  doc.Format
	path    string
	// composed: the diagnostics came (also) from a run of several files or with overrides, so
	// the file alone does not make them all (fixAllAction).
	composed bool
}

type server struct {
	protocol.UnimplementedServer

	eng    Engine
	client protocol.Client
	delay  time.Duration

	mu         sync.Mutex
	enc        encoding
	docs       map[uri.URI]*document
	folders    []string // workspace folders, absolute paths
	cfg        ConfigSource
	cfgGen     int // counts the times cfg was read afresh (reloadConfig)
	results    map[uri.URI]*published
	configErrs map[uri.URI]bool // config files we published errors for
	timers     map[uri.URI]*time.Timer
	watch      bool // the client can register file watchers
	snippets   bool // the client takes completions written as snippets
	shutdown   bool
	stopped    bool

	lintMu sync.Mutex // one lint at a time: publications stay in order
	exited chan struct{}
	once   sync.Once
}

func newServer(eng Engine, client protocol.Client, opts Options) *server {
	if eng.Runs == nil {
		eng.Runs = SingleFileRuns
	}
	if eng.Lint == nil {
		eng.Lint = LintRun
	}
	if eng.Config == nil {
		eng.Config = func() ConfigSource { return func(string) (lint.Options, error) { return lint.Options{}, nil } }
	}
	delay := opts.Delay
	if delay == 0 {
		delay = DefaultDelay
	}
	return &server{
		eng: eng, client: client, delay: delay,
		docs: map[uri.URI]*document{}, results: map[uri.URI]*published{},
		configErrs: map[uri.URI]bool{}, timers: map[uri.URI]*time.Timer{},
		cfg: eng.Config(), exited: make(chan struct{}),
	}
}

func (s *server) isShutdown() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shutdown
}

// stop cancels pending lints; a timer that already fired sees stopped and does nothing.
func (s *server) stop() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.stopped = true
	for _, t := range s.timers {
		t.Stop()
	}
}

func boolp(b bool) *bool { return &b }

func (s *server) Initialize(ctx context.Context, p *protocol.InitializeParams) (*protocol.InitializeResult, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.enc = utf16Units
	var posEnc protocol.PositionEncodingKind = protocol.PositionEncodingKindUTF16
	caps := p.Capabilities
	if caps.General != nil {
		for _, e := range caps.General.PositionEncodings {
			if e == protocol.PositionEncodingKindUTF8 {
				s.enc, posEnc = utf8Bytes, e
				break
			}
		}
	}
	if caps.Workspace != nil && caps.Workspace.DidChangeWatchedFiles != nil && caps.Workspace.DidChangeWatchedFiles.DynamicRegistration != nil {
		s.watch = *caps.Workspace.DidChangeWatchedFiles.DynamicRegistration
	}
	if td := caps.TextDocument; td != nil && td.Completion != nil && td.Completion.CompletionItem != nil && td.Completion.CompletionItem.SnippetSupport != nil {
		s.snippets = *td.Completion.CompletionItem.SnippetSupport
	}
	if folders, ok := p.WorkspaceFolders.Get(); ok && len(folders) > 0 {
		for _, f := range folders {
			if f.URI.IsFile() {
				s.folders = append(s.folders, filepath.Clean(f.URI.FsPath()))
			}
		}
	} else if p.RootURI != nil && p.RootURI.IsFile() {
		s.folders = []string{filepath.Clean(p.RootURI.FsPath())}
	}
	full := protocol.TextDocumentSyncKindFull
	res := &protocol.InitializeResult{
		ServerInfo: protocol.ServerInfo{Name: "trainlint", Version: protocol.NewOptional(s.eng.Version)},
		Capabilities: protocol.ServerCapabilities{
			PositionEncoding: posEnc,
			TextDocumentSync: &protocol.TextDocumentSyncOptions{
				OpenClose: boolp(true),
				Change:    &full,
				Save:      &protocol.SaveOptions{IncludeText: boolp(false)},
			},
			CodeActionProvider: &protocol.CodeActionOptions{CodeActionKinds: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, FixAllKind}},
			HoverProvider:      protocol.Boolean(true),
			DefinitionProvider: protocol.Boolean(true),
			CompletionProvider: &protocol.CompletionOptions{},
			Workspace: &protocol.WorkspaceOptions{WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{
				Supported: boolp(true), ChangeNotifications: protocol.Boolean(true),
			}},
		},
	}
	return res, nil
}

// snippetsOn reports whether the client takes completions written as snippets.
func (s *server) snippetsOn() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.snippets
}

// Initialized asks the client to watch the config files (when it can register watchers
// dynamically); saves of open config files reload them in any case.
func (s *server) Initialized(ctx context.Context, _ *protocol.InitializedParams) error {
	s.mu.Lock()
	watch := s.watch
	s.mu.Unlock()
	if !watch {
		return nil
	}
	watchers := []protocol.FileSystemWatcher{
		{GlobPattern: protocol.Pattern("**/" + config.FileName)},
		{GlobPattern: protocol.Pattern("**/" + config.PyProject)},
	}
	for _, p := range s.eng.Repository {
		watchers = append(watchers, protocol.FileSystemWatcher{GlobPattern: protocol.Pattern("**/" + p)})
	}
	opts, err := protocol.Marshal(&protocol.DidChangeWatchedFilesRegistrationOptions{Watchers: watchers})
	if err != nil {
		return nil
	}
	// A call back to the client waits for its answer, which the read loop delivers: it must not
	// run on the read loop.
	go s.client.RegisterCapability(jsonrpc2.DetachContext(ctx), &protocol.RegistrationParams{Registrations: []protocol.Registration{{
		ID: "trainlint-config-files", Method: protocol.MethodWorkspaceDidChangeWatchedFiles, RegisterOptions: opts,
	}}})
	return nil
}

func (s *server) Shutdown(context.Context) error {
	s.mu.Lock()
	s.shutdown = true
	s.mu.Unlock()
	s.stop()
	return nil
}

func (s *server) Exit(context.Context) error {
	s.once.Do(func() { close(s.exited) })
	return nil
}

func (s *server) DidOpen(ctx context.Context, p *protocol.DidOpenTextDocumentParams) error {
	td := p.TextDocument
	d := newDocument(td.URI, string(td.LanguageID), td.Version, []byte(td.Text))
	s.mu.Lock()
	s.docs[td.URI] = d
	s.mu.Unlock()
	if isConfigFile(d.path) {
		s.reloadConfig()
	}
	s.schedule(td.URI, 0)
	return nil
}

func (s *server) DidChange(ctx context.Context, p *protocol.DidChangeTextDocumentParams) error {
	s.mu.Lock()
	d := s.docs[p.TextDocument.URI]
	if d == nil {
		s.mu.Unlock()
		return nil
	}
	for _, ch := range p.ContentChanges {
		switch c := ch.(type) {
		case *protocol.TextDocumentContentChangeWholeDocument:
			d.text = newText([]byte(c.Text))
		case *protocol.TextDocumentContentChangePartial:
			// Not asked for (sync is Full), but applied correctly if a client sends it.
			start, end := d.text.offset(c.Range.Start, s.enc), d.text.offset(c.Range.End, s.enc)
			if end < start {
				start, end = end, start
			}
			src := make([]byte, 0, len(d.text.src)-(end-start)+len(c.Text))
			src = append(append(append(src, d.text.src[:start]...), c.Text...), d.text.src[end:]...)
			d.text = newText(src)
		}
	}
	d.version = p.TextDocument.Version
	// Configs are small: a long Python file that is no config (a module being edited) is not
	// parsed again on every change to see whether it became one.
	recheck, path, src := d.python && d.format == "" && len(d.text.src) <= maxRecheck, d.path, d.text.src
	s.mu.Unlock()
	if recheck && isPythonConfig(path, src) {
		// A Python file that was no config when opened (an empty new file, a script) becomes
		// one as it is written: it is linted from now on. (Once a config, it stays one while
		// edited, so a half-typed line does not make its findings vanish.)
		s.mu.Lock()
		if s.docs[p.TextDocument.URI] == d {
			d.format = doc.Python
		}
		s.mu.Unlock()
	}
	s.schedule(p.TextDocument.URI, s.delay)
	return nil
}

func (s *server) DidSave(ctx context.Context, p *protocol.DidSaveTextDocumentParams) error {
	s.mu.Lock()
	d := s.docs[p.TextDocument.URI]
	s.mu.Unlock()
	if d != nil && s.optionsFile(d.path) {
		s.reloadConfig()
	}
	s.schedule(p.TextDocument.URI, 0)
	return nil
}

func (s *server) DidClose(ctx context.Context, p *protocol.DidCloseTextDocumentParams) error {
	s.mu.Lock()
	d := s.docs[p.TextDocument.URI]
	delete(s.docs, p.TextDocument.URI)
	delete(s.results, p.TextDocument.URI)
	if t := s.timers[p.TextDocument.URI]; t != nil {
		t.Stop()
		delete(s.timers, p.TextDocument.URI)
	}
	s.mu.Unlock()
	if d != nil {
		// The findings of a closed file go with it (as in most linters' servers).
		s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: p.TextDocument.URI, Diagnostics: []protocol.Diagnostic{}})
	}
	return nil
}

func (s *server) DidChangeWatchedFiles(ctx context.Context, p *protocol.DidChangeWatchedFilesParams) error {
	for _, ch := range p.Changes {
		if ch.URI.IsFile() && s.optionsFile(ch.URI.FsPath()) {
			s.reloadConfig()
			return nil
		}
	}
	return nil
}

func (s *server) DidChangeWorkspaceFolders(ctx context.Context, p *protocol.DidChangeWorkspaceFoldersParams) error {
	s.mu.Lock()
	removed := map[string]bool{}
	for _, f := range p.Event.Removed {
		removed[filepath.Clean(f.URI.FsPath())] = true
	}
	var keep []string
	for _, f := range s.folders {
		if !removed[f] {
			keep = append(keep, f)
		}
	}
	for _, f := range p.Event.Added {
		if f.URI.IsFile() {
			keep = append(keep, filepath.Clean(f.URI.FsPath()))
		}
	}
	s.folders = keep
	s.mu.Unlock()
	return nil
}

// DidChangeConfiguration is accepted (clients send it unasked); trainlint's settings live in
// its config files.
func (s *server) DidChangeConfiguration(context.Context, *protocol.DidChangeConfigurationParams) error {
	return nil
}

// reloadConfig drops every cached config file and re-lints the open documents.
func (s *server) reloadConfig() {
	s.mu.Lock()
	s.cfg = s.eng.Config()
	s.cfgGen++
	var open []uri.URI
	for u := range s.docs {
		open = append(open, u)
	}
	s.mu.Unlock()
	s.lintMu.Lock()
	s.clearConfigErrors()
	s.lintMu.Unlock()
	for _, u := range open {
		s.schedule(u, 0)
	}
}

// optionsFile reports a file that Config's options are read from: a config file, or one whose
// name matches one of Engine.Repository's patterns.
func (s *server) optionsFile(path string) bool {
	if isConfigFile(path) {
		return true
	}
	b := filepath.Base(path)
	for _, p := range s.eng.Repository {
		if ok, _ := filepath.Match(p, b); ok {
			return true
		}
	}
	return false
}

func isConfigFile(path string) bool {
	b := filepath.Base(path)
	return b == config.FileName || b == config.PyProject
}

func newDocument(u uri.URI, lang string, version int32, src []byte) *document {
	d := &document{uri: u, version: version, text: newText(src)}
	if u.IsFile() {
		d.path, d.onDisk = filepath.Clean(u.FsPath()), true
	} else {
		d.path = uri.Basename(u)
	}
	if f, ok := doc.FormatFromPath(d.path); ok {
		d.format = f
	} else {
		// A name without a known extension (an untitled buffer, "Dockerfile.yaml.j2"): the
		// editor's language decides.
		switch strings.ToLower(lang) {
		case "yaml":
			d.format = doc.YAML
		case "json", "jsonc":
			d.format = doc.JSON
		case "toml":
			d.format = doc.TOML
		case "gin":
			d.format = doc.Gin
		case "python":
			d.format = doc.Python
		}
	}
	if d.format == doc.Python {
		d.python = true
		if !isPythonConfig(d.path, src) {
			d.format = "" // a script or helper module, not a config: left alone, as the CLI does
		}
	}
	return d
}

// execConfig reports whether a Python file on disk that reads as no framework's config is a
// file of settings the repository's training script execs into its globals (nanoGPT's
// config/*.py: lint.Options.ExecGlobals, doc.IsExecConfig), which the CLI lints too; it is
// linted as one from then on. Only the repository tells, so the test waits for the options.
//
// The file is parsed first, and only one of nothing but assignments to plain names asks for the
// options (which may scan the repository); a text found to be none is not asked about again
// until it changes or the options are read afresh (reloadConfig), so hovers and code actions on
// a module being edited cost nothing.
func (s *server) execConfig(d *document, cfg ConfigSource) bool {
	s.mu.Lock()
	t, gen := d.text, s.cfgGen
	ok, path := d.python && d.onDisk && d.format == "" && len(t.src) <= maxRecheck && !(d.notExec == t && d.notExecGen == gen), d.path
	s.mu.Unlock()
	if !ok {
		return false
	}
	pd := doc.Parse(path, t.src, doc.Python, doc.Limits{})
	yes := pd.Assignments && pd.Root != nil
	if yes {
		o, err := cfg(path)
		yes = err == nil && doc.IsExecConfig(pd, o.ExecGlobals)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !yes {
		d.notExec, d.notExecGen = t, gen
		return false
	}
	if d.format == "" {
		d.format = doc.Python
	}
	return true
}

// maxRecheck is the largest Python file DidChange parses again to see whether it became a
// config (the largest Python config of the OpenMMLab and big_vision trees read is 75 KB).
const maxRecheck = 128 << 10

// isPythonConfig reports whether a Python file reads as a config (dialect.KnownPythonConfig),
// the test the CLI applies to the .py files it walks: an editor opens every Python file, and a
// script or helper module is not a config.
func isPythonConfig(path string, src []byte) bool {
	return dialect.KnownPythonConfig(doc.Parse(path, src, doc.Python, doc.Limits{}))
}

// schedule lints a document after delay, replacing a lint already waiting for it.
func (s *server) schedule(u uri.URI, delay time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.stopped {
		return
	}
	if t := s.timers[u]; t != nil {
		t.Stop()
	}
	s.timers[u] = time.AfterFunc(delay, func() {
		s.mu.Lock()
		stopped := s.stopped
		s.mu.Unlock()
		if stopped {
			return
		}
		defer func() {
			if r := recover(); r != nil {
				s.client.ShowMessage(context.Background(), &protocol.ShowMessageParams{Type: protocol.MessageTypeError,
					Message: fmt.Sprintf("trainlint: linting %s failed: %v (a bug in trainlint; please report it with the file)", u, r)})
			}
		}()
		s.lintAndPublish(context.Background(), u)
	})
}

// readFile gives a file's current text: the open document's when the client has it open,
// else the disk's.
func (s *server) readFile(path string) (*text, int32, doc.Format, bool) {
	s.mu.Lock()
	for _, d := range s.docs {
		if d.path == path {
			t, v, f := d.text, d.version, d.format
			s.mu.Unlock()
			return t, v, f, true
		}
	}
	s.mu.Unlock()
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, 0, "", false
	}
	f, _ := doc.FormatFromPath(path)
	return newText(b), 0, f, true
}

// uriFor maps a linted path back to the URI the client knows it by.
func (s *server) uriFor(path string) uri.URI {
	s.mu.Lock()
	defer s.mu.Unlock()
	for u, d := range s.docs {
		if d.path == path {
			return u
		}
	}
	return uri.File(path)
}

// lintDoc lints the runs that include one open document, the way `trainlint check` lints its
// files, and returns what it found per file.
func (s *server) lintDoc(u uri.URI) map[uri.URI]*published {
	s.mu.Lock()
	d := s.docs[u]
	cfg := s.cfg
	s.mu.Unlock()
	if d == nil || d.format == "" && !s.execConfig(d, cfg) {
		return nil
	}
	runs := []Run{{Files: []string{d.path}}}
	var opts lint.Options
	if d.onDisk {
		runs = s.eng.Runs(d.path, func(p string) ([]byte, bool) {
			t, _, _, ok := s.readFile(p)
			if !ok {
				return nil, false
			}
			return t.src, true
		}, s.folderOf(d.path))
		o, err := cfg(d.path)
		if err != nil {
			s.publishConfigError(err)
		} else {
			opts = o
		}
	}
	// Each file's text is taken once: every run's findings on it, and the fixes a code action
	// applies to that text, are of the same version.
	type version struct {
		t  *text
		v  int32
		f  doc.Format
		ok bool
	}
	s.mu.Lock()
	taken := map[string]version{d.path: {d.text, d.version, d.format, true}}
	s.mu.Unlock()
	out := map[uri.URI]*published{}
	for _, run := range runs {
		var files []lint.File
		texts := map[string]*published{}
		for _, p := range run.Files {
			r, ok := taken[p]
			if !ok {
				r.t, r.v, r.f, r.ok = s.readFile(p)
				taken[p] = r
			}
			if !r.ok {
				continue
			}
			files = append(files, lint.File{Path: p, Text: r.t.src, Format: r.f})
			texts[p] = &published{version: r.v, text: r.t, format: r.f, path: p, diags: []lint.Diagnostic{}}
		}
		if len(files) == 0 {
			continue
		}
		// The runs are linted one at a time, so a run's lint does not see the others: its
		// fixes are kept only in the edited file, when that is its primary and no other run
		// reads it (lint.DropSharedFixes). A primary this lint reaches from one of its bases or
		// group files may be read by runs the finder did not look for.
		o := opts
		o.NoRunFixes = len(runs) > 1 || run.Files[0] != d.path
		o.HydraMainDir, o.HydraMainCandidates = run.MainDir, run.MainCandidates
		var res *lint.Result
		if run.Root != "" {
			res = LintRunAt(run.Root, files, run.Overrides, s.eng.Rules, o)
		} else {
			res = s.eng.Lint(files, run.Overrides, s.eng.Rules, o)
		}
		for _, fi := range res.Files {
			if fi.Path == d.path && fi.Framework != "" && fi.Framework != dialect.Generic.Name {
				s.mu.Lock()
				d.framework = fi.Framework
				s.mu.Unlock()
			}
		}
		for _, diag := range res.Diagnostics {
			if pub := texts[diag.File]; pub != nil {
				pub.diags = append(pub.diags, diag)
			}
		}
		for p, pub := range texts {
			fu := u
			if p != d.path {
				fu = s.uriFor(p)
			}
			pub.composed = len(run.Files) > 1 || len(run.Overrides) > 0 || run.Root != ""
			if prev := out[fu]; prev != nil {
				// A file in several runs: keep each distinct finding once.
				pub.diags = mergeDiags(prev.diags, pub.diags)
				pub.composed = pub.composed || prev.composed
			}
			out[fu] = pub
		}
	}
	return out
}

func mergeDiags(a, b []lint.Diagnostic) []lint.Diagnostic {
	type key struct {
		code, msg string
		line, col int
	}
	seen := map[key]bool{}
	var out []lint.Diagnostic
	for _, d := range append(append([]lint.Diagnostic(nil), a...), b...) {
		k := key{d.Code, d.Message, d.Line, d.Column}
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

func (s *server) lintAndPublish(ctx context.Context, u uri.URI) {
	s.lintMu.Lock()
	defer s.lintMu.Unlock()
	s.mu.Lock()
	d := s.docs[u]
	var t *text
	if d != nil {
		t = d.text
	}
	s.mu.Unlock()
	if d != nil && isConfigFile(d.path) {
		s.checkConfigDoc(ctx, u, d.path, t)
		return
	}
	for fu, pub := range s.lintDoc(u) {
		s.mu.Lock()
		_, open := s.docs[fu]
		if open {
			s.results[fu] = pub
		}
		enc := s.enc
		s.mu.Unlock()
		params := &protocol.PublishDiagnosticsParams{URI: fu, Diagnostics: s.toLSP(pub, enc)}
		if open {
			params.Version = protocol.NewOptional(pub.version)
		}
		s.client.PublishDiagnostics(ctx, params)
	}
}

// current returns the findings of an open document for its current text, linting again when
// the text changed since the last lint (a code action must edit the text the client has).
func (s *server) current(u uri.URI) (*published, *document) {
	s.mu.Lock()
	d := s.docs[u]
	pub := s.results[u]
	fresh := d != nil && pub != nil && pub.version == d.version && pub.text == d.text
	s.mu.Unlock()
	if d == nil {
		return nil, nil
	}
	if !fresh {
		s.lintMu.Lock()
		pub = s.lintDoc(u)[u]
		s.lintMu.Unlock()
	}
	return pub, d
}

// checkConfigDoc validates an open config file's text as typed: its mistakes at their lines,
// or none.
func (s *server) checkConfigDoc(ctx context.Context, u uri.URI, path string, t *text) {
	if s.eng.CheckConfig == nil {
		return
	}
	ds := []protocol.Diagnostic{}
	if err := s.eng.CheckConfig(path, t.src); err != nil {
		for p, more := range s.configDiagnostics(err, func(string) *text { return t }) {
			if p == path || p == "" {
				ds = append(ds, more...)
			}
		}
	}
	s.client.PublishDiagnostics(ctx, &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: ds})
}

// configDiagnostics turns config mistakes into diagnostics by file (absolute path; "" for an
// error without a file). textOf gives each file's text for positions.
func (s *server) configDiagnostics(err error, textOf func(string) *text) map[string][]protocol.Diagnostic {
	var many config.Errors
	var one *config.Error
	switch {
	case errors.As(err, &many):
	case errors.As(err, &one):
		many = config.Errors{one}
	default:
		return map[string][]protocol.Diagnostic{"": {{Severity: protocol.DiagnosticSeverityError, Source: protocol.NewOptional("trainlint"),
			Code: protocol.String("config"), Message: protocol.String(err.Error())}}}
	}
	s.mu.Lock()
	enc := s.enc
	s.mu.Unlock()
	byFile := map[string][]protocol.Diagnostic{}
	for _, e := range many {
		p, _ := filepath.Abs(e.File)
		t := textOf(p)
		var r protocol.Range
		if t != nil && e.Line > 0 {
			r.Start = t.posFromLineCol(e.Line, e.Col, enc)
			r.End = r.Start
			if l := t.line(int(r.Start.Line)); l != nil {
				r.End = t.position(t.starts[r.Start.Line]+len(l), enc)
			}
		}
		byFile[p] = append(byFile[p], protocol.Diagnostic{
			Range: r, Severity: protocol.DiagnosticSeverityError, Source: protocol.NewOptional("trainlint"),
			Code: protocol.String("config"), Message: protocol.String(e.Msg),
		})
	}
	return byFile
}

// publishConfigError shows a broken config file's mistakes on the config file itself (each with
// its line), so the user sees why their settings do not apply; the document is then linted with
// the defaults.
func (s *server) publishConfigError(err error) {
	byFile := s.configDiagnostics(err, func(p string) *text {
		t, _, _, _ := s.readFile(p)
		return t
	})
	if ds := byFile[""]; len(ds) > 0 {
		s.client.ShowMessage(context.Background(), &protocol.ShowMessageParams{Type: protocol.MessageTypeError, Message: "trainlint: " + err.Error()})
		delete(byFile, "")
	}
	for p, ds := range byFile {
		u := s.uriFor(p)
		s.mu.Lock()
		_, open := s.docs[u]
		if open && s.eng.CheckConfig != nil {
			// The editor has this config open: its own text is checked as typed
			// (checkConfigDoc), which the file on disk must not overwrite.
			s.mu.Unlock()
			continue
		}
		s.configErrs[u] = true
		s.mu.Unlock()
		s.client.PublishDiagnostics(context.Background(), &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: ds})
	}
}

func (s *server) clearConfigErrors() {
	s.mu.Lock()
	var us []uri.URI
	for u := range s.configErrs {
		us = append(us, u)
	}
	s.configErrs = map[uri.URI]bool{}
	s.mu.Unlock()
	for _, u := range us {
		s.client.PublishDiagnostics(context.Background(), &protocol.PublishDiagnosticsParams{URI: u, Diagnostics: []protocol.Diagnostic{}})
	}
}

// inWorkspace reports whether path lies inside a workspace folder (or, without folders, under
// dir, the folder of the file that refers to it).
func (s *server) inWorkspace(path, dir string) bool {
	s.mu.Lock()
	roots := append([]string(nil), s.folders...)
	s.mu.Unlock()
	if len(roots) == 0 {
		roots = []string{dir}
	}
	for _, r := range roots {
		if rel, err := filepath.Rel(r, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// folderOf returns the workspace folder holding path ("" when none does).
func (s *server) folderOf(path string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	best := ""
	for _, r := range s.folders {
		if rel, err := filepath.Rel(r, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && len(r) > len(best) {
			best = r
		}
	}
	return best
}
