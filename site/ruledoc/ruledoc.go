// Package ruledoc is the text of a rule's documentation that both the site's rule page and
// `trainlint explain` show, in one order: what to do first (the fix), then why, how to silence a
// finding that does not apply, and the options. Each section is Markdown; the site renders it as
// HTML, explain reflows it for a terminal. Examples are not here: each driver shows them its own
// way (the site lints them at build time, explain prints the first bad and good one).
package ruledoc

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
)

// Section is one titled part of a rule's documentation.
type Section struct {
	ID       string // stable anchor on the rule page: "fix", "why", "suppress", "options"
	Title    string
	Markdown string
}

// Sections returns a rule's documentation sections in display order; empty ones are left out.
func Sections(r *lint.Rule) []Section {
	var out []Section
	add := func(id, title, md string) {
		if strings.TrimSpace(md) != "" {
			out = append(out, Section{id, title, strings.TrimSpace(md) + "\n"})
		}
	}
	add("fix", "How to fix it", r.FixText())
	add("why", "Why it matters", r.Rationale)
	add("suppress", "How to suppress it", Suppression(r))
	add("options", "Options", Options(r))
	return out
}

// Suppression says how to silence the rule where it does not apply.
func Suppression(r *lint.Rule) string {
	return fmt.Sprintf(`When the finding does not apply, say why next to it, on the offending line or the line above:

`+"```yaml\n# trainlint: disable=%[1]s -- reason\n```"+`

For a whole file, anywhere in it: `+"`# trainlint: disable-file=%[1]s -- reason`"+`. JSON has no
comments: add an `+"`[[ignore]]`"+` entry (file glob and key path) to `+"`.trainlint.toml`"+`. To turn the
rule off for a project, put `+"`ignore = [\"%[1]s\"]`"+` in `+"`.trainlint.toml`"+` or pass
`+"`--ignore %[2]s`"+`. A suppression that silences nothing is itself reported.
`, r.Name, r.Code)
}

// Options lists the rule's options and how to set them.
func Options(r *lint.Rule) string {
	if len(r.Options) == 0 {
		return fmt.Sprintf("This rule has no options; its severity can be changed in `.trainlint.toml` under `[rules.%s]`.\n", r.Name)
	}
	var b strings.Builder
	for _, o := range r.Options {
		fmt.Fprintf(&b, "- `%s` (%s, default `%v`): %s\n", o.Name, o.Type, o.Default, strings.TrimSpace(o.Doc))
	}
	fmt.Fprintf(&b, "\nSet them in `.trainlint.toml`:\n\n```toml\n[rules.%s]\n", r.Name)
	for _, o := range r.Options {
		fmt.Fprintf(&b, "%s = %s\n", o.Name, tomlValue(o.Default))
	}
	b.WriteString("```\n")
	return b.String()
}

// tomlValue writes an option default as TOML.
func tomlValue(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case []string:
		q := make([]string, len(x))
		for i, s := range x {
			q[i] = strconv.Quote(s)
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	return fmt.Sprint(v)
}
