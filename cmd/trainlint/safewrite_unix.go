//go:build unix

package main

import (
	"io/fs"
	"os"
	"syscall"
	"time"
)

// noFollow makes an open fail on a symbolic link.
const noFollow = syscall.O_NOFOLLOW

// writable reports whether the user may write path (access(2) with W_OK).
func writable(path string) bool { return syscall.Access(path, 2) == nil }

// linkCount is a file's number of hard links.
func linkCount(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}

// keepOwner gives f the owner and group of the file fi describes, when they differ from f's.
func keepOwner(f *os.File, fi fs.FileInfo) error {
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	cur, err := f.Stat()
	if err != nil {
		return err
	}
	if cst, ok := cur.Sys().(*syscall.Stat_t); ok && cst.Uid == st.Uid && cst.Gid == st.Gid {
		return nil
	}
	return f.Chown(int(st.Uid), int(st.Gid))
}

// reraise ends the process with sig, as if it had not been caught.
func reraise(sig os.Signal) {
	if s, ok := sig.(syscall.Signal); ok {
		syscall.Kill(os.Getpid(), s)
		time.Sleep(time.Second) // the signal ends the process
	}
	os.Exit(130)
}
