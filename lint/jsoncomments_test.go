package lint_test

import (
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/rules"
)

// TestJSONLineComments: in a repository whose own option parser cuts each line of a JSON file
// at "//" before json.loads (KAIR's utils_option.parse, Options.JSONLineComments), a `//`
// comment is no finding; a /* */ comment, a "//" inside a string that the cut breaks (a URL)
// and a trailing comma still are, and without the option the comment is reported.
func TestJSONLineComments(t *testing.T) {
	const kair = "{\n  \"task\": \"dncnn25\"  //  root/task/images-models-options\n  , \"model\": \"plain\" // \"plain\"\n  , \"gpu_ids\": [0]\n}\n"
	for _, tc := range []struct {
		name, src string
		strip     bool
		want      string // the findings' messages, joined by "|"
	}{
		{"stripped", kair, true, ""},
		{"not stripped", kair, false, "JSON does not allow comments: Python's json refuses it; JSON5 and hjson readers accept it"},
		{"block comment too", strings.Replace(kair, "\"gpu_ids\"", "/* gpus */ \"gpu_ids\"", 1), true,
			"JSON does not allow comments: Python's json refuses it; JSON5 and hjson readers accept it"},
		{"url in a string", "{\n  \"root\": \"http://example.com/data\" // where\n}\n", true,
			"JSON does not allow comments: Python's json refuses it; JSON5 and hjson readers accept it"},
		{"trailing comma", "{\n  \"task\": \"sr\", // task\n  \"scale\": 4,\n}\n", true,
			"trailing comma before '}'; JSON does not allow it: Python's json refuses it; JSON5 and hjson readers accept it"},
	} {
		_, ds := lint.LintFile(lint.File{Path: "options/train_dncnn.json", Text: []byte(tc.src)}, rules.All(), lint.Options{Select: []string{"TL001"}, JSONLineComments: tc.strip})
		var got []string
		for _, d := range ds {
			got = append(got, d.Message)
		}
		if g := strings.Join(got, "|"); g != tc.want {
			t.Errorf("%s: findings %q, want %q", tc.name, g, tc.want)
		}
	}
}
