package lint

import (
	"io"
	"io/fs"
	"path"
	"sort"
	"strings"
	"time"

	"github.com/trainlint/trainlint/lint/compose"
	"github.com/trainlint/trainlint/lint/doc"
)

// LintFiles lints files a driver holds in memory (the browser checker's tabs, the language
// server's unsaved buffers) the way LintTree lints a tree on disk, through LintTree itself:
// the runs among them are found (compose.Discover); with overrides, the Hydra primaries found
// are composed with them instead (their experiments are not added: the overrides say what is
// launched, as with the CLI's --override). The files of a config directory get the structural
// rules alone and the runs report the rest, at the file and line that set each value. Paths
// are slash paths relative to one root. A file that cannot be part of a tree is linted alone,
// as Lint lints it: a path that is not a valid fs.FS path (absolute, ".."), the second of two
// files with the same path, a format other than its extension's (the checker's format menu),
// a file over the size limit. The result lists the files in the order given.
func LintFiles(files []File, overrides []string, rules []*Rule, o Options) *Result {
	fsys, paths, alone := treeOf(files)
	var specs []compose.Spec
	if len(overrides) > 0 {
		specs = withOverrides(fsys, paths, overrides)
	}
	res := NewResult()
	if len(paths) > 0 {
		res = LintTree(fsys, paths, specs, rules, o)
	}
	info := map[string]FileInfo{}
	for _, fi := range res.Files {
		info[fi.Path] = fi
	}
	res.Files = res.Files[:0:0]
	for i, f := range files {
		if alone[i] {
			fi, diags := LintFile(f, rules, o)
			res.Files = append(res.Files, fi)
			res.Diagnostics = append(res.Diagnostics, diags...)
		} else if fi, ok := info[f.Path]; ok {
			res.Files = append(res.Files, fi)
		}
	}
	SortDiagnostics(res.Diagnostics)
	return res
}

// RunParts reports which of files (by index) LintFiles lints as part of a Hydra run, the
// primaries and the group files of their config directories: their own lint is structural
// only, so a driver that fixes files one by one (the browser's fix) offers only those fixes.
func RunParts(files []File, overrides []string) []bool {
	fsys, paths, alone := treeOf(files)
	specs, fragments := compose.Discover(fsys, paths)
	if len(overrides) > 0 {
		specs = withOverrides(fsys, paths, overrides)
	}
	out := make([]bool, len(files))
	roots := map[string]bool{}
	for _, s := range specs {
		roots[s.Primary] = true
	}
	for i, f := range files {
		out[i] = !alone[i] && len(specs) > 0 && (fragments[f.Path] || roots[f.Path])
	}
	return out
}

// treeOf puts the files that can be part of a tree into an in-memory file system; alone marks
// the others (see LintFiles).
func treeOf(files []File) (memFS, []string, []bool) {
	fsys := memFS{}
	var paths []string
	alone := make([]bool, len(files))
	for i, f := range files {
		ext, _ := doc.FormatFromPath(f.Path)
		_, dup := fsys[f.Path]
		if dup || !fs.ValidPath(f.Path) || f.Path == "." || f.Size > int64(len(f.Text)) || (f.Format != "" && f.Format != ext) {
			alone[i] = true
			continue
		}
		fsys[f.Path] = f.Text
		paths = append(paths, f.Path)
	}
	return fsys, paths, alone
}

// withOverrides is the runs overrides launch: each Hydra primary found, composed with them.
func withOverrides(fsys fs.FS, paths, overrides []string) []compose.Spec {
	found, _ := compose.Discover(fsys, paths)
	var specs []compose.Spec
	for _, s := range found {
		if len(s.Overrides) == 0 {
			specs = append(specs, compose.Spec{Primary: s.Primary, Overrides: overrides})
		}
	}
	return specs
}

// memFS is a read-only fs.FS over in-memory texts (slash path → bytes); folders are the
// prefixes of the paths. It implements what composition reads: ReadFile and ReadDir.
type memFS map[string][]byte

func (m memFS) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	if b, ok := m[name]; ok {
		return &memFile{info: memInfo{name: path.Base(name), size: int64(len(b))}, data: b}, nil
	}
	if ents, err := m.ReadDir(name); err == nil {
		return &memFile{info: memInfo{name: path.Base(name), dir: true}, ents: ents}, nil
	}
	return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
}

func (m memFS) ReadFile(name string) ([]byte, error) {
	if b, ok := m[name]; ok && fs.ValidPath(name) {
		return append([]byte(nil), b...), nil // fs.ReadFileFS: the caller may modify it
	}
	return nil, &fs.PathError{Op: "read", Path: name, Err: fs.ErrNotExist}
}

func (m memFS) ReadDir(name string) ([]fs.DirEntry, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	prefix := name + "/"
	if name == "." {
		prefix = ""
	}
	seen := map[string]bool{}
	var out []fs.DirEntry
	for p, b := range m {
		rest, ok := strings.CutPrefix(p, prefix)
		if !ok || rest == "" {
			continue
		}
		child, _, isDir := strings.Cut(rest, "/")
		if seen[child] {
			continue
		}
		seen[child] = true
		info := memInfo{name: child, dir: isDir}
		if !isDir {
			info.size = int64(len(b))
		}
		out = append(out, info)
	}
	if len(out) == 0 && name != "." {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrNotExist}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name() < out[j].Name() })
	return out, nil
}

// memInfo is a file's or folder's fs.FileInfo and its fs.DirEntry. (fs.FileInfoToDirEntry
// would do, but its entries' String method, fs.FormatDirEntry, added 13 KB to the
// WebAssembly module.)
type memInfo struct {
	name string
	dir  bool
	size int64
}

func (i memInfo) Type() fs.FileMode          { return i.Mode().Type() }
func (i memInfo) Info() (fs.FileInfo, error) { return i, nil }

func (i memInfo) Name() string       { return i.name }
func (i memInfo) Size() int64        { return i.size }
func (i memInfo) ModTime() time.Time { return time.Time{} }
func (i memInfo) IsDir() bool        { return i.dir }
func (i memInfo) Sys() any           { return nil }
func (i memInfo) Mode() fs.FileMode {
	if i.dir {
		return fs.ModeDir | 0o555
	}
	return 0o444
}

// memFile is an open file or folder of a memFS.
type memFile struct {
	info memInfo
	data []byte
	off  int
	ents []fs.DirEntry
}

func (f *memFile) Stat() (fs.FileInfo, error) { return f.info, nil }
func (f *memFile) Close() error               { return nil }
func (f *memFile) Read(p []byte) (int, error) {
	if f.info.dir {
		return 0, &fs.PathError{Op: "read", Path: f.info.name, Err: fs.ErrInvalid}
	}
	if f.off >= len(f.data) {
		return 0, io.EOF
	}
	n := copy(p, f.data[f.off:])
	f.off += n
	return n, nil
}

// ReadDir reads a folder's entries (fs.ReadDirFile).
func (f *memFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if !f.info.dir {
		return nil, &fs.PathError{Op: "readdir", Path: f.info.name, Err: fs.ErrInvalid}
	}
	rest := f.ents[f.off:]
	if n > 0 && len(rest) == 0 {
		return nil, io.EOF
	}
	if n > 0 && n < len(rest) {
		rest = rest[:n]
	}
	f.off += len(rest)
	return rest, nil
}
