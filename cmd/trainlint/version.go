package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"

	"github.com/trainlint/trainlint/lint"
)

// commit, modified and date are set at link time by the Makefile and `make dist`
// (-ldflags "-X main.commit=... -X main.modified=true -X main.date=..."). A plain `go build`
// or `go install` leaves them empty; the commit then comes from the VCS stamp Go writes into the
// binary, which is absent when the build ran with -buildvcs=false (as CI does), in a git
// worktree (Go looks for a .git folder) or outside a checkout.
var (
	commit   string
	modified string
	date     string
)

// buildVersion is what `trainlint version` prints.
type buildVersion struct {
	Version  string // trainlint's release, as in the JSON output's tool.version
	Path     string // the module path
	Module   string // the module version Go recorded: vX.Y.Z from `go install …@vX.Y.Z`, "(devel)" from a checkout
	Commit   string // full revision, or "" when unknown
	Modified bool   // built from a working tree with uncommitted changes
	Date     string // build date (RFC 3339), or the commit date when only VCS information is known
	DateKind string // "built" or "committed"
}

func currentVersion() buildVersion {
	v := buildVersion{Version: lint.Version, Path: "github.com/trainlint/trainlint", Commit: commit, Modified: modified == "true", Date: date, DateKind: "built"}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return v
	}
	v.Path, v.Module = bi.Main.Path, bi.Main.Version
	var vcsRev, vcsTime string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			vcsRev = s.Value
		case "vcs.time":
			vcsTime = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	if v.Commit == "" && vcsRev != "" {
		v.Commit = vcsRev
	} else if commit != "" {
		v.Modified = modified == "true"
	}
	if v.Date == "" && vcsTime != "" {
		v.Date, v.DateKind = vcsTime, "committed"
	}
	return v
}

func writeVersion(w io.Writer, v buildVersion) {
	fmt.Fprintf(w, "trainlint %s\n", v.Version)
	module := v.Module
	if module == "" {
		module = "unknown"
	}
	fmt.Fprintf(w, "module:  %s %s\n", v.Path, module)
	switch {
	case v.Commit == "":
		fmt.Fprintf(w, "commit:  unknown (built without version control information)\n")
	case v.Modified:
		fmt.Fprintf(w, "commit:  %s (with uncommitted changes)\n", v.Commit)
	default:
		fmt.Fprintf(w, "commit:  %s\n", v.Commit)
	}
	if v.Date == "" {
		fmt.Fprintf(w, "built:   unknown\n")
	} else {
		fmt.Fprintf(w, "%-8s %s\n", v.DateKind+":", v.Date)
	}
	fmt.Fprintf(w, "go:      %s %s/%s\n", runtime.Version(), runtime.GOOS, runtime.GOARCH)
}
