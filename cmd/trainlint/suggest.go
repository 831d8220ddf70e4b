package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/textdist"
)

// "Did you mean" for the command line: a mistyped flag or rule selector gets the nearest valid
// one, and a rule of the catalogue that is not implemented yet is named as such rather than
// called unknown.

// closest returns the candidate nearest to s: one that starts with s (at least 3 characters
// typed), else the nearest by edit distance (swaps count once) within a third of its length,
// at most 3 edits. "" when nothing is close.
func closest(s string, candidates []string) string {
	s = strings.ToLower(s)
	if len(s) >= 3 {
		for _, c := range candidates {
			if strings.HasPrefix(strings.ToLower(c), s) {
				return c
			}
		}
	}
	best, bestD := "", min(3, max(1, len(s)/3))+1
	for _, c := range candidates {
		if d := textdist.OSA(s, strings.ToLower(c), bestD-1); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// didYouMean is " (did you mean X?)" or "".
func didYouMean(s string) string {
	if s == "" {
		return ""
	}
	return " (did you mean " + s + "?)"
}

// unknownFlag words an unknown flag of fs with the nearest defined one, in the double-dash
// spelling the help uses ("unknown flag --formt (did you mean --format?)").
func unknownFlag(fs *flag.FlagSet, name string) string {
	var names []string
	fs.VisitAll(func(f *flag.Flag) {
		if len(f.Name) > 1 {
			names = append(names, f.Name)
		}
	})
	s := ""
	if c := closest(name, names); c != "" {
		s = "--" + c
	}
	return "unknown flag --" + name + didYouMean(s)
}

// selectorError explains a --select or --ignore entry that names no rule: a catalogue rule not
// implemented yet is said to be one; otherwise the nearest code, name or category is suggested.
func selectorError(rs []*lint.Rule, flagName, s string) error {
	if cn, ok := plannedRule(rs, s); ok {
		return usagef("%s %s: %s is in the catalogue but not implemented yet; 'trainlint rules' lists the rules that run", flagName, s, cn)
	}
	var cands []string
	seen := map[string]bool{}
	for _, r := range rs {
		for _, c := range []string{r.Name, r.Code, r.Category} {
			if !seen[c] {
				seen[c] = true
				cands = append(cands, c)
			}
		}
	}
	return usagef("unknown rule selector %q in %s%s; selectors are codes such as TL202, names, categories or prefixes such as TL2 (see 'trainlint rules')",
		s, flagName, didYouMean(closest(s, cands)))
}

// notImplementedError is explain's answer for a catalogue rule that does not exist yet.
func notImplementedError(codeName string) error {
	return fmt.Errorf("%s is in the catalogue but not implemented yet; 'trainlint rules' lists the rules that run", codeName)
}

// commands are the subcommands, for mistypedCommand.
var commands = []string{"check", "rules", "explain", "schema", "site", "lsp", "version", "completion", "help"}

// mistypedCommand catches `trainlint chekc`: a first argument that is no path on disk, looks like
// a word rather than a file name, and is close to a command is a usage error with the command
// suggested, not "cannot read". Anything else is left to check (a path to lint).
func mistypedCommand(arg string) error {
	if arg == "" || arg == "-" || strings.HasPrefix(arg, "-") || strings.ContainsAny(arg, "./\\") {
		return nil
	}
	if _, err := os.Lstat(arg); err == nil {
		return nil
	}
	if c := closest(arg, commands); c != "" {
		return usagef("unknown command %q (did you mean 'trainlint %s'?)", arg, c)
	}
	return nil
}
