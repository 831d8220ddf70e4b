package lsp

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"go.lsp.dev/protocol"
	"go.lsp.dev/uri"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
)

// analysis parses and normalises an open document the way the lint does (same options), for the
// features that read its tree: hover, completion, definition.
func (s *server) analysis(u uri.URI) (lint.Analysis, *document, encoding) {
	return s.analysisBlanking(u, -1)
}

// analysisBlanking is analysis with one line (0-based; -1 none) blanked out: completion reads
// the file without the half-typed word under the cursor, which would often not parse.
func (s *server) analysisBlanking(u uri.URI, blank int) (lint.Analysis, *document, encoding) {
	s.mu.Lock()
	cfg, enc := s.cfg, s.enc
	var d *document
	if live := s.docs[u]; live != nil {
		snap := *live // a snapshot: the lint goroutine updates the live document
		d = &snap
	}
	s.mu.Unlock()
	if d == nil || d.format == "" {
		return lint.Analysis{}, nil, enc
	}
	t := d.text
	var opts lint.Options
	if d.onDisk {
		if o, err := cfg(d.path); err == nil {
			opts = o
		}
	}
	src := t.src
	if l := t.line(blank); l != nil {
		src = append([]byte(nil), src...)
		start := t.starts[blank]
		for i := range l {
			src[start+i] = ' '
		}
	}
	a, _ := lint.Analyze(lint.File{Path: d.path, Text: src, Format: d.format}, opts)
	if (a.Doc == nil || a.Doc.Root == nil || a.Dialect == dialect.Generic) && opts.Framework == "" {
		if dl := dialect.ByName(d.framework); dl != nil {
			a.Dialect = dl
		}
	}
	return a, d, enc
}

// nodeAt returns the deepest node whose key or value span holds off, and whether off is on the
// key.
func nodeAt(n *doc.Node, off int) (*doc.Node, bool) {
	if n == nil {
		return nil, false
	}
	var best *doc.Node
	onKey := false
	var walk func(n *doc.Node)
	walk = func(n *doc.Node) {
		for _, c := range n.Children {
			if c.Alias {
				continue
			}
			if in(c.KeySpan, off) {
				best, onKey = c, true
			} else if in(c.Span, off) && (best == nil || !onKey || c.Kind == doc.Scalar) {
				best, onKey = c, false
			}
			walk(c)
		}
	}
	walk(n)
	return best, onKey
}

func in(sp doc.Span, off int) bool {
	return !sp.IsZero() && sp.Start.Offset <= off && off <= sp.End.Offset && sp.End.Offset > sp.Start.Offset
}

// tablePath spells a node's path the way the dialect key tables do: dotted keys, "[]" for
// sequence items ("trainer.callbacks[].init_args.monitor").
func tablePath(p doc.Path) string {
	var b strings.Builder
	for i, e := range p {
		if e.IsIndex {
			b.WriteString("[]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(e.Key)
	}
	return b.String()
}

func findKey(d *dialect.Dialect, path string) *dialect.Key {
	if d == nil {
		return nil
	}
	for i := range d.Keys {
		if d.Keys[i].Path == path {
			return &d.Keys[i]
		}
	}
	return nil
}

// keyDoc is a key's hover text: what it means, its type, its default and where that default
// comes from (the framework and the version its dialect was checked against).
func keyDoc(d *dialect.Dialect, k *dialect.Key) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s**: %s\n\n", k.Path, k.Doc)
	def := "none (unset)"
	if k.Default != "" {
		def = "`" + k.Default + "`"
	}
	fmt.Fprintf(&b, "Default: %s. Source: %s, %s\n\n", def, d.Title, d.Version)
	if k.Type != "" {
		fmt.Fprintf(&b, "Type: %s", k.Type)
		if len(k.Enum) > 0 {
			fmt.Fprintf(&b, "; one of %s", "`"+strings.Join(k.Enum, "`, `")+"`")
		}
		b.WriteString("\n\n")
	}
	if k.Deprecated() != "" {
		fmt.Fprintf(&b, "Renamed: use `%s`.\n\n", k.Deprecated())
	}
	return strings.TrimSpace(b.String())
}

// ruleDoc is a rule's hover text: its title, rationale and fix (Markdown, from the rule's own
// metadata, the same text `trainlint explain` prints) and links to its page and playbook section.
func ruleDoc(r *lint.Rule) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s %s** (%s, %s): %s\n\n", r.Code, r.Name, r.Severity, r.Category, r.Title)
	if r.Rationale != "" {
		b.WriteString(strings.TrimSpace(r.Rationale) + "\n\n")
	}
	if fix := r.FixText(); fix != "" {
		b.WriteString("**Fix.** " + strings.TrimSpace(fix) + "\n\n")
	}
	fmt.Fprintf(&b, "[%s](%s)", r.Name, r.URL())
	if pl := r.PlaybookLink(); pl != "" {
		fmt.Fprintf(&b, " · [Tuning Playbook section](%s) (guidance adapted from the playbook, CC BY 4.0)", pl)
	}
	return b.String()
}

