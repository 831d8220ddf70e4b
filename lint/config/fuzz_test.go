package config

import (
	"testing"
)

// FuzzParse: no input makes the loader panic, and every error names a line inside the file (or
// none).
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"select = [\"TL2\"]\nfail-on = \"error\"\n",
		"fail_on = 1\n[context]\nhosts = 0\n",
		"ignore = [\"TL1\", {path = \"a/**\", rules = [\"TL202\"], keys = [\"x.y\"]}]\n",
		"[[files]]\npath = \"*.json\"\nframework = \"nemo\"\n[mapping]\neval.interval_seconds = \"a.b\"\n\"hosts\" = \"n\"\n",
		"[rules.eval-batch-smaller-than-train]\nseverity = \"info\"\nmax-steps = 2.5\n",
		"[limits]\nmax-bytes = 10\nmax-depth = \"x\"\n",
		"[tool.trainlint]\nselect = 3\n",
		"a = [\n",
	} {
		f.Add("c.toml", s)
		f.Add("pyproject.toml", s)
	}
	l := NewLoader(testRules())
	f.Fuzz(func(t *testing.T, name, src string) {
		if name != PyProject {
			name = FileName
		}
		_, err := l.Parse("/r/"+name, []byte(src))
		if err == nil {
			return
		}
		lines := 1
		for i := 0; i < len(src); i++ {
			if src[i] == '\n' {
				lines++
			}
		}
		check := func(e *Error) {
			if e.Line < 0 || e.Line > lines || e.Msg == "" {
				t.Errorf("error %q points outside the %d-line file", e.Error(), lines)
			}
		}
		var one *Error
		var many Errors
		switch {
		case asError(err, &one):
			check(one)
		case asErrors(err, &many):
			for _, e := range many {
				check(e)
			}
		}
	})
}
