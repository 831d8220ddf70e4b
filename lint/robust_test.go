package lint_test

import (
	"fmt"
	"math/rand"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/rules"
)

// Hostile inputs through the whole engine (parse, detect or forced dialect, normalise, every
// rule, suppressions) with each dialect forced in turn, whatever the format: the dialects and
// rules must cope with every tree the parsers can hand them, not only the configs they were
// written for. The parsers' own handling of these inputs is tested in lint/doc/robust_test.go;
// here the question is what reaches the user: a clear finding or a clean result, never a panic
// and never TL009 (a recovered crash). Time and allocation per input are logged (go test -v);
// only the deterministic properties are asserted.

type hostile struct {
	name   string
	format doc.Format
	src    []byte
	limits doc.Limits
	// want matches the rule of some diagnostic ("" = any result, including none).
	want string
	// perByte, when set, bounds what one lint of the input may allocate: perByte bytes per
	// byte of input plus 64 MB (which holds the YAML alias allowance of the default limits).
	perByte int
}

func hostileInputs(t testing.TB) []hostile {
	t.Helper()
	const deep = 100000
	var hs []hostile
	add := func(name string, f doc.Format, src string, want string) {
		hs = append(hs, hostile{name: name, format: f, src: []byte(src), want: want})
	}

	// Alias bomb (the "billion laughs"): nine levels of nine aliases each.
	var bomb strings.Builder
	bomb.WriteString("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	for c := 'b'; c <= 'i'; c++ {
		p := string(c - 1)
		bomb.WriteString(string(c) + ": &" + string(c) + " [" + strings.Repeat("*"+p+",", 8) + "*" + p + "]\n")
	}
	add("alias bomb", doc.YAML, bomb.String(), "input-limit-exceeded")
	// A small bomb stays under the alias budget: its expanded tree reaches the dialects.
	add("alias fan-out under the limit", doc.YAML, "a: &a {lr: 0.1, batch_size: 8}\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a]\nc: [*b, *b, *b, *b, *b, *b, *b, *b]\ntrain: *a\n", "")
	add("alias cycle", doc.YAML, "a: &a [*a]\n", "parse-error")
	add("alias cycle through a map", doc.YAML, "trainer: &t\n  eval: *t\n", "parse-error")
	add("undefined alias", doc.YAML, "a: *nowhere\n", "parse-error")
	add("merge of an alias", doc.YAML, "base: &b {per_device_train_batch_size: 8}\ntrainer:\n  <<: *b\n  <<: *b\n", "")

	// 100,000-deep nesting in every format, and nesting just under the default depth limit.
	add("deep yaml flow", doc.YAML, strings.Repeat("[", deep)+strings.Repeat("]", deep), "input-limit-exceeded")
	add("deep yaml block", doc.YAML, strings.Repeat("- ", deep)+"x\n", "input-limit-exceeded")
	add("deep json", doc.JSON, strings.Repeat(`{"a":`, deep)+"1"+strings.Repeat("}", deep), "input-limit-exceeded")
	add("deep toml", doc.TOML, "a = "+strings.Repeat("[", deep)+strings.Repeat("]", deep), "input-limit-exceeded")
	add("deep toml keys", doc.TOML, strings.Repeat("a.", deep)+"a = 1\n", "input-limit-exceeded")
	add("nesting at the limit json", doc.JSON, strings.Repeat(`{"trainer":`, 990)+`{"batch_size": 8, "seed": 1}`+strings.Repeat("}", 990), "")
	// Issue 15: memory grew with nodes × depth (each node held its own copy of its key path):
	// 200 branches of 990-deep brackets, 396 KB in any format, took 3.4 GB, and so did a
	// 2.8 KB YAML file aliasing a 990-deep anchor 200 times. Now the first takes ~45 MB, and
	// the aliases count against a node budget of the file's size plus 100,000.
	branches := "[" + strings.TrimSuffix(strings.Repeat(strings.Repeat("[", 990)+strings.Repeat("]", 990)+",", 200), ",") + "]"
	anchor := func(n int) string {
		return "a: &a " + strings.Repeat("[", 990) + strings.Repeat("]", 990) + "\nb: [" + strings.TrimSuffix(strings.Repeat("*a, ", n), ", ") + "]\n"
	}
	hs = append(hs,
		hostile{name: "200 branches 990 deep yaml", format: doc.YAML, src: []byte(branches), perByte: 400},
		hostile{name: "200 branches 990 deep json", format: doc.JSON, src: []byte(branches), perByte: 400},
		hostile{name: "200 branches 990 deep toml", format: doc.TOML, src: []byte("a = " + branches + "\n"), perByte: 400},
		hostile{name: "990-deep anchor aliased 200 times", format: doc.YAML, src: []byte(anchor(200)), want: "input-limit-exceeded", perByte: 400},
		hostile{name: "990-deep anchor aliased 40 times", format: doc.YAML, src: []byte(anchor(40)), perByte: 400},
	)
	add("nesting at the limit yaml", doc.YAML, strings.Repeat("{training: ", 990)+"{batch_size: 8, eval_steps: 0}"+strings.Repeat("}", 990), "")

	// The checks that hold the readers to the frameworks' loaders (PyYAML, tomllib, OmegaConf)
	// read each byte a bounded number of times: many allowed tabs before the one refused, a
	// value of 2^18 interpolation openings closed once at its end, a long inline table.
	var tabs, inline strings.Builder
	for i := range 50000 {
		fmt.Fprintf(&tabs, "k%d: \"a\tb\" # c\td\n", i)
		fmt.Fprintf(&inline, "k%d = \"a\", ", i)
	}
	hs = append(hs,
		hostile{name: "a tab after 50,000 allowed ones", format: doc.YAML, src: []byte(tabs.String() + "x:\t1\n"), want: "parse-error", perByte: 400},
		hostile{name: "2^18 interpolation openings", format: doc.YAML, src: []byte("lr: " + strings.Repeat("${", 1<<18) + "}\n"), perByte: 400},
		hostile{name: "inline table of 50,000 entries", format: doc.TOML, src: []byte("t = {" + strings.TrimSuffix(inline.String(), ", ") + "}\n"), perByte: 400},
	)

	// 30 MB files and a 20 MB line: over the default size limit, a clear finding at once.
	big := func(f doc.Format, size int) string {
		var b strings.Builder
		for i := 0; b.Len() < size; i++ {
			n := strconv.Itoa(i)
			switch f {
			case doc.JSON:
				if i == 0 {
					b.WriteString("{")
				} else {
					b.WriteString(",")
				}
				b.WriteString("\n\"layer_" + n + "\": {\"lr\": 0.001, \"batch_size\": 8, \"dims\": [1, 2]}")
			case doc.TOML:
				b.WriteString("[layer_" + n + "]\nlr = 0.001\nbatch_size = 8\ndims = [1, 2]\n")
			default:
				b.WriteString("layer_" + n + ":\n  lr: 0.001\n  batch_size: 8\n  dims: [1, 2]\n")
			}
		}
		if f == doc.JSON {
			b.WriteString("\n}\n")
		}
		return b.String()
	}
	long := strings.Repeat("x", 20<<20)
	for _, f := range []doc.Format{doc.YAML, doc.JSON, doc.TOML} {
		add("30 MB "+string(f), f, big(f, 30<<20), "input-limit-exceeded")
	}
	add("20 MB line yaml", doc.YAML, "output_dir: "+long+"\n", "input-limit-exceeded")
	add("20 MB line json", doc.JSON, `{"output_dir": "`+long+`"}`, "input-limit-exceeded")
	add("20 MB line toml", doc.TOML, `output_dir = "`+long+`"`, "input-limit-exceeded")
	// Under raised limits the same kind of input is parsed and goes through every dialect and
	// rule: 1 MB of many small tables (about 17,000 maps) by default, the full 30 MB and the
	// 20 MB line with TRAINLINT_BIG=1 (tens of seconds on a loaded machine).
	raised := doc.Limits{MaxBytes: 64 << 20, MaxNodes: 1 << 30}
	size := 1 << 20
	if os.Getenv("TRAINLINT_BIG") != "" {
		size = 30 << 20
		hs = append(hs, hostile{name: "20 MB line yaml, raised limit", format: doc.YAML, src: []byte("output_dir: " + long + "\n"), limits: raised})
	}
	for _, f := range []doc.Format{doc.YAML, doc.JSON, doc.TOML} {
		hs = append(hs, hostile{name: fmt.Sprintf("%d MB %s, raised limit", size>>20, f), format: f, src: []byte(big(f, size)), limits: raised})
	}

	// Bytes that are not a text config.
	r := rand.New(rand.NewSource(1))
	garbage := make([]byte, 1<<16)
	r.Read(garbage)
	for _, f := range []doc.Format{doc.YAML, doc.JSON, doc.TOML} {
		hs = append(hs, hostile{name: "binary " + string(f), format: f, src: garbage, want: "parse-error"})
		add("NUL "+string(f), f, "seed: 1\x00\n", "parse-error")
		add("invalid UTF-8 "+string(f), f, "seed = \"\xc3\x28\"\n", "parse-error")
		add("merge conflict "+string(f), f, "<<<<<<< HEAD\nseed: 1\n=======\nseed: 2\n>>>>>>> other\n", "parse-error")
		add("UTF-16 BOM "+string(f), f, "\xff\xfes\x00e\x00e\x00d\x00", "parse-error")
	}

	// Huge numbers where the dialects expect counts, rates and batch sizes.
	add("huge numbers yaml", doc.YAML, "per_device_train_batch_size: 99999999999999999999999\nper_device_eval_batch_size: 1e400\nlearning_rate: -1e400\ngradient_accumulation_steps: 9223372036854775807\neval_steps: -9223372036854775808\nnum_train_epochs: .nan\nsave_steps: .inf\nseed: 0x7fffffffffffffff\n", "")
	add("huge numbers json", doc.JSON, `{"train_batch_size": 99999999999999999999999, "train_micro_batch_size_per_gpu": 1e400, "gradient_accumulation_steps": 9223372036854775807, "steps_per_print": -9223372036854775808}`, "")
	add("huge numbers toml", doc.TOML, "[training]\nlocal_batch_size = 9223372036854775807\nglobal_batch_size = -9223372036854775808\nsteps = 1e400\nseed = 99999999999999999999999\n", "")
	add("overflowing products", doc.YAML, "per_device_train_batch_size: 4611686018427387904\ngradient_accumulation_steps: 4611686018427387904\nper_device_eval_batch_size: 1\n", "")

	// 100,000 repetitions of one key, and 100,000 distinct keys in one map.
	var dupY, dupJ, dupT, wide strings.Builder
	dupJ.WriteString("{")
	for i := range 100000 {
		dupY.WriteString("per_device_train_batch_size: 8\n")
		if i > 0 {
			dupJ.WriteString(",")
		}
		dupJ.WriteString(`"train_batch_size": 8`)
		dupT.WriteString("seed = 1\n")
		wide.WriteString("key_" + strconv.Itoa(i) + ": " + strconv.Itoa(i) + "\n")
	}
	dupJ.WriteString("}")
	add("100000 duplicate keys yaml", doc.YAML, dupY.String(), "duplicate-key")
	add("100000 duplicate keys json", doc.JSON, dupJ.String(), "duplicate-key")
	add("100000 duplicate keys toml", doc.TOML, dupT.String(), "duplicate-key")
	add("100000 distinct keys", doc.YAML, wide.String(), "")

	// Configs written as code: gin and Python files that nest too deep, loop, recurse, repeat
	// past int64, or share values until their tree would explode, each ending in a limit
	// finding with memory bounded by the file's size; and wide files, read in linear time (a
	// 40,000-binding gin file took 7 s, a 20,000-keyword call 1.2 s, both quadratic before).
	add("deep gin brackets", doc.Gin, "a.x = "+strings.Repeat("[", deep)+strings.Repeat("]", deep)+"\n", "input-limit-exceeded")
	add("deep python brackets", doc.Python, "x = "+strings.Repeat("[", deep)+strings.Repeat("]", deep)+"\n", "input-limit-exceeded")
	var blocks strings.Builder
	for i := range 1001 {
		blocks.WriteString(strings.Repeat(" ", i) + "if c:\n")
	}
	add("deep python blocks", doc.Python, blocks.String()+strings.Repeat(" ", 1001)+"x = 1\n", "input-limit-exceeded")
	add("python list repeated past int64", doc.Python, "x = [1, 2, 3, 4] * 2**62\n", "input-limit-exceeded")
	add("python string repeated past int64", doc.Python, "x = 'abcd' * 2**62\n", "input-limit-exceeded")
	// An empty list repeated 2**62 times is empty: it looped 2**62 times (found by the
	// evaluator's CPython comparison, TestPythonValuesAgreeWithCPython).
	add("python empty list repeated 2**62 times", doc.Python, "x = [] * 2**62\ny = 2**62 * ()\n", "")
	add("python string doubling", doc.Python, "s = 'a'\nfor i in range(64):\n  s = s + s\n", "input-limit-exceeded")
	add("python endless recursion", doc.Python, "def f(n):\n  return f(n)\nx = f(1)\n", "input-limit-exceeded")
	add("python billion-step comprehension", doc.Python, "x = [i for i in range(10**9)]\n", "input-limit-exceeded")
	add("python endless loop", doc.Python, "def get_config():\n  c = dict(a=1)\n  while True:\n    c['a'] = 2\n  return c\n", "")
	var macros, bindings, keywords strings.Builder
	macros.WriteString("M0 = 1\n")
	for i := 1; i < 40; i++ {
		fmt.Fprintf(&macros, "M%d = [%%M%d, %%M%d]\n", i, i-1, i-1)
	}
	macros.WriteString("train.x = %M39\n")
	keywords.WriteString("x = dict(")
	for i := range 20000 {
		fmt.Fprintf(&bindings, "s%d/train.batch_size = %d\n", i, i)
		fmt.Fprintf(&keywords, "k%d=%d, ", i, i)
	}
	keywords.WriteString(")\n")
	hs = append(hs,
		hostile{name: "gin macros doubled 40 times", format: doc.Gin, src: []byte(macros.String()), want: "input-limit-exceeded", perByte: 400},
		hostile{name: "python dict shared 2**30 times", format: doc.Python, src: []byte("d = dict(a=1)\nfor i in range(30):\n  d = dict(x=d, y=d)\n"), want: "input-limit-exceeded", perByte: 400},
		hostile{name: "python list of a million shared lists", format: doc.Python, src: []byte("x = [[1] * 1000] * 1000\n"), want: "input-limit-exceeded", perByte: 400},
	)
	add("20000 distinct gin bindings", doc.Gin, bindings.String(), "")
	add("20000 keywords in one python call", doc.Python, keywords.String(), "")

	// Encodings and line ends: legal, or refused by the loader as the readers now say (a byte
	// order mark: PyYAML skips it, Python's json and tomllib stop at it).
	add("UTF-8 BOM yaml", doc.YAML, "\xef\xbb\xbfper_device_train_batch_size: 8\nper_device_eval_batch_size: 4\n", "")
	add("UTF-8 BOM json", doc.JSON, "\xef\xbb\xbf{\"train_batch_size\": 8}", "parse-error")
	add("UTF-8 BOM toml", doc.TOML, "\xef\xbb\xbf[training]\nseed = 1\n", "parse-error")
	add("CRLF yaml", doc.YAML, "trainer:\r\n  max_epochs: 3\r\n  val_check_interval: 0.5\r\n", "")
	add("CRLF json", doc.JSON, "{\r\n\"train_batch_size\": 8,\r\n\"steps_per_print\": 10\r\n}\r\n", "")
	add("CR only", doc.YAML, "seed: 1\rlr: 2\r", "")
	add("empty", doc.YAML, "", "")
	add("only a comment", doc.YAML, "# trainlint: disable-file=TL202\n", "")
	add("multi-document", doc.YAML, "seed: 1\n---\nseed: 2\n---\n- a\n", "")
	add("scalar root", doc.JSON, `"just a string"`, "")
	add("sequence root", doc.TOML, "[[trainer]]\nseed = 1\n[[trainer]]\nseed = 2\n", "")
	add("odd keys", doc.YAML, "\"\": 3\n.: 4\n..: 5\n\"a.b\": {\"\": 6}\nnull: 7\n1: 8\n", "")
	add("collection keys", doc.YAML, "? [a, b]\n: 1\n? {c: d}\n: 2\n", "parse-error") // PyYAML: unhashable
	add("suppression comments everywhere", doc.YAML, "# trainlint: disable-file=\n# trainlint: disable=\x7f -- \nseed: 1 # trainlint: disable=TL999,,, -- x\n# trainlint:\n", "")
	return hs
}

