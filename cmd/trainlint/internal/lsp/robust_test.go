package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// TestEveryPositionOfCorpusFiles asks hover, completion, definition and code actions at every
// line (start, middle, end and past the end) of real configs of each format from the shared
// corpus, and at positions past the end of the file: no request may fail or panic, and every
// range the server returns must lie inside the document.
func TestEveryPositionOfCorpusFiles(t *testing.T) {
	corpus := filepath.Join("..", "..", "..", "..", "..", "shared", "corpus")
	picks := map[string]int{".yaml": 4, ".json": 2, ".toml": 2, ".py": 2, ".gin": 2}
	var files []string
	filepath.WalkDir(corpus, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		if ext := filepath.Ext(p); picks[ext] > 0 {
			picks[ext]--
			files = append(files, p)
		}
		return nil
	})
	if len(files) == 0 {
		t.Fatalf("no corpus files under %s", corpus)
	}
	s := start(t, t.TempDir())
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		u := uri.File(f)
		lang := strings.TrimPrefix(filepath.Ext(f), ".")
		if err := s.server.DidOpen(s.ctx, &protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{URI: u, LanguageID: protocol.LanguageKind(lang), Version: 1, Text: string(src)}}); err != nil {
			t.Fatal(err)
		}
		tx := newText(src)
		lines := uint32(len(tx.starts))
		inside := func(r protocol.Range, what string) {
			if r.Start.Line > lines || r.End.Line > lines || before(r.End, r.Start) {
				t.Errorf("%s: %s range %+v outside the document", f, what, r)
			}
		}
		step := max(uint32(1), lines/60)
		for ln := uint32(0); ln <= lines+1; ln += step {
			n := uint32(units(tx.line(int(ln)), utf16Units))
			for _, ch := range []uint32{0, n / 2, n, n + 3} {
				pos := protocol.Position{Line: ln, Character: ch}
				tdp := protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: pos}
				h, err := s.server.Hover(s.ctx, &protocol.HoverParams{TextDocumentPositionParams: tdp})
				if err != nil {
					t.Fatalf("%s: hover at %+v: %v", f, pos, err)
				}
				if h != nil && h.Range != nil {
					inside(*h.Range, "hover")
				}
				c, err := s.server.Completion(s.ctx, &protocol.CompletionParams{TextDocumentPositionParams: tdp})
				if err != nil {
					t.Fatalf("%s: completion at %+v: %v", f, pos, err)
				}
				if items, ok := c.(protocol.CompletionItemSlice); ok {
					for _, it := range items {
						if te, ok := it.TextEdit.(*protocol.TextEdit); ok {
							inside(te.Range, "completion edit")
							if te.Range.Start.Line != te.Range.End.Line {
								t.Errorf("%s: completion edit spans lines: %+v", f, te.Range)
							}
						}
					}
				}
				if _, err := s.server.Definition(s.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: tdp}); err != nil {
					t.Fatalf("%s: definition at %+v: %v", f, pos, err)
				}
				acts, err := s.server.CodeAction(s.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Range: protocol.Range{Start: pos, End: pos}})
				if err != nil {
					t.Fatalf("%s: code actions at %+v: %v", f, pos, err)
				}
				for _, a := range acts {
					if ca, ok := a.(*protocol.CodeAction); ok && ca.Edit != nil {
						for _, edits := range ca.Edit.Changes {
							for _, e := range edits {
								inside(e.Range, "code action edit")
							}
						}
					}
				}
			}
		}
	}
}
