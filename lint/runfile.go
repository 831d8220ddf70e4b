//go:build !trainlint_lite

package lint

import (
	"slices"
	"sort"

	"github.com/trainlint/trainlint/lint/compose"
	"github.com/trainlint/trainlint/lint/dialect"
	"github.com/trainlint/trainlint/lint/doc"
)

// RunFile lists, in files, the primary of a run (under path) that read alone has no tree (a
// get_config built by another module's function, compose's code_calls.go) when the run has
// one: a folder walk skipped it as no config, or it was listed as generic; the run's tree says
// what it is (generic, when no dialect reads it, for an ml_collections config: a walk lints
// those, doc.Document.ConfigDict). files stay in path order.
func RunFile(files *[]FileInfo, path string, run *compose.Run, o Options) {
	if !callBuilt(run) || run.Doc == nil || run.Doc.Root == nil {
		return
	}
	fw := o.Framework
	if fw == "" {
		fw = dialect.Detect(run.Doc).Name
	}
	if fw == dialect.Generic.Name && !run.Doc.ConfigDict {
		return // no framework's config: a walk skips it, and LintRun its run
	}
	for i := range *files {
		if f := &(*files)[i]; f.Path == path {
			if f.Framework == dialect.Generic.Name {
				f.Framework = fw
			}
			return
		}
	}
	i := sort.Search(len(*files), func(i int) bool { return (*files)[i].Path >= path })
	*files = slices.Insert(*files, i, FileInfo{Path: path, Format: string(doc.Python), Framework: fw})
}

// callBuilt reports a run whose primary has no tree alone and records calls of other
// modules' functions (a get_config built by one; compose's code_calls.go).
func callBuilt(run *compose.Run) bool {
	pd := run.File(run.Primary)
	return pd != nil && pd.Root == nil && len(pd.Calls) > 0
}
