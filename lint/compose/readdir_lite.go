//go:build trainlint_lite

package compose

import "io/fs"

// readDir in the light WebAssembly module: every tree it composes is lint's in-memory one,
// which lists a folder itself (fs.ReadDirFS, entries sorted by name as fs.ReadDir returns
// them), so fs.ReadDir's fallback (Open, then sorting the entries: a sort instantiated for
// fs.DirEntry alone) is not linked.
func readDir(fsys fs.FS, p string) ([]fs.DirEntry, error) {
	if d, ok := fsys.(fs.ReadDirFS); ok {
		return d.ReadDir(p)
	}
	return nil, &fs.PathError{Op: "readdir", Path: p, Err: fs.ErrInvalid}
}
