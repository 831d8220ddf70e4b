//go:build unix

package config

import "syscall"

// openFlags makes opening a FIFO return at once instead of waiting for a writer.
const openFlags = syscall.O_NONBLOCK
