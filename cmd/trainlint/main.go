// Command trainlint checks deep-learning training configurations (Hugging Face Trainer, axolotl,
// Lightning, NeMo, DeepSpeed, torchtune, Composer, MMEngine Python configs, T5X gin, big_vision
// and scenic ml_collections, in-house YAML/JSON/TOML, …) for the pitfalls of the Deep Learning
// Tuning Playbook.
//
//	trainlint [check] [flags] [PATH|-]...   lint files and folders (folders are walked; .gitignore respected)
//	trainlint rules [--format json]          the catalogue
//	trainlint explain RULE                   a rule's documentation in the terminal
//	trainlint schema [NAME]                  JSON Schemas for editors
//	trainlint site [-o DIR]                  build the static site
//	trainlint lsp                            language server on stdio (editors)
//	trainlint version                         version, commit and build date
//	trainlint completion bash|zsh|fish        shell completion script
//
// Exit codes: 0 nothing at or above --fail-on; 1 findings at or above it; 2 usage error,
// unreadable path or internal error.
//
// # Safety and limits
//
// Inputs (read.go) are opened without blocking and refused unless they are regular files, and
// read only up to the size limit; a larger file is reported from its size. Before (issue 15,
// 2-core machine, peak RSS): `check /dev/zero` grew to 24 GB in 58 s and was killed, a FIFO or
// /dev/stdin as a path blocked forever; now each is refused at once. A sparse 1 TiB file is
// reported without being read. At most 12 MiB of input is linted at once across the workers:
// eight 4 MB files of two million numbers each with eight workers (GOMAXPROCS=8) took 4.9 GB
// and 86 s, now 1.4 GB and 15-27 s (the machine was shared).
//
// Writes (safewrite.go): --fix replaces a file atomically and keeps its mode and owner; it
// leaves alone, with a message, a symbolic link to a file outside the tree, a read-only file, a
// file with several hard links (replacing it would split them; writing in place is not
// crash-safe, so the user applies --diff instead), a file in an unwritable folder, and a file
// edited while the fixes were computed; an interrupt removes the temporary file. --output
// replaces a symbolic link instead of writing through it. writesafety_test.go runs these cases
// as nobody when the tests run as root (CI).
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/mattn/go-isatty"

	"github.com/trainlint/trainlint/rules"
)

func main() {
	tuneGC()
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// tuneGC lets the heap grow to three times the live data between collections instead of two
// (GOGC=200): a lint run is short and allocates per file what it drops after the file, so the
// default spends a quarter of the CPU time of a corpus run collecting. On the 312 corpus YAML
// files (20 runs, twice): 70 -> 55 ms wall, 114 -> 89 ms CPU, 19 -> 23 MB peak RSS; 400 was no
// faster (the fresh pages a bigger heap touches cost what the fewer collections save) and used
// 31 MB. The soft memory limit keeps a run over tens of thousands of files from growing past it
// for the sake of fewer collections. GOGC and GOMEMLIMIT set in the environment win.
func tuneGC() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(512 << 20)
	}
}

// Exit codes.
const (
	exitOK       = 0
	exitFindings = 1
	exitUsage    = 2 // also: unreadable path, internal error
)

// allRules is the rule set the CLI runs; tests swap in a fixed set so they do not depend on
// which playbook rules exist.
var allRules = rules.All

const usageText = `trainlint checks training configs against the Deep Learning Tuning Playbook.

Usage:
  trainlint [check] [flags] [PATH|-]...   lint files and folders (folders are walked; .gitignore respected;
                                           check with no path lints the current folder)
  trainlint rules [--format json]          list the rules
  trainlint explain RULE                   show a rule's documentation
  trainlint schema [NAME]                  print JSON Schemas for editors (no name: list them)
  trainlint site [-o DIR]                  build the static site
  trainlint lsp                            run the language server on stdio (editors)
  trainlint version                        print the version, commit and build date
  trainlint completion bash|zsh|fish       print a shell completion script

Run 'trainlint check --help' for the flags of check.
Exit codes: 0 clean, 1 findings at or above --fail-on, 2 usage error, unreadable path or internal error.
`

// usageError is a mistake in the command line: reported with a pointer to the help, exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// run is the whole program, in-process testable: arguments, standard streams in, exit code out.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		if !hasStdin(stdin) {
			io.WriteString(stderr, usageText)
			return exitUsage
		}
		args = []string{"-"}
	}
	var code int
	var err error
	switch args[0] {
	case "check":
		code, err = runCheck(args[1:], stdin, stdout, stderr)
	case "rules":
		code, err = runRules(args[1:], stdout)
	case "explain":
		code, err = runExplain(args[1:], stdout)
	case "schema":
		code, err = runSchema(args[1:], stdout, stderr)
	case "site":
		code, err = runSite(args[1:], stdout, stderr)
	case "lsp":
		code, err = runLSP(args[1:], stdin, stdout)
	case "version", "--version", "-version":
		if len(args) > 1 {
			err = usagef("version takes no arguments")
			break
		}
		writeVersion(stdout, currentVersion())
	case "completion":
		code, err = runCompletion(args[1:], stdout)
	case "help", "-h", "-help", "--help":
		io.WriteString(stdout, usageText)
	default:
		if err = mistypedCommand(args[0]); err == nil {
			code, err = runCheck(args, stdin, stdout, stderr)
		}
	}
	if err != nil {
		var ue *usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "trainlint: %s\nRun 'trainlint --help' for usage.\n", ue.msg)
		} else {
			fmt.Fprintf(stderr, "trainlint: %s\n", errorText(err))
		}
		return exitUsage
	}
	return code
}

// hasStdin reports whether something is piped in: not a terminal, not /dev/null (CI gives no
// standard input), not absent.
func hasStdin(r io.Reader) bool {
	if r == nil {
		return false
	}
	if f, ok := r.(*os.File); ok {
		fi, err := f.Stat()
		if err != nil || fi.Mode()&os.ModeCharDevice != 0 {
			return false
		}
	}
	return true
}

// isTerminal reports whether w is a terminal (colour is only for terminals).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}
