package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/trainlint/trainlint/lint"
)

// A copy of torchtune (a checkout or fork: the torchtune/ package beside version.txt, which
// vendored reads) runs its own recipes: `tune run NAME` resolves a recipe the registry names to
// ROOT/recipes/<file_path>, ROOT being the folder that holds the torchtune package
// (torchtune/_cli/run.py:23 and :187 at v0.5.0 and bd2a0fc; registry names are the file paths
// without .py, torchtune/_recipe_registry.py), and pyproject.toml installs the recipes package
// from the same folder (include = ["torchtune*", "recipes*"]). Whether one of them has a
// validation loop is then its own file's: UpstageAI's qat_lora_finetune_distributed.py at
// 0318e7da reads no run_val_every_n_steps, the one at bd2a0fc does (:201).

// withCheckoutRecipes sets o.CheckoutRecipes for a file linted for the version of a torchtune
// copy above it.
func withCheckoutRecipes(o lint.Options, file string) lint.Options {
	if t, ok := o.Targets["torchtune"]; !ok || !t.Vendored {
		return o
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return o
	}
	if t, d, ok := nearestPin(filepath.Dir(abs), "torchtune"); ok && t.Vendored {
		o.CheckoutRecipes = checkoutRecipes(d)
	}
	return o
}

// valRead is a recipe's read of the key that turns validation on: cfg.get("run_val_every_n_steps",
// None) (recipes/full_finetune_distributed.py:215 @bd2a0fc) or cfg.run_val_every_n_steps.
var valRead = regexp.MustCompile(`["']run_val_every_n_steps["']|\.run_val_every_n_steps\b`)

// checkoutRecipes are the recipes of the torchtune copy at root (recipes/*.py and
// recipes/dev/*.py), by file name without .py, and whether each reads run_val_every_n_steps;
// nil when it has none. Read once per root.
func checkoutRecipes(root string) map[string]bool {
	cache := &repo.Load().recipes
	if v, ok := cache.Load(root); ok {
		return v.(map[string]bool)
	}
	var out map[string]bool
	for _, sub := range []string{"recipes", filepath.Join("recipes", "dev")} {
		files, _ := filepath.Glob(filepath.Join(root, sub, "*.py"))
		for _, f := range files {
			name := strings.TrimSuffix(filepath.Base(f), ".py")
			data, err := os.ReadFile(f)
			if err != nil || len(data) > 4<<20 || name == "__init__" {
				continue
			}
			if out == nil {
				out = map[string]bool{}
			}
			// A name in recipes/ and recipes/dev/ validates if either file does.
			out[name] = out[name] || valRead.Match(data)
		}
	}
	cache.Store(root, out)
	return out
}
