package compose

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// The OpenMMLab trees TestMMEngineRunsAgreeWithConfig composes, as the `fetch` tool brings them,
// at the commits read on 2026-12-05 (their newest snapshots then).
var mmOracleTrees = []struct{ name, commit string }{
	{"mmpretrain", "ee7f2e88"},
	{"mmagic", "0a560bba"},
	{"mmocr", "966296f2"},
}

// mmOracleAddict stands in for addict's Dict, which MMEngine's ConfigDict subclasses and which
// cannot be installed here: a dict with attribute access whose nested dicts become Dicts. The
// parts MMEngine's Config uses while it reads a file (ConfigDict overrides the rest).
const mmOracleAddict = `
import copy


class Dict(dict):
    def __init__(__self, *args, **kwargs):
        object.__setattr__(__self, '__parent', kwargs.pop('__parent', None))
        object.__setattr__(__self, '__key', kwargs.pop('__key', None))
        object.__setattr__(__self, '__frozen', False)
        for arg in args:
            if not arg:
                continue
            if isinstance(arg, dict):
                for key, val in arg.items():
                    __self[key] = __self._hook(val)
            elif isinstance(arg, tuple) and not isinstance(arg[0], tuple):
                __self[arg[0]] = __self._hook(arg[1])
            else:
                for key, val in iter(arg):
                    __self[key] = __self._hook(val)
        for key, val in kwargs.items():
            __self[key] = __self._hook(val)

    def __setattr__(self, name, value):
        self[name] = value

    @classmethod
    def _hook(cls, item):
        if isinstance(item, dict):
            return cls(item)
        if isinstance(item, (list, tuple)):
            return type(item)(cls._hook(elem) for elem in item)
        return item

    def __getattr__(self, item):
        return self.__getitem__(item)

    def __missing__(self, name):
        raise KeyError(name)

    def __delattr__(self, name):
        del self[name]

    def to_dict(self):
        out = {}
        for key, value in self.items():
            if isinstance(value, type(self)):
                out[key] = value.to_dict()
            elif isinstance(value, (list, tuple)):
                out[key] = type(value)(v.to_dict() if isinstance(v, type(self)) else v for v in value)
            else:
                out[key] = value
        return out

    def copy(self):
        return copy.copy(self)

    def update(self, *args, **kwargs):
        other = {}
        if args:
            other.update(args[0])
        other.update(kwargs)
        for k, v in other.items():
            if k not in self or not isinstance(self[k], dict) or not isinstance(v, dict):
                self[k] = v
            else:
                self[k].update(v)

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return self[key]
`

// mmOracleRunner reads each config given (paths relative to the working directory, the tree's
// root) with MMEngine's Config.fromfile and prints every value of the result by its path, as
// mlcOracleRunner does. The libraries MMEngine imports and this machine lacks (numpy, torch,
// yapf, rich, ...) are stand-ins: classes made on demand, which the reading of a config never
// needs the values of. A new-style config's imported names, which the run does not use as
// settings, are left out; an imported object's value is "opaque".
const mmOracleRunner = `
import importlib, importlib.abc, importlib.machinery, json, os, signal, sys, types

sys.path.insert(0, sys.argv[1])
here = os.getcwd() + os.sep


class Made(type):
    def __getattr__(cls, n):
        if n.startswith('__'):
            raise AttributeError(n)
        return make(n)

    def __call__(cls, *a, **k):
        if len(a) == 1 and callable(a[0]) and not k:
            return a[0]
        return make('result')

    def __getitem__(cls, k):
        return make('item')

    def __or__(cls, o):
        return make('union')

    def __ror__(cls, o):
        return make('union')


def make(n):
    return Made(str(n), (), {})


class StandIn(types.ModuleType):
    def __getattr__(self, n):
        if n.startswith('__'):
            raise AttributeError(n)
        return make(n)


always = ()
` + oracleFinder + `
sys.meta_path.append(StandInFinder())
from mmengine.config import Config
from mmengine.config.lazy import LazyAttr, LazyObject


def entries(v):
    return list(dict.items(v)) if isinstance(v, dict) else None


def resolve(v):
    return v


def text(v):
    # {{fileDirname}} is the absolute folder, the reader's the folder as the run names it.
    return v.replace(here, '')

` + oracleWalk + `
def stop(*a):
    raise TimeoutError()


signal.signal(signal.SIGALRM, stop)
res = {}
for f in sys.argv[2:]:
    try:
        signal.alarm(10)
        c = Config.fromfile(f)
        d = dict(dict.items(c._cfg_dict))
        for name in getattr(c, '_imported_names', ()):
            d.pop(name, None)
        out = []
        walk(d, [], out, frozenset())
        res[f] = out
    except BaseException:
        pass
    finally:
        signal.alarm(0)
json.dump(res, sys.stdout)
`

