package lint

import "testing"

func TestFingerprints(t *testing.T) {
	d := func(file, code, key string, line int) Diagnostic {
		return Diagnostic{File: file, Code: code, Key: key, Line: line, Column: 1, Message: "m"}
	}
	ds := []Diagnostic{d("a.yaml", "TL1", "k", 5), d("a.yaml", "TL1", "k", 9), d("a.yaml", "TL1", "j", 5),
		d("a.yaml", "TL2", "k", 5), d("b.yaml", "TL1", "k", 5)}
	fps := Fingerprints(ds)
	seen := map[string]bool{}
	for i, fp := range fps {
		if len(fp) != 32 || seen[fp] {
			t.Errorf("%d: %q empty or repeated", i, fp)
		}
		seen[fp] = true
	}
	// Occurrence follows source order, not the order given; lines themselves do not count.
	rev := []Diagnostic{ds[1], ds[0]}
	rev[0].Line, rev[1].Line = 109, 105
	if r := Fingerprints(rev); r[0] != fps[1] || r[1] != fps[0] {
		t.Errorf("occurrence index depends on slice order or on lines")
	}
	// The same path spelt differently is the same file.
	alt := []Diagnostic{d("./x/../a.yaml", "TL1", "k", 1)}
	if Fingerprints(alt)[0] != fps[0] {
		t.Errorf("path spelling changes the fingerprint")
	}
	// A preset fingerprint is kept, and still takes its occurrence slot.
	pre := append([]Diagnostic(nil), ds[:2]...)
	pre[0].Fingerprint = "kept"
	if r := Fingerprints(pre); r[0] != "kept" || r[1] != fps[1] {
		t.Errorf("preset fingerprints: %v", r)
	}
	SetFingerprints(ds)
	if ds[3].Fingerprint != fps[3] {
		t.Errorf("SetFingerprints did not fill")
	}
}

func TestNormalizePath(t *testing.T) {
	for in, want := range map[string]string{"./a/b.yaml": "a/b.yaml", "a//b/../c.json": "a/c.json", "/abs/x": "/abs/x", "-": "-", "": ""} {
		if got := NormalizePath(in); got != want {
			t.Errorf("NormalizePath(%q) = %q, want %q", in, got, want)
		}
	}
}
