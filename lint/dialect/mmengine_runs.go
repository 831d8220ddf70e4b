package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// mmInherits reports whether the file builds on base files (`_base_ = [...]` or a
// `with read_base():` import). Under `_base_` MMEngine merges each top-level dict into the
// base's dict of the same name (unless it says `_delete_=True`); under read_base a dict the file
// rebinds replaces the base's (plain Python, mmengine v0.10.7 Config._parse_lazy_import), but
// one it updates keeps the base's keys. Either way a key this file leaves out may be set in a
// base, and no default can be assumed for it.
func mmInherits(d *doc.Document) bool {
	return d.Root.Get("_base_") != nil || d.HasRef("base")
}

// mmMerged reports whether the dict n may receive keys from a base file.
func mmMerged(inherits bool, n *doc.Node) bool {
	if !inherits {
		return false
	}
	del, _ := n.Get("_delete_").Bool()
	return !del
}

// mmTestOnly reports a model that raises when trained, so that its config only runs tests:
// DeepSORT, StrongSORT (a DeepSORT) and Tracktor, whose detector and re-identification model are
// trained apart, raise NotImplementedError from forward_train (MMTracking v0.14.0,
// mmtrack/models/mot/deep_sort.py and tracktor.py) or loss (MMTracking v1.0.0rc1, and
// MMDetection 3.x's mmdet/models/mot/deep_sort.py @a18623f). A type named by an import
// (`type=DeepSORT`) is read by its last name.
func mmTestOnly(root *doc.Node) bool {
	t := root.Get("model").Get("type")
	if t == nil || !t.IsScalar() {
		return false
	}
	name := t.Value
	if i := strings.LastIndexByte(name, '.'); i >= 0 {
		name = name[i+1:]
	}
	switch name {
	case "DeepSORT", "StrongSORT", "Tracktor":
		return true
	}
	return false
}
