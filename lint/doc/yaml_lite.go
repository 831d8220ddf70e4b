//go:build trainlint_lite

package doc

// The light build (tag trainlint_lite: the browser checker's first module) leaves yaml.v3 out,
// and with it regexp, the Unicode tables and reflection-based decoding (about 100 KB brotli):
// the direct reader reads nearly every config (310 of 312 corpus files). A file it declines gets
// one parse problem and YAMLDeclined, and the checker re-lints it with the full module, so the
// user sees yaml.v3's findings, the same as the CLI's, once that has loaded.

// declinedMessage is the parse problem of a file the light build cannot read.
const declinedMessage = "this YAML needs the checker's full reader, which is loading"

func parseYAMLv3(d *Document, lim Limits) {
	d.YAMLReader = YAMLDeclined
	d.Root, d.More, d.Comments = nil, nil, nil
	d.addProblem(Syntax, declinedMessage, 0, 0)
}
