package main

import (
	"fmt"
	"io"
)

// runSite builds the static site (`trainlint site [-o DIR]`). The site work replaces this body;
// until then the command says so and exits 2.
func runSite(args []string, stdout, stderr io.Writer) (int, error) {
	fmt.Fprintln(stderr, "trainlint: site is not yet available")
	return exitUsage, nil
}
