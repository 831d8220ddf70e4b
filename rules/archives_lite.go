//go:build trainlint_lite

package rules

import (
	"errors"
	"strings"
)

// The light WebAssembly build has no testdata archives: no lint reads them, only the tests, the
// site and explain, which use the full build. What a lint needs of them, each rule's tested
// frameworks (the catalogue and the "needs --hosts" notice use them), comes in liteFrameworks,
// linked in by the site's module build (-X, see LiteFrameworks in archives.go).

var liteFrameworks string

// noArchives stands in for the embedded archives: it holds none.
type noArchives struct{}

func (noArchives) ReadFile(string) ([]byte, error) { return nil, errNoArchives }

// ReadDir has io/fs.DirEntry's methods that ArchiveNames reads, without package io/fs (it would
// import time: compose.FS).
func (noArchives) ReadDir(string) ([]interface {
	Name() string
	IsDir() bool
}, error) {
	return nil, errNoArchives
}

var (
	testdataFS    noArchives
	errNoArchives = errors.New("the light build has no rule archives")
)

func archiveFrameworks(rule string) []string {
	if liteFrameworks == "" {
		panic("rules: a trainlint_lite build needs " + "-X github.com/trainlint/trainlint/rules.liteFrameworks (rules.LiteFrameworksFlag)")
	}
	if liteTable == nil {
		// Read once: every rule's register asks, and each asking split the whole table (the
		// browser's start-up did not measurably change: V8's compile of init dominates it).
		liteTable = map[string]string{}
		for _, entry := range strings.Split(liteFrameworks, ";") {
			name, fws, _ := strings.Cut(entry, "=")
			liteTable[name] = fws
		}
	}
	if fws := liteTable[rule]; fws != "" {
		return strings.Split(fws, ",")
	}
	return nil
}

// liteTable is liteFrameworks by rule name, filled on archiveFrameworks' first call (package
// initialisation, which runs on one goroutine).
var liteTable map[string]string
