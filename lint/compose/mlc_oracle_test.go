package compose

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
)

// The repositories TestConfigDictValuesAgreeWithPython reads, as the `fetch` tool brings them
// (bare git directories), and the commits it reads them at: ml_collections at the commit
// pyrefs.go and pycfgdict.go follow, big_vision and scenic at the commits their dialects name.
var mlcOracleRepos = []struct{ dir, commit, path string }{
	{"/work/.mirror/google+ml_collections/repo", "5f7343a", "ml_collections"},
	{"/work/.mirror/google-research+big_vision/repo", "0127fb6", ":(glob)big_vision/**/*.py"},
	{"/work/.mirror/google-research+scenic/repo", "4a38d47", ":(glob)scenic/**/*.py"},
}

// mlcOracleRunner imports each config module given (the packages it needs are in the folder
// given first), calls get_config() and prints, for each file, every value of the result by its
// path: a map's keys, a sequence's length, a scalar's type and value. A module the folder does
// not hold is a stand-in whose attributes are unknown values; using one where Python would need
// its value (a test, an iteration, a string) abandons the file, and a value computed from one
// is printed as "opaque". absl, which ml_collections logs through, is a stand-in too.
const mlcOracleRunner = `
import importlib, importlib.abc, importlib.machinery, json, os, signal, sys, types

root = sys.argv[1]
sys.path.insert(0, root)

class Abandon(Exception):
    pass

def abandon(*a):
    raise Abandon()

class Unknown:
    def __getattr__(self, n):
        if n.startswith('__'):
            raise AttributeError(n)
        return Unknown()
    def __call__(self, *a, **k):
        return Unknown()
    def __getitem__(self, k):
        return Unknown()
    def __hash__(self):
        return id(self)
    def __neg__(self):
        return Unknown()
for name in ['bool', 'iter', 'len', 'index', 'int', 'float', 'str', 'format', 'eq', 'contains', 'lt', 'le', 'gt', 'ge']:
    setattr(Unknown, '__%s__' % name, abandon)
for op in ['add', 'sub', 'mul', 'truediv', 'floordiv', 'mod', 'pow', 'and', 'or', 'xor', 'lshift', 'rshift', 'matmul']:
    setattr(Unknown, '__%s__' % op, lambda self, *a: Unknown())
    setattr(Unknown, '__r%s__' % op, lambda self, *a: Unknown())

class StandIn(types.ModuleType):
    def __getattr__(self, n):
        if n.startswith('__'):
            raise AttributeError(n)
        return Unknown()

always = ('absl',)
` + oracleFinder + `
sys.meta_path.insert(0, StandInFinder())

from ml_collections.config_dict import config_dict as cd

def entries(v):
    if isinstance(v, cd.ConfigDict):
        return list(v._fields.items())
    return list(v.items()) if isinstance(v, dict) else None


def resolve(v):
    return v.get() if isinstance(v, cd.FieldReference) else v


def text(v):
    return v

` + oracleWalk + `
signal.signal(signal.SIGALRM, abandon)
res = {}
for f in sys.argv[2:]:
    mod = os.path.relpath(f, root)[:-3].replace(os.sep, '.')
    try:
        signal.alarm(5)
        m = importlib.import_module(mod)
        if hasattr(m, 'get_config'):
            out = []
            walk(m.get_config(), [], out, frozenset())
            res[f] = out
    except BaseException:
        pass
    finally:
        signal.alarm(0)
json.dump(res, sys.stdout)
`

// oracleFinder is the runners' import hook: a module Python cannot find, or one named in
// always (the runner's), is a StandIn (the runner's class) whose submodules are stand-ins too.
const oracleFinder = `
class StandInLoader(importlib.abc.Loader):
    def create_module(self, spec):
        return StandIn(spec.name)

    def exec_module(self, m):
        m.__path__ = []
        m.__version__ = '2.0.0'


class StandInFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name.split('.')[0] not in always:
            for f in sys.meta_path:
                if f is self:
                    continue
                try:
                    if f.find_spec(name, path, target) is not None:
                        return None
                except Exception:
                    pass
        return importlib.machinery.ModuleSpec(name, StandInLoader(), is_package=True)

`

// oracleWalk is the runners' printer (mlcOracleRunner, mmOracleRunner): walk(v, p, out, seen)
// appends every value under v by its path: a mapping's keys (entries(v), the runner's, is
// None for what is not one), a sequence's length, a scalar's type and value (text(s), the
// runner's, for a string; resolve(v) first, for a reference), "opaque" for any other object
// and "cycle" for a mapping inside itself.
const oracleWalk = `
def walk(v, p, out, seen):
    v = resolve(v)
    items = entries(v)
    if items is not None:
        if id(v) in seen:
            out.append({'p': p, 'k': 'cycle'})
            return
        seen = seen | {id(v)}
        out.append({'p': p, 'k': 'map', 'keys': [str(k) for k, _ in items]})
        for k, x in items:
            walk(x, p + [str(k)], out, seen)
    elif isinstance(v, (list, tuple)):
        out.append({'p': p, 'k': 'seq', 'v': str(len(v))})
        for i, x in enumerate(v):
            walk(x, p + [str(i)], out, seen)
    elif v is None:
        out.append({'p': p, 'k': 'null'})
    elif isinstance(v, bool):
        out.append({'p': p, 'k': 'bool', 'v': 'true' if v else 'false'})
    elif isinstance(v, int):
        out.append({'p': p, 'k': 'int', 'v': str(v)})
    elif isinstance(v, float):
        out.append({'p': p, 'k': 'float', 'v': repr(v)})
    elif isinstance(v, str):
        out.append({'p': p, 'k': 'string', 'v': text(v)})
    else:
        out.append({'p': p, 'k': 'opaque'})

`

