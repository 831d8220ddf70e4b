package lint

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
)

// keyRule reports every map entry whose key is key, at the key (so a finding starts on the line
// of the key). Rules that read only the document keep these tests independent of the dialects.
func keyRule(code, name, key string) *Rule {
	return &Rule{Code: code, Name: name, Category: CatStructure, Severity: Warning, Frameworks: []string{"*"},
		Check: func(p *Pass) {
			p.Doc.Root.Walk(func(n *doc.Node) bool {
				if n.Key == key {
					p.Report(Finding{Node: n, AtKey: true, Message: key + " is set"})
				}
				return true
			})
		}}
}

var (
	ruleA = keyRule("TL990", "rule-a", "a")
	ruleB = keyRule("TL991", "rule-b", "b")
)

func testRules() []*Rule { return append([]*Rule{ruleA, ruleB}, Builtin()...) }

// lintText lints src (YAML unless path says otherwise) and renders the findings one per line as
// "line CODE message", sorted.
func lintText(t *testing.T, path, src string, o Options) []string {
	t.Helper()
	_, diags := LintFile(File{Path: path, Text: []byte(src)}, testRules(), o)
	var out []string
	for _, d := range diags {
		out = append(out, fmt.Sprintf("%d %s %s", d.Line, d.Code, d.Message))
	}
	sort.Strings(out) // columns are not under test
	return out
}

