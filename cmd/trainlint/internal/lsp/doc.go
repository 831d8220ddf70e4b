// Package lsp is `trainlint lsp`: a Language Server Protocol server on standard input and output
// that shows in the editor what `trainlint check` reports on the command line.
//
// # Features
//
//   - Diagnostics on open, on change (debounced: DefaultDelay after the last keystroke) and on
//     save, published per file, each with its rule code, a link to the rule's page
//     (codeDescription), its severity, its help and its related locations ("train batch set
//     here").
//   - Quick fixes (code actions) for every fix a finding carries, the safe ones preferred, and a
//     "suppress with reason" action that inserts `# trainlint: disable=RULE -- TODO: say why this
//     is fine here` on the line above (YAML and TOML; JSON has no comments, so it gets no such
//     action: its findings are silenced by [[ignore]] in the config file). The action is offered
//     only after the edited text has been linted and still parses with the finding gone. A
//     source action (source.fixAll.trainlint, which editors can run on save) applies every safe
//     fix of the file with the engine's fixer, as `trainlint check --fix` does; in a file of a
//     composed run (an MMEngine config with bases, a Hydra primary), the safe fixes its
//     published findings carry, those of its runs included, in one round.
//   - Hover on a key: what it means, its type, its default and where the default comes from (the
//     dialect's framework and the version its key table was checked against); on a section's
//     key, the framework keys below it; on a finding: its
//     rule's documentation with links to the rule's page and the playbook section.
//   - Completion of the detected framework's keys that belong at the cursor (and are not written
//     yet), each inserted with its default; in a value position, a key's allowed values. In
//     configs written as code (complete_code.go) a key is written as the spot writes keys: a
//     dict(...) keyword (`max_keep_ckpts=-1`), a {...} display's item (`'max_keep_ckpts': -1`,
//     with the quote already typed), a module variable or a ConfigDict attribute
//     (`config.input.prefetch = 2`), a gin binding (`utils.SaveCheckpointConfig.keep = None`;
//     before a binding's last dot, the whole paths that continue it),
//     with the default only where it is a literal; inside lists, other calls, subscripts and
//     function locals nothing is offered. Above a framework's keys, the sections that lead to
//     them (sections.go: `trainer` at the top of a Lightning config), each opened for its keys
//     with the cursor inside when the client takes snippets: `trainer:` and an indented new
//     line in YAML (a list's dash for a list of items), `"zero_optimization": {}` in JSON,
//     `checkpoint=dict()` or `train_cfg = dict()` in Python; none in TOML, whose table header
//     would take the keys below it, or gin.
//   - Go to definition on references to other files that resolve inside the workspace:
//     `deepspeed:` paths (and accelerate's deepspeed_config_file, Lightning's strategy config),
//     Hydra defaults-list entries (`- trainer: gpu`, `- override /model: big`, `- base`),
//     includes (`include`, `_base_`, `extend`), and the references of code configs
//     (code_refs.go): gin `include` lines and the module imports of Python configs
//     (new-style MMEngine `with read_base(): from ._base_.x import *`).
//   - The nearest .trainlint.toml or [tool.trainlint] of pyproject.toml applies to each file,
//     exactly as for check; the server asks the client to watch both names and reloads them on
//     change (workspace/didChangeWatchedFiles) or when one open in the editor is saved. A broken
//     config file gets its mistakes as diagnostics at their lines, and files are linted with the
//     defaults meanwhile; a config file open in the editor is checked as it is typed. What
//     the options also read from the repository (Engine.Repository: cmd/trainlint's pins,
//     train scripts and argument dataclasses) is watched the same way: a change or a save of
//     one of those files reads the repository again and re-lints the open files.
//   - Multi-root workspaces: every workspace folder (and later added ones) counts as "inside
//     the workspace" for definitions; config discovery is per file, so each folder's own config
//     applies to its files.
//
// Files are linted as runs: RunFinder returns the runs that include the edited file and the
// server lints each (Engine.Lint, by default LintRun: lint.LintFiles, what check does with a
// tree) and publishes every file's findings to that file, each distinct finding once when
// several runs share a file. The files of a run are read through the editor: an open file's
// unsaved text overrides the disk, for the composition as for the lint. cmd/trainlint passes
// its finder in (editorRuns): the Hydra runs (lint/compose) of the primary configs in the
// edited file's folder or up to three folders above whose composition reads the file, an
// experiment's run with its experiment=<name> override; then, for a recipe that names a
// DeepSpeed file (`deepspeed:`, a Lightning DeepSpeed strategy's config) or a JSON file such
// recipes name, the recipe with the files it names, read from the repository's root (Run.Root,
// linted by LintRunAt), so the recipe/DeepSpeed consistency findings appear while either is
// edited; a file no run reads is a run of one (SingleFileRuns). A group file's own structural
// checks come with each run, as with check. A Python or gin config is linted through the code
// runs that read it (MMEngine `_base_` chains, gin includes, ml_collections get_configs built
// by another module's function: its own run when it names bases or calls such a function, and
// up to eight runs of the configs below the repository's root built on it; a module of
// ml_collections functions too), so a base gets
// the findings of the configs built on it at its own lines and no lint of its own as a whole
// config. The repository's root is the nearest folder above with .git; where there is none (a
// downloaded release opened in the editor), the outermost with a Python project's file
// (pyproject.toml, setup.py, setup.cfg), else the workspace folder that holds the file, when
// it is at most six folders up (RunFinder's folder). A Python file is left alone while it reads as no config (a script, a helper
// module, the CLI's test for walked .py files) and linted from the change that makes it one
// (a new file being written).
//
// # Library
//
// The protocol types and the JSON-RPC transport are go.lsp.dev/protocol and go.lsp.dev/jsonrpc2
// (v1, 2026, with their go.lsp.dev/uri): maintained, generated from the official LSP meta-model
// (the whole 3.17 surface, positionEncoding and codeDescription included), and light (their one
// other import, go-json-experiment/json, was already in the build). github.com/tliron/glsp, the other common
// choice, stops at LSP 3.16, has had no release since 2024, and brings a logging framework,
// websockets and terminal libraries with it. The server builds its connection itself rather than
// through protocol.NewServer, whose handlers run concurrently: here requests are handled in the
// order they arrive (a didChange is applied before the hover that follows it) while linting runs
// on timers off the read loop.
//
// The server reuses cmd/trainlint's pieces, never copies them: the rule set, config discovery
// (fileOptions, through Engine.Config) and the engine's entry points (lint.Lint, lint.LintFiles).
//
// Positions: LSP counts UTF-16 code units unless the client offers UTF-8 (then UTF-8 bytes);
// the engine counts code points and keeps byte offsets, which the server converts per line.
//
// # Performance
//
// BenchmarkRelintAfterChange: re-linting a 320-line NeMo config from the shared corpus after a
// one-character change, the way the server does it once the debounce fires (config lookup,
// engine, conversion to LSP diagnostics): 0.54 to 0.91 ms and 215 KB (262 allocations) per lint
// over four runs on this 2-core machine (Go 1.26, shared with other builds), against a budget of
// 5 ms. The debounce delay (150 ms) is what a user waits for, not the lint.
//
// # Tests
//
// lsp_test.go drives the server in-process over a pipe with go.lsp.dev/protocol's client.
// clients_test.go builds the binary and runs two real clients: headless Neovim's built-in LSP
// client (testdata/nvim/client.lua: opens the example, waits for the findings, runs
// vim.lsp.buf.code_action() and picks the quick fix, sees the finding go) and a Node client on
// vscode-jsonrpc and vscode-languageserver-protocol (testdata/node/client.js: the same plus hover,
// completion, definition, save and shutdown). robust_test.go asks every feature at every line of
// corpus files of each format (gin and Python too); FuzzCodeSpot runs the code configs' cursor
// scans on any bytes; FuzzPositions checks the position conversions on any bytes (60 s,
// 272k executions, clean).
//
// # Editors
//
// VS Code: the extension in cmd/vscode-trainlint (`make vsix`). Elsewhere, start `trainlint lsp`
// for YAML, JSON and TOML files. The snippets follow each editor's documented configuration; no
// test runs them (the Neovim test starts the same command through Neovim's built-in client with
// vim.lsp.start_client, which also works in Neovim 0.7).
//
// Neovim 0.11 and later:
//
//	vim.lsp.config('trainlint', {
//	  cmd = { 'trainlint', 'lsp' },
//	  filetypes = { 'yaml', 'json', 'toml' },
//	  root_markers = { '.trainlint.toml', 'pyproject.toml', '.git' },
//	})
//	vim.lsp.enable('trainlint')
//
// Neovim 0.8 to 0.10:
//
//	vim.api.nvim_create_autocmd('FileType', {
//	  pattern = { 'yaml', 'json', 'toml' },
//	  callback = function(args)
//	    local marker = vim.fs.find({ '.trainlint.toml', '.git' }, { upward = true, path = vim.fs.dirname(args.file) })[1]
//	    vim.lsp.start({ name = 'trainlint', cmd = { 'trainlint', 'lsp' }, root_dir = marker and vim.fs.dirname(marker) })
//	  end,
//	})
//
// Helix, languages.toml (list the servers a language already uses next to trainlint, since the
// list replaces the default):
//
//	[language-server.trainlint]
//	command = "trainlint"
//	args = ["lsp"]
//
//	[[language]]
//	name = "yaml"
//	language-servers = ["yaml-language-server", "trainlint"]
//
//	[[language]]
//	name = "toml"
//	language-servers = ["taplo", "trainlint"]
//
// Zed runs language servers from extensions: a dev extension (zed: install dev extension) of
// three files. extension.toml:
//
//	id = "trainlint"
//	name = "trainlint"
//	version = "0.1.0"
//	schema_version = 1
//
//	[language_servers.trainlint]
//	name = "trainlint"
//	languages = ["YAML", "JSON", "TOML"]
//
// Cargo.toml (crate-type = ["cdylib"], dependency zed_extension_api) and src/lib.rs:
//
//	use zed_extension_api::{self as zed, LanguageServerId, Result};
//
//	struct Trainlint;
//
//	impl zed::Extension for Trainlint {
//	    fn new() -> Self { Trainlint }
//	    fn language_server_command(&mut self, _id: &LanguageServerId, worktree: &zed::Worktree) -> Result<zed::Command> {
//	        let path = worktree.which("trainlint").ok_or("trainlint is not on PATH")?;
//	        Ok(zed::Command { command: path, args: vec!["lsp".into()], env: Default::default() })
//	    }
//	}
//
//	zed::register_extension!(Trainlint);
//
// then, in settings.json, "languages": {"YAML": {"language_servers": ["...", "trainlint"]}}.
//
// Emacs with lsp-mode (runs beside the YAML server as an add-on):
//
//	(with-eval-after-load 'lsp-mode
//	  (lsp-register-client
//	   (make-lsp-client :new-connection (lsp-stdio-connection '("trainlint" "lsp"))
//	                    :activation-fn (lsp-activate-on "yaml" "json" "toml")
//	                    :add-on? t
//	                    :server-id 'trainlint)))
//
// Emacs with Eglot (one server per mode: this replaces the YAML server in these modes):
//
//	(with-eval-after-load 'eglot
//	  (add-to-list 'eglot-server-programs
//	               '((yaml-mode yaml-ts-mode json-ts-mode toml-ts-mode) . ("trainlint" "lsp"))))
package lsp
