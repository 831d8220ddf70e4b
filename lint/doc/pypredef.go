package doc

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// MMEngine's predefined variables. Config._file2dict (mmengine v0.10.7,
// mmengine/config/config.py: _substitute_predefined_vars) rewrites the text of an old-style
// config before Python reads it: every `{{ fileDirname }}`, `{{ fileBasename }}`,
// `{{ fileBasenameNoExtension }}` and `{{ fileExtname }}` (regexp `\{\{\s*NAME\s*\}\}`, in that
// order, backslashes of the value turned into '/') becomes the config file's folder, name,
// name without extension and extension; each base file is read by _file2dict too, so a base
// gets its own names. A config read in lazy-import mode (Config._is_lazy_import: `with
// read_base()`, a relative import, an import of a module that is not the standard library's)
// is not rewritten, and ml_collections (get_config) never rewrites.
//
// The reader does the same inside string literals, where configs write them
// (`work_dir = './work_dirs/{{fileBasenameNoExtension}}'`): the string's value is the
// rewritten text, its span the literal as written. An f-string that holds one is unknown.
// The file's name is the path it is linted under (relative to the run; in the browser, the
// tab's name): MMEngine uses the absolute folder, which depends on the machine, so
// fileDirname is the folder as the run names it ("." for a file at its root).

// pyPredef holds the four values, in predefNames' order.
type pyPredef struct {
	vals [4]string
}

var predefNames = [4]string{"fileDirname", "fileBasename", "fileBasenameNoExtension", "fileExtname"}

