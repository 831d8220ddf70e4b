//go:build !trainlint_lite

package rules

import (
	"embed"
	"sort"
	"strings"
)

//go:embed testdata/*.txtar
var testdataFS embed.FS

func archiveFrameworks(rule string) []string { return testedFrameworks(rule) }

// LiteFrameworks is what the light WebAssembly build (tag trainlint_lite), which leaves the
// archives out (150 KB, read by no lint), needs of them: each archive's tested frameworks, as
// "rule=fw,fw;rule=fw". The site's module build links it in with -X (LiteFrameworksFlag).
func LiteFrameworks() string {
	var parts []string
	for _, name := range ArchiveNames() {
		parts = append(parts, name+"="+strings.Join(testedFrameworks(name), ","))
	}
	sort.Strings(parts)
	return strings.Join(parts, ";")
}

// LiteFrameworksFlag is the -ldflags argument that gives a trainlint_lite build the table.
func LiteFrameworksFlag() string {
	return "-X github.com/trainlint/trainlint/rules.liteFrameworks=" + LiteFrameworks()
}
