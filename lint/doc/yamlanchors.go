//go:build !trainlint_lite

package doc

import "strings"

// AnchorHolders returns the spans of a YAML document's duplicate-key problems whose key only
// carries anchors: every occurrence of the key in its mapping but the last (the ones the loader
// drops) has a value that starts with an anchor (`define: &img_size 384`) which an alias later in
// the file uses. The loader composes the whole document first, resolving each alias to its
// anchored node (PyYAML 6.0.2 yaml/composer.py:63-70, :95-96), and only then builds mappings,
// where the later value of a key replaces the earlier (yaml/constructor.py:138-144): the dropped
// values still reach the config through their aliases, so none is dead text, and deleting an
// occurrence, as the finding's help says, would leave an alias undefined, which the loader
// refuses (composer.py:67-69). chaofengc/IQA-PyTorch's option files repeat `define:` so
// (options/train/TOPIQ/*.yml at 01ae427). A key any of whose dropped values holds no anchor, or
// one no later alias uses, or uses only through a merge key, is reported as before; a refusal by
// the framework's own loader (plan.Rejection.Repeats, which the rule reads) is reported
// whatever the anchors. The light build declines such a file instead (declineAnchorHolders).
func AnchorHolders(d *Document) map[Span]bool {
	if d.Format != YAML || d.Root == nil {
		return nil
	}
	groups := map[int][]Problem{} // by the first occurrence's offset
	for _, pr := range d.Problems {
		if pr.Kind == DuplicateKey && pr.Related != nil {
			groups[pr.Related.Start.Offset] = append(groups[pr.Related.Start.Offset], pr)
		}
	}
	if len(groups) == 0 {
		return nil
	}
	src := d.Src
	lastAlias := map[string]int{} // an alias name as written (`*name`) -> its last offset
	d.Root.Walk(func(n *Node) bool {
		if !n.Alias {
			return true
		}
		// The alias node spans its `*name` token; what lies below it is a copy of the
		// anchored node, with the definition's spans (a merge's entries are such copies too).
		if s := n.Span.Start.Offset; s >= 0 && s < len(src) && src[s] == '*' {
			if name := anchorName(src, s+1); name != "" {
				lastAlias[name] = max(lastAlias[name], s)
			}
		}
		return false
	})
	var held map[Span]bool
	for _, prs := range groups {
		keys := []Span{*prs[0].Related}
		for _, pr := range prs {
			keys = append(keys, pr.Span)
		}
		last := 0
		for i, k := range keys {
			if k.Start.Offset > keys[last].Start.Offset {
				last = i
			}
		}
		used := true
		for i, k := range keys {
			if i == last {
				continue
			}
			at, name := valueAnchor(src, k.End.Offset)
			if name == "" || lastAlias[name] <= at || anchorDefs(src, name) != 1 {
				used = false
				break
			}
		}
		if used {
			if held == nil {
				held = map[Span]bool{}
			}
			for _, pr := range prs {
				held[pr.Span] = true
			}
		}
	}
	return held
}

// valueAnchor returns the anchor that starts the value after a block mapping key ending at off
// (`key: &name value`) and its offset, or "" when the value starts otherwise.
func valueAnchor(src []byte, off int) (int, string) {
	i := off
	for i < len(src) && (src[i] == ' ' || src[i] == '\t') {
		i++
	}
	if i >= len(src) || src[i] != ':' {
		return 0, ""
	}
	for i++; i < len(src) && (src[i] == ' ' || src[i] == '\t'); i++ {
	}
	if i >= len(src) || src[i] != '&' {
		return 0, ""
	}
	return i, anchorName(src, i+1)
}

// anchorDefs counts the places src may define the anchor name (`&name` after a blank, a flow
// indicator or a line start): PyYAML refuses a document that defines one twice ("found
// duplicate anchor", PyYAML 6.0.2 yaml/composer.py:73-77), so such a key's dropped value is no
// holder. Text in a quoted scalar may count too, which only keeps a finding.
func anchorDefs(src []byte, name string) int {
	n := 0
	for i := 0; i < len(src); i++ {
		if src[i] != '&' || i > 0 && !strings.ContainsRune(" \t\n[{,:-", rune(src[i-1])) {
			continue
		}
		if anchorName(src, i+1) == name {
			n++
		}
	}
	return n
}

// anchorName is the anchor or alias name at i (isAnchorChar: the characters the loaders take
// into it, PyYAML 6.0.2 yaml/scanner.py:917-918 scan_anchor).
func anchorName(src []byte, i int) string { return string(src[i:anchorEnd(src, i)]) }

// declineAnchorHolders: the full build reads anchor holders (AnchorHolders).
func declineAnchorHolders(*Document) {}
