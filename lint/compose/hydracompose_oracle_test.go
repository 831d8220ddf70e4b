package compose

import (
	"crypto/sha256"
	"encoding/hex"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/corpustest"
	"github.com/trainlint/trainlint/lint/doc"
)

// TestComposeLikeHydra composes runs of the corpus's lightning-hydra-template and compares each
// with what Hydra 1.3.2 itself composed (hydra.compose, interpolations left unresolved, the
// hydra node dropped), recorded in testdata/hydra-lht-runs.tsv as a SHA-256 of the config in
// hydraCanon's encoding (a hash, so the corpus's configs are not copied here), or as Hydra's
// refusal. The tree is the corpus's files plus a data/mnist.yaml of our own (the corpus lacks
// it) and without the colorlog lines of hydra/default.yaml (a plugin Hydra then needs);
// both changes were made for Hydra's runs too. A run Hydra refuses must be refused here (an
// option missing from the tree may be reported as not found instead: a search path can hold
// it, and a group choice that a defaults-list interpolation names and the tree does not make
// may be reported as missing: the command line can make it; a run whose hydra.searchpath names
// a package outside the tree may leave what a config sets unknown, Partial or Unknown); a run
// Hydra composes must not be,
// and must compose to the same config.
// testdata/hydra_oracle.py (runs) regenerates the hashes.
func TestComposeLikeHydra(t *testing.T) {
	composeLikeHydra(t, lhtTree(t), "testdata/hydra-lht-runs.tsv", 40, 8)
}

// TestComposeTreesLikeHydra does the same on small trees of our own (testdata/hydra-trees):
// packages (_group_, _global_, _here_, group@pkg entries and overrides, an absolute group with a
// package), _self_ first and last and missing, an experiment's override entries, nested and
// optional groups, and a list of options, with the overrides that choose, add, delete and set
// values in them; interpolated options in defaults lists (interp: naming entries before and
// after, chosen on the command line or by an experiment, one a nested entry makes under its own
// package, one in a list of options) and an absolute group inside a group's config, whose
// package is under that config's; an option named with a folder (stage: crawl/curate), whose
// defaults resolve against its group, not its file's folder (groupdir); audiocraft's header
// `# @package __global__`, which Hydra reads as the root (dunder); a _group_ package in a nested
// option's defaults list, absolute in Hydra (grouppkg); two entries of one group, which Hydra
// refuses whether they name two options, an option and null, or one option twice, and composes
// under distinct packages, with an override giving one of them, or when the option twice named
// has a defaults list of its own (its `_self_` entries escape the duplicate check), though not
// an empty one (multi); hydra.searchpath
// (searchpath: a pkg:// and a relative file:// entry, a config of the primary's folder
// shadowing the search path's, options and a group found only there, a value that is no list,
// and an entry naming no package, where the run is left unread rather than refused); an
// empty package, `db@: mysql`, the containing config's (the root in a primary; emptypkg); a
// group option whose file is a list (listroot: its package's value; refused at the root, under
// a mapping and over one; overrides of its items); a nested option's relative groups, resolved
// against its group whether the primary reads it from its own folder or through
// hydra.searchpath, from a folder that holds the primary or not (relgroup); 120 runs composed
// by Hydra 1.3.2. (Left out: ~cb for a group
// whose entry lists several options, which Hydra refuses and trainlint does not report; and a
// nested config interpolating a group listed before its own entry, which Hydra refuses because
// it builds the defaults tree from the last entry back, and trainlint resolves.)
func TestComposeTreesLikeHydra(t *testing.T) {
	composeLikeHydra(t, "testdata/hydra-trees", "testdata/hydra-tree-runs.tsv", 85, 35)
}

