package lsp

import (
	"path/filepath"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// codeRefTarget lists the files a reference of a code config at off may name, nearest first:
// a gin `include` (found as lint/compose finds it: from the workspace folder, then from each
// folder between it and the including file, then a name that starts with the workspace
// folder's own name from the folder above it) and a Python import of the file's bases or of a
// module of the tree (new-style MMEngine `with read_base(): from ._base_.x import *`, a relative
// module from the file's folder, one folder up per further dot; `from ._base_ import sched`
// also names the module sched of the package ._base_; an absolute module from the nearest
// folder up that holds it, as a development install finds a repository's own package).
func (s *server) codeRefTarget(d *doc.Document, off int, dir string) []string {
	for _, r := range d.Refs {
		if off < r.Span.Start.Offset || off > r.Span.End.Offset || r.Target == "" {
			continue
		}
		root := s.folderOf(dir)
		ups := upFolders(dir, root)
		switch {
		case d.Format == doc.Gin && r.Kind == "include":
			t := filepath.FromSlash(strings.TrimSpace(r.Target))
			if filepath.IsAbs(t) {
				return []string{filepath.Clean(t)}
			}
			var out []string
			if root != "" {
				out = append(out, filepath.Join(root, t))
			}
			for _, a := range ups { // nearest first, as lint/compose's ginInclude
				out = append(out, filepath.Join(a, t))
			}
			// a name that starts with the workspace folder's own name, from the folder above
			if first, _, ok := strings.Cut(filepath.ToSlash(t), "/"); ok && root != "" && first == filepath.Base(root) {
				out = append(out, filepath.Join(filepath.Dir(root), t))
			}
			return out
		case d.Format == doc.Python && (r.Kind == "base" || r.Kind == "import"):
			mods := []string{r.Target}
			_, last := splitKey(r.Target)
			if w := wordAt(d.Src, off); w != "" && w != last && !strings.Contains(w, ".") {
				mods = append(mods, submodule(r.Target, w)) // from pkg import module
			}
			var out []string
			for i := len(mods) - 1; i >= 0; i-- {
				m := mods[i]
				level := len(m) - len(strings.TrimLeft(m, "."))
				rest := strings.ReplaceAll(m[level:], ".", string(filepath.Separator))
				if rest == "" {
					continue
				}
				if level > 0 {
					base := dir
					for range level - 1 {
						base = filepath.Dir(base)
					}
					out = append(out, filepath.Join(base, rest+".py"))
					continue
				}
				for _, a := range ups {
					out = append(out, filepath.Join(a, rest+".py"))
				}
			}
			return out
		}
	}
	return nil
}

// upFolders is dir and each folder above it up to root (dir alone when root is "" or does not
// hold it).
func upFolders(dir, root string) []string {
	out := []string{dir}
	if root == "" {
		return out
	}
	for a := dir; a != root; {
		up := filepath.Dir(a)
		if up == a {
			return []string{dir}
		}
		a = up
		out = append(out, a)
	}
	return out
}

// wordAt is the dotted name around off in src.
func wordAt(src []byte, off int) string {
	s, e := off, off
	for s > 0 && (isIdentByte(src[s-1]) || src[s-1] == '.') {
		s--
	}
	for e < len(src) && (isIdentByte(src[e]) || src[e] == '.') {
		e++
	}
	return string(src[s:e])
}

// submodule is module name of `from mod import name`: "..sched" for `from .. import sched`,
// "._base_.sched" for `from ._base_ import sched`.
func submodule(mod, name string) string {
	if strings.Trim(mod, ".") == "" {
		return mod + name
	}
	return mod + "." + name
}
