package lint

import (
	"hash/fnv"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// FingerprintVersion names the fingerprint scheme; SARIF writes it into the partialFingerprints
// key and the baseline file records it, so a future change of scheme is detected, not silently
// mismatched.
const FingerprintVersion = 1

// Fingerprints returns one fingerprint per diagnostic, in the order given. A fingerprint is a
// hash of the file path, the rule code, the key path and an occurrence index that tells apart
// findings sharing those three (in source order). It never includes the line, the column or the
// message, so inserting or deleting lines elsewhere, or rewording a message, keeps it: SARIF
// consumers keep tracking the same alert, and a baseline keeps matching. A diagnostic whose
// Fingerprint is already set keeps it (it was computed on the unfiltered result).
func Fingerprints(ds []Diagnostic) []string {
	// Occurrence order is source order within each (file, rule, key) triple, whatever order the
	// caller passes.
	idx := make([]int, len(ds))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := &ds[idx[a]], &ds[idx[b]]
		if x.Line != y.Line {
			return x.Line < y.Line
		}
		if x.Column != y.Column {
			return x.Column < y.Column
		}
		if x.EndLine != y.EndLine {
			return x.EndLine < y.EndLine
		}
		return x.EndColumn < y.EndColumn
	})
	seen := map[string]int{}
	out := make([]string, len(ds))
	for _, i := range idx {
		d := &ds[i]
		triple := NormalizePath(d.File) + "\x00" + d.Code + "\x00" + d.Key
		n := seen[triple]
		seen[triple] = n + 1
		if d.Fingerprint != "" {
			out[i] = d.Fingerprint
			continue
		}
		// FNV-1a, 128 bits: a fingerprint tells findings apart, it guards nothing, and
		// crypto/sha256 was 43 KB of the browser checker's compressed WebAssembly.
		h := fnv.New128a()
		h.Write([]byte("trainlint/" + strconv.Itoa(FingerprintVersion) + "\x00" + triple + "\x00" + strconv.Itoa(n)))
		out[i] = hexString(h.Sum(nil))
	}
	return out
}

// SetFingerprints fills the Fingerprint of every diagnostic that has none. Call it on the full
// result before dropping diagnostics (baseline, fail-on views), so the occurrence indexes stay
// those of the whole file.
func SetFingerprints(ds []Diagnostic) {
	for i, fp := range Fingerprints(ds) {
		ds[i].Fingerprint = fp
	}
}

// NormalizePath spells a reported path the same way however it was given on the command line:
// forward slashes, cleaned, no leading "./". Fingerprints, the baseline and the CI formats use it.
func NormalizePath(p string) string {
	if p == "" || p == "-" {
		return p
	}
	p = path.Clean(doc.ToSlash(p))
	return strings.TrimPrefix(p, "./")
}

// hexString is hex.EncodeToString (lower-case digits), written here: encoding/hex imports fmt.
func hexString(b []byte) string {
	const digits = "0123456789abcdef"
	out := make([]byte, 2*len(b))
	for i, c := range b {
		out[2*i], out[2*i+1] = digits[c>>4], digits[c&15]
	}
	return string(out)
}
