package compose

import (
	"path"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// Composition of configs written as code (code-configs.md): MMEngine `_base_` chains and
// `with read_base():` imports, and gin `include`. The composer is the Hydra one's (the same
// Run, origins, limits and problems); only the merge order differs, and it is each framework's
// own (verified in mmengine v0.10.7 mmengine/config/config.py and gin-config's gin/config.py at
// 8ebbd2a):
//
//   - MMEngine, old style (`_base_ = 'x.py'` or a list): each base path is joined to the
//     including file's folder (Config._get_cfg_path); the bases are composed in list order into
//     one dict, and a top-level key set by two bases is refused ("Duplicate key is not allowed
//     among bases"); the file's own variables are then merged into it (Config._merge_a_into_b):
//     a dict merges key by key into a dict of the same name unless it says `_delete_=True`
//     (then it replaces it), anything else replaces, and a dict over a base value that is not
//     a dict is refused. `{{_base_.x}}` and `_base_.x` written as a whole value take the
//     bases' value (Config._pre_substitute_base_vars, and `_base_` is the bases' dict while
//     the file runs). An operation on a part of the bases (`_base_.max_epochs - 2`, a test,
//     an f-string field; Document.ReadsBases) makes the composer read the file again with the
//     bases' values (doc.Options.Bases), so the result is known when the part is a scalar
//     there that no edit run before the read may have changed. A container taken by an
//     operation (`[*_base_.pre_transform, ...]`, `_base_.custom_hooks[:-2]`, `+`, a loop,
//     `getattr(_base_, 'custom_hooks', [])`) is the bases' own object, shared by every read;
//     an edit after the read that may change it leaves it unknown, and a change the file
//     makes to its items leaves that part of the bases unknown (doc's baseVal). Items the
//     file leaves as they were are named as parts of the bases, which puts the bases' own
//     nodes there (a finding on them points at the base file). Since the file runs
//     with `_base_` bound to the bases' dict and is merged into that same dict, its
//     assignments into `_base_` (`_base_.model.backbone.norm_cfg.type = 'SyncBN'`, also through
//     a name bound to a part of it or to `_base_` itself; Document.BaseEdits) are applied to
//     the bases, in order, before its own variables are merged in; a change the reader cannot
//     follow (update, append, del, an unknown index) leaves that part unknown, and a read of a
//     part that an edit may change after it stays unknown (the statements' order decides it;
//     a function's edits count at the module-level statement that calls it). A base in another
//     package (`mmaction::_base_/default_runtime.py`) is read from the tree when the tree is
//     that package's repository (its `configs` folder is what the installed package's
//     `.mim/configs` holds; see packageConfig), and is unresolved otherwise.
//   - MMEngine, new style (`with read_base(): from .._base_.x import *`): the module's level
//     of dots climbs folders from the file's own (Config._parse_lazy_import); the imported
//     names become the file's variables and its own assignments replace them (plain Python:
//     nothing merges). The file runs with those names bound to the base modules' own values
//     (ImportTransformer.visit_ImportFrom, no copy), so once the bases are read it is read
//     again with them (doc.Options.Bases): an in-place change (`model.head.loss = ...`,
//     `train_dataloader.update(batch_size=64)`, merged as ConfigDict.update merges) is an
//     edit of the imported value, as `_base_.x = ...` is in the old style, an operation on
//     one reads its value, and a change the reader cannot follow (append, del, an unknown
//     index) leaves it unknown. An absolute module (`opencompass.configs.datasets.x`) is read from the tree
//     when the nearest folder from the file's up holds its whole path (the repository's own
//     package, as a development install finds it: get_installed_path); otherwise it is an
//     installed package's config: not read (unresolved).
//   - gin: statements apply in order and a later binding of the same parameter wins, so an
//     `include` takes effect at its line: what the file binds after it overrides the included
//     file, what it bound before is overridden. gin opens an include at each search-path
//     prefix in turn (the working directory first); T5X writes them from the repository root,
//     so a name is looked for at the root of the tree, then below each folder from the
//     including file's up. Macros (`%NAME`) are read when the configurable is called, so a
//     use takes the run's last binding of NAME, whichever file set it.
//   - ml_collections (scenic, big_vision): a get_config that calls a function of another
//     module of the repository (`config = get_coco_config()`, `return
//     base.get_config(job_type='eval')`) runs it: Python imports the module (its top level
//     runs) and calls the function, and what it returns is the caller's object, changed in
//     place by the caller's assignments. The module is read from the tree as an absolute
//     import of a package installed from it finds it, the function is read with the caller's
//     arguments, and the caller's changes are applied in order (code_calls.go).
//
// A base that is missing, outside the tree or an installed package's is unresolved (TL006), and
// the run keeps `_base_` (or the file's base imports), so the dialect still treats the run as
// partial and rules stay silent on what the missing file could set.

const mmBaseKey, mmDeleteKey = "_base_", "_delete_"

// IsCodeConfig reports whether p names a config written as code (Python or gin).
func IsCodeConfig(p string) bool {
	e := strings.ToLower(path.Ext(p))
	return e == ".py" || e == ".gin"
}

func codeFormat(p string) doc.Format {
	switch strings.ToLower(path.Ext(p)) {
	case ".gin":
		return doc.Gin
	case ".yaml", ".yml":
		return doc.YAML // an MMEngine base may be YAML or JSON (Config._file2dict)
	case ".json":
		return doc.JSON
	}
	return doc.Python
}

// codeRuns lists, sorted, the code configs among files that name bases (`_base_ = ...` at the
// start of a line, or `read_base`) or include a gin file: each is a run unless discoverCode
// finds it a component another run reads.
func codeRuns(fsys FS, files []string) []string {
	var code []string
	for _, f := range files {
		if !IsCodeConfig(f) {
			continue
		}
		b, err := fsys.ReadFile(f)
		if err != nil || codeFormat(f) == doc.Python && doc.ParsesArgs(b) || !namesBases(codeFormat(f), string(b)) {
			// (a module that parses its command line is a script, whatever it binds to _base_)
			continue
		}
		code = append(code, f)
	}
	doc.SortStrings(code)
	return code
}

func namesBases(f doc.Format, s string) bool {
	for _, line := range strings.Split(s, "\n") {
		if f == doc.Gin {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "include"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
				return true
			}
			continue
		}
		if rest, ok := strings.CutPrefix(line, mmBaseKey); ok && strings.HasPrefix(strings.TrimSpace(rest), "=") {
			return true
		}
	}
	return f == doc.Python && strings.Contains(s, "read_base")
}
