package main

import "regexp"

var (
	// lineCommentCutRE: a line cut at its first "//" and the part before it kept,
	// `line.split('//')[0]`.
	lineCommentCutRE = regexp.MustCompile(`\.split\(\s*(?:'//'|"//")\s*\)\s*\[\s*0\s*\]`)
	// jsonLoadsRE: Python's json reading a string, `json.loads(`.
	jsonLoadsRE = regexp.MustCompile(`\bjson\.loads\(`)
)

// stripsLineComments reports a Python file that reads JSON options the way KAIR's option
// parser does, and the super-resolution repositories that copy it (SwinIR, VRT, BSRGAN, ...):
// it cuts each line of the file at "//" and hands what is left to json.loads (cszn/KAIR's
// utils/utils_option.py:30-37 parse at 090344b: `for line in f: line = line.split('//')[0] +
// '\n'` then `opt = json.loads(json_str, object_pairs_hook=OrderedDict)`), so `//` comments
// are its option files' format (lint.Options.JSONLineComments). Both must stand in the same
// file; a cut at "//" alone (a URL's scheme) or json.loads alone says nothing.
func stripsLineComments(text string) bool {
	return lineCommentCutRE.MatchString(text) && jsonLoadsRE.MatchString(text)
}
