package lint_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/compose"
	"github.com/trainlint/trainlint/rules"
)

// rebuildTree rebuilds a corpus repository's tree (its original paths, from MANIFEST.tsv) in a
// temporary folder and returns the folder and the files' slash paths inside it.
func rebuildTree(t testing.TB, repo string) (string, []string) {
	t.Helper()
	dir := corpusDir(t)
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	tmp := t.TempDir()
	var files []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 4 || cols[1] != repo {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(cols[0])))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(tmp, filepath.FromSlash(cols[3]))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, cols[3])
	}
	if len(files) == 0 {
		t.Fatalf("no files of %s in the corpus manifest", repo)
	}
	return tmp, files
}

func TestRunsLightningHydraTemplateExplore(t *testing.T) {
	tmp, files := rebuildTree(t, "ashleve/lightning-hydra-template")
	res := lint.LintTree(os.DirFS(tmp), files, nil, rules.All(), lint.Options{})
	for _, d := range res.Diagnostics {
		t.Logf("%s:%d %s %s %s", d.File, d.Line, d.Code, d.Key, d.Message)
		for _, r := range d.Related {
			t.Logf("   note %s:%d %s", r.File, r.Line, r.Message)
		}
	}
}

func TestRunsExplore2(t *testing.T) {
	tmp, files := rebuildTree(t, "ashleve/lightning-hydra-template")
	for _, ov := range [][]string{{"debug=default"}, {"trainer=ddp"}, {"experiment=example", "trainer.devices=8", "+trainer.foo=1", "~seed"}} {
		res := lint.LintTree(os.DirFS(tmp), files, []compose.Spec{{Primary: "configs/train.yaml", Overrides: ov}}, rules.All(), lint.Options{})
		for _, d := range res.Diagnostics {
			t.Logf("%v %s:%d %s %s %s", ov, d.File, d.Line, d.Code, d.Key, d.Message)
			for _, r := range d.Related {
				t.Logf("   note %s:%d %s", r.File, r.Line, r.Message)
			}
		}
	}
}
