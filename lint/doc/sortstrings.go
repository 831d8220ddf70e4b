package doc

import "sort"

// SortStrings is sort.Strings (ascending, by <), written with sort.Slice, whose code the engine
// links anyway: sort.Strings is slices.Sort, a second sort (its string instantiation, 17 KB of
// the light WebAssembly module's code; site/doc.go). Equal strings are the same, so the order is
// the same.
func SortStrings(x []string) { sort.Slice(x, func(i, j int) bool { return x[i] < x[j] }) }
