package main

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/schema"
)

// schemaNames are the names `trainlint schema` accepts besides the frameworks (the config file's
// schema is added by the config-file work: it adds its name here and its case to the switch).
var schemaNames = []string{"config"}

// runSchema prints one JSON Schema for editors: a framework's keys (trainlint schema huggingface)
// for completion and hover in YAML/JSON configs, or the trainlint config file's. Each name is a
// case of the switch; frameworks are the default case.
func runSchema(args []string, stdout, stderr io.Writer) (int, error) {
	names := append(append([]string{}, schemaNames...), schema.Names()...)
	if len(args) == 0 {
		listSchemas(stdout, names)
		return exitOK, nil
	}
	if len(args) != 1 || strings.HasPrefix(args[0], "-") {
		return exitUsage, usagef("schema takes one name: %s", strings.Join(names, ", "))
	}
	switch name := args[0]; name {
	case "config":
		if err := writeConfigSchema(stdout); err != nil {
			return exitUsage, fmt.Errorf("writing the schema: %w", err)
		}
	default:
		b, err := schema.JSON(name)
		if err != nil {
			return exitUsage, usagef("unknown schema %q (available: %s)", name, strings.Join(names, ", "))
		}
		if _, err := stdout.Write(b); err != nil {
			return exitUsage, fmt.Errorf("writing the schema: %w", err)
		}
	}
	return exitOK, nil
}

// listSchemas answers `trainlint schema` with no name: the names, each with what it describes.
func listSchemas(w io.Writer, names []string) {
	fmt.Fprintln(w, "Usage: trainlint schema NAME (a JSON Schema for editors). Names:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, n := range names {
		what := "the keys of " + n + " configs"
		if d := dialect.ByName(n); d != nil && d.Title != "" {
			what = "the keys of " + d.Title + " configs"
		}
		if n == "config" {
			what = "the .trainlint.toml config file"
		}
		fmt.Fprintf(tw, "  %s\t%s\n", n, what)
	}
	tw.Flush()
}
