package main

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"sync"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/doc"
)

// Reading inputs. A path on the command line or in a repository can name anything: /dev/zero
// (endless), a FIFO or /dev/stdin (an open that blocks until a writer comes, or forever), a
// 30 GB file. So a file is opened without blocking, refused unless it is a regular file, and
// read only up to the size limit: a file over it is reported (input-limit-exceeded, from its
// size) without reading a byte past the limit, and its text is neither kept nor indexed.

// openRegular opens path for reading, refusing anything but a regular file (symbolic links are
// followed). The open does not block on a FIFO (see openFlags).
func openRegular(path string) (*os.File, fs.FileInfo, error) {
	return openRegularWith(os.OpenFile, path)
}

// openRegularWith is openRegular through another opener with os.OpenFile's signature, such as
// an os.Root's OpenFile (which keeps the open inside a tree).
func openRegularWith(open func(string, int, fs.FileMode) (*os.File, error), path string) (*os.File, fs.FileInfo, error) {
	f, err := open(path, os.O_RDONLY|openFlags, 0)
	if err != nil {
		return nil, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, notRegular(fi.Mode())
	}
	return f, fi, nil
}

// notRegular words the refusal of a file that is not a regular file.
func notRegular(m fs.FileMode) error {
	what := "a special file"
	switch {
	case m.IsDir():
		what = "a folder"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeCharDevice != 0:
		what = "a character device"
	case m&fs.ModeDevice != 0:
		what = "a block device"
	}
	return fmt.Errorf("it is %s, not a regular file; trainlint reads only regular files (use - to read standard input)", what)
}

// readLimited reads r up to maxBytes. size is the input's size when known (a regular file's,
// -1 otherwise). When the input is larger than maxBytes, text is nil and n is its size (or
// maxBytes+1 when the size is not known): nothing past the limit is read.
func readLimited(r io.Reader, size int64, maxBytes int) (text []byte, n int64, err error) {
	if size > int64(maxBytes) {
		return nil, size, nil
	}
	var b bytes.Buffer
	if size >= 0 {
		b.Grow(int(size) + 1)
	}
	if _, err := b.ReadFrom(io.LimitReader(r, int64(maxBytes)+1)); err != nil {
		return nil, 0, err
	}
	if b.Len() > maxBytes {
		return nil, int64(b.Len()), nil
	}
	return b.Bytes(), int64(b.Len()), nil
}

// readInput reads a file to lint or fix under the size limit of its options.
func readInput(path string, o lint.Options) (text []byte, size int64, err error) {
	f, fi, err := openRegular(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	return readLimited(f, fi.Size(), maxBytes(o))
}

// readSmall reads a small file of the tree (.gitignore, .git/info/exclude) the same careful
// way: a FIFO or a link to /dev/zero there would otherwise block the walk or never end. A file
// over 1 MiB is an error (and its ignore rules are not read).
func readSmall(path string) ([]byte, error) {
	text, size, err := readInput(path, lint.Options{Limits: doc.Limits{MaxBytes: 1 << 20}})
	if err == nil && size > int64(len(text)) {
		err = fmt.Errorf("%s is larger than 1 MiB", path)
	}
	return text, err
}

// maxBytes is the size limit that applies to a file.
func maxBytes(o lint.Options) int {
	if o.Limits.MaxBytes > 0 {
		return o.Limits.MaxBytes
	}
	return doc.DefaultLimits.MaxBytes
}

// inflightBytes bounds the bytes of input being linted at once across the workers. A file's
// lint takes memory in proportion to its size (at worst about 115 bytes per byte, for a flat
// list of one-digit numbers: see lint/doc), so without a bound eight workers on eight 4 MB
// files took 6.2 GB. With it, files are linted in parallel as long as their sizes add up to at
// most 12 MiB, and a larger file waits to be linted alone: peak memory stays near that of the
// largest file or of 12 MiB of input, whichever is more, whatever the number of workers.
const inflightBytes = 12 << 20

// byteBudget is a counting semaphore over bytes of input.
type byteBudget struct {
	mu   sync.Mutex
	cond sync.Cond
	free int64
}

func newByteBudget(total int64) *byteBudget {
	b := &byteBudget{free: total}
	b.cond.L = &b.mu
	return b
}

// acquire takes n bytes of the budget (at least 1, at most all of it), waiting until they are
// free, and returns what it took.
func (b *byteBudget) acquire(n, total int64) int64 {
	n = min(max(n, 1), total)
	b.mu.Lock()
	for b.free < n {
		b.cond.Wait()
	}
	b.free -= n
	b.mu.Unlock()
	return n
}

func (b *byteBudget) release(n int64) {
	b.mu.Lock()
	b.free += n
	b.mu.Unlock()
	b.cond.Broadcast()
}