func TestSuppressions(t *testing.T) {
	for _, tc := range []struct {
		name string
		path string
		src  string
		opts Options
		want []string
	}{
		{name: "no comment", src: "a: 1\nb: 2\n",
			want: []string{"1 TL990 a is set", "2 TL991 b is set"}},
		{name: "trailing by code", src: "a: 1  # trainlint: disable=TL990 -- ok here\nb: 2\n",
			want: []string{"2 TL991 b is set"}},
		{name: "trailing by name, case-insensitive", src: "a: 1  # trainlint: disable=Rule-A -- ok\nb: 2\n",
			want: []string{"2 TL991 b is set"}},
		{name: "line above", src: "# trainlint: disable=rule-b -- ok\nb: 2\na: 1\n",
			want: []string{"3 TL990 a is set"}},
		{name: "stacked comments above reach the setting", src: "# trainlint: disable=TL990 -- x\n# trainlint: disable=TL991 -- y\nc: {a: 1, b: 2}\n",
			want: nil},
		{name: "line above does not reach two lines down", src: "# trainlint: disable=TL990 -- ok\nb: 2\na: 1\n",
			want: []string{"1 TL008 suppression of \"TL990\" silences nothing on line 2", "2 TL991 b is set", "3 TL990 a is set"}},
		{name: "several rules", src: "a: 1\nb: 2\nc: {a: 1, b: 2}  # trainlint: disable=TL990, rule-b -- both\n",
			want: []string{"1 TL990 a is set", "2 TL991 b is set"}},
		{name: "file level", src: "a: 1\nb: 2\nx:\n  a: 3\n# trainlint: disable-file=rule-a -- generated file\n",
			want: []string{"2 TL991 b is set"}},
		{name: "unused entry of a list", src: "a: 1  # trainlint: disable=TL990,TL991 -- x\n",
			want: []string{"1 TL008 suppression of \"TL991\" silences nothing on line 1"}},
		{name: "unused file level", src: "a: 1\n# trainlint: disable-file=TL991 -- x\n",
			want: []string{"1 TL990 a is set", "2 TL008 file-level suppression of \"TL991\" silences nothing"}},
		{name: "unknown rule silences nothing", src: "a: 1  # trainlint: disable=TL999 -- x\n",
			want: []string{"1 TL007 unknown rule \"TL999\" (use a code such as TL202 or a rule name)", "1 TL990 a is set"}},
		{name: "reason glued to the rule", src: "a: 1  # trainlint: disable=TL990 because\n",
			want: []string{"1 TL007 unknown rule \"TL990 because\" (separate the reason with \" -- \")", "1 TL990 a is set"}},
		{name: "missing reason allowed by default", src: "a: 1  # trainlint: disable=TL990\n",
			want: nil},
		{name: "missing reason with RequireReason", src: "a: 1  # trainlint: disable=TL990\n", opts: Options{RequireReason: true},
			want: []string{"1 TL007 suppression of \"TL990\" gives no reason (add \" -- why\")", "1 TL990 a is set"}},
		{name: "empty reason with RequireReason", src: "a: 1  # trainlint: disable=TL990 --  \n", opts: Options{RequireReason: true},
			want: []string{"1 TL007 suppression of \"TL990\" gives no reason (add \" -- why\")", "1 TL990 a is set"}},
		{name: "reason given with RequireReason", src: "a: 1  # trainlint: disable=TL990 -- fine\n", opts: Options{RequireReason: true},
			want: nil},
		{name: "unknown directive", src: "a: 1  # trainlint: enable=TL990\n",
			want: []string{"1 TL007 unknown directive \"enable\" (want \"disable=RULE\" or \"disable-file=RULE\")", "1 TL990 a is set"}},
		{name: "no rule list", src: "a: 1  # trainlint: disable -- x\n",
			want: []string{"1 TL007 \"disable\" names no rule (write \"disable=RULE[,RULE]\")", "1 TL990 a is set"}},
		{name: "missing colon", src: "a: 1  # trainlint disable=TL990 -- x\n",
			want: []string{"1 TL007 missing \":\" after \"trainlint\" (write \"# trainlint: disable=RULE -- reason\")", "1 TL990 a is set"}},
		{name: "prose mentioning trainlint is no directive", src: "# trainlint checks this file in CI\na: 1\n",
			want: []string{"2 TL990 a is set"}},
		{name: "quoted hash is no comment", src: "a: \"# trainlint: disable=TL990\"\n",
			want: []string{"1 TL990 a is set"}},
		{name: "ignored rule is not unused", src: "a: 1  # trainlint: disable=TL991 -- x\n", opts: Options{Ignore: []string{"TL991"}},
			want: []string{"1 TL990 a is set"}},
		{name: "unselected rule is not unused", src: "a: 1  # trainlint: disable=TL991 -- x\n", opts: Options{Select: []string{"TL990", "TL008"}},
			want: []string{"1 TL990 a is set"}},
		{name: "unused-suppression ignored", src: "a: 1  # trainlint: disable=TL991 -- x\n", opts: Options{Ignore: []string{"unused-suppression"}},
			want: []string{"1 TL990 a is set"}},
		{name: "malformed-suppression ignored", src: "a: 1  # trainlint: disable=nope -- x\n", opts: Options{Ignore: []string{"TL007"}},
			want: []string{"1 TL990 a is set"}},
		{name: "a comment cannot silence its own finding", src: "a: 1  # trainlint: disable=TL991,TL008 -- x\n",
			want: []string{"1 TL008 suppression of \"TL008\" silences nothing on line 1", "1 TL008 suppression of \"TL991\" silences nothing on line 1", "1 TL990 a is set"}},
		{name: "file-level unused-suppression silences other comments' findings", src: "a: 1  # trainlint: disable=TL991 -- x\n# trainlint: disable-file=TL008 -- migrating\n",
			want: []string{"1 TL990 a is set"}},
		{name: "file-level malformed-suppression silences other comments", src: "a: 1  # trainlint: disable=nope\n# trainlint: disable-file=TL007 -- legacy comments\n",
			want: []string{"1 TL990 a is set"}},
		{name: "above and trailing for one line are both used", src: "# trainlint: disable=TL990 -- x\na: 1  # trainlint: disable=TL990 -- y\n",
			want: nil},
		{name: "line and file level for one finding are both used", src: "a: 1  # trainlint: disable=TL990 -- x\n# trainlint: disable-file=TL990 -- y\n",
			want: nil},
		{name: "toml trailing and above", path: "c.toml", src: "a = 1  # trainlint: disable=TL990 -- x\n# trainlint: disable=TL991 -- y\nb = 2\n",
			want: nil},
		{name: "toml string is no comment", path: "c.toml", src: "a = \"# trainlint: disable=TL990\"\n",
			want: []string{"1 TL990 a is set"}},
		{name: "json has no comments", path: "c.json", src: "{\"a\": 1}\n",
			want: []string{"1 TL990 a is set"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := tc.path
			if path == "" {
				path = "c.yaml"
			}
			got := lintText(t, path, tc.src, tc.opts)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("findings of\n%s\ngot:\n\t%s\nwant:\n\t%s", tc.src, strings.Join(got, "\n\t"), strings.Join(tc.want, "\n\t"))
			}
		})
	}
}

