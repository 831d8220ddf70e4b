package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/rules"
)

// BenchmarkCorpus lints the whole shared corpus the way `trainlint check` does (walk, parallel
// lint, merge), without rendering.
func BenchmarkCorpus(b *testing.B) {
	corpus := filepath.Join("..", "..", "..", "shared", "corpus")
	if _, err := os.Stat(corpus); err != nil {
		b.Skip("no corpus")
	}
	rs := rules.All()
	for b.Loop() {
		ins, _, _ := collectInputs([]string{corpus}, "")
		lintInputs(ins, nil, rs, sameOptions(lint.Options{}), 0)
	}
}
