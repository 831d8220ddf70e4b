package main

import (
	"path"
	"regexp"
	"strings"
)

// A small .gitignore matcher: enough of gitignore(5) for walking config folders the way git
// sees them: comments, escapes, trailing-space trimming, negation, directory-only patterns,
// anchoring by a slash, `*`, `?`, `[...]` and `**` in leading, middle and trailing position.
// Precedence follows git: a deeper .gitignore overrides a shallower one, and within one file
// the last matching line wins. Re-including a file inside an ignored folder is impossible, as in
// git: the walker enters an ignored folder only for the files git tracks in it (gitindex.go),
// which no ignore file excludes.

type ignoreRule struct {
	negate   bool
	dirOnly  bool
	anchored bool // matched against the path relative to the file's folder, not the base name
	re       *regexp.Regexp
}

// ignoreFile is one .gitignore (or .git/info/exclude) and the folder its patterns are relative to.
type ignoreFile struct {
	base  string // slash-separated absolute folder
	rules []ignoreRule
}

func parseIgnore(base string, data []byte) *ignoreFile {
	f := &ignoreFile{base: base}
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSuffix(line, "\r")
		line = trimTrailingSpaces(line)
		if line == "" || line[0] == '#' {
			continue
		}
		var r ignoreRule
		if line[0] == '!' {
			r.negate = true
			line = line[1:]
		} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
			line = line[1:]
		}
		if strings.HasSuffix(line, "/") {
			r.dirOnly = true
			line = strings.TrimRight(line, "/")
		}
		if line == "" {
			continue
		}
		if strings.Contains(line, "/") {
			r.anchored = true
			line = strings.TrimPrefix(line, "/")
		}
		re, err := regexp.Compile(globToRegexp(line))
		if err != nil {
			continue // a pattern git would not match either
		}
		r.re = re
		f.rules = append(f.rules, r)
	}
	return f
}

// trimTrailingSpaces drops trailing spaces unless the last one is escaped with a backslash.
func trimTrailingSpaces(s string) string {
	for strings.HasSuffix(s, " ") {
		if strings.HasSuffix(s, `\ `) {
			return s[:len(s)-2] + " "
		}
		s = s[:len(s)-1]
	}
	return s
}

func globToRegexp(pat string) string {
	segs := strings.Split(pat, "/")
	var b strings.Builder
	b.WriteString("^")
	for i, seg := range segs {
		last := i == len(segs)-1
		if seg == "**" {
			if i > 0 {
				b.WriteString("/")
			}
			if last {
				b.WriteString(".*") // "a/**": everything inside a
			} else {
				b.WriteString("(?:.*/)?") // "**/b", "a/**/b": zero or more folders
			}
			continue
		}
		if i > 0 && segs[i-1] != "**" {
			b.WriteString("/")
		}
		b.WriteString(segToRegexp(seg))
	}
	b.WriteString("$")
	return b.String()
}

func segToRegexp(seg string) string {
	var b strings.Builder
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch c {
		case '*':
			b.WriteString("[^/]*")
		case '?':
			b.WriteString("[^/]")
		case '\\':
			if i+1 < len(seg) {
				i++
				b.WriteString(regexp.QuoteMeta(seg[i : i+1]))
			}
		case '[':
			end := strings.IndexByte(seg[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := seg[i+1 : i+1+end]
			if end == 0 { // "[]...]": a literal ']' first in the class
				if e2 := strings.IndexByte(seg[i+2:], ']'); e2 >= 0 {
					class = seg[i+1 : i+2+e2]
					end = e2 + 1
				}
			}
			i += end + 1
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String()
}

// match reports whether a rule of f matches rel (slash-separated, relative to f.base), and if so
// whether the last matching rule ignores it.
func (f *ignoreFile) match(rel string, isDir bool) (matched, ignored bool) {
	name := path.Base(rel)
	for _, r := range f.rules {
		if r.dirOnly && !isDir {
			continue
		}
		subject := name
		if r.anchored {
			subject = rel
		}
		if r.re.MatchString(subject) {
			matched, ignored = true, !r.negate
		}
	}
	return matched, ignored
}

// ignoreStack holds the ignore files that apply in a folder, shallowest first.
type ignoreStack []*ignoreFile

// ignored reports whether the slash-separated absolute path is ignored.
func (s ignoreStack) ignored(abs string, isDir bool) bool {
	for i := len(s) - 1; i >= 0; i-- {
		f := s[i]
		rel, ok := strings.CutPrefix(abs, f.base+"/")
		if f.base == "/" {
			rel, ok = strings.TrimPrefix(abs, "/"), true
		}
		if !ok || rel == "" {
			continue
		}
		if m, ign := f.match(rel, isDir); m {
			return ign
		}
	}
	return false
}
