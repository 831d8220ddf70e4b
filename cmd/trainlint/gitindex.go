package main

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
)

// A .gitignore pattern does not apply to a file git already tracks: a project that ignores
// `*.yaml` and commits its configs with `git add -f` (OpenPCDet's tools/cfgs) has them in every
// clone, and a walk that honoured the pattern alone linted none of them and passed. So the
// walker reads the repository's index (gitformat-index(5), versions 2 to 4, SHA-1 or SHA-256
// object names) for the paths git tracks, and a tracked file, or a folder holding one, is walked
// whatever the ignore files say.
//
// This is a reader of the index's entry list only (extensions are not read): the format is
// small and fixed, and a git library would bring a whole git implementation for one list of
// paths. With a split index (core.splitIndex) the entries in the shared index are not seen, and
// the ignore files decide for them, as before.

// maxIndexBytes bounds the index read (a repository of about a million files); a larger one is
// not read, and the ignore files alone decide.
const maxIndexBytes = 128 << 20

// gitTracked is what a repository's index tracks: files, and every folder that holds one.
type gitTracked struct {
	top   string // slash-separated absolute path of the work tree's top folder
	files map[string]bool
	dirs  map[string]bool
}

// has reports whether the slash-separated absolute path p is tracked (a folder: holds a
// tracked file).
func (t *gitTracked) has(p string, isDir bool) bool {
	if t == nil || !strings.HasPrefix(p, t.top+"/") {
		return false
	}
	rel := p[len(t.top)+1:]
	if isDir {
		return t.dirs[rel]
	}
	return t.files[rel]
}

// loadTracked reads the index of the work tree whose top folder is top (nil when there is none
// or it cannot be read).
func loadTracked(top string) *gitTracked {
	gitDir := filepath.Join(top, ".git")
	fi, err := os.Stat(gitDir)
	if err != nil {
		return nil
	}
	if !fi.IsDir() {
		// A linked work tree or a submodule: ".git" is a file naming the folder.
		data, err := readSmall(gitDir)
		if err != nil {
			return nil
		}
		line, _, _ := strings.Cut(string(data), "\n")
		dir, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
		if !ok {
			return nil
		}
		gitDir = strings.TrimSpace(dir)
		if !filepath.IsAbs(gitDir) {
			gitDir = filepath.Join(top, gitDir)
		}
	}
	hashLen := 20
	if objectFormat(gitDir) == "sha256" {
		hashLen = 32
	}
	f, err := os.Open(filepath.Join(gitDir, "index"))
	if err != nil {
		return nil
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || st.Size() > maxIndexBytes {
		return nil
	}
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(f); err != nil {
		return nil
	}
	paths, _, ok := parseGitIndex(buf.Bytes(), hashLen)
	if !ok {
		return nil
	}
	t := &gitTracked{top: filepath.ToSlash(top), files: make(map[string]bool, len(paths)), dirs: map[string]bool{}}
	for _, p := range paths {
		if strings.HasSuffix(p, "/") {
			// A sparse index's folder entry: everything below it is tracked.
			p = strings.TrimSuffix(p, "/")
			t.dirs[p] = true
		} else {
			t.files[p] = true
		}
		for d := p; ; {
			i := strings.LastIndexByte(d, '/')
			if i < 0 {
				break
			}
			d = d[:i]
			if t.dirs[d] {
				break
			}
			t.dirs[d] = true
		}
	}
	return t
}

// objectFormat is the repository's extensions.objectformat ("sha1" when not set), read from the
// config of gitDir, or of the common folder a linked work tree's commondir names.
func objectFormat(gitDir string) string {
	if data, err := readSmall(filepath.Join(gitDir, "commondir")); err == nil {
		common := strings.TrimSpace(string(data))
		if !filepath.IsAbs(common) {
			common = filepath.Join(gitDir, common)
		}
		gitDir = common
	}
	data, err := readSmall(filepath.Join(gitDir, "config"))
	if err != nil {
		return "sha1"
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "objectformat") && strings.EqualFold(strings.TrimSpace(v), "sha256") {
			return "sha256"
		}
	}
	return "sha1"
}

// parseGitIndex reads the paths of an index's entries and where the entries end (ok false when
// the data is not an index of a version it knows, or is cut short). hashLen is the object
// names' length in bytes.
func parseGitIndex(data []byte, hashLen int) (paths []string, end int, ok bool) {
	if len(data) < 12 || string(data[:4]) != "DIRC" {
		return nil, 0, false
	}
	version := binary.BigEndian.Uint32(data[4:])
	count := binary.BigEndian.Uint32(data[8:])
	if version < 2 || version > 4 {
		return nil, 0, false
	}
	// Each entry takes at least its fixed part and a byte of name: a count past that is no index.
	fixed := 40 + hashLen + 2 // stat data, object name, flags
	if uint64(count) > uint64(len(data))/uint64(fixed+1) {
		return nil, 0, false
	}
	paths = make([]string, 0, count)
	off, prev := 12, ""
	for range count {
		start := off
		if off+fixed > len(data) {
			return nil, 0, false
		}
		flags := binary.BigEndian.Uint16(data[off+40+hashLen:])
		off += fixed
		if flags&0x4000 != 0 { // extended flags
			if version < 3 {
				return nil, 0, false
			}
			off += 2
		}
		if off > len(data) {
			return nil, 0, false
		}
		var name string
		if version == 4 {
			// The name is the previous one less its last `strip` bytes, then this suffix.
			strip, n := indexVarint(data[off:])
			if n == 0 || strip > uint64(len(prev)) {
				return nil, 0, false
			}
			off += n
			end := bytes.IndexByte(data[off:], 0)
			if end < 0 {
				return nil, 0, false
			}
			name = prev[:len(prev)-int(strip)] + string(data[off:off+end])
			off += end + 1
		} else {
			end := bytes.IndexByte(data[off:], 0)
			if end < 0 {
				return nil, 0, false
			}
			name = string(data[off : off+end])
			off += end + 1
			// 1 to 8 NULs pad the entry to a multiple of eight bytes (the first one read above).
			if off = start + (off-start+7)&^7; off > len(data) {
				return nil, 0, false
			}
		}
		if name == "" {
			return nil, 0, false
		}
		paths = append(paths, name)
		prev = name
	}
	return paths, off, true
}

// indexVarint decodes the index's offset-style variable-length integer (each continuation adds
// one before shifting), returning the value and the bytes read (0 when malformed or too long).
func indexVarint(b []byte) (uint64, int) {
	if len(b) == 0 {
		return 0, 0
	}
	c := b[0]
	v := uint64(c & 127)
	i := 1
	for c&128 != 0 {
		if i >= len(b) || i >= 9 {
			return 0, 0
		}
		c = b[i]
		i++
		v = (v+1)<<7 | uint64(c&127)
	}
	return v, i
}
