package dialect

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

var update = flag.Bool("update", false, "rewrite the .plan sections of testdata/*.txtar")

// Dialect golden tests: testdata/<framework>.txtar holds configs and the Plan each one gives,
// every fact with its origin, key and line. Sections:
//
//	-- NAME.yaml --         a config (the extension picks the format: yaml, yml, json, toml, gin, py)
//	-- NAME.yaml.args --    optional: --hosts N --devices-per-host N (launch context), --framework
//	                        (read by the archive's dialect without detection, as the CLI's flag),
//	                        --target PACKAGE=VERSION (the framework version it is read for)
//	-- NAME.yaml.plan --    the expected plan (written by -update)
//
// The config must be detected as the archive's framework. A changed fact shows as the lines of
// that fact, expected and got. Regenerate with `go test ./lint/dialect -run TestDialectGolden
// -update` and read the diff.
func TestDialectGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for _, file := range files {
		fw := strings.TrimSuffix(filepath.Base(file), ".txtar")
		seen[fw] = true
		t.Run(fw, func(t *testing.T) { runGolden(t, file, fw) })
	}
	// Every framework has its archive: adding a dialect means adding one.
	for _, d := range All() {
		if !seen[d.Name] {
			t.Errorf("no testdata/%s.txtar for dialect %s", d.Name, d.Name)
		}
	}
}

