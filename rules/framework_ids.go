package rules

import (
	"sort"
	"strings"
	"sync"

	"github.com/trainlint/trainlint/lint/dialect"
)

// The framework ids an example's name (and a rule's Frameworks) may start with; the examples
// themselves (examples.go) are the full build's.

// frameworkIDs are the framework names a section may carry: the registered dialects' ids.
func frameworkIDs() []string {
	var ids []string
	for _, d := range dialect.All() {
		ids = append(ids, d.Name)
	}
	return ids
}

// splitFramework splits "<id>-<suffix>" into the framework id and the suffix, longest id first
// (ids contain dashes).
func splitFramework(s string) (fw, suffix string) {
	for _, id := range idsLongestFirst() {
		if s == id {
			return id, ""
		}
		if strings.HasPrefix(s, id+"-") {
			return id, s[len(id)+1:]
		}
	}
	return "", ""
}

// idsLongestFirst are the framework ids, longest first, computed once (the registry is complete
// once package dialect is initialised).
var idsLongestFirst = sync.OnceValue(func() []string {
	ids := frameworkIDs()
	sort.SliceStable(ids, func(i, j int) bool { return len(ids[i]) > len(ids[j]) })
	return ids
})