// dialectNames is every registered dialect, generic included.
func dialectNames() []string {
	var out []string
	for _, d := range dialect.All() {
		out = append(out, d.Name)
	}
	return out
}

func TestRobustEngine(t *testing.T) {
	rs := rules.All()
	inputs := hostileInputs(t)
	for _, h := range inputs {
		t.Run(h.name, func(t *testing.T) {
			var want *regexp.Regexp
			if h.want != "" {
				want = regexp.MustCompile("^(" + h.want + ")$")
			}
			var worstAlloc uint64
			for _, fw := range append([]string{""}, dialectNames()...) {
				var m0, m1 runtime.MemStats
				runtime.ReadMemStats(&m0)
				f := lint.File{Path: "hostile." + string(h.format), Text: h.src, Format: h.format}
				info, diags := lint.LintFile(f, rs, lint.Options{Framework: fw, Limits: h.limits, Hosts: 2, DevicesPerHost: 8})
				runtime.ReadMemStats(&m1)
				worstAlloc = max(worstAlloc, m1.TotalAlloc-m0.TotalAlloc)
				name := fw
				if name == "" {
					name = "detected " + info.Framework
				} else if info.Framework != fw {
					t.Errorf("%s: framework %q, want the forced %q", name, info.Framework, fw)
				}
				matched := false
				for _, d := range diags {
					if d.Code == lint.InternalError.Code {
						t.Errorf("%s: %s: %s", name, d.Rule, d.Message)
					}
					if d.Line < 1 || d.Column < 1 || d.EndLine < d.Line || d.Span.Start.Offset < 0 || d.Span.End.Offset > len(h.src) || d.Span.Start.Offset > d.Span.End.Offset {
						t.Errorf("%s: %s at %d:%d-%d:%d (offsets %d-%d of %d)", name, d.Rule, d.Line, d.Column, d.EndLine, d.EndColumn, d.Span.Start.Offset, d.Span.End.Offset, len(h.src))
					}
					if d.Message == "" {
						t.Errorf("%s: %s without a message", name, d.Rule)
					}
					if want != nil && want.MatchString(d.Rule) {
						matched = true
					}
				}
				if want != nil && !matched {
					t.Errorf("%s: no %s finding among %d: %v", name, h.want, len(diags), rulesOf(diags))
				}
			}
			if bound := uint64(h.perByte*len(h.src) + 64<<20); h.perByte > 0 && worstAlloc > bound {
				t.Errorf("allocated %d bytes for %d bytes of input, over %d", worstAlloc, len(h.src), bound)
			}
		})
	}
}

