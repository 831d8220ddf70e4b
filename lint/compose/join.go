package compose

import (
	"path"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// RoleDeepSpeed marks a DeepSpeed config that a key of the run names.
const RoleDeepSpeed = "deepspeed"

// FileKey is a key whose value names another file that the launch reads (dotted path in the
// composed tree) and what that file is.
type FileKey struct {
	Path string
	Role string
	// Strategy marks a key of Lightning's strategy: it names a file only when the strategy is
	// DeepSpeed's (its class_path or _target_ names DeepSpeedStrategy).
	Strategy bool
}

// FileKeys are the keys that name another file of a run:
//   - deepspeed: the Hugging Face Trainer's TrainingArguments.deepspeed (a path to a JSON file,
//     or the config itself), forwarded unchanged by TRL, axolotl and LLaMA-Factory;
//   - trainer.strategy.init_args.config (LightningCLI) and trainer.strategy.config (a Hydra
//     `_target_` of the strategy): Lightning's DeepSpeedStrategy(config=...).
//
// A launcher's deepspeed_config.deepspeed_config_file (accelerate) is read by Launch.
var FileKeys = []FileKey{
	{Path: "deepspeed", Role: RoleDeepSpeed},
	{Path: "trainer.strategy.init_args.config", Role: RoleDeepSpeed, Strategy: true},
	{Path: "trainer.strategy.config", Role: RoleDeepSpeed, Strategy: true},
}

// Joined is a file that a key of the run names: it joins the run as a file of its own (its
// values are not merged into the composed tree: the framework reads it separately).
type Joined struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Role string
	// Key is the dotted path of the key that names the file (FileKeys' Path, or
	// "deepspeed_config.deepspeed_config_file" in a launcher).
	Key string
	// Ref is the key's value in the composed tree (or in the launcher file): where a problem
	// with the file, and a finding that needs the reference, are placed.
	Ref *doc.Node
	// Doc is the file, parsed; for a config written inline under the key, a document whose
	// Root is that map.
	Doc *doc.Document
}

// Single returns the run of one file without composition (a recipe that names other files):
// the file as parsed, every node's origin that file.
func (k *Cache) Single(fsys FS, file string, lim Limits) *Run {
	lim = lim.withDefaults()
	file = path.Clean(file)
	c := &composer{fsys: fsys, dir: path.Dir(file), lim: lim, parsed: k.parsed, ginFork: k.GinFork}
	run := &Run{Primary: file, origin: map[*doc.Node]Origin{}, Choices: map[string]string{}}
	d, ok := c.parseAs(file, joinedFormat(file)) // an HF recipe in JSON: read as the linted file is
	if !ok {
		run.Doc = &doc.Document{Path: file}
		return run
	}
	run.Doc = d
	run.Files = []*doc.Document{d}
	if d.Root != nil {
		run.origin[d.Root] = Origin{File: file}
	}
	return run
}

// Join reads the files that the keys of FileKeys name into the run (Joined), and the ones a
// launcher names. A path is looked up from the root of fsys (where the launch usually runs),
// then from the folder of the file that wrote the key and each folder above it; one that leaves
// fsys (absolute, or ".." past the root), a file that does not exist and one that cannot be
// parsed are Unresolved problems at the key. Values that are not plain strings
// (interpolations, null), and a bare name that is no file (a preset such as ms-swift's
// `zero2`), are skipped: what they name is unknown.
func (k *Cache) Join(fsys FS, run *Run, lim Limits) {
	if run == nil || run.Doc == nil || run.Doc.Root == nil {
		return
	}
	for _, fk := range FileKeys {
		n := run.Doc.Root.At(fk.Path)
		if n == nil {
			continue
		}
		if fk.Strategy {
			st := run.Doc.Root.At("trainer.strategy")
			cls := st.Get("class_path")
			if cls == nil {
				cls = st.Get("_target_")
			}
			if cls == nil || !strings.Contains(cls.Value, "DeepSpeedStrategy") {
				continue
			}
		}
		k.joinRef(fsys, run, fk.Role, fk.Path, n, lim)
	}
}