func (s *server) ruleNamed(name string) *lint.Rule {
	for _, r := range s.eng.Rules {
		if r.Name == name || r.Code == name {
			return r
		}
	}
	if name == lint.InternalError.Name {
		return lint.InternalError
	}
	return nil
}

// Hover shows, on a finding, its rule's documentation, and on a key, what the key means and its
// default (on a section, the keys it leads to).
func (s *server) Hover(ctx context.Context, p *protocol.HoverParams) (*protocol.Hover, error) {
	var parts []string
	var rng *protocol.Range
	if pub, _ := s.current(p.TextDocument.URI); pub != nil {
		s.mu.Lock()
		enc := s.enc
		s.mu.Unlock()
		at := protocol.Range{Start: p.Position, End: p.Position}
		seen := map[string]bool{}
		for _, d := range pub.diags {
			r := diagRange(pub.text, d, enc)
			if !overlaps(r, at) || seen[d.Rule] {
				continue
			}
			seen[d.Rule] = true
			if rule := s.ruleNamed(d.Rule); rule != nil {
				parts = append(parts, ruleDoc(rule))
				rr := r
				rng = &rr
			}
		}
	}
	a, d, enc := s.analysis(p.TextDocument.URI)
	if d != nil && a.Doc != nil {
		off := d.text.offset(p.Position, enc)
		if n, _ := nodeAt(a.Doc.Root, off); n != nil && n.Key != "" {
			doc := ""
			if k := codeKey(a.Dialect, tablePath(n.Path())); k != nil {
				doc = keyDoc(a.Dialect, k)
			} else if sec, ok := sectionAt(a.Dialect, tablePath(n.Path())); ok {
				doc = sectionDoc(sec) + ".\n\nSource: " + a.Dialect.Title
			}
			if doc != "" {
				parts = append(parts, doc)
				if rng == nil && !n.KeySpan.IsZero() {
					r := d.text.rangeOf(n.KeySpan.Start.Offset, n.KeySpan.End.Offset, enc)
					rng = &r
				}
			}
		}
	}
	if len(parts) == 0 {
		return nil, nil
	}
	return &protocol.Hover{
		Contents: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: strings.Join(parts, "\n\n---\n\n")},
		Range:    rng,
	}, nil
}

// Completion offers the detected framework's keys that belong where the cursor is (and are not
// written yet), each inserted with its default; in a value position, a key's allowed values.
func (s *server) Completion(ctx context.Context, p *protocol.CompletionParams) (protocol.CompletionResult, error) {
	a, d, enc := s.analysisBlanking(p.TextDocument.URI, int(p.Position.Line))
	if d == nil || a.Dialect == nil {
		return nil, nil
	}
	off := d.text.offset(p.Position, enc)
	at := d.text.position(off, enc) // the position clamped into the document
	ln := int(at.Line)
	lineStart := d.text.starts[ln]
	if d.format == doc.Python || d.format == doc.Gin {
		return codeCompletion(a, d, enc, lineStart, off, at, s.snippetsOn()), nil
	}
	prefix := string(d.text.src[lineStart:off])
	// The word being typed (replaced by the completion).
	ws := len(prefix)
	for ws > 0 && strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-\"", rune(prefix[ws-1])) {
		ws--
	}
	word := strings.Trim(prefix[ws:], `"`)
	replace := protocol.Range{Start: d.text.position(lineStart+ws, enc), End: at}
	if strings.HasPrefix(prefix[ws:], `"`) {
		replace.End = d.text.position(d.text.pastQuote(off, '"'), enc)
	}

	parent, isValue, key := completionContext(d.format, d.text, ln, prefix[:ws], a.Doc, off)
	items := []protocol.CompletionItem{}
	if isValue {
		k := findKey(a.Dialect, joinPath(parent, key))
		if k == nil {
			return protocol.CompletionItemSlice(items), nil
		}
		for _, v := range k.Enum {
			text := v
			if d.format != doc.YAML {
				text = `"` + v + `"`
			}
			items = append(items, protocol.CompletionItem{
				Label: v, Kind: protocol.CompletionItemKindValue,
				Detail:   protocol.NewOptional(k.Path + " value"),
				TextEdit: &protocol.TextEdit{Range: replace, NewText: text},
			})
		}
		return protocol.CompletionItemSlice(items), nil
	}
	present := presentKeys(a.Doc, parent)
	items = keyCompletions(a, parent, word, present, replace, func(name string, k *dialect.Key) string {
		return keyText(d.format, name, k)
	})
	if text := sectionText(d.format, prefix[:ws]); text != nil {
		items = withSections(items, a, parent, word, present, replace, s.snippetsOn(), text)
	}
	return protocol.CompletionItemSlice(items), nil
}

