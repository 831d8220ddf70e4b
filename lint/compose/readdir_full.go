//go:build !trainlint_lite

package compose

import "io/fs"

func readDir(fsys fs.FS, p string) ([]fs.DirEntry, error) { return fs.ReadDir(fsys, p) }