func composeLikeHydra(t *testing.T, root, runsFile string, wantRuns, wantRefused int) {
	b, err := os.ReadFile(runsFile)
	if err != nil {
		t.Fatal(err)
	}
	cache := NewCache()
	runs, refused := 0, 0
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 3 {
			t.Fatalf("bad line %q", line)
		}
		var ovs []string
		if f[1] != "" {
			ovs = strings.Split(f[1], " ")
		}
		r := cache.Compose(FromFS(os.DirFS(root)), f[0], ovs, Limits{})
		var refusal, notFound string
		for _, p := range r.Problems {
			switch {
			case p.Kind == Refused:
				refusal = p.Message
			case p.Kind == Unresolved && (strings.Contains(p.Message, "not found") || strings.Contains(p.Message, "no choice for group")):
				notFound = p.Message
			}
		}
		if hydra, ok := strings.CutPrefix(f[2], "refused "); ok {
			refused++
			if refusal == "" && notFound == "" && !r.Partial && len(r.Unknown) == 0 {
				t.Errorf("%s %v: Hydra refuses it (%s), composed here", f[0], ovs, hydra)
			}
			continue
		}
		runs++
		if refusal != "" {
			t.Errorf("%s %v: Hydra composes it, refused here: %s", f[0], ovs, refusal)
			continue
		}
		if got := hydraHash(t, r.Doc.Root); got != f[2] {
			t.Errorf("%s %v: composed config differs from Hydra's (problems: %s)", f[0], ovs, problems(r))
		}
	}
	if runs < wantRuns || refused < wantRefused {
		t.Errorf("%d runs and %d refusals: the test data is short", runs, refused)
	}
}

// lhtTree rebuilds the template's configs from the corpus in a temporary folder, with the two
// changes TestComposeLikeHydra describes.
func lhtTree(t *testing.T) string {
	dir, entries := corpustest.Manifest(t)
	root := t.TempDir()
	for _, e := range entries {
		if e.Repo != "ashleve/lightning-hydra-template" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(e.Path)))
		if err != nil {
			t.Fatal(err)
		}
		if e.OrigPath == "configs/hydra/default.yaml" {
			var keep []string
			for _, l := range strings.SplitAfter(string(b), "\n") {
				if !strings.Contains(l, "colorlog") {
					keep = append(keep, l)
				}
			}
			b = []byte(strings.Replace(strings.Join(keep, ""), "defaults:\n", "defaults: []\n", 1))
		}
		writeFile(t, filepath.Join(root, filepath.FromSlash(e.OrigPath)), b)
	}
	writeFile(t, filepath.Join(root, "configs", "data", "mnist.yaml"), []byte("_target_: src.data.mnist_datamodule.MNISTDataModule\n"+
		"data_dir: ${paths.data_dir}\nbatch_size: 128\nnum_workers: 0\npin_memory: False\n"))
	return root
}

func writeFile(t *testing.T, p string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// hydraHash is the SHA-256 of root (its hydra key left out) in the encoding the test data's
// hashes were made with: n (null), t and f, i<int>; d<the float's IEEE bits>; s<bytes>:<text>,
// [items], {key value ...} with keys sorted by their bytes. An interpolation is its text, as
// Hydra leaves it unresolved.
func hydraHash(t *testing.T, root *doc.Node) string {
	var b []byte
	var enc func(n *doc.Node)
	str := func(s string) { b = append(append(append(b, 's'), strconv.Itoa(len(s))+":"...), s...) }
	enc = func(n *doc.Node) {
		switch n.Kind {
		case doc.Map:
			kids := append([]*doc.Node(nil), n.Children...)
			sort.Slice(kids, func(i, j int) bool { return kids[i].Key < kids[j].Key })
			b = append(b, '{')
			for _, c := range kids {
				if n == root && c.Key == "hydra" {
					continue
				}
				str(c.Key)
				enc(c)
			}
			b = append(b, '}')
			return
		case doc.Seq:
			b = append(b, '[')
			for _, c := range n.Children {
				enc(c)
			}
			b = append(b, ']')
			return
		}
		switch n.Type {
		case doc.Null:
			b = append(b, 'n')
		case doc.Bool:
			if v, _ := n.Bool(); v {
				b = append(b, 't')
			} else {
				b = append(b, 'f')
			}
		case doc.Int:
			v, ok := n.Int()
			if !ok {
				t.Errorf("int %q not read", n.Value)
			}
			b = append(b, "i"+strconv.FormatInt(v, 10)+";"...)
		case doc.Float:
			v, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
			if err != nil {
				switch strings.ToLower(strings.TrimPrefix(n.Value, "+")) {
				case ".inf":
					v = math.Inf(1)
				case "-.inf":
					v = math.Inf(-1)
				default:
					t.Errorf("float %q: %v", n.Value, err)
				}
			}
			b = append(b, "d"+strconv.FormatUint(math.Float64bits(v), 10)+";"...)
		default:
			if n.Type == doc.Unknown && !strings.Contains(n.Value, "${") && n.Value != "???" {
				t.Errorf("%s: a value of unknown type %q", n.Path(), n.Value)
			}
			str(n.Value)
		}
	}
	enc(root)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
