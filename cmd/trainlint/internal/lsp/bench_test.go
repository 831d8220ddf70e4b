package lsp

import (
	"os"
	"path/filepath"
	"testing"

	"go.lsp.dev/uri"
)

// BenchmarkRelintAfterChange is the cost of one keystroke's lint once the debounce fires: a
// 320-line NeMo config of the shared corpus (megatron_gpt_config.yaml) is changed (a value
// flips between two numbers) and linted as the server does it (config lookup, engine, runs),
// then converted to LSP diagnostics. The number is in the package documentation.
func BenchmarkRelintAfterChange(b *testing.B) {
	src := filepath.Join("..", "..", "..", "..", "..", "shared", "corpus", "NVIDIA__NeMo", "examples__nlp__language_modeling__conf__megatron_gpt_config.yaml")
	orig, err := os.ReadFile(src)
	if err != nil {
		b.Skipf("corpus not present: %v", err)
	}
	dir := b.TempDir()
	path := filepath.Join(dir, "megatron_gpt_config.yaml")
	if err := os.WriteFile(path, orig, 0o644); err != nil {
		b.Fatal(err)
	}
	s := newServer(testEngine(), nil, Options{})
	u := uri.File(path)
	s.docs[u] = newDocument(u, "yaml", 1, orig)
	// Two versions of the text: the edit a user makes while typing.
	alt := append([]byte(nil), orig...)
	for i := range alt {
		if alt[i] >= '1' && alt[i] <= '8' {
			alt[i]++
			break
		}
	}
	texts := []*text{newText(orig), newText(alt)}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		s.docs[u].text = texts[i%2]
		s.docs[u].version = int32(i)
		pub := s.lintDoc(u)[u]
		if pub == nil {
			b.Fatal("nothing linted")
		}
		_ = s.toLSP(pub, utf16Units)
	}
}
