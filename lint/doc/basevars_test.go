package doc

import (
	"strings"
	"testing"
)

// TestBaseVars: MMEngine replaces `{{ _base_.name }}` before it parses a JSON or YAML config
// (mmengine's own tests/data/config/json_config/test_base.json and yaml_config/test_base.yaml
// were parse errors here); the value is the base's, so it reads as an Unknown reference with the
// span of the text as written, and the file's bytes are unchanged.
func TestBaseVars(t *testing.T) {
	for _, c := range []struct {
		name, src string
		f         Format
	}{
		{"a.json", "{\n  \"_base_\": [\"../py_config/base1.py\"],\n  \"item8\": \"{{fileBasename}}\",\n  \"item9\": {{ _base_.item2 }},\n  \"item10\": {{_base_.item7.b.c}}\n}\n", JSON},
		{"a.yaml", "_base_ : ['../py_config/base1.py']\nitem8 : '{{fileBasename}}'\nitem9 : {{ _base_.item2 }}\nitem10 : {{_base_.item7.b.c}}\n", YAML},
	} {
		d := Parse(c.name, []byte(c.src), c.f, Limits{})
		if len(d.Problems) > 0 || d.Root == nil {
			t.Fatalf("%s: %+v", c.name, d.Problems)
		}
		if string(d.Src) != c.src {
			t.Errorf("%s: the bytes changed", c.name)
		}
		for key, text := range map[string]string{"item9": "{{ _base_.item2 }}", "item10": "{{_base_.item7.b.c}}"} {
			n := d.Root.Get(key)
			if !n.IsUnknown() || n.Style != "reference" || n.Value != text {
				t.Fatalf("%s: %s = %+v", c.name, key, n)
			}
			at := strings.Index(c.src, text)
			if line := strings.Count(c.src[:at], "\n") + 1; n.Span.Start.Offset != at || n.Span.End.Offset != at+len(text) || n.Span.Start.Line != line {
				t.Errorf("%s: %s span %+v, text at %d", c.name, key, n.Span, at)
			}
		}
		if n := d.Root.Get("item8"); n.IsUnknown() || n.Value != "{{fileBasename}}" {
			t.Errorf("%s: a quoted predefined variable is a string: %+v", c.name, n)
		}
	}
	// Inside a longer plain scalar the reference is replaced by a placeholder the base's value
	// never replaces: an Unknown value, as written (a fuzzer's "0{{_base_.0}}" read as 0"{_base_.0}").
	d := Parse("b.yaml", []byte("_base_: [a.py]\nx: 0{{_base_.y}}\n"), YAML, Limits{})
	if n := d.Root.Get("x"); !n.IsUnknown() || n.Value != "0{{_base_.y}}" || n.Style != "plain" {
		t.Errorf("a reference inside a plain scalar: %+v", n)
	}
	// Without a _base_ to take it from, the text stays what the readers make of it.
	if d := Parse("b.json", []byte("{\"item9\": {{ x.item2 }}}\n"), JSON, Limits{}); len(d.Problems) == 0 {
		t.Error("a brace pair that names no base read as a value")
	}
}
