package dialect

import "github.com/trainlint/trainlint/lint/doc"

// All returns every dialect, most specific first. Order breaks ties in detection.
func All() []*Dialect {
	return []*Dialect{
		// Filled in as dialects land; Generic stays last.
		Generic,
	}
}

// ByName returns the dialect with the given framework id, or nil.
func ByName(name string) *Dialect {
	for _, d := range All() {
		if d.Name == name {
			return d
		}
	}
	return nil
}

// Detect picks the dialect with the highest score (ties go to the earlier one in All); the
// generic dialect when nothing reaches MinScore.
func Detect(d *doc.Document) *Dialect {
	var best *Dialect
	bestScore := 0
	for _, dl := range All() {
		if dl == Generic || dl.Detect == nil || !supports(dl, d.Format) {
			continue
		}
		if s := dl.Detect(d); s > bestScore {
			best, bestScore = dl, s
		}
	}
	if best == nil || bestScore < MinScore {
		return Generic
	}
	return best
}

func supports(dl *Dialect, f doc.Format) bool {
	if len(dl.Formats) == 0 {
		return true
	}
	for _, x := range dl.Formats {
		if x == f {
			return true
		}
	}
	return false
}