func runGolden(t *testing.T, file, fw string) {
	dl := ByName(fw)
	if dl == nil {
		t.Fatalf("%s: no dialect %q", file, fw)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	secs := splitTxtar(string(data))
	var out strings.Builder
	out.WriteString(secs.comment)
	inputs := 0
	for _, s := range secs.list {
		if strings.HasSuffix(s.name, ".plan") || strings.HasSuffix(s.name, ".args") {
			continue
		}
		format, ok := doc.FormatFromPath(s.name)
		if !ok {
			t.Errorf("%s: section %q is no yaml/json/toml/gin/py file", file, s.name)
			continue
		}
		inputs++
		ctx, forced := Context{}, false
		args, hasArgs := secs.get(s.name + ".args")
		if hasArgs {
			ctx, forced = parseArgs(t, args)
		}
		d := doc.Parse(s.name, []byte(s.text), format, doc.Limits{})
		if got := Detect(d); got != dl && !forced {
			t.Errorf("%s: %s detected as %s", file, s.name, got.Name)
		}
		got := renderPlan(dl.Normalize(d, ctx))
		fmt.Fprintf(&out, "-- %s --\n%s", s.name, s.text)
		if hasArgs {
			fmt.Fprintf(&out, "-- %s.args --\n%s", s.name, args)
		}
		fmt.Fprintf(&out, "-- %s.plan --\n%s", s.name, got)
		want, ok := secs.get(s.name + ".plan")
		if !*update && (!ok || want != got) {
			t.Errorf("%s: %s: plan differs (run with -update and review the diff):\n%s", file, s.name, planDiff(want, got))
		}
	}
	if inputs == 0 {
		t.Errorf("%s has no config", file)
	}
	if *update && out.String() != string(data) {
		if err := os.WriteFile(file, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

type txtarSection struct{ name, text string }

type txtarFile struct {
	comment string
	list    []txtarSection
}

func (f txtarFile) get(name string) (string, bool) {
	for _, s := range f.list {
		if s.name == name {
			return s.text, true
		}
	}
	return "", false
}

// splitTxtar splits a txtar archive ("-- NAME --" lines start sections).
func splitTxtar(s string) txtarFile {
	var f txtarFile
	cur := -1
	for _, ln := range strings.SplitAfter(s, "\n") {
		t := strings.TrimRight(ln, "\n")
		if strings.HasPrefix(t, "-- ") && strings.HasSuffix(t, " --") && len(t) > 6 {
			f.list = append(f.list, txtarSection{name: strings.TrimSpace(t[3 : len(t)-3])})
			cur = len(f.list) - 1
			continue
		}
		if cur < 0 {
			f.comment += ln
		} else {
			f.list[cur].text += ln
		}
	}
	return f
}

func parseArgs(t *testing.T, args string) (ctx Context, forced bool) {
	f := strings.Fields(args)
	for i := 0; i < len(f); i += 2 {
		if f[i] == "--framework" {
			forced = true
			i--
			continue
		}
		if i+1 >= len(f) {
			t.Fatalf("args %q: %s needs a value", args, f[i])
		}
		if f[i] == "--target" { // --target trl=0.23: the version the file is read for
			pkg, ver, ok := strings.Cut(f[i+1], "=")
			if !ok {
				t.Fatalf("args %q: --target needs PACKAGE=VERSION", args)
			}
			if ctx.Targets == nil {
				ctx.Targets = map[string]string{}
			}
			ctx.Targets[pkg] = ver
			continue
		}
		v, err := strconv.Atoi(f[i+1])
		if err != nil {
			t.Fatalf("args %q: %v", args, err)
		}
		switch f[i] {
		case "--hosts":
			ctx.Hosts = v
		case "--devices-per-host":
			ctx.DevicesPerHost = v
		default:
			t.Fatalf("args %q: unknown flag %s", args, f[i])
		}
	}
	return ctx, forced
}

// renderPlan prints every fact of a plan, one line each, in field order:
//
//	eval.per_device_batch  8 default key=per_device_eval_batch_size at=12:1 by="the Trainer default" note="transformers v5"
//
// Unknown facts print only what locates them (key, at). Other plan fields print their value.
func renderPlan(p *plan.Plan) string {
	var b strings.Builder
	fmt.Fprintf(&b, "framework %s\n", p.Framework)
	if p.Variant != "" {
		fmt.Fprintf(&b, "variant %s\n", p.Variant)
	}
	v := reflect.ValueOf(*p)
	for i := 0; i < v.NumField(); i++ {
		sec := v.Type().Field(i)
		if sec.Type.Kind() != reflect.Struct {
			continue
		}
		for j := 0; j < v.Field(i).NumField(); j++ {
			name := snake(sec.Name) + "." + snake(sec.Type.Field(j).Name)
			renderField(&b, name, v.Field(i).Field(j))
		}
	}
	return b.String()
}

func renderField(b *strings.Builder, name string, f reflect.Value) {
	var origin reflect.Value
	if f.Kind() == reflect.Struct {
		origin = f.FieldByName("Origin")
	}
	if !origin.IsValid() { // a plain field (Evidence, Granularity, TextLogsOnly)
		if !f.IsZero() {
			fmt.Fprintf(b, "%-26s %s\n", name, valueText(f))
		}
		return
	}
	o := plan.Origin(origin.Uint())
	var parts []string
	if o != plan.Unknown {
		parts = append(parts, valueText(f.FieldByName("Value")))
	}
	parts = append(parts, o.String())
	if k := f.FieldByName("Key").String(); k != "" {
		parts = append(parts, "key="+k)
	}
	if n, ok := f.FieldByName("Node").Interface().(*doc.Node); ok && n != nil {
		at := n.Span.Start
		if n.Kind != doc.Scalar && !n.KeySpan.IsZero() {
			at = n.KeySpan.Start
		}
		parts = append(parts, fmt.Sprintf("at=%d:%d", at.Line, at.Col))
	}
	if by := f.FieldByName("By").String(); by != "" {
		parts = append(parts, "by="+strconv.Quote(by))
	}
	if note := f.FieldByName("Note").String(); note != "" {
		parts = append(parts, "note="+strconv.Quote(note))
	}
	if o == plan.Unknown && len(parts) == 1 {
		return // nothing is known or located
	}
	fmt.Fprintf(b, "%-26s %s\n", name, strings.Join(parts, " "))
}

// valueText prints a fact's value compactly: structs as {Field:value ...} without zero fields.
func valueText(v reflect.Value) string {
	switch v.Kind() {
	case reflect.String:
		return strconv.Quote(v.String())
	case reflect.Slice:
		var items []string
		for i := 0; i < v.Len(); i++ {
			items = append(items, valueText(v.Index(i)))
		}
		return "[" + strings.Join(items, " ") + "]"
	case reflect.Struct:
		var fields []string
		for i := 0; i < v.NumField(); i++ {
			if !v.Field(i).IsZero() {
				fields = append(fields, snake(v.Type().Field(i).Name)+":"+valueText(v.Field(i)))
			}
		}
		return "{" + strings.Join(fields, " ") + "}"
	}
	return fmt.Sprint(v.Interface())
}

// snake turns a Go field name into the plan's concept spelling: PerDeviceBatch → per_device_batch.
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if r >= 'A' && r <= 'Z' {
			if i > 0 && !(s[i-1] >= 'A' && s[i-1] <= 'Z') {
				b.WriteByte('_')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// planDiff shows the facts that differ: each fact's expected and actual line.
func planDiff(want, got string) string {
	index := func(s string) (map[string]string, []string) {
		m := map[string]string{}
		var order []string
		for _, ln := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
			k, _, _ := strings.Cut(ln, " ")
			if _, dup := m[k]; !dup {
				order = append(order, k)
			}
			m[k] = ln
		}
		return m, order
	}
	w, wo := index(want)
	g, gorder := index(got)
	keys := append(wo, gorder...)
	seen := map[string]bool{}
	var b strings.Builder
	for _, k := range keys {
		if seen[k] || w[k] == g[k] {
			seen[k] = true
			continue
		}
		seen[k] = true
		if w[k] != "" {
			fmt.Fprintf(&b, "\t- %s\n", w[k])
		}
		if g[k] != "" {
			fmt.Fprintf(&b, "\t+ %s\n", g[k])
		}
	}
	return b.String()
}
