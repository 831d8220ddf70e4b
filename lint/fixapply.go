package lint

import "sort"

// ApplyFixes applies the fixes of the diagnostics that target path to src and returns the new
// text and how many fixes it applied. Only safe fixes are applied unless unsafe is set. A fix is
// all-or-nothing: when any of its edits overlaps an edit already accepted (two fixes touching
// the same value), the whole fix is skipped, so callers re-lint and apply again to converge.
// Edits are read by byte offset (Edit.Start/End), which the engine fills in.
func ApplyFixes(src []byte, path string, diags []Diagnostic, unsafe bool) ([]byte, int) {
	type span struct{ start, end int }
	var accepted []Edit
	var taken []span
	applied := 0
	overlaps := func(s span) bool {
		for _, t := range taken {
			// Two insertions at the same point also conflict: their order would be arbitrary.
			if s.start < t.end && t.start < s.end || s.start == t.start {
				return true
			}
		}
		return false
	}
	for _, d := range diags {
		fx := d.Fix
		if fx == nil || len(fx.Edits) == 0 || (fx.Applicability != Safe && !unsafe) {
			continue
		}
		ok := true
		var mine []span
		for _, e := range fx.Edits {
			if e.File != path || e.Start < 0 || e.End < e.Start || e.End > len(src) {
				ok = false
				break
			}
			s := span{e.Start, e.End}
			if overlaps(s) {
				ok = false
				break
			}
			mine = append(mine, s)
		}
		if !ok {
			continue
		}
		taken = append(taken, mine...)
		accepted = append(accepted, fx.Edits...)
		applied++
	}
	if applied == 0 {
		return src, 0
	}
	sort.SliceStable(accepted, func(i, j int) bool { return accepted[i].Start < accepted[j].Start })
	out := make([]byte, 0, len(src))
	last := 0
	for _, e := range accepted {
		out = append(out, src[last:e.Start]...)
		out = append(out, e.NewText...)
		last = e.End
	}
	out = append(out, src[last:]...)
	return out, applied
}
