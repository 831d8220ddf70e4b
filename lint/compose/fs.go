package compose

import (
	"strings"
	"unicode/utf8"
)

// FS is the tree composition reads: files and folders by slash path from its root (the paths
// of io/fs, fs.ValidPath). Drivers supply it (the CLI a folder confined by os.Root, the
// checker the files of its request); the engine opens nothing itself.
//
// It is not io/fs.FS on purpose: a File's Stat and a DirEntry's Info give an fs.FileInfo,
// whose ModTime is a time.Time, and any io/fs.FS value in the WebAssembly checker keeps time's
// formatting code in it (about 17 KB gzip) for reflection's sake. FromFS adapts an fs.FS
// (fromfs_full.go: the light module imports no io/fs, whose package time initialises
// internal/godebug; site/doc.go).
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

// ValidPath is io/fs.ValidPath: name is valid UTF-8, unrooted, slash-separated, without "." or
// ".." elements or empty ones ("." alone is the root). Written here so that the light
// WebAssembly module imports no io/fs (see FS).
func ValidPath(name string) bool {
	if !utf8.ValidString(name) {
		return false
	}
	if name == "." {
		return true
	}
	for {
		i := strings.IndexByte(name, '/')
		elem := name
		if i >= 0 {
			elem = name[:i]
		}
		if elem == "" || elem == "." || elem == ".." {
			return false
		}
		if i < 0 {
			return true
		}
		name = name[i+1:]
	}
}
