//go:build unix

package main

import "syscall"

// openFlags makes opening a FIFO return at once instead of waiting for a writer (the file is
// then refused as not regular); it changes nothing for regular files.
const openFlags = syscall.O_NONBLOCK