func TestKeyIgnores(t *testing.T) {
	src := "{\"x\": {\"a\": 1, \"b\": 2}, \"y\": {\"a\": 3}, \"xa\": {\"a\": 4}}\n"
	for _, tc := range []struct {
		name string
		ig   []KeyIgnore
		want string
	}{
		{"none", nil, "TL990 x.a, TL991 x.b, TL990 xa.a, TL990 y.a"},
		{"key prefix, every rule", []KeyIgnore{{Keys: []string{"x"}}}, "TL990 xa.a, TL990 y.a"},
		{"exact key, one rule", []KeyIgnore{{Rules: []string{"rule-a"}, Keys: []string{"y.a"}}}, "TL990 x.a, TL991 x.b, TL990 xa.a"},
		{"rule only", []KeyIgnore{{Rules: []string{"TL990"}}}, "TL991 x.b"},
		{"prefix is not a string prefix", []KeyIgnore{{Keys: []string{"x.b", "xa.a"}}}, "TL990 x.a, TL990 y.a"},
		{"rule selector by category", []KeyIgnore{{Rules: []string{"structure"}, Keys: []string{"x"}}}, "TL990 xa.a, TL990 y.a"},
		{"other rule keeps findings", []KeyIgnore{{Rules: []string{"TL991"}, Keys: []string{"y"}}}, "TL990 x.a, TL991 x.b, TL990 xa.a, TL990 y.a"},
		{"two entries", []KeyIgnore{{Rules: []string{"TL991"}}, {Keys: []string{"y"}}}, "TL990 x.a, TL990 xa.a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, diags := LintFile(File{Path: "c.json", Text: []byte(src)}, testRules(), Options{KeyIgnores: tc.ig})
			var got []string
			for _, d := range diags {
				got = append(got, d.Code+" "+d.Key)
			}
			sort.Slice(got, func(i, j int) bool { return got[i][6:] < got[j][6:] })
			if g := strings.Join(got, ", "); g != tc.want {
				t.Errorf("got %s\nwant %s", g, tc.want)
			}
		})
	}
}

func TestKeyUnder(t *testing.T) {
	for _, tc := range []struct {
		key, prefix string
		want        bool
	}{
		{"trainer.sync_batchnorm", "trainer.sync_batchnorm", true},
		{"trainer.sync_batchnorm", "trainer", true},
		{"trainer.sync_batchnorm", "train", false},
		{"callbacks[0].name", "callbacks", true},
		{"callbacks[0].name", "callbacks[0]", true},
		{"callbacks[1].name", "callbacks[0]", false},
		{"a", "", false},
	} {
		if got := KeyUnder(tc.key, tc.prefix); got != tc.want {
			t.Errorf("KeyUnder(%q, %q) = %v, want %v", tc.key, tc.prefix, got, tc.want)
		}
	}
}

// FuzzSuppressions: any comment text is either ignored, a suppression or a malformed one; the
// engine never panics, and findings about suppressions sit on a comment's line.
func FuzzSuppressions(f *testing.F) {
	for _, s := range []string{
		"a: 1  # trainlint: disable=TL990 -- x\nb: 2\n",
		"# trainlint: disable-file=rule-a,TL991,TL008 --\na: 1\n",
		"# trainlint disable=x\n# trainlint: enable\n# trainlint:\n# TRAINLINT: DISABLE=TL990 -- y\na: 1\n",
		"a: 1 # trainlint: disable=TL990,,TL991 -- -- --\n",
	} {
		f.Add(s, false)
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, src string, requireReason bool) {
		_, diags := LintFile(File{Path: "c.yaml", Text: []byte(src)}, testRules(), Options{RequireReason: requireReason})
		d := doc.Parse("c.yaml", []byte(src), doc.YAML, doc.Limits{})
		lines := map[int]bool{}
		for _, c := range d.Comments {
			lines[c.Span.Start.Line] = true
		}
		for _, dg := range diags {
			if (dg.Code == MalformedSuppression.Code || dg.Code == UnusedSuppression.Code) && !lines[dg.Line] {
				t.Errorf("%s at line %d, which holds no comment", dg.Code, dg.Line)
			}
		}
	})
}

// BenchmarkManySuppressions lints 20,000 keys, each under a directive that silences nothing:
// every directive was compared with every finding (2.9 s through the CLI) until they were
// indexed by the line they silence.
func BenchmarkManySuppressions(b *testing.B) {
	var sb strings.Builder
	for i := 0; i < 20000; i++ {
		fmt.Fprintf(&sb, "# trainlint: disable=TL991 -- x\nk%d: 1\n", i)
	}
	src := []byte(sb.String())
	b.SetBytes(int64(len(src)))
	for i := 0; i < b.N; i++ {
		if _, diags := LintFile(File{Path: "c.yaml", Text: src}, testRules(), Options{}); len(diags) != 20000 {
			b.Fatalf("%d findings, want 20,000 unused suppressions", len(diags))
		}
	}
}