// sectionText is how a section is written in a YAML or JSON file where before (the line's text
// before the word) stands, or nil where none is offered: in YAML only on a line holding nothing
// else but a list item's dash, its keys going on the next line two columns further in.
func sectionText(f doc.Format, before string) func(section) string {
	switch f {
	case doc.JSON:
		return func(s section) string {
			if s.list {
				return `"` + s.name + `": [$0]`
			}
			return `"` + s.name + `": {$0}`
		}
	case doc.YAML:
		if strings.Trim(strings.TrimSuffix(strings.TrimRight(before, " "), "-"), " ") != "" {
			return nil
		}
		in := "\n" + strings.Repeat(" ", len(before)+2)
		return func(s section) string {
			if s.list {
				return s.name + ":" + in + "- $0"
			}
			return s.name + ":" + in + "$0"
		}
	}
	return nil
}

// presentKeys are the keys written under parent in d, which completion does not offer again.
func presentKeys(d *doc.Document, parent string) map[string]bool {
	present := map[string]bool{}
	if d != nil && d.Root != nil {
		n := d.Root
		if parent != "" {
			n = n.At(parent)
		}
		if n != nil {
			for _, c := range n.Children {
				present[c.Key] = true
			}
		}
	}
	return present
}

// keyCompletions are the dialect's keys under parent (sameParent: "[]" in a key's path stands
// for any entry) that start with word and are not present (but word itself, being typed), each
// written by text.
func keyCompletions(a lint.Analysis, parent, word string, present map[string]bool, replace protocol.Range, text func(string, *dialect.Key) string) []protocol.CompletionItem {
	items := []protocol.CompletionItem{}
	for i := range a.Dialect.Keys {
		k := &a.Dialect.Keys[i]
		kp, name := splitKey(k.Path)
		if !sameParent(kp, parent) || present[name] && name != word || k.Deprecated() != "" || !strings.HasPrefix(name, word) {
			continue
		}
		items = append(items, keyItem(a.Dialect, k, name, replace, text(name, k)))
	}
	return items
}

// keyItem is the completion item of key k, shown as label (its last part, or the rest of a gin
// binding's path) and inserting newText over replace.
func keyItem(d *dialect.Dialect, k *dialect.Key, label string, replace protocol.Range, newText string) protocol.CompletionItem {
	def := k.Default
	if def == "" {
		def = "unset"
	}
	return protocol.CompletionItem{
		Label: label, Kind: protocol.CompletionItemKindProperty,
		Detail:        protocol.NewOptional("default " + def + " (" + d.Title + ")"),
		Documentation: &protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: keyDoc(d, k)},
		TextEdit:      &protocol.TextEdit{Range: replace, NewText: newText},
		FilterText:    protocol.NewOptional(label),
	}
}

// keyText is what completing a key inserts: the key, and its default when it has one.
func keyText(f doc.Format, name string, k *dialect.Key) string {
	v := k.Default
	quote := strings.HasPrefix(k.Type, "string") && v != ""
	switch f {
	case doc.JSON:
		if quote {
			v = `"` + v + `"`
		}
		if v == "" {
			return `"` + name + `": `
		}
		return `"` + name + `": ` + v
	case doc.TOML:
		if quote {
			v = `"` + v + `"`
		}
		if v == "" {
			return name + " = "
		}
		return name + " = " + v
	}
	if v == "" {
		return name + ": "
	}
	return name + ": " + v
}

