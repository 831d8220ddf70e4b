package main

import (
	"context"
	"errors"
	"io"

	"github.com/trainlint/trainlint/cmd/trainlint/internal/lsp"
	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/config"
)

const lspHelp = `Usage: trainlint lsp

Runs the trainlint language server on standard input and output, for editors: findings as you
type, quick fixes, hover, completion and go to definition in YAML, JSON, TOML, gin and Python
training configs. The nearest .trainlint.toml (or [tool.trainlint] in pyproject.toml) applies
to each file, as for check. Start it from the editor's LSP client; see the README's Editors
section.
`

// runLSP is `trainlint lsp`: the language server on standard input and output (package lsp).
// It lints with check's own pieces: the rule set, the nearest config file per file (fileOptions)
// and the engine's entry point.
func runLSP(args []string, stdin io.Reader, stdout io.Writer) (int, error) {
	for _, a := range args {
		switch a {
		case "--stdio": // editors' launchers often pass it; it is the only transport there is
		case "-h", "-help", "--help":
			io.WriteString(stdout, lspHelp)
			return exitOK, nil
		default:
			return exitUsage, usagef("lsp takes no arguments (it talks LSP on standard input and output)")
		}
	}
	err := lsp.Serve(context.Background(), stdin, stdout, lspEngine(allRules()), lsp.Options{})
	if errors.Is(err, lsp.ErrNoShutdown) {
		return 1, nil // what the protocol asks of a server told to exit without shutdown
	}
	if err != nil {
		return exitUsage, err
	}
	return exitOK, nil
}

// lspEngine is what the language server lints with: check's rule set, the nearest config file
// per file with what the repository tells (fileOptions), and the runs a file belongs to.
func lspEngine(rs []*lint.Rule) lsp.Engine {
	return lsp.Engine{
		Rules:   rs,
		Version: lint.Version,
		Runs:    editorRuns,
		// What withRepo reads: a changed pin, train script or dataclass relints the open files.
		Repository: repoFiles,
		Config: func() lsp.ConfigSource {
			forgetRepo()
			loader := config.NewLoader(rs)
			return func(path string) (lint.Options, error) { return fileOptions(loader, path) }
		},
		CheckConfig: func(path string, src []byte) error {
			_, err := config.NewLoader(rs).Parse(path, src)
			return err
		},
	}
}
