package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
)

// Writing files. --fix rewrites files of a tree that may be hostile (a cloned repository) and
// --output writes reports where the user says; both must never write outside the tree through a
// symbolic link, never lose what a user wrote, and never leave debris behind.
//
// --fix (writeFix): a file is replaced atomically: the new text goes to a temporary file beside
// it, which gets the file's mode and owner and is renamed over it, so a crash leaves the old
// file or the new one, never half of one. Before the rename the file is read again: if it
// changed since it was read (an editor saved it meanwhile), nothing is written. A file is left
// alone, with a message, when
//   - it is a symbolic link to a file outside the linted tree (a link inside the tree is kept and
//     its target is fixed);
//   - it is read-only (no write permission bit, or not writable by the user);
//   - it has several hard links: a rename would split them, leaving the other names with the old
//     text, and writing in place is not crash-safe; the user applies the fix (--diff) instead;
//   - its folder is not writable (the temporary file cannot be made), or its owner cannot be
//     kept (only root can give a file to another user).
// An interrupt (SIGINT, SIGTERM) while writing removes the temporary file before the process
// ends.
//
// --output (writeOutput): the report is written to a temporary file renamed over the named
// path, so a symbolic link there is replaced, never followed (a committed report.txt ->
// ../x.sh stays a link to an untouched x.sh), and the report gets mode 0644, not the old file's.
// Only a path that is (or links to) a device or a named pipe, such as /dev/stdout, is written
// to directly, and an existing file in a folder the user cannot write is written in place
// without following links.

// temps are the temporary files being written, removed on an interrupt.
var temps struct {
	sync.Mutex
	names map[string]bool
}

func trackTemp(name string, on bool) {
	temps.Lock()
	defer temps.Unlock()
	if temps.names == nil {
		temps.names = map[string]bool{}
	}
	if on {
		temps.names[name] = true
	} else {
		delete(temps.names, name)
	}
}

// cleanupOnInterrupt removes the temporary files in flight when SIGINT or SIGTERM arrives, then
// lets the signal end the process as it would have. The returned function stops watching.
func cleanupOnInterrupt() (stop func()) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-ch:
			temps.Lock()
			for name := range temps.names {
				os.Remove(name)
			}
			temps.Unlock()
			signal.Reset(os.Interrupt, syscall.SIGTERM)
			reraise(sig)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// beforeRename is a test hook, called when the temporary file of a fix is complete.
var beforeRename = func(tmp string) {}

// writeFix writes the fixed text of a file linted under root (the folder walked, or the named
// file's folder), if the file still holds orig. See the comment at the top of this file.
func writeFix(path, root string, orig, data []byte) error {
	target := path
	li, err := os.Lstat(path)
	if err != nil {
		return err
	}
	if li.Mode()&fs.ModeSymlink != 0 {
		real, err := filepath.EvalSymlinks(path)
		if err == nil {
			real, err = filepath.Abs(real)
		}
		if err != nil {
			return err
		}
		tree := treeOf(path, root)
		if !inside(real, tree) {
			return fmt.Errorf("it is a symbolic link to %q, outside %q; trainlint does not write through links out of the linted tree, so the file was left unchanged", real, tree)
		}
		target = real
	}
	fi, err := os.Lstat(target)
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return notRegular(fi.Mode())
	}
	if fi.Mode().Perm()&0o222 == 0 || !writable(target) {
		return errors.New("the file is read-only; it was left unchanged")
	}
	if n := linkCount(fi); n > 1 {
		return fmt.Errorf("the file has %d hard links; replacing it would split them, so it was left unchanged (apply the fixes shown by --diff)", n)
	}
	tmp, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".trainlint-*")
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return fmt.Errorf("its folder is not writable (the fixes go to a temporary file beside the file, renamed over it); the file was left unchanged")
		}
		return err
	}
	trackTemp(tmp.Name(), true)
	defer trackTemp(tmp.Name(), false)
	done := false
	defer func() {
		if !done {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := keepOwner(tmp, fi); err != nil {
		return fmt.Errorf("cannot keep the file's owner (%v); it was left unchanged", err)
	}
	if err := tmp.Chmod(fi.Mode() & (fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky)); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	beforeRename(tmp.Name())
	if now, err := readUpTo(target, len(orig)+1); err != nil || !bytes.Equal(now, orig) {
		return errors.New("the file changed while the fixes were computed; it was left as it is (run trainlint again)")
	}
	if err := os.Rename(tmp.Name(), target); err != nil {
		return err
	}
	done = true
	return nil
}

func writeNoFollow(name string, data []byte) error {
	return writeOpened(name, os.O_WRONLY|os.O_TRUNC|noFollow, data)
}

// writeOpened opens an existing file with flag, writes data to it and closes it, returning the
// first error.
func writeOpened(name string, flag int, data []byte) error {
	f, err := os.OpenFile(name, flag, 0)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// readUpTo reads at most n bytes of a regular file.
func readUpTo(path string, n int) ([]byte, error) {
	f, _, err := openRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, int64(n)))
}

// treeOf is the tree a fix of path may write into: the repository that holds path (the nearest
// folder above it with .git), or else root.
func treeOf(path, root string) string {
	abs, err := filepath.Abs(filepath.Dir(path))
	if err != nil {
		return root
	}
	for d := abs; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if r, err := filepath.Abs(root); err == nil {
		return r
	}
	return root
}

// inside reports whether target (resolved) lies in dir (resolved).
func inside(target, dir string) bool {
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	rel, err := filepath.Rel(dir, target)
	return err == nil && !goesUp(rel) && !filepath.IsAbs(rel)
}

// writeOutput writes a report to name. See the comment at the top of this file.
func writeOutput(name string, data []byte) error {
	defer cleanupOnInterrupt()()
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() && !fi.IsDir() {
		// A device or a pipe (/dev/stdout, /dev/null, a FIFO): written to, never replaced.
		return writeOpened(name, os.O_WRONLY, data)
	}
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".trainlint-*")
	if err != nil {
		if li, lerr := os.Lstat(name); errors.Is(err, fs.ErrPermission) && lerr == nil && li.Mode().IsRegular() {
			// A file the user may write in a folder they may not: written in place, without
			// following a link (one swapped in since the Lstat makes the open fail).
			return writeNoFollow(name, data)
		}
		return err
	}
	trackTemp(tmp.Name(), true)
	defer trackTemp(tmp.Name(), false)
	if _, err = tmp.Write(data); err == nil {
		if err = tmp.Chmod(0o644); err == nil {
			err = tmp.Close()
		}
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
	}
	return err
}