// newPredef computes the values for a file linted as name.
func newPredef(name string) *pyPredef {
	p := strings.ReplaceAll(name, `\`, "/")
	dir, base := ".", p
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		dir, base = strings.TrimRight(p[:i], "/"), p[i+1:]
		if dir == "" {
			dir = "/"
		}
	}
	stem, ext := splitExt(base)
	return &pyPredef{vals: [4]string{dir, base, stem, ext}}
}

// splitExt is os.path.splitext on a file name: the extension starts at the last dot, unless
// only dots precede it (".bashrc" has none).
func splitExt(base string) (stem, ext string) {
	i := strings.LastIndexByte(base, '.')
	if i <= 0 || strings.Trim(base[:i], ".") == "" {
		return base, ""
	}
	return base[:i], base[i:]
}

// substitute rewrites s as _substitute_predefined_vars does; changed reports a rewrite.
func (p *pyPredef) substitute(s string) (out string, changed bool) {
	if !strings.Contains(s, "{{") {
		return s, false
	}
	for k, name := range predefNames {
		var b strings.Builder
		last := 0
		for i := 0; i < len(s); {
			j := strings.Index(s[i:], "{{")
			if j < 0 {
				break
			}
			j += i
			if end, ok := predefMatch(s, j+2, name); ok {
				b.WriteString(s[last:j])
				b.WriteString(p.vals[k])
				last, i = end, end
				continue
			}
			i = j + 1
		}
		if last > 0 {
			b.WriteString(s[last:])
			s, changed = b.String(), true
		}
	}
	return s, changed
}

// predefMatch matches `\s*NAME\s*\}\}` at s[i:], returning the end of the match.
func predefMatch(s string, i int, name string) (int, bool) {
	i = skipPySpace(s, i)
	if !strings.HasPrefix(s[i:], name) {
		return 0, false
	}
	i = skipPySpace(s, i+len(name))
	if !strings.HasPrefix(s[i:], "}}") {
		return 0, false
	}
	return i + 2, true
}

// pyIsSpace reports what str.isspace() and Python's `\s` in a str pattern take for white
// space: Unicode's, and U+001C to U+001F.
func pyIsSpace(r rune) bool { return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f }

// skipPySpace skips what Python's `\s` matches in a str pattern (str.isspace).
func skipPySpace(s string, i int) int {
	for i < len(s) {
		r, n := utf8.DecodeRuneInString(s[i:])
		if !pyIsSpace(r) {
			break
		}
		i += n
	}
	return i
}

// mmPredefined is the rewrite for a file linted as name, or nil when MMEngine would not
// rewrite it: an ml_collections config (a top-level get_config), or one Config._is_lazy_import
// reads in lazy mode. That check walks the syntax tree breadth first and stops at the first
// `_base_ = ...` (not lazy), `with` (lazy), relative `from . import` (lazy), or import of a
// module outside the standard library (lazy); mmengine.config and
// `from mmengine import Config` do not count.
func mmPredefined(a *pyArena, module pyIds, name string, tx *pyText) *pyPredef {
	stmts := a.ids(module)
	for _, id := range stmts {
		if st := a.st(id); st.kind == sDef && a.more(st).fn.name == "get_config" {
			return nil
		}
	}
	// Breadth first: the module's statements, then the statements in their bodies (queued
	// when the first is met: most configs decide at the top level or have no bodies).
	var queue []int32
	for i := 0; i < len(stmts)+len(queue); i++ {
		var st *pyStmt
		if i < len(stmts) {
			st = a.st(stmts[i])
		} else {
			st = a.st(queue[i-len(stmts)])
		}
		switch st.kind {
		case sAssign:
			if isBaseLine(a, st, tx) {
				return newPredef(name)
			}
		case sWith:
			return nil
		case sFrom:
			x := a.more(st)
			switch {
			case strings.HasPrefix(x.mod, "."):
				return nil
			case x.mod == "mmengine" && len(x.names) == 1 && x.names[0] == "Config":
			case !stdlibModule(x.mod):
				return nil
			}
		case sImport:
			for _, m := range a.more(st).names {
				if !stdlibModule(m) {
					return nil
				}
			}
		}
		queue = append(queue, a.ids(st.body)...)
		queue = append(queue, a.ids(st.orelse)...)
		for _, x := range a.more(st).extra {
			queue = append(queue, a.ids(x)...)
		}
		if st.kind == sDef {
			queue = append(queue, a.ids(a.more(st).fn.body)...)
		}
	}
	return newPredef(name)
}

// stdlibModule reports whether a module is one _is_builtin_module accepts: mmengine.config, or
// the standard library (the modules configs import; another standard module counts as not,
// so such a file is taken as lazy and its text is not rewritten).
func stdlibModule(m string) bool {
	if m == "mmengine.config" || strings.HasPrefix(m, "mmengine.config.") {
		return true
	}
	top, _, _ := strings.Cut(m, ".")
	switch top {
	case "os", "sys", "math", "copy", "re", "json", "time", "datetime", "functools", "itertools",
		"collections", "pathlib", "typing", "warnings", "random", "string", "platform", "socket",
		"getpass", "glob", "shutil", "tempfile", "logging", "argparse", "dataclasses", "enum",
		"abc", "numbers", "operator", "pickle", "io", "uuid", "hashlib", "inspect", "importlib",
		"contextlib", "types", "textwrap", "decimal", "fractions", "statistics", "csv", "struct",
		"base64", "pprint", "posixpath", "ntpath", "builtins":
		return true
	}
	return false
}

// predefStr is a string literal's value with the predefined variables rewritten (nil when
// none of its parts holds one, or a part is bytes).
func (ev *pyEval) predefStr(e *pyExpr) *pyVal {
	braces := false
	for _, t := range ev.etoks(e) {
		if bytes.Contains(ev.src[t.body:t.end-int(t.quote)], []byte("{{")) {
			braces = true
		}
	}
	if !braces {
		return nil // the common case: no copy of the literal
	}
	var b strings.Builder
	changed := false
	for _, t := range ev.etoks(e) {
		if t.is(pfxBytes) {
			return nil
		}
		raw := string(ev.src[t.body : t.end-int(t.quote)])
		sub, ok := ev.predef.substitute(raw)
		if !ok {
			b.WriteString(ev.tx.at(&t))
			continue
		}
		changed = true
		if t.is(pfxRaw) {
			b.WriteString(sub)
		} else {
			b.WriteString(pyUnescape(sub))
		}
	}
	if !changed {
		return nil
	}
	ev.grow(b.Len() / 64)
	return ev.strVal(b.String(), e.s, e.e)
}

// predefIn reports whether a literal's source holds a predefined variable the rewrite replaces.
func (p *pyPredef) predefIn(src []byte) bool {
	if p == nil || !bytes.Contains(src, []byte("{{")) {
		return false
	}
	_, changed := p.substitute(string(src))
	return changed
}
