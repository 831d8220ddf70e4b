package doc

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/corpustest"
)

// TestLoaderKeyIDAgreesWithLoaders gives PyYAML's safe_load and OmegaConf's loader every text of
// up to three characters from the alphabet numbers are written in, 4,000 longer ones and dates:
// a plain key's ID is its text (so it repeats its quoted twin) only where both loaders read a
// string, and a text both read as a string is marked only when it starts as a date does.
func TestLoaderKeyIDAgreesWithLoaders(t *testing.T) {
	const alphabet = "0159_.:+-ebx"
	var texts []string
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		if prefix != "" {
			texts = append(texts, prefix)
		}
		if n == 0 {
			return
		}
		for i := 0; i < len(alphabet); i++ {
			grow(prefix+alphabet[i:i+1], n-1)
		}
	}
	grow("", 3)
	r := rand.New(rand.NewPCG(1, 2))
	const wide = "0123456789_.:+-eExXbBoaAfFinINTtZ "
	for i := 0; i < 4000; i++ {
		var b strings.Builder
		for n := 5 + r.IntN(8); n > 0; n-- {
			b.WriteByte(wide[r.IntN(len(wide))])
		}
		if s := strings.TrimSpace(b.String()); s != "" {
			texts = append(texts, s)
		}
	}
	texts = append(texts, "yes", "No", "ON", "off", "true", "FALSE", "~", "null", "NULL", ".inf", "-.Inf", "+.INF",
		".nan", ".NaN", "-.nan", "2001-01-01", "2001-1-1", "2001-01-01 1:00:00", "2001-12-14t21:59:43.10-05:00",
		"2001-12-14 21:59:43.10 -5", "2001-12-14 21:59:43 Z", "2001-12-14T21:59:43.1Z", "2001-12-14 21:59:43.10 x",
		"190:20:30", "-1:30", "1:30.5", "0b1010", "0x0A", "012", "1e+1", "1e3", "1_0e5", "._5", "a", "run_1")
	var in strings.Builder
	for _, s := range texts {
		in.WriteString(strconv.Quote(s) + "\n")
	}
	verdicts := corpustest.RunPython(t, corpustest.Python(t, "omegaconf"), `import sys, json, yaml
from omegaconf._utils import get_yaml_loader
for line in sys.stdin.read().split("\n")[:-1]:
    text = "k: " + json.loads(line) + "\n"
    try:
        a = yaml.safe_load(text)["k"]
        b = yaml.load(text, Loader=get_yaml_loader())["k"]
    except Exception:
        print("E")
        continue
    print("s" if isinstance(a, str) and isinstance(b, str) else "x")`, in.String(), len(texts))
	strs := 0
	for i, s := range texts {
		id := loaderKeyID(s)
		switch verdicts[i] {
		case "s":
			strs++
			if id != s && !pyyamlTimestamp(s) {
				t.Errorf("%q: a string to both loaders, ID %q", s, id)
			}
		case "x":
			if id == s {
				t.Errorf("%q: not a string to a loader, but its ID is its text", s)
			}
		}
	}
	if strs < 500 || strs > len(texts)-500 {
		t.Errorf("%d of %d texts are strings to both loaders: the sample does not test both sides", strs, len(texts))
	}
	t.Logf("%d texts, %d strings to both loaders", len(texts), strs)
}
