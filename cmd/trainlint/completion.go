package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/report"
	"github.com/trainlint/trainlint/lint/schema"
)

// subcommands are what completion offers as the first word. A test checks the list against the
// usage text, so a new subcommand cannot be forgotten here.
var subcommands = []struct{ name, doc string }{
	{"check", "lint files and folders"},
	{"rules", "list the rules"},
	{"explain", "show a rule's documentation"},
	{"schema", "print JSON Schemas for editors"},
	{"site", "build the static site"},
	{"lsp", "language server on stdio"}, // the architecture's CLI contract; issue 14 adds it
	{"version", "print the version"},
	{"completion", "print a shell completion script"},
	{"help", "show the usage"},
}

// completionData is everything the scripts complete, read from the same sources the CLI uses
// (check's flag set, the rule catalogue, the report formats, the dialects), so the scripts
// follow the code.
type completionData struct {
	flags      []completionFlag
	rules      []selector // codes, names, categories: what --select, --ignore and explain take
	formats    []string
	frameworks []string
	schemas    []string
}

type completionFlag struct {
	name, doc string
	takesArg  bool
	values    string // "formats", "rules", "severity", "frameworks", "output", "file", "" (free text)
}

type selector struct{ word, doc string }

func newCompletionData() completionData {
	var d completionData
	newCheckFlags(&checkConfig{FailOn: lint.Warning}).VisitAll(func(f *flag.Flag) {
		_, usage := flag.UnquoteUsage(f)
		cf := completionFlag{name: f.Name, doc: usage, takesArg: !isBoolFlag(f)}
		switch f.Name {
		case "format":
			cf.values = "formats"
		case "select", "ignore":
			cf.values = "rules"
		case "fail-on":
			cf.values = "severity"
		case "framework":
			cf.values = "frameworks"
		case "output":
			cf.values = "output"
		case "config", "baseline", "write-baseline":
			cf.values = "file"
		}
		d.flags = append(d.flags, cf)
	})
	cats := map[string]bool{}
	var catList []string
	for _, r := range allRules() {
		d.rules = append(d.rules, selector{r.Code, r.Name}, selector{r.Name, r.Code + " " + r.Title})
		if !cats[r.Category] {
			cats[r.Category] = true
			catList = append(catList, r.Category)
		}
	}
	for _, c := range catList {
		d.rules = append(d.rules, selector{c, "category"})
	}
	d.formats = report.Names()
	for _, dl := range dialect.All() {
		d.frameworks = append(d.frameworks, dl.Name)
	}
	d.schemas = append([]string{"config"}, schema.Names()...)
	return d
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

func (d completionData) ruleWords() string {
	var w []string
	for _, r := range d.rules {
		w = append(w, r.word)
	}
	return strings.Join(w, " ")
}

func runCompletion(args []string, stdout io.Writer) (int, error) {
	if len(args) != 1 {
		return exitUsage, usagef("completion takes one shell: bash, zsh or fish")
	}
	d := newCompletionData()
	switch args[0] {
	case "bash":
		writeBashCompletion(stdout, d)
	case "zsh":
		writeZshCompletion(stdout, d)
	case "fish":
		writeFishCompletion(stdout, d)
	default:
		return exitUsage, usagef("unknown shell %q: bash, zsh or fish", args[0])
	}
	return exitOK, nil
}

func subcommandWords() string {
	var w []string
	for _, s := range subcommands {
		w = append(w, s.name)
	}
	return strings.Join(w, " ")
}

// writeBashCompletion: `source <(trainlint completion bash)`, or save it as
// /etc/bash_completion.d/trainlint. Comma-separated --select/--ignore lists complete the word
// after the last comma; with no match bash falls back to file names (-o default).
func writeBashCompletion(w io.Writer, d completionData) {
	var flags, argFlags []string
	for _, f := range d.flags {
		flags = append(flags, "--"+f.name)
		if f.takesArg {
			argFlags = append(argFlags, "--"+f.name)
		}
	}
	fmt.Fprintf(w, `# bash completion for trainlint; load with: source <(trainlint completion bash)
_trainlint() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local cmd="" i
    for ((i = 1; i < COMP_CWORD; i++)); do
        case ${COMP_WORDS[i]} in
            -*) ;;
            *) case ${COMP_WORDS[i-1]} in
                   %[1]s) ;;
                   *) cmd=${COMP_WORDS[i]}; break ;;
               esac ;;
        esac
    done
    # bash splits --flag=value at "=": complete the value of the flag before it.
    if [[ $cur == "=" ]]; then cur=""; elif [[ $prev == "=" && $COMP_CWORD -ge 2 ]]; then prev=${COMP_WORDS[COMP_CWORD-2]}; fi
    local rules=%[2]q
    case $cmd in
        explain) COMPREPLY=($(compgen -W "$rules" -- "$cur")); return ;;
        schema) COMPREPLY=($(compgen -W %[4]q -- "$cur")); return ;;
        completion) COMPREPLY=($(compgen -W "bash zsh fish" -- "$cur")); return ;;
        rules)
            if [[ $prev == --format ]]; then COMPREPLY=($(compgen -W "text json" -- "$cur")); else COMPREPLY=($(compgen -W "--format" -- "$cur")); fi
            return ;;
        site) COMPREPLY=($(compgen -W "-o --serve --pages-only" -- "$cur")); return ;;
        version|help|lsp) COMPREPLY=(); return ;;
    esac
    case $prev in
        --format) COMPREPLY=($(compgen -W %[5]q -- "$cur")); return ;;
        --fail-on) COMPREPLY=($(compgen -W "error warning info" -- "$cur")); return ;;
        --framework) COMPREPLY=($(compgen -W %[6]q -- "$cur")); return ;;
        --output) compopt -o nospace 2>/dev/null; COMPREPLY=($(compgen -W %[7]q -- "$cur")); return ;;
        --select|--ignore)
            local head=""
            if [[ $cur == *,* ]]; then head=${cur%%,*},; cur=${cur##*,}; fi
            COMPREPLY=($(compgen -P "$head" -W "$rules" -- "$cur")); return ;;
        --config|--baseline|--write-baseline) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --hosts|--devices-per-host|--stdin-filename) COMPREPLY=(); return ;;
    esac
    if [[ $cur == -* ]]; then
        COMPREPLY=($(compgen -W %[8]q -- "$cur"))
    elif [[ -z $cmd ]]; then
        COMPREPLY=($(compgen -W %[3]q -- "$cur"))
    fi
}
complete -o default -F _trainlint trainlint
`, strings.Join(argFlags, "|"), d.ruleWords(), subcommandWords(), strings.Join(d.schemas, " "),
		strings.Join(d.formats, " "), strings.Join(d.frameworks, " "), outputWords(d), strings.Join(flags, " "))
}

func outputWords(d completionData) string {
	var w []string
	for _, f := range d.formats {
		w = append(w, f+"=")
	}
	return strings.Join(w, " ")
}

// zshQuote makes s safe inside a single-quoted _arguments spec or _describe entry.
func zshDoc(s string) string {
	s = strings.NewReplacer("'", "", "[", "(", "]", ")", ":", " -", "\\", "").Replace(s)
	if i := strings.Index(s, " ("); i > 0 {
		s = s[:i]
	}
	return s
}

// writeZshCompletion: `source <(trainlint completion zsh)` after compinit, or save it as
// _trainlint in a directory of $fpath.
func writeZshCompletion(w io.Writer, d completionData) {
	fmt.Fprintf(w, "#compdef trainlint\n# zsh completion for trainlint; load with: source <(trainlint completion zsh)\n\n")
	fmt.Fprintf(w, "_trainlint_rules() {\n    local -a rules=(\n")
	for _, r := range d.rules {
		fmt.Fprintf(w, "        '%s:%s'\n", r.word, zshDoc(r.doc))
	}
	fmt.Fprintf(w, "    )\n    _describe -t rules 'rule' rules\n}\n\n")
	fmt.Fprintf(w, "_trainlint_rule_list() {\n    _sequence _trainlint_rules\n}\n\n")
	fmt.Fprintf(w, "_trainlint_check() {\n    _arguments -S \\\n")
	for _, f := range d.flags {
		doc := zshDoc(f.doc)
		if !f.takesArg {
			fmt.Fprintf(w, "        '--%s[%s]' \\\n", f.name, doc)
			continue
		}
		action := "( )"
		switch f.values {
		case "formats":
			action = "(" + strings.Join(d.formats, " ") + ")"
		case "rules":
			action = "_trainlint_rule_list"
		case "severity":
			action = "(error warning info)"
		case "frameworks":
			action = "(" + strings.Join(d.frameworks, " ") + ")"
		case "output":
			action = "(" + outputWords(d) + ")"
		case "file":
			action = "_files"
		}
		fmt.Fprintf(w, "        '*--%s=[%s]:%s:%s' \\\n", f.name, doc, f.name, action)
	}
	fmt.Fprintf(w, "        '*:config file:_files'\n}\n\n")
	fmt.Fprintf(w, "_trainlint() {\n    local -a commands=(\n")
	for _, s := range subcommands {
		fmt.Fprintf(w, "        '%s:%s'\n", s.name, zshDoc(s.doc))
	}
	fmt.Fprintf(w, `    )
    if (( CURRENT == 2 )); then
        _describe -t commands 'trainlint command' commands
        _files
        return
    fi
    local cmd=${words[2]}
    case $cmd in
        check) shift words; (( CURRENT-- )); _trainlint_check ;;
        explain) _trainlint_rules ;;
        schema) compadd -- %s ;;
        completion) compadd -- bash zsh fish ;;
        rules) _arguments '--format=[output format]:format:(text json)' ;;
        site) _arguments '-o[output folder]:folder:_files -/' '--serve[serve on ADDRESS]:address:' ;;
        version|help|lsp) ;;
        *) _trainlint_check ;;
    esac
}

if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
    _trainlint "$@"
else
    compdef _trainlint trainlint
fi
`, strings.Join(d.schemas, " "))
}

// fishDoc keeps a description on one line without the characters fish would read.
func fishDoc(s string) string {
	s = strings.NewReplacer("'", "", "\\", "", "\t", " ", "\n", " ").Replace(s)
	if i := strings.Index(s, " ("); i > 0 {
		s = s[:i]
	}
	return s
}

// writeFishCompletion: `trainlint completion fish | source`, or save it as
// ~/.config/fish/completions/trainlint.fish.
func writeFishCompletion(w io.Writer, d completionData) {
	var notOther []string
	for _, s := range subcommands {
		if s.name != "check" {
			notOther = append(notOther, s.name)
		}
	}
	checkCond := "not __fish_seen_subcommand_from " + strings.Join(notOther, " ")
	fmt.Fprintf(w, "# fish completion for trainlint; load with: trainlint completion fish | source\n\n")
	fmt.Fprintf(w, "function __trainlint_rules\n")
	for _, r := range d.rules {
		fmt.Fprintf(w, "    printf '%%s\\t%%s\\n' '%s' '%s'\n", r.word, fishDoc(r.doc))
	}
	fmt.Fprintf(w, "end\n\n")
	for _, s := range subcommands {
		fmt.Fprintf(w, "complete -c trainlint -n __fish_use_subcommand -a %s -d '%s'\n", s.name, fishDoc(s.doc))
	}
	for _, f := range d.flags {
		line := fmt.Sprintf("complete -c trainlint -n '%s' -l %s", checkCond, f.name)
		switch f.values {
		case "formats":
			line += " -x -a '" + strings.Join(d.formats, " ") + "'"
		case "rules":
			line += " -x -a '(__fish_complete_list , __trainlint_rules)'"
		case "severity":
			line += " -x -a 'error warning info'"
		case "frameworks":
			line += " -x -a '" + strings.Join(d.frameworks, " ") + "'"
		case "output":
			line += " -x -a '" + outputWords(d) + "'"
		case "file":
			line += " -r -F"
		default:
			if f.takesArg {
				line += " -x"
			}
		}
		fmt.Fprintf(w, "%s -d '%s'\n", line, fishDoc(f.doc))
	}
	fmt.Fprintf(w, "complete -c trainlint -n '__fish_seen_subcommand_from explain' -f -a '(__trainlint_rules)'\n")
	fmt.Fprintf(w, "complete -c trainlint -n '__fish_seen_subcommand_from schema' -f -a '%s'\n", strings.Join(d.schemas, " "))
	fmt.Fprintf(w, "complete -c trainlint -n '__fish_seen_subcommand_from completion' -f -a 'bash zsh fish'\n")
	fmt.Fprintf(w, "complete -c trainlint -n '__fish_seen_subcommand_from rules' -l format -x -a 'text json'\n")
	fmt.Fprintf(w, "complete -c trainlint -n '__fish_seen_subcommand_from site' -s o -r -a '(__fish_complete_directories)'\n")
	fmt.Fprintf(w, "complete -c trainlint -n '__fish_seen_subcommand_from version help lsp' -f\n")
}