// splitKey splits a table path into its parent and last key ("trainer.max_steps" → "trainer",
// "max_steps").
func splitKey(p string) (string, string) {
	if i := strings.LastIndexByte(p, '.'); i >= 0 {
		return p[:i], p[i+1:]
	}
	return "", p
}

func joinPath(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// completionContext finds where the cursor is: the table path of the mapping a key typed here
// would belong to, and whether the cursor is in a value position (after "key:" or "key =",
// whose key it returns).
func completionContext(f doc.Format, t *text, ln int, before string, d *doc.Document, off int) (parent string, isValue bool, key string) {
	trimmed := strings.TrimSpace(before)
	switch f {
	case doc.TOML:
		if k, _, ok := strings.Cut(trimmed, "="); ok {
			isValue, key = true, strings.Trim(strings.TrimSpace(k), `"'`)
		}
		for i := ln - 1; i >= 0; i-- {
			l := strings.TrimSpace(string(t.line(i)))
			if strings.HasPrefix(l, "[[") {
				return strings.Trim(strings.TrimSpace(strings.Trim(l, "[]")), `"`) + "[]", isValue, key
			}
			if strings.HasPrefix(l, "[") {
				return strings.TrimSpace(strings.Trim(l, "[]")), isValue, key
			}
		}
		return "", isValue, key
	case doc.JSON:
		if strings.HasSuffix(trimmed, ":") {
			isValue, key = true, strings.Trim(strings.TrimSuffix(trimmed, ":"), `" `)
		}
		if d == nil || d.Root == nil {
			return "", isValue, key
		}
		// The innermost object holding the cursor.
		var deepest *doc.Node
		var walk func(n *doc.Node)
		walk = func(n *doc.Node) {
			for _, c := range n.Children {
				if c.Kind == doc.Map && in(c.Span, off) {
					deepest = c
				}
				walk(c)
			}
		}
		walk(d.Root)
		if deepest != nil {
			return tablePath(deepest.Path()), isValue, key
		}
		return "", isValue, key
	}
	// YAML: the keys of less-indented lines above, up to the top level.
	if k, _, ok := strings.Cut(trimmed, ":"); ok {
		isValue, key = true, strings.TrimSpace(strings.TrimPrefix(k, "- "))
	}
	indent := len(before) - len(strings.TrimLeft(before, " "))
	// A key typed after a list item's dash belongs to the item's mapping.
	item := strings.HasPrefix(strings.TrimLeft(before, " "), "- ")
	if item {
		indent += 2
	}
	var parts []string
	for i := ln - 1; i >= 0 && indent > 0; i-- {
		raw := string(t.line(i))
		body := strings.TrimLeft(raw, " ")
		if body == "" || strings.HasPrefix(body, "#") {
			continue
		}
		ind := len(raw) - len(body)
		if strings.HasPrefix(body, "- ") {
			// A sequence item: a key at ind+2 belongs to the item's mapping.
			if ind+2 <= indent && ind < indent {
				if ind+2 == indent && !strings.HasSuffix(strings.TrimSpace(body), ":") {
					parts = append(parts, "[]")
					indent = ind
					continue
				}
				body = body[2:]
				ind += 2
			}
		}
		if ind >= indent {
			continue
		}
		if k, _, ok := strings.Cut(body, ":"); ok {
			parts = append(parts, strings.Trim(strings.TrimSpace(k), `"'`))
			indent = ind
		}
	}
	var b strings.Builder
	for i := len(parts) - 1; i >= 0; i-- {
		if parts[i] == "[]" {
			b.WriteString("[]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(parts[i])
	}
	if item {
		b.WriteString("[]")
	}
	return b.String(), isValue, key
}

// fileRefKeys are keys whose string value names another file of the run: a DeepSpeed config
// (HF/TRL/axolotl/LLaMA-Factory `deepspeed`, accelerate `deepspeed_config_file`, Lightning's
// DeepSpeedStrategy `config`), and includes (`include`, MMEngine-style `_base_`, trainlint's own
// `extend`).
var fileRefKeys = map[string]bool{
	"deepspeed": true, "deepspeed_config_file": true, "deepspeed_config": true,
	"strategy.init_args.config": true, "trainer.strategy.init_args.config": true,
	"include": true, "includes": true, "_base_": true, "extend": true,
}

// Definition jumps from a reference to another file (a `deepspeed:` path, a Hydra defaults
// entry, an include) to that file, when it exists inside the workspace.
func (s *server) Definition(ctx context.Context, p *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	a, d, enc := s.analysis(p.TextDocument.URI)
	if d == nil || !d.onDisk || a.Doc == nil || a.Doc.Root == nil {
		return nil, nil
	}
	off := d.text.offset(p.Position, enc)
	dir := filepath.Dir(d.path)
	n, onKey := nodeAt(a.Doc.Root, off)
	var candidates []string
	if n == nil {
		candidates = s.codeRefTarget(a.Doc, off, dir)
	} else if target := s.hydraTarget(n, onKey, dir); len(target) > 0 {
		candidates = target
	} else if n.Kind == doc.Scalar && !onKey && n.Value != "" {
		owner := n
		for owner != nil && owner.Key == "" { // a list item: the key of its list
			owner = owner.Parent
		}
		if owner != nil && (fileRefKeys[owner.Key] || fileRefKeys[tablePath(owner.Path())]) {
			candidates = s.relativeTo(n.Value, dir)
		}
	}
	for _, c := range candidates {
		if fi, err := os.Stat(c); err == nil && !fi.IsDir() && s.inWorkspace(c, dir) {
			return &protocol.Location{URI: uri.File(c)}, nil
		}
	}
	return nil, nil
}

// relativeTo lists where a relative path may point: next to the referring file, then from the
// workspace folder holding it (launchers run from the repository's top).
func (s *server) relativeTo(p, dir string) []string {
	p = strings.TrimSpace(p)
	if filepath.IsAbs(p) {
		return []string{filepath.Clean(p)}
	}
	out := []string{filepath.Join(dir, p)}
	if root := s.folderOf(dir); root != "" {
		out = append(out, filepath.Join(root, p))
	}
	return out
}

// hydraTarget resolves an entry of a Hydra defaults list (`- trainer: gpu`, `- override
// /model: big`, `- base`): the option file of the group, next to the referring file for a
// relative entry, and for an absolute one (`/model`) in the nearest folder above it inside the
// workspace that has it (the config root is one of them).
func (s *server) hydraTarget(n *doc.Node, onKey bool, dir string) []string {
	if len(n.Path()) < 2 || n.Path()[0].IsIndex || n.Path()[0].Key != "defaults" || !n.Path()[1].IsIndex {
		return nil
	}
	var group, option string
	switch {
	case len(n.Path()) == 2 && n.Kind == doc.Scalar: // - base
		option = n.Value
	case len(n.Path()) == 3 && n.Kind == doc.Scalar: // - group: option (cursor on either side)
		group, option = n.Key, n.Value
	case len(n.Path()) == 4 && n.Kind == doc.Scalar && n.Parent != nil: // - group: [a, b]
		group, option = n.Parent.Key, n.Value
	default:
		return nil
	}
	_ = onKey
	if option == "" || option == "_self_" || option == "???" || n.Type == doc.Null {
		return nil
	}
	for _, w := range []string{"override ", "optional "} {
		group = strings.TrimPrefix(strings.TrimSpace(group), w)
	}
	group, _, _ = strings.Cut(group, "@")
	// A relative group is relative to the referring config (its folder); an absolute one
	// ("/trainer") to the config root, which is the folder or one above it (Hydra 1.1 to 1.3,
	// "The Defaults List": "The path is relative to the containing config. It can be made
	// absolute by prefixing it with a /").
	absolute := strings.HasPrefix(group, "/") || strings.HasPrefix(option, "/")
	group = strings.TrimPrefix(group, "/")
	option = strings.TrimPrefix(option, "/")
	option, _, _ = strings.Cut(option, "@")
	rel := filepath.Join(filepath.FromSlash(group), filepath.FromSlash(option))
	if filepath.Ext(rel) == "" {
		rel += ".yaml"
	}
	var out []string
	root := s.folderOf(dir)
	for cur := dir; ; cur = filepath.Dir(cur) {
		out = append(out, filepath.Join(cur, rel))
		if alt := strings.TrimSuffix(rel, ".yaml") + ".yml"; alt != rel {
			out = append(out, filepath.Join(cur, alt))
		}
		if !absolute || cur == root || root == "" || filepath.Dir(cur) == cur {
			break
		}
	}
	return out
}
