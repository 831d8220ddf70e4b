package lsp

import (
	"fmt"
	"slices"
	"strings"

	"go.lsp.dev/protocol"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
)

// Sections in completion. A dialect lists leaf keys ("trainer.max_epochs"); where the cursor
// is above them (the top of a Lightning config), completion offers the section that leads to
// them ("trainer"), written as a mapping opened for its keys: `trainer:` and an indented new
// line in YAML, `"trainer": {}` in JSON, `trainer=dict()` in a dict(...) call, `trainer =
// dict()` as a statement. A section whose entries are a list's items ("[]" next in the keys'
// paths) opens a list instead. TOML (a table header would take the keys written below the
// cursor into the new table) and gin (whose completion offers whole binding paths) get none.

// section is a section offered at a spot: the keys below it and whether it holds a list.
type section struct {
	name string
	list bool
	keys []string
}

// pathParts splits a dialect or spot path into its parts: "[]" right after a name is a part of
// its own standing for a list's items ("a.b[].c" → a, b, [], c), and "[]" as a part of its own
// for any entry of a mapping (big_vision's "evals.[].log_steps" → evals, {}, log_steps).
func pathParts(p string) []string {
	parts := strings.Split(strings.ReplaceAll(strings.ReplaceAll(p, ".[]", ".{}"), "[]", ".[]"), ".")
	return slices.DeleteFunc(parts, func(e string) bool { return e == "" })
}

// partsMatch reports whether a dialect key's path parts kp name the spot's parts pp, part by
// part, "[]" and "{}" in kp matching any part.
func partsMatch(kp, pp []string) bool {
	for i := range pp {
		if kp[i] != pp[i] && kp[i] != "[]" && kp[i] != "{}" {
			return false
		}
	}
	return true
}

// childSection is the section right below parent that a key's path goes through, when the key
// lies at least two levels below parent ("[]" in the key's path matches any part of parent, as
// in sameParent), and whether that section holds a list's items.
func childSection(path, parent string) (name string, list, ok bool) {
	kp, pp := pathParts(path), pathParts(parent)
	if len(kp) < len(pp)+2 || !partsMatch(kp[:len(pp)], pp) {
		return "", false, false
	}
	name = kp[len(pp)]
	if name == "[]" || name == "{}" {
		return "", false, false
	}
	return name, kp[len(pp)+1] == "[]", true
}

// sections are the sections right below parent that start with word, hold a key completion
// would offer (not renamed) and are not written yet (present). A section may share its name with
// a key of parent's own (Lightning's trainer.callbacks, trainer.strategy): it is offered only
// when that key takes nothing but a mapping or a list, and then in the key's place (replaced).
func sections(d *dialect.Dialect, parent, word string, present map[string]bool) (out []section, replaced map[string]bool) {
	leaf := map[string]string{} // parent's own keys: their types
	at := map[string]int{}
	for i := range d.Keys {
		k := &d.Keys[i]
		if k.Deprecated() != "" {
			continue
		}
		if kp, name := splitKey(k.Path); sameParent(kp, parent) {
			leaf[name] = k.Type
			continue
		}
		name, list, ok := childSection(k.Path, parent)
		if !ok || !strings.HasPrefix(name, word) || present[name] && name != word {
			continue
		}
		j, seen := at[name]
		if !seen {
			j = len(out)
			at[name] = j
			out = append(out, section{name: name})
		}
		out[j].list = out[j].list || list
		out[j].keys = append(out[j].keys, k.Path)
	}
	replaced = map[string]bool{}
	out = slices.DeleteFunc(out, func(s section) bool {
		typ, ok := leaf[s.name]
		if !ok {
			return false
		}
		for _, alt := range strings.Split(typ, "|") {
			if alt != "object" && alt != "array" {
				return true
			}
		}
		replaced[s.name] = true
		return false
	})
	return out, replaced
}

// withSections adds to items (the keys offered at parent) the sections offered there, each
// inserting text(section) over replace (as a snippet when snippet is set: text then holds "$0"
// where the cursor goes), in place of a key they replace.
func withSections(items []protocol.CompletionItem, a lint.Analysis, parent, word string, present map[string]bool, replace protocol.Range, snippet bool, text func(section) string) []protocol.CompletionItem {
	secs, replaced := sections(a.Dialect, parent, word, present)
	items = slices.DeleteFunc(items, func(it protocol.CompletionItem) bool {
		return it.Kind == protocol.CompletionItemKindProperty && replaced[it.Label]
	})
	for _, s := range secs {
		newText := text(s)
		format := protocol.InsertTextFormatSnippet
		if !snippet {
			newText, format = strings.ReplaceAll(newText, "$0", ""), protocol.InsertTextFormatPlainText
		}
		items = append(items, protocol.CompletionItem{
			Label: s.name, Kind: protocol.CompletionItemKindModule,
			Detail:           protocol.NewOptional(fmt.Sprintf("section: %s (%s)", plural(len(s.keys), "key"), a.Dialect.Title)),
			Documentation:    &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: sectionDoc(s)},
			TextEdit:         &protocol.TextEdit{Range: replace, NewText: newText},
			FilterText:       protocol.NewOptional(s.name),
			InsertTextFormat: format,
			InsertTextMode:   protocol.InsertTextModeAsIs,
		})
	}
	return items
}

// sectionAt is the section at a key path, when the dialect has keys below it.
func sectionAt(d *dialect.Dialect, path string) (section, bool) {
	if d == nil {
		return section{}, false
	}
	parent, name := splitKey(path)
	if strings.HasSuffix(path, "[]") {
		return section{}, false
	}
	secs, _ := sections(d, parent, name, nil)
	for _, s := range secs {
		if s.name == name {
			return s, true
		}
	}
	return section{}, false
}

// sectionDoc lists the keys a section leads to (the first twelve).
func sectionDoc(s section) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**: a section", s.name)
	if s.list {
		b.WriteString(" holding a list")
	}
	b.WriteString(" with ")
	n := min(len(s.keys), 12)
	for i, k := range s.keys[:n] {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("`" + k + "`")
	}
	if len(s.keys) > n {
		fmt.Fprintf(&b, " and %d more", len(s.keys)-n)
	}
	return b.String()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
