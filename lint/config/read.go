package config

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// maxConfigBytes bounds a config file: real ones are a few KB.
const maxConfigBytes = 1 << 20

// readConfigFile reads a config file: only a regular file (a FIFO, /dev/zero or /dev/stdin
// named by extend would block or never end), opened without blocking, and at most
// maxConfigBytes of it.
func readConfigFile(abs string) ([]byte, error) {
	f, err := os.OpenFile(abs, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", quote(displayPath(abs)))
	}
	var b bytes.Buffer
	if _, err := b.ReadFrom(io.LimitReader(f, maxConfigBytes+1)); err != nil {
		return nil, err
	}
	if b.Len() > maxConfigBytes {
		return nil, fmt.Errorf("%s is larger than 1 MiB; a config file is a few KB", quote(displayPath(abs)))
	}
	return b.Bytes(), nil
}

// extendBoundary is the folder the extend keys of a chain that starts at the config file abs
// may reach into: the repository that holds the file (the nearest folder above it with .git),
// or, outside any repository, the file's own folder. A repository's config is the repository's to write, so
// without a boundary a cloned repository could make trainlint read /etc/shadow (and echo its
// key names in errors) or a file of another project. A config file named on the command line
// (--config) may itself lie anywhere: the user chose it.
func extendBoundary(abs string) string {
	dir := filepath.Dir(abs)
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}

// within reports whether target, with its symbolic links resolved, lies inside boundary (also
// resolved). A target that does not exist is judged by its cleaned path.
func within(target, boundary string) bool {
	t, err := filepath.EvalSymlinks(target)
	if err != nil {
		t = filepath.Clean(target) // reading it fails next, with its own message
	}
	b, err := filepath.EvalSymlinks(boundary)
	if err != nil {
		b = filepath.Clean(boundary)
	}
	rel, err := filepath.Rel(b, t)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}