// mlcValue is one value the runner printed.
type mlcValue struct {
	P    []string `json:"p"`
	K    string   `json:"k"`
	V    string   `json:"v"`
	Keys []string `json:"keys"`
}

// TestConfigDictValuesAgreeWithPython runs big_vision's and scenic's configs with the real
// ml_collections (CPython, the modules they import from elsewhere standing in as unknown
// values) and holds the reader to what get_config() returns, for each file read alone and
// for its composed run (other modules' functions read): every value the tree claims (a
// scalar, a map's keys, a sequence's length) must be Python's, at the same path. Values the
// reader leaves unknown are not compared. It needs the three repositories fetched; where they
// are not, it cannot run.
func TestConfigDictValuesAgreeWithPython(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	tmp := t.TempDir()
	for _, r := range mlcOracleRepos {
		if _, err := os.Stat(r.dir); err != nil {
			t.Skipf("%s is not fetched here: the configs cannot be run", r.dir)
		}
		cmd := exec.Command("sh", "-c", "git --git-dir="+r.dir+" archive "+r.commit+" -- '"+r.path+"' | tar -x -C "+tmp)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("extracting %s at %s: %v %s", r.dir, r.commit, err, out)
		}
	}
	var files []string
	for _, top := range []string{"big_vision", "scenic"} {
		filepath.WalkDir(filepath.Join(tmp, top), func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") && strings.Contains(p[len(tmp):], "config") {
				files = append(files, p)
			}
			return nil
		})
	}
	sort.Strings(files)
	cmd := exec.Command(py, append([]string{"-c", mlcOracleRunner, tmp}, files...)...)
	cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "PYTHONHASHSEED=0")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("running the configs: %v", err)
	}
	var want map[string][]mlcValue
	if err := json.Unmarshal(out, &want); err != nil {
		t.Fatal(err)
	}
	compared, claims := 0, 0
	fsys := FromFS(os.DirFS(tmp))
	cache := NewCache()
	for _, f := range files {
		pv, ok := want[f]
		if !ok {
			continue // no get_config, or it raised (a stand-in's value was needed)
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := strings.TrimPrefix(f, tmp+"/")
		byPath := map[string]mlcValue{}
		for _, v := range pv {
			byPath[strings.Join(v.P, "\x00")] = v
		}
		// The file read alone, then its composed run (other modules' functions read).
		alone := doc.Parse(f, src, doc.Python, doc.Limits{})
		run := cache.Compose(fsys, name, nil, Limits{})
		for _, r := range []struct {
			how  string
			root *doc.Node
		}{{"alone", alone.Root}, {"composed", run.Doc.Root}} {
			if r.root == nil {
				continue
			}
			compared++
			claims += mlcCompare(t, name+" ("+r.how+")", r.root, byPath)
		}
	}
	// Run on 2026-12-05: 407 trees (195 configs alone, 212 composed) with 47,705 values the
	// reader claims.
	if compared < 380 || claims < 40000 {
		t.Errorf("compared %d trees and %d values, want at least 380 and 40,000: the run did not reach them", compared, claims)
	}
	t.Logf("%d trees, %d values compared", compared, claims)
}

// mlcCompare holds the tree at root to Python's values by path (a step per key, or a
// sequence's index) and counts the values it claims.
func mlcCompare(t *testing.T, name string, root *doc.Node, byPath map[string]mlcValue) int {
	claims := 0
	var walk func(n *doc.Node, p []string)
	walk = func(n *doc.Node, p []string) {
		if n.Kind == doc.Scalar && n.IsUnknown() {
			return
		}
		claims++
		got, have := byPath[strings.Join(p, "\x00")]
		bad := func(format string, args ...any) {
			t.Errorf("%s %s: "+format, append([]any{name, strings.Join(p, ".")}, args...)...)
		}
		switch {
		case !have:
			bad("the reader has a value Python's config does not")
			return
		case got.K == "opaque" || got.K == "cycle":
			if n.Kind != doc.Map {
				bad("the reader knows %q, Python's value is %s", n.Value, got.K)
			}
		case n.Kind == doc.Map:
			var keys []string
			for _, c := range n.Children {
				keys = append(keys, c.Key)
			}
			b := append([]string(nil), got.Keys...)
			sort.Strings(keys)
			sort.Strings(b)
			if got.K != "map" || strings.Join(keys, "\x00") != strings.Join(b, "\x00") {
				bad("keys %q, Python's %s %q", keys, got.K, b)
			}
		case n.Kind == doc.Seq:
			if got.K != "seq" || got.V != strconv.Itoa(len(n.Children)) {
				bad("%d items, Python's %s %s", len(n.Children), got.K, got.V)
			}
		case n.Type == doc.Float && (got.K == "float" || got.K == "int"):
			x, _ := strconv.ParseFloat(n.Value, 64)
			y, _ := strconv.ParseFloat(got.V, 64)
			if x != y && !(math.IsNaN(x) && math.IsNaN(y)) {
				bad("%s, Python's %s", n.Value, got.V)
			}
		case n.Type == doc.Null:
			if got.K != "null" {
				bad("None, Python's %s %q", got.K, got.V)
			}
		default:
			if got.K != n.Type.String() || got.V != n.Value {
				bad("%s %q, Python's %s %q", n.Type, n.Value, got.K, got.V)
			}
		}
		for i, c := range n.Children {
			step := c.Key
			if n.Kind == doc.Seq {
				step = strconv.Itoa(i)
			}
			walk(c, append(append([]string(nil), p...), step))
		}
	}
	walk(root, nil)
	return claims
}
