//go:build trainlint_lite

package doc

// The light build (tag trainlint_lite) is the browser checker's first WebAssembly module. It
// leaves out yaml.v3 (and with it regexp, the Unicode tables and reflection-based decoding) and
// the gin, Python and TOML readers: together more than a quarter of the module. The direct YAML
// reader reads nearly every YAML config (310 of 312 corpus files), and JSON is read as in the
// full build but for JSON5 keys beyond ASCII (jsonIdentRune). TOML (torchtitan's configs, 21 of
// the corpus's 425 files) goes to the full module because its reader, go-toml with what it
// links, was 56 KB of the light module's gzip. A file the light build cannot read gets one parse
// problem and Document.Declined, and the checker lints it again with the full module (trainlint-full.wasm),
// so the user sees the CLI's findings once that has loaded.

func parseYAMLv3(d *Document, lim Limits) { decline(d, "this YAML") }

func readGin(d *Document, lim Limits, _ Options) { decline(d, "a gin file") }

func readPython(d *Document, lim Limits, _ Options) { decline(d, "a Python config") }

func decline(d *Document, what string) {
	d.Declined = true
	d.Root, d.More, d.Comments = nil, nil, nil
	d.addProblem(Syntax, what+" needs the checker's full reader, which is loading", 0, 0)
}

func readTOML(d *Document, lim Limits) { decline(d, "a TOML file") }

// jsonIdentRune: the Unicode tables that tell which characters beyond ASCII a JSON5 unquoted key
// may hold were 7 KB of this module's gzip, for keys that training configs hardly ever have. The
// file is declined (known is false), and the full module reads it.
func jsonIdentRune(d *Document, r rune, first bool) (in, known bool) {
	d.Problems = nil // the JSON reader's, read again by the full module
	decline(d, "a JSON5 key beyond ASCII")
	return false, false
}
