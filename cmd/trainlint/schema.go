package main

import (
	"fmt"
	"io"
)

// runSchema prints JSON Schemas (the config file, per-framework keys) for editors. The schema
// work replaces this body; until then the command says so and exits 2.
func runSchema(args []string, stdout, stderr io.Writer) (int, error) {
	fmt.Fprintln(stderr, "trainlint: schema is not yet available")
	return exitUsage, nil
}