// BenchmarkHostile lints each input of TestRobustEngine with the framework detected: how long a
// hostile file takes to end in its finding (the times the robustness notes in the lint package
// documentation quote). Run with -benchtime 3x: some inputs take a large part of a second.
func BenchmarkHostile(b *testing.B) {
	rs := rules.All()
	for _, h := range hostileInputs(b) {
		b.Run(h.name, func(b *testing.B) {
			f := lint.File{Path: "hostile." + string(h.format), Text: h.src, Format: h.format}
			b.SetBytes(int64(len(h.src)))
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				lint.LintFile(f, rs, lint.Options{Limits: h.limits, Hosts: 2, DevicesPerHost: 8})
			}
		})
	}
}

func rulesOf(ds []lint.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.Rule)
	}
	return out
}

// TestRobustLimits: lint.Options.Limits reaches the parsers, so each bound can be lowered (for a
// service that lints untrusted uploads) or raised (for a generated 30 MB config).
func TestRobustLimits(t *testing.T) {
	rs := rules.All()
	cfg := "trainer:\n  data:\n    loader:\n      workers: [1, 2, 3]\nseed: &s 1\nalias: *s\nother: *s\n"
	for _, c := range []struct {
		lim  doc.Limits
		want string
	}{
		{doc.Limits{}, ""},
		{doc.Limits{MaxBytes: 20}, "max_bytes"},
		{doc.Limits{MaxDepth: 3}, "max_depth"},
		{doc.Limits{MaxAliases: 1}, "max_aliases"},
		{doc.Limits{MaxNodes: 5}, "max_nodes"},
	} {
		_, diags := lint.LintFile(lint.File{Path: "c.yaml", Text: []byte(cfg)}, rs, lint.Options{Limits: c.lim})
		var limit []lint.Diagnostic
		for _, d := range diags {
			if d.Rule == "input-limit-exceeded" {
				limit = append(limit, d)
			}
		}
		if c.want == "" {
			if len(limit) != 0 {
				t.Errorf("default limits: %v", limit[0].Message)
			}
			continue
		}
		if len(limit) != 1 || !strings.Contains(limit[0].Message, c.want) {
			t.Errorf("%+v: got %v, want one input-limit-exceeded naming %s", c.lim, rulesOf(diags), c.want)
		}
	}
}

