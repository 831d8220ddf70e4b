//go:build !unix

package main

import (
	"io/fs"
	"os"
)

func writable(path string) bool {
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return false
	}
	f.Close()
	return true
}

const noFollow = 0

func linkCount(fs.FileInfo) uint64 { return 1 }

func keepOwner(*os.File, fs.FileInfo) error { return nil }

func reraise(os.Signal) { os.Exit(130) }
