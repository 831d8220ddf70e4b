package doc

import (
	"strings"
	"testing"
)

// hjsonShape writes a tree as JSON with each scalar's type: what the cases below compare with
// hjson-py 3.1.0's json.dumps(hjson.loads(src)), run on each source when they were written.
func hjsonShape(n *Node) string {
	var b strings.Builder
	var walk func(n *Node)
	walk = func(n *Node) {
		switch n.Kind {
		case Map, Seq:
			open, close := "{", "}"
			if n.Kind == Seq {
				open, close = "[", "]"
			}
			b.WriteString(open)
			for i, c := range n.Children {
				if i > 0 {
					b.WriteString(", ")
				}
				if n.Kind == Map {
					b.WriteString(c.Key + ": ")
				}
				walk(c)
			}
			b.WriteString(close)
		default:
			b.WriteString(n.Type.String() + " " + n.Value)
		}
	}
	walk(n)
	return b.String()
}

// TestHjson: what hjson reads and JSON5 does not (DeepSpeed's launcher reads its config with
// hjson) is read as hjson reads it, each kind reported once as a NonStandard problem whose
// Readers name hjson alone; the trees were checked against hjson-py 3.1.0.
func TestHjson(t *testing.T) {
	cases := []struct{ src, shape, first string }{
		{"# DeepSpeed config in hjson\n{\n  train_batch_size: 32\n  gradient_accumulation_steps: 1  # no accumulation\n  optimizer: {\n    type: Adam\n    params: {\n      lr: 1e-4\n      betas: [0.9, 0.999]\n    }\n  }\n  zero_optimization: {stage: 2, overlap_comm: true}\n  note: '''\n    multi\n      line\n    '''\n  fp16: {\n    enabled: auto\n  }\n}\n",
			"{train_batch_size: int 32, gradient_accumulation_steps: int 1, optimizer: {type: string Adam, params: {lr: float 1e-4, betas: [float 0.9, float 0.999]}}, zero_optimization: {stage: int 2, overlap_comm: bool true}, note: string multi\nline, fp16: {enabled: unknown auto}}",
			"'#' comment"},
		// The ',' after a quoteless string is part of it.
		{"{\"type\": Adam,\n \"x\": 1}", "{type: string Adam,, x: int 1}", `unquoted string "Adam,"; JSON strings must be in double quotes (hjson keeps the ',' at its end in the string)`},
		{"train_batch_size: 16\nsteps_per_print: 10 // comment\ncomment: a string, with commas\n",
			"{train_batch_size: int 16, steps_per_print: int 10, comment: string a string, with commas}", "object without its braces"},
		{"{\"a\": True\n}", "{a: string True}", `unquoted value "True"; JSON spells true, false and null in lower case, and hjson reads this as a string`},
		{"[\n  a b c\n  1 2\n  -1\n  01\n  -\n  true x\n  null\f\n  tru#ce x\n  1\u0663\n  '''x'''\n]\n",
			"[string a b c, string 1 2, int -1, string 01, string -, string true x, null null, string tru#ce x, int 13, string x]", `unquoted string "a b c"`},
		{"[\n \"a\" \"b\"\n 1 /* c */ 2\n]", "[string a, string b, int 1, int 2]", "no ',' before this array element; JSON needs one between array elements"},
		{"{\"a\": 1\n \"b\": 2, c-d: x\n}", "{a: int 1, b: int 2, c-d: string x}", "no ',' before this object member"},
	}
	for _, c := range cases {
		d := mustParse(t, JSON, c.src)
		if d.Root == nil {
			t.Errorf("%q: no tree; problems %+v", c.src, d.Problems)
			continue
		}
		if got := hjsonShape(d.Root); got != c.shape {
			t.Errorf("%q:\n got %s\nwant %s", c.src, got, c.shape)
		}
		seen := map[string]bool{}
		for _, p := range d.Problems {
			if p.Kind != NonStandard {
				t.Errorf("%q: problem %+v", c.src, p)
			}
			if seen[p.Message] {
				t.Errorf("%q: %q reported twice", c.src, p.Message)
			}
			seen[p.Message] = true
		}
		if p := d.Problems[0]; !strings.HasPrefix(p.Message, c.first) || p.Readers != "hjson readers accept it; JSON5 readers refuse it" {
			t.Errorf("%q: first problem %q (%s); want %q", c.src, p.Message, p.Readers, c.first)
		}
	}
}

// TestHjsonRefused: what neither JSON5 nor hjson reads keeps the first reading's error, where
// the typo is, rather than hjson's, which a quoteless value read to its line's end moves.
func TestHjsonRefused(t *testing.T) {
	cases := []problemCase{
		// hjson reads True} as one string and then misses the '}'.
		{"{\"a\": True}", Syntax, 1, 7, `invalid value "True"; JSON spells these true, false and null`},
		// The inline object's '}' goes into the string "auto}".
		{"{\n  \"fp16\": {\"enabled\": auto}\n}\n", Syntax, 2, 23, `invalid value "auto"; strings must be in double quotes`},
		// A number then more on its line is one quoteless string to hjson: no ',' is missing.
		{"[1 2]", Syntax, 1, 4, `expected ',' or '\]' after array element, found "2"`},
		// hjson reads c, but refuses the \x escape JSON5 reads.
		{"{\"a\": \"\\x41\"\n b: c}", Syntax, 2, 5, `invalid value "c"`},
		// A ''' string on a one-line file: hjson's search back for the line's start fails.
		{"'''x'''", Syntax, 1, 1, "multi-line string ''' in a file of one line"},
		{"[\n'''x", Syntax, 2, 1, "the multi-line string that starts here is not closed"},
		// Without braces, hjson's search for the ''' string's indent raises IndexError, which
		// stops it trying the file as one (quoteless) value.
		{"a-b:'''y'''", Syntax, 1, 1, `invalid value "a-b"`},
		// hjson reads it as {}; a config file that sets nothing is reported all the same.
		{"# nothing\n", Syntax, 2, 1, "the file is empty"},
	}
	for _, c := range cases {
		checkRefusedJSON(t, c)
	}
}

// TestHjsonQuotelessCommaOnce: a quoteless value whose ',' hjson reads into the string
// (NVIDIA clara-train-examples' `"use_amp": ture,`) is one problem: the ',' is written, so the
// next member is not also reported as lacking one. Without that ',' it still is.
func TestHjsonQuotelessCommaOnce(t *testing.T) {
	d := mustParse(t, JSON, "{\n  \"use_amp\": ture,\n  \"train\": {\"epochs\": 1}\n}\n")
	if len(d.Problems) != 1 || !strings.Contains(d.Problems[0].Message, `unquoted string "ture,"`) {
		t.Errorf("problems %+v, want the unquoted string alone", d.Problems)
	}
	d = mustParse(t, JSON, "{\n  \"use_amp\": ture\n  \"train\": {\"epochs\": 1}\n}\n")
	if len(d.Problems) != 2 || !strings.Contains(d.Problems[1].Message, "no ',' before this object member") {
		t.Errorf("problems %+v, want the missing ',' too", d.Problems)
	}
}
