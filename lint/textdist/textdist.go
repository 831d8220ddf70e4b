// Package textdist measures how far apart two short strings are, for the "did you mean"
// suggestions of the CLI (rule names), the config loader (config keys) and TL003 (unknown keys).
// Each caller keeps its own policy for which candidate is close enough; only the distance is
// shared, so one dynamic-programming loop serves them all.
package textdist

import "unicode/utf8"

// Levenshtein is the edit distance in bytes: insertions, deletions and substitutions.
func Levenshtein(a, b string) int {
	// No alignment costs more than len(a)+len(b), so this limit never stops the loop early.
	return distance([]byte(a), []byte(b), false, len(a)+len(b))
}

// OSA is the optimal-string-alignment distance in runes: insertions, deletions, substitutions
// and swaps of neighbours ("lenght" is one edit from "length"). It stops early, returning
// limit+1, once every alignment costs more than limit.
func OSA(a, b string, limit int) int {
	// Most candidates differ in length by more than the limit: decide that before allocating.
	if d := utf8.RuneCountInString(a) - utf8.RuneCountInString(b); d > limit || -d > limit {
		return limit + 1
	}
	// TL003 calls this for every unknown key against every known one: for ASCII (all keys in
	// practice) runes are bytes, and short strings are copied to the stack, not the heap.
	if isASCII(a) && isASCII(b) && len(a) <= smallLen && len(b) <= smallLen {
		var ab, bb [smallLen]byte
		return distance(ab[:copy(ab[:], a)], bb[:copy(bb[:], b)], true, limit)
	}
	return distance([]rune(a), []rune(b), true, limit)
}

// smallLen is the longest string whose rows fit the stack buffers of OSA and distance.
const smallLen = 64

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// distance is the dynamic-programming core of both measures; swaps adds the transposition of
// two neighbours as one edit.
func distance[T byte | rune](a, b []T, swaps bool, limit int) int {
	var rows [3 * (smallLen + 1)]int
	var prev2, prev, cur []int
	if n := len(b) + 1; n <= smallLen+1 {
		prev2, prev, cur = rows[:n], rows[n:2*n], rows[2*n:3*n]
	} else {
		prev2, prev, cur = make([]int, n), make([]int, n), make([]int, n)
	}
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := cur[0]
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if swaps && i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
