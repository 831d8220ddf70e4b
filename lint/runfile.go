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
// what it is. files stay in path order.
func RunFile(files *[]FileInfo, path string, run *compose.Run, o Options) {
	pd := run.File(run.Primary)
	if pd == nil || pd.Root != nil || run.Doc == nil || run.Doc.Root == nil {
		return
	}
	fw := o.Framework
	if fw == "" {
		fw = dialect.Detect(run.Doc).Name
	}
	if fw == dialect.Generic.Name {
		return // no framework's config: a walk skips it (callBuiltOther)
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
	*files = slices.Insert(*files, i, FileInfo{Path: path, Format: string(pd.Format), Framework: fw})
}

// callBuiltOther reports a run whose primary has no tree alone (a get_config built by another
// module's function) and whose composed tree is no framework's config trainlint knows: a
// folder walk skips a Python file that reads as no known framework's config, and the run of
// one built this way is skipped the same way (vmoe's and Flax's example configs), problems
// included.
func callBuiltOther(run *compose.Run, o Options) bool {
	if o.Framework != "" || run.Doc == nil || run.Doc.Root == nil || run.Doc.Format != doc.Python {
		return false
	}
	pd := run.File(run.Primary)
	return pd != nil && pd.Root == nil && len(pd.Calls) > 0 && dialect.Detect(run.Doc) == dialect.Generic
}