func (k *Cache) joinRef(fsys FS, run *Run, role, key string, n *doc.Node, lim Limits) {
	from := run.Origin(n).File
	if n.Kind == doc.Map {
		run.Joined = append(run.Joined, Joined{Role: role, Key: key, Ref: n, Doc: &doc.Document{Path: from, Format: run.Doc.Format, Root: n}})
		return
	}
	if n.Kind != doc.Scalar || n.IsNull() || n.IsUnknown() || n.Type == doc.Bool {
		return // deepspeed: false (InternVL's MMSeg configs) names no file: DeepSpeed is off
	}
	name, ok := n.Str()
	name = strings.TrimSpace(name)
	if !ok || name == "" || strings.Contains(name, "${") || strings.HasPrefix(name, "{") {
		// "{...}": the config itself as a JSON string (TrainingArguments.__post_init__ reads
		// the strings of its _VALID_DICT_FIELDS, deepspeed among them, that start with "{"
		// with json.loads): no file, and its values are not read here
		return
	}
	if o := run.Origin(n); o.Override != "" {
		from = run.Primary
	}
	var tried []string
	for _, p := range candidates(name, from) {
		if p == "" {
			continue
		}
		tried = append(tried, p)
		d, ok := k.parseFile(fsys, p, lim)
		if !ok {
			continue
		}
		if run.File(p) == nil {
			run.Files = append(run.Files, d)
		}
		if d.Root != nil {
			if run.origin == nil {
				run.origin = map[*doc.Node]Origin{}
			}
			run.origin[d.Root] = Origin{File: p}
		}
		run.Joined = append(run.Joined, Joined{Role: role, Key: key, Ref: n, Doc: d})
		return
	}
	if !strings.ContainsAny(name, "/\\.") {
		// A bare name (no folder, no extension) that is no file here: the Trainer would
		// refuse it, but ms-swift (v4.4, swift/arguments/sft_args.py) reads `zero2` as its
		// bundled zero2.json; which one launches the run is unknown.
		return
	}
	msg := role + " file " + quote(name)
	if len(tried) == 0 {
		msg += " is outside the folder checked and was not read; its settings are unknown"
	} else {
		msg += " not found in the folder checked (looked from its top, and from the folder of the file that names it and each folder above it); its settings are unknown"
	}
	run.Problems = append(run.Problems, Problem{Kind: Unresolved, File: from, Span: n.Span, Message: msg})
}

// candidates are the slash paths inside the file system a file name may mean: from the root,
// then from the folder of the file that names it and each folder above that; none for an
// absolute name.
func candidates(name, from string) []string {
	name = strings.ReplaceAll(name, "\\", "/")
	if strings.HasPrefix(name, "/") || (len(name) > 1 && name[1] == ':') {
		return nil
	}
	var out []string
	add := func(p string) {
		p = path.Clean(p)
		if !ValidPath(p) || p == "." {
			return
		}
		for _, q := range out {
			if q == p {
				return
			}
		}
		out = append(out, p)
	}
	add(name)
	// Then from the naming file's folder and each folder above it: a project kept in a
	// sub-folder of the repository (GAIR-NLP/LIMO's train/, a copy of LLaMA-Factory whose
	// examples name examples/deepspeed/ds_z3_config.json) is launched from its own top.
	for dir := path.Dir(from); dir != "." && dir != "" && dir != "/"; dir = path.Dir(dir) {
		add(path.Join(dir, name))
	}
	return out
}

// parseFile reads and parses one file of any format the engine reads (by its extension; YAML
// otherwise), once per cache.
func (k *Cache) parseFile(fsys FS, p string, lim Limits) (*doc.Document, bool) {
	if d, ok := k.parsed[p]; ok {
		return d, d != nil
	}
	b, err := fsys.ReadFile(p)
	if err != nil {
		k.parsed[p] = nil
		return nil, false
	}
	d := doc.ParseWith(p, b, joinedFormat(p), doc.Options{Limits: lim.Doc})
	k.parsed[p] = d
	return d, true
}

// joinedFormat is how a recipe or a file a key names is read: JSON when its name says so,
// else YAML.
func joinedFormat(p string) doc.Format {
	if strings.EqualFold(path.Ext(p), ".json") {
		return doc.JSON
	}
	return doc.YAML
}

// Launch reads the run's launcher config (an accelerate config file, slash path inside fsys)
// into Run.Launcher, and the DeepSpeed file it names (deepspeed_config.deepspeed_config_file)
// into Joined. A launcher that does not exist or leaves fsys is an Unresolved problem.
func (k *Cache) Launch(fsys FS, run *Run, launcher string, lim Limits) {
	if run == nil || launcher == "" {
		return
	}
	lim = lim.withDefaults()
	ps := candidates(launcher, "")
	var d *doc.Document
	ok := false
	if len(ps) == 1 {
		d, ok = k.parseFile(fsys, ps[0], lim)
	}
	if !ok {
		what := " not found"
		if len(ps) == 0 {
			what = " is outside the folder checked and was not read"
		}
		run.Problems = append(run.Problems, Problem{Kind: Unresolved, File: run.Primary,
			Message: "launcher config " + quote(launcher) + what + "; the launch context is unknown"})
		return
	}
	run.Launcher = d
	if run.File(d.Path) == nil {
		run.Files = append(run.Files, d)
	}
	if d.Root == nil {
		return
	}
	if run.origin == nil {
		run.origin = map[*doc.Node]Origin{}
	}
	run.origin[d.Root] = Origin{File: d.Path}
	if n := d.Root.At("deepspeed_config.deepspeed_config_file"); n != nil {
		k.joinRef(fsys, run, RoleDeepSpeed, "deepspeed_config.deepspeed_config_file", n, lim)
	}
}