// TestMMEngineRunsAgreeWithConfig composes the configs of three OpenMMLab trees (old style and
// new) and holds each run to what MMEngine v0.10.7's Config.fromfile reads from the same file
// (CPython; addict and MMEngine's other dependencies standing in): every value the run claims
// (a scalar, a map's keys, a sequence's length) must be the Config's, at the same path. The
// top level may lack a name the Config holds an imported object under (`dataset_type =
// ImageNet`), which the reader leaves out, and {{fileDirname}} is compared as the folder the
// run names (pypredef.go). It needs MMEngine's and the trees' repositories fetched; where
// they are not, it cannot run.
func TestMMEngineRunsAgreeWithConfig(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	tmp := t.TempDir()
	lib := filepath.Join(tmp, "lib")
	extract := func(repo, commit, spec, into string) {
		if _, err := os.Stat(repo); err != nil {
			t.Skipf("%s is not fetched here: the configs cannot be run", repo)
		}
		if err := os.MkdirAll(into, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("sh", "-c", "git --git-dir="+repo+" archive "+commit+" -- '"+spec+"' | tar -x -C "+into)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("extracting %s at %s: %v %s", repo, commit, err, out)
		}
	}
	extract(mmengineMirror, "v0.10.7", ":(glob)mmengine/**/*.py", lib)
	if err := os.MkdirAll(filepath.Join(lib, "addict"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(lib, "addict", "__init__.py"), []byte(mmOracleAddict), 0o644); err != nil {
		t.Fatal(err)
	}
	compared, claims := 0, 0
	for _, tree := range mmOracleTrees {
		root := filepath.Join(tmp, tree.name)
		extract("/work/.mirror/open-mmlab+"+tree.name+"/repo", tree.commit, ":(glob)configs/**", root)
		var files []string
		filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".py") {
				files = append(files, strings.TrimPrefix(p, root+"/"))
			}
			return nil
		})
		sort.Strings(files)
		cmd := exec.Command(py, append([]string{"-c", mmOracleRunner, lib}, files...)...)
		cmd.Dir = root
		cmd.Env = append(os.Environ(), "PYTHONDONTWRITEBYTECODE=1", "PYTHONHASHSEED=0")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s: running the configs: %v", tree.name, err)
		}
		var want map[string][]mlcValue
		if err := json.Unmarshal(out, &want); err != nil {
			t.Fatal(err)
		}
		fsys := FromFS(os.DirFS(root))
		cache := NewCache()
		for _, f := range files {
			pv, ok := want[f]
			if !ok {
				continue // the Config refused it (a package base, a missing file)
			}
			run := cache.Compose(fsys, f, nil, Limits{})
			// The Config loaded it: nothing the composer calls a refusal (a part of the bases
			// they do not set, a read after its del, two bases setting one key) may hold.
			for _, p := range run.Problems {
				if p.Kind == Refused {
					t.Errorf("%s/%s: MMEngine loads it, but the composer refuses it: %s:%d %s", tree.name, f, p.File, p.Span.Start.Line, p.Message)
				}
			}
			if run.Doc.Root == nil {
				continue
			}
			byPath := map[string]mlcValue{}
			for _, v := range pv {
				byPath[strings.Join(v.P, "\x00")] = v
			}
			// The Config's top-level names for imported objects, which the run leaves out.
			if top, ok := byPath[""]; ok {
				var keys []string
				for _, k := range top.Keys {
					if byPath[k].K != "opaque" || run.Doc.Root.Get(k) != nil {
						keys = append(keys, k)
					}
				}
				top.Keys = keys
				byPath[""] = top
			}
			compared++
			claims += mlcCompare(t, tree.name+"/"+f, run.Doc.Root, byPath)
		}
	}
	// Run on 2026-12-05: 1,253 runs with 273,490 values the reader claims.
	if compared < 1200 || claims < 250000 {
		t.Errorf("compared %d runs and %d values, want at least 1,200 and 250,000: the run did not reach them", compared, claims)
	}
	t.Logf("%d runs, %d values compared", compared, claims)
}
