//go:build !trainlint_lite

package compose

import "io/fs"

// FromFS is an io/fs file system (os.DirFS, os.Root.FS, fstest.MapFS) as an FS.
func FromFS(fsys fs.FS) FS { return ioFS{fsys} }

type ioFS struct{ fsys fs.FS }

func (f ioFS) ReadFile(name string) ([]byte, error) { return fs.ReadFile(f.fsys, name) }

func (f ioFS) ReadDir(name string) ([]Entry, error) { return Entries(fs.ReadDir(f.fsys, name)) }

// Entries converts the result of fs.ReadDir.
func Entries(ents []fs.DirEntry, err error) ([]Entry, error) {
	if len(ents) == 0 {
		return nil, err
	}
	out := make([]Entry, len(ents))
	for i, e := range ents {
		out[i] = Entry{Name: e.Name(), Dir: e.IsDir()}
	}
	return out, err
}
