package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os/exec"

	"github.com/trainlint/trainlint/site"
)

// runSite is `trainlint site [-o DIR] [--pages-only] [--serve ADDR]`: build the guidance site.
// Inside the source tree it also builds the checker (WebAssembly module and JavaScript bundle,
// which needs Go and Node); elsewhere, or with --pages-only, it writes the pages alone.
func runSite(args []string, stdout, stderr io.Writer) (int, error) {
	fs := flag.NewFlagSet("site", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("o", "site/dist", "output folder")
	pagesOnly := fs.Bool("pages-only", false, "write the pages without building the checker")
	serve := fs.String("serve", "", "after building, serve the site on this loopback address (e.g. 127.0.0.1:8080)")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, "usage: trainlint site [-o DIR] [--pages-only] [--serve 127.0.0.1:8080]")
			return 0, nil
		}
		return exitUsage, usagef("site: %v", err)
	}
	if fs.NArg() > 0 {
		return exitUsage, usagef("site takes no arguments, got %q", fs.Arg(0))
	}
	root := ""
	if !*pagesOnly {
		if root = site.FindRoot("."); root == "" {
			fmt.Fprintln(stderr, "trainlint: not inside the trainlint source tree: writing the pages without the in-browser checker")
		} else if missing := missingTools("go", "node", "npm"); missing != "" {
			fmt.Fprintf(stderr, "trainlint: %s not found: writing the pages without the in-browser checker (it needs Go, Node and npm)\n", missing)
			root = ""
		}
	}
	if _, err := site.Build(site.Options{Out: *out, Root: root, Log: stderr}); err != nil {
		return exitUsage, err
	}
	if *serve == "" {
		return 0, nil
	}
	ln, err := site.Listen(*serve)
	if err != nil {
		return exitUsage, err
	}
	fmt.Fprintf(stdout, "serving %s on http://%s/ (Ctrl-C to stop)\n", *out, ln.Addr())
	return exitUsage, http.Serve(ln, site.Handler(*out))
}

// missingTools names the first of the commands that is not on PATH ("" when all are).
func missingTools(names ...string) string {
	for _, n := range names {
		if _, err := exec.LookPath(n); err != nil {
			return n
		}
	}
	return ""
}
