package compose

import "io/fs"

// FS is the tree composition reads: files and folders by slash path from its root (the paths
// of io/fs, fs.ValidPath). Drivers supply it (the CLI a folder confined by os.Root, the
// checker the files of its request); the engine opens nothing itself.
//
// It is not io/fs.FS on purpose: a File's Stat and a DirEntry's Info give an fs.FileInfo,
// whose ModTime is a time.Time, and any io/fs.FS value in the WebAssembly checker keeps time's
// formatting code in it (about 17 KB gzip) for reflection's sake. FromFS adapts an fs.FS.
type FS interface {
	// ReadFile returns a file's bytes; the caller may keep them but must not modify them.
	ReadFile(name string) ([]byte, error)
	// ReadDir lists a folder, sorted by name.
	ReadDir(name string) ([]Entry, error)
}

// Named is an FS that knows its root folder's own name (the CLI's tree: the repository's
// folder). A gin include may name a file from the folder above the repository, where its
// package lives (tensor2robot's `include 'tensor2robot/research/...'`): the composition
// resolves such a name at the root when its first part is the root's name.
type Named interface {
	RootName() string
}

// Entry is a name in a folder.
type Entry struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Name string
	Dir  bool // a folder
}

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