// TestRobustPanickingRule: a rule that panics on any input, hostile ones included (nil root,
// parse errors, limits), becomes one TL009 at a valid position and the other rules still run.
// The ordinary case is covered by rules.TestPanickingRuleBecomesInternalError; here the
// diagnostic must also be placeable in documents that have no tree.
func TestRobustPanickingRule(t *testing.T) {
	boom := &lint.Rule{Code: "TL998", Name: "test-boom", Category: lint.CatStructure, Severity: lint.Warning,
		Title: "panics", Frameworks: []string{"*"},
		Check: func(p *lint.Pass) { panic("boom on " + p.Doc.Path) }}
	rs := append(rules.All(), boom)
	for _, h := range hostileInputs(t) {
		if len(h.src) > 1<<20 {
			continue // over the size limit: no rule runs (TestRobustEngine covers them)
		}
		f := lint.File{Path: "hostile." + string(h.format), Text: h.src, Format: h.format}
		_, diags := lint.LintFile(f, rs, lint.Options{Limits: h.limits})
		n := 0
		for _, d := range diags {
			if d.Code != lint.InternalError.Code {
				continue
			}
			n++
			if !strings.Contains(d.Message, "test-boom") || d.Line < 1 || d.Span.End.Offset > len(h.src) {
				t.Errorf("%s: %+v", h.name, d)
			}
		}
		if n != 1 {
			t.Errorf("%s: %d internal errors, want the one of the panicking rule: %v", h.name, n, rulesOf(diags))
		}
		if h.want != "" {
			re := regexp.MustCompile("^(" + h.want + ")$")
			if !slices.ContainsFunc(diags, func(d lint.Diagnostic) bool { return re.MatchString(d.Rule) }) {
				t.Errorf("%s: the other findings are gone after the panic: %v", h.name, rulesOf(diags))
			}
		}
	}
}
