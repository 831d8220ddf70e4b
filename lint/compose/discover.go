package compose

import (
	"path"
	"slices"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// Spec names one run to compose: a primary config and its overrides.
type Spec struct {
	Primary   string
	Overrides []string
	// Launcher is the launcher config the run starts with (an accelerate config file, slash
	// path inside the file system), "" when none is declared.
	Launcher string
	// Single marks a run of one file that is not composed (a recipe whose keys name other
	// files: Cache.Single, then Cache.Join).
	Single bool
	// Added marks a primary paired by Discover with an experiment its defaults lists have no
	// entry for (+experiment=x): a guess at how it is launched, dropped when Hydra would refuse
	// the experiment's override entries there (Run.Unmatched).
	Added bool
	// Declined marks a run the light WebAssembly module cannot judge (a base its siblings
	// include: siblingBases; an experiment several primaries share: sharedExperiment): its
	// document is declined, and the checker lints the files again with the full module.
	Declined bool
}

// Name is the run's name in messages: the primary config, with its overrides.
func (s Spec) Name() string {
	n := s.Primary
	if len(s.Overrides) > 0 {
		n += " " + strings.Join(s.Overrides, " ")
	}
	if s.Launcher != "" {
		n += " (launcher " + s.Launcher + ")"
	}
	return n
}

// DiscoverJoined finds the files among files (slash paths of fsys) that are not parts of
// composed runs (skip) and whose keys name other files (IsRecipe: a recipe's deepspeed:, in
// YAML or, as HfArgumentParser.parse_json_file reads one, JSON): each is a Single run, so that
// the files it names join it.
func DiscoverJoined(fsys FS, files []string, skip map[string]bool) []Spec {
	var out []Spec
	for _, f := range files {
		if skip[f] || !IsRecipePath(f) {
			continue
		}
		b, err := fsys.ReadFile(f)
		if err != nil || !IsRecipe(f, b) {
			continue
		}
		out = append(out, Spec{Primary: f, Single: true})
	}
	return out
}

// IsRecipePath reports whether a file of that name may be a recipe whose keys name other
// files: YAML or JSON.
func IsRecipePath(p string) bool {
	return isYAML(p) || strings.EqualFold(path.Ext(p), ".json")
}

// IsRecipe is a cheap test that the text b of the file p may hold a key of FileKeys with a
// value: in YAML, MentionsFileKey; in JSON, jsonRecipe.
func IsRecipe(p string, b []byte) bool {
	if isYAML(p) {
		return MentionsFileKey(b)
	}
	return jsonRecipe(b)
}

// jsonRecipe is a cheap test that a JSON text is an object whose top-level "deepspeed" key
// holds an object (a DeepSpeed config written inline) or a string naming a .json file: how an
// HF recipe read by HfArgumentParser.parse_json_file names its DeepSpeed config (Join reads
// the top level only). Other strings ("ZeRO Stage 2" in a results file, ms-swift's "zero3"
// alias) name no file the Trainer reads, and a "deepspeed" nested deeper or used as a value
// makes no recipe. A repeated key is judged by its last value, the one Python's json and Join
// keep. It scans strings and brackets only, without building a tree.
func jsonRecipe(b []byte) bool {
	s := strings.TrimLeft(string(b), " \t\r\n\ufeff")
	depth, key, recipe := 0, false, false // key: the string just closed is a top-level key
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '{', '[':
			depth++
		case '}', ']':
			depth--
		case '"':
			j := i + 1
			for j < len(s) && s[j] != '"' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				return false // a string never closed: not JSON
			}
			key = depth == 1 && s[0] == '{' && s[i+1:j] == "deepspeed"
			i = j
			continue
		case ':':
			if key {
				v := strings.TrimLeft(s[i+1:], " \t\r\n")
				name, _, ok := strings.Cut(strings.TrimPrefix(v, `"`), `"`)
				recipe = strings.HasPrefix(v, "{") || strings.HasPrefix(v, `"`) && ok && strings.HasSuffix(strings.ToLower(name), ".json")
			}
		}
		if c := s[i]; c != ' ' && c != '\t' && c != '\r' && c != '\n' {
			key = false
		}
	}
	return recipe
}

// MentionsFileKey is a cheap test that a YAML text may hold a key of FileKeys with a value:
// a top-level `deepspeed:` or a `config:` near a DeepSpeed strategy.
func MentionsFileKey(b []byte) bool {
	s := string(b)
	for _, line := range strings.Split(s, "\n") {
		if strings.HasPrefix(line, "deepspeed:") {
			return true
		}
	}
	return strings.Contains(s, "DeepSpeedStrategy") && strings.Contains(s, "config:")
}

// NamesAbove reports whether the top-level defaults list of a config in the folder dir (slash
// path relative to the config directory, "" for its top) names a config out of the config
// directory (hulc2's `../paths@paths: general_paths` in a primary): Hydra reads it from the
// folders above (file_config_source.py:21-23 at v1.1.1 and v1.3.2), which the tree composed
// must then hold.
func NamesAbove(b []byte, dir string) bool {
	for _, t := range defaultsItems(b) {
		t, _, _ = strings.Cut(t, ":")
		t, _, _ = strings.Cut(strings.Trim(t, `"' `), "@")
		for _, kw := range []string{"optional ", "override "} {
			t = strings.TrimSpace(strings.TrimPrefix(t, kw))
		}
		if r, abs := strings.CutPrefix(t, "/"); abs {
			t = r
		} else {
			t = path.Join(dir, t)
		}
		if t = path.Clean(t); t == ".." || strings.HasPrefix(t, "../") {
			return true
		}
	}
	return false
}

// Discover finds the runs among the files of fsys (slash paths); code configs' runs and
// fragments are code.go's (discoverCode). Hydra: a primary config is
// a file with a top-level defaults list whose folder has config-group folders; each
// experiment/*.yaml beside it is a run too when the primary mentions experiments (primary +
// experiment=<name> when its defaults list has an experiment entry, +experiment=<name> when
// it has none). A primary whose defaults list leaves one group to the command line (`data:
// ???`) runs once per option of that group instead (mandatory.go). Fragments are the other
// files of those config directories (group options): they get structural checks alone.
func Discover(fsys FS, files []string) (runs []Spec, fragments map[string]bool) {
	return NewCache().Discover(fsys, files, Limits{})
}

// Discover is Discover with the cache's parsed files: the code configs it reads to find runs
// and fragments stay parsed for the runs composed next with the same cache (fsys and lim must
// be those of every call on the cache, as for Compose).
func (k *Cache) Discover(fsys FS, files []string, lim Limits) (runs []Spec, fragments map[string]bool) {
	// Each folder is listed once: asked once per candidate primary, a config folder with
	// 2,000 primaries and 3,000 group options took 13.6 s (quadratic).
	listed := &listedOnce{FS: fsys, dirs: map[string]listing{}}
	fsys = listed
	// Candidates are parsed as the runs composed next parse them, into the cache they share.
	pc := &composer{fsys: fsys, lim: lim.withDefaults(), parsed: k.parsed, rootPkgNames: k.pkgNames, ginFork: k.GinFork}
	fragments = map[string]bool{}
	inSet := map[string]bool{}
	for _, f := range files {
		inSet[f] = true
	}
	var roots, maybe []string
	text := map[string][]byte{} // the candidates' texts, read once
	// Primaries that choose no group themselves, only a sibling config to build on
	// (namesSibling): the groups, and any experiments, are the sibling's to choose.
	siblingOnly := map[string]bool{}
	for _, f := range files {
		if !isYAML(f) {
			continue
		}
		dir := path.Dir(f)
		b, err := fsys.ReadFile(f)
		if err != nil || !hasDefaultsList(b) {
			continue
		}
		if d, _ := pc.parse(f); !hydraShaped(d) {
			continue
		}
		text[f] = b
		if !hasGroupDir(listed, dir, b) {
			if choosesGroups(b) {
				maybe = append(maybe, f)
			} else if namesSibling(listed, dir, b) {
				maybe = append(maybe, f)
				siblingOnly[f] = true
			}
			continue
		}
		roots = append(roots, f)
	}
	// A group option with a defaults list of its own whose folder holds groups of its own
	// (a datamodule/datamodule.yaml listing loaders: and transforms:, which are folders beside
	// it) is no primary when a primary of a folder above names its group: it is composed inside
	// that primary's runs, where its interpolations (${paths.data_dir}) resolve.
	groups := map[string]map[string]bool{} // a primary's folder -> the groups its list names
	for _, r := range roots {
		g := groups[path.Dir(r)]
		if g == nil {
			g = map[string]bool{}
			groups[path.Dir(r)] = g
		}
		addListedGroups(g, text[r])
	}
	reached := reachedFolders(text)
	named := func(parent, folder string) bool { return groups[parent][folder] }
	reachedInto := func(parent, folder string) bool { return reached[parent][folder] }
	included := includedConfigs(text)
	// A config whose header places it in a package (`# @package eval.tofu`) below another
	// primary's folder is an option of a group of that primary's config directory, even when no
	// list there names its group (open-unlearning's configs/eval/tofu.yaml, chosen with
	// eval=tofu on the command line): composed alone, its ${paths.output_dir} finds none of the
	// keys the run's other groups set.
	rootAbove := map[string]bool{}
	for _, r := range roots {
		rootAbove[path.Dir(r)] = true
	}
	packaged := func(r string) bool {
		d, _ := pc.parse(r)
		if pkg, ok := header(d); !ok || pkg == "" || pkg == "_global_" {
			return false
		}
		return inGroupFolder(r, func(parent, _ string) bool { return rootAbove[parent] })
	}
	kept := roots[:0]
	for _, r := range roots {
		// (a config a script launches stays a run, though another loads an option beside it)
		if !inGroupFolder(r, named) && !(inGroupFolder(r, reachedInto) && !k.Launched[r]) && !included[r] && !packaged(r) {
			kept = append(kept, r)
		}
	}
	roots = kept
	rootDirs := map[string]bool{}
	for _, r := range roots {
		rootDirs[path.Dir(r)] = true
	}
	inConfigDir := func(parent, _ string) bool { return rootDirs[parent] }
	// A config that chooses group options (NeMo's `- .@model.encoder: base` or `- optional
	// tp_overlap@...:`) whose groups are not in the tree is a primary too, unless it lies
	// inside another primary's config directory (a group option with a defaults list of its own).
	for _, f := range maybe {
		if !inGroupFolder(f, inConfigDir) && !included[f] && !overridesOthers(text[f]) {
			roots = append(roots, f)
		}
	}
	// A primary config's hydra.searchpath folders hold options of its runs (searchpath.go).
	roots, searchDirs := searchRoots(pc, roots, text)
	// A base that sibling primaries build on and that needs a key only they set is a part of
	// their runs, not a run of its own (Cache.siblingBases).
	includers := siblingIncluders(roots, text)
	launcherIncluders(includers, roots, maybe, k.Launched)
	roots, bases, declined := k.siblingBases(fsys, roots, includers, lim)
	doc.SortStrings(roots)
	for _, r := range roots {
		rootDirs[path.Dir(r)] = true
	}
	// The primaries of each folder whose defaults lists have an experiment entry: they share
	// the folder's experiments (sharedExperiment).
	sharing := map[string][]string{}
	for _, r := range roots {
		if !siblingOnly[r] && hasExperimentEntry(text[r]) {
			sharing[path.Dir(r)] = append(sharing[path.Dir(r)], r)
		}
	}
	reach := map[string]map[string]bool{} // the groups each primary's defaults reach, once
	clean := map[string]bool{}            // whether a primary and an override compose cleanly, once

	for _, r := range roots {
		b := text[r]
		var choices []Spec
		if g := chosenOnLaunch(b); g != "" && !siblingOnly[r] {
			// Every launch names this group's option: each option is a run, and the primary
			// alone, which Hydra refuses, is none (mandatory.go).
			choices = launchChoices(fsys, r, g)
		}
		if len(choices) == 0 {
			runs = append(runs, Spec{Primary: r, Declined: declined[r]})
		}
		for _, s := range choices {
			s.Declined = declined[r]
			runs = append(runs, s)
		}
		// An experiment the defaults list has an entry for is chosen (experiment=x); one it
		// does not is added, as Hydra's experiment pattern runs it (+experiment=x; modulus'
		// lagrangian_mgn README): choosing a group no list has stops Hydra at start-up.
		choose := "+experiment="
		if hasExperimentEntry(b) {
			choose = "experiment="
		}
		if siblingOnly[r] || choose[0] == '+' && !commentNames(b, "experiment") {
			// state-spaces/s4's generate.yaml builds on config.yaml, which chooses the
			// experiment; adding one again would be refused (and no one runs it so).
			continue // a primary that never mentions experiments (an eval config) is not run with one
		}
		ents, err := fsys.ReadDir(path.Join(path.Dir(r), "experiment"))
		if err != nil {
			continue
		}
		bases := experimentBases(fsys, path.Join(path.Dir(r), "experiment"), ents)
		for _, e := range ents {
			if e.Dir || !isYAML(e.Name) {
				continue
			}
			name := strings.TrimSuffix(e.Name, path.Ext(e.Name))
			if bases[name] {
				continue // a base other experiments build on, composed in their runs
			}
			declined := false
			if choose[0] != '+' {
				pairing := experimentPairing{fsys: fsys, sharing: sharing[path.Dir(r)], text: text, launched: k.Launched, reach: reach, clean: clean}
				exp := path.Join(path.Dir(r), "experiment", e.Name)
				keep, unknown := pairing.sharedExperiment(r, exp)
				if !keep {
					continue // written for another primary of the folder, which Hydra runs it with
				}
				if !unknown && !k.composesBest(fsys, pairing, r, exp, choose+name, lim) {
					continue // it composes cleanly with another primary, not with this one
				}
				declined = unknown
			}
			runs = append(runs, Spec{Primary: r, Overrides: []string{choose + name}, Added: choose[0] == '+', Declined: declined})
		}
	}
	// Fragments: files under a root's directory that are not roots themselves.
	isRoot := map[string]bool{}
	for _, r := range roots {
		isRoot[r] = true
	}
	for _, f := range files {
		if isRoot[f] || !isYAML(f) {
			continue
		}
		if bases[f] || underAny(f, searchDirs) || inGroupFolder(f, inConfigDir) {
			fragments[f] = true
		}
	}
	runs = k.discoverCode(fsys, files, runs, fragments, lim) // code.go
	return runs, fragments
}

// ListedGroups returns the groups (first folders: `model/encoder` gives model) the defaults lists
// of files (slash paths of fsys, the YAML ones read) name, override entries included: a folder
// of a config directory no list names holds no group option Hydra is told to load.
func ListedGroups(fsys FS, files []string) map[string]bool {
	out := map[string]bool{}
	for _, f := range files {
		if !isYAML(f) {
			continue
		}
		if b, err := fsys.ReadFile(f); err == nil && hasDefaultsList(b) {
			addListedGroups(out, b)
		}
	}
	return out
}

// InListedGroup reports whether a folder of f's path (slashes) is a group of groups
// (ListedGroups'): f may be a group option Hydra loads.
func InListedGroup(f string, groups map[string]bool) bool {
	return slices.ContainsFunc(strings.Split(path.Dir(f), "/"), func(s string) bool { return groups[s] })
}

// includedConfigs returns the configs among texts' (hydra-shaped candidates, by path) that a
// defaults list of a group option in another folder loads by path (TEMOS's data option
// data/kit-mmm-xyz.yaml lists `- /transforms/xyz.yaml@transforms`): a part of the runs that
// option is composed in, whose interpolations name the run's keys, not a run of its own. A
// config outside every group folder that builds on another (runs/long.yaml listing /train, run
// with --config-name) leaves that one a run. A path from the config directory
// (a leading /) is tried from every folder above the loading config; a config of the same
// folder (`- base`, a sibling built on) may be a run itself and is not counted.
func includedConfigs(texts map[string][]byte) map[string]bool {
	groups := map[string]bool{} // the groups the defaults lists name
	for _, b := range texts {
		addListedGroups(groups, b)
	}
	out := map[string]bool{}
	for f, b := range texts {
		dir := path.Dir(f)
		if !InListedGroup(f, groups) {
			continue // no group option: a config of its own that builds on another (runs/long.yaml's /train)
		}
		for _, n := range defaultsNames(b) {
			if n == "_self_" {
				continue
			}
			n, _, _ = strings.Cut(n, "@")
			n = strings.TrimPrefix(strings.TrimSpace(n), "optional ")
			if !isYAML(n) {
				n += ".yaml"
			}
			var tries []string
			if rel, ok := strings.CutPrefix(n, "/"); ok {
				for d := dir; ; d = path.Dir(d) {
					tries = append(tries, path.Join(d, rel))
					if d == "." || d == "/" || d == "" {
						break
					}
				}
			} else {
				tries = append(tries, path.Join(dir, n))
			}
			for _, t := range tries {
				if _, ok := texts[t]; ok && t != f && path.Dir(t) != dir {
					out[t] = true
				}
			}
		}
	}
	return out
}

// overridesOthers reports a defaults list that overrides a group of the app (not Hydra's own)
// that none of its entries chooses, and that loads no other config by name that could: an
// experiment (hannah's experiment/pseudo_label.yaml, `- /augmentation: null` then `- override
// /pseudo_labeling: hard_labeling`), whose override Hydra would refuse in a run of its own
// ("No match in the defaults list"), so nobody runs it as a primary.
func overridesOthers(b []byte) bool {
	if len(defaultsNames(b)) > 0 {
		return false
	}
	chosen, overridden := map[string]bool{}, []string{}
	for _, k := range defaultsKeys(b) {
		gk := readGroupKey(k, "", "")
		switch {
		case strings.HasPrefix(gk.group+"/", "hydra/"):
		case gk.override:
			overridden = append(overridden, gk.okey)
		default:
			chosen[gk.okey] = true
		}
	}
	for _, g := range overridden {
		if !chosen[g] {
			return true
		}
	}
	return false
}

// siblingIncluders maps each root that other roots of its folder name in their defaults lists
// (`- cityscapes_segformer`: the config directory is the includer's folder, and Hydra merges
// the includer over it) to those roots (siblingBases). A name with a package moves the base's
// keys, and `optional` is for groups only: neither counts.
func siblingIncluders(roots []string, text map[string][]byte) map[string][]string {
	isRoot := map[string]bool{}
	for _, r := range roots {
		isRoot[r] = true
	}
	includers := map[string][]string{}
	for _, s := range roots {
		for _, n := range defaultsNames(text[s]) {
			n = strings.TrimPrefix(strings.TrimSpace(n), "/")
			if n == "_self_" || n == "" || strings.ContainsAny(n, "@ ") {
				continue
			}
			t := path.Join(path.Dir(s), n)
			if !isYAML(t) {
				t += ".yaml"
			}
			if t != s && isRoot[t] && !slices.Contains(includers[t], s) {
				includers[t] = append(includers[t], s)
			}
		}
	}
	return includers
}

// launcherIncluders adds to includers, for each primary found only by what its defaults list
// chooses (maybe: a config whose folder holds no groups) that no script of the repository
// launches, the primaries scripts do launch: NeMo-Framework-Launcher's
// auto_configurator/base_configs/llama3_8b.yaml lists `- _self_` and an optional tp_overlap
// group, but its generator reads it raw (yaml.safe_load) and the job runs it inside the
// launcher's config, which sets the ${base_results_dir} and ${data_dir} it names. siblingBases
// then keeps it a run only when it composes alone every key it names that those launched
// primaries set. With no launched primary (a folder, the browser) nothing is added.
func launcherIncluders(includers map[string][]string, roots, maybe []string, launched map[string]bool) {
	var ls []string
	for _, r := range roots {
		if launched[r] {
			ls = append(ls, r)
		}
	}
	if len(ls) == 0 {
		return
	}
	isRoot := map[string]bool{}
	for _, r := range roots {
		isRoot[r] = true
	}
	for _, m := range maybe {
		if !isRoot[m] || launched[m] {
			continue
		}
		for _, l := range ls {
			if path.Dir(l) == path.Dir(m) || strings.HasPrefix(path.Dir(m)+"/", path.Dir(l)+"/") {
				// a config in the launched primary's own config folder may be launched with
				// --config-name, which no decorator tells: it stays a run
				continue
			}
			if !slices.Contains(includers[m], l) {
				includers[m] = append(includers[m], l)
			}
		}
	}
}

// experimentPairing is what sharedExperiment reads of a folder whose primaries share its
// experiments: the tree, the primaries (sharing), their texts, those a script launches
// (Cache.Launched), and the groups each primary's defaults reach (filled as asked).
type experimentPairing struct {
	fsys     FS
	sharing  []string
	text     map[string][]byte
	launched map[string]bool
	reach    map[string]map[string]bool
	clean    map[string]bool // composesBest's verdicts, by primary and override
}

// hasExperimentEntry reports an entry of the experiment group (not an override entry) in the
// top-level defaults list b: the primary is run with experiment=x.
func hasExperimentEntry(b []byte) bool {
	for _, k := range defaultsKeys(b) {
		gk := readGroupKey(k, "", "")
		if g, _, _ := strings.Cut(gk.group, "/"); g == "experiment" && !gk.override {
			return true
		}
	}
	return false
}

// commentNames reports a comment of b that names word, or its plural ("experimental" does
// not): a key such as logger.aim.experiment is no mention of the experiment group.
func commentNames(b []byte, word string) bool {
	for _, l := range strings.Split(string(b), "\n") {
		h := strings.IndexByte(l, '#')
		for h >= 0 {
			i := strings.Index(l[h:], word)
			if i < 0 {
				break
			}
			h += i + len(word)
			if h == len(l) || l[h] == 's' && (h+1 == len(l) || !isLetter(l[h+1])) || !isLetter(l[h]) {
				return true
			}
		}
	}
	return false
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

// inGroupFolder reports whether f lies, at any depth, in a folder that is a group of the folder
// above it (group(parent, folder)).
func inGroupFolder(f string, group func(parent, folder string) bool) bool {
	for d := path.Dir(f); d != "." && d != "/" && d != ""; d = path.Dir(d) {
		if group(path.Dir(d), path.Base(d)) {
			return true
		}
	}
	return false
}

// reachedFolders are the folders (parent → folder) that a defaults list's name-only entry
// placing a config under a package (@pkg) reaches into from outside them: athn-nik/teach's
// data/babel-amass.yaml loads
// `/transforms/ysmpl.yaml@transforms`, so transforms/ is a folder of options (its rismpl.yaml,
// with a defaults list of its own, is no primary: composed alone, its ${transforms.*} and
// ${path.*} find none of the keys a run gives it). An absolute name is read from the config
// directory, which may be any folder above the file; a relative one from the file's own folder
// (its group's, hydra/core/default_element.py at v1.3.2). The folder marked is the one that
// holds the named config. A file naming a config of its own folder (an experiment on a base
// beside it) marks nothing, and a config a script launches stays a run (Discover).
func reachedFolders(texts map[string][]byte) map[string]map[string]bool {
	out := map[string]map[string]bool{}
	mark := func(f, parent, folder string) {
		if strings.HasPrefix(f, path.Join(parent, folder)+"/") {
			return
		}
		if out[parent] == nil {
			out[parent] = map[string]bool{}
		}
		out[parent][folder] = true
	}
	for f, b := range texts {
		for _, n := range defaultsNames(b) {
			n, pkg, _ := strings.Cut(n, "@")
			if pkg = strings.TrimSpace(pkg); pkg == "" || pkg == "_here_" || pkg == "_global_" {
				// Loaded into no package of its own (`/tasks/cls/train@_here_`, `/pretrain/common`):
				// a config extended, maybe a primary, not an option placed under a key.
				continue
			}
			rel, abs := strings.CutPrefix(strings.TrimPrefix(strings.TrimSpace(n), "optional "), "/")
			// the folder that holds the named config: /pretrain/model/vit marks pretrain/model,
			// not pretrain, whose own primary may reuse it
			dir := path.Dir(rel) // cleaned: only a leading .. is left of the dots
			if dir == "." || dir == ".." || strings.HasPrefix(dir, "../") {
				continue
			}
			up, folder := path.Dir(dir), path.Base(dir)
			if !abs {
				mark(f, path.Join(path.Dir(f), up), folder)
				continue
			}
			for d := path.Dir(f); ; d = path.Dir(d) {
				mark(f, path.Join(d, up), folder)
				if d == "." || d == "/" || d == "" {
					break
				}
			}
		}
	}
	return out
}

// addListedGroups adds to groups the first folder of each group b's top-level defaults list
// names (groupOfKey; an override entry's too).
func addListedGroups(groups map[string]bool, b []byte) {
	for _, k := range defaultsKeys(b) {
		groups[groupOfKey(k)] = true
	}
}

// groupOfKey is the first folder of a defaults-list entry's group (`optional /db@x` gives db,
// `model/encoder` gives model), read as the composer reads the key (readGroupKey).
func groupOfKey(k string) string {
	g, _, _ := strings.Cut(readGroupKey(k, "", "").group, "/")
	return g
}

func isYAML(p string) bool {
	e := strings.ToLower(path.Ext(p))
	return e == ".yaml" || e == ".yml"
}

// IsComposed reports whether a config text is composed by Hydra (it has a top-level defaults
// list); a declared run of any other file is a Single run.
func IsComposed(b []byte) bool { return hasDefaultsList(b) }

// isDefaultsKey reports a line that starts the top-level `defaults:` key, written with spaces
// before its colon too (modulus-sym's examples write `defaults :`, which YAML reads the same).
func isDefaultsKey(line string) bool {
	rest, ok := strings.CutPrefix(line, "defaults")
	return ok && strings.HasPrefix(strings.TrimLeft(rest, " "), ":")
}

// hasDefaultsList reports whether a YAML text has a top-level `defaults:` key.
func hasDefaultsList(b []byte) bool {
	for _, line := range strings.Split(string(b), "\n") {
		if isDefaultsKey(line) {
			return true
		}
	}
	return false
}

// choosesGroups reports whether a defaults list has a `group: option` entry that is not an
// override (an experiment's `override /trainer: ddp` changes another config's choice).
func choosesGroups(b []byte) bool {
	for _, k := range defaultsKeys(b) {
		if strings.HasPrefix(k, "#") || strings.HasPrefix(strings.TrimSpace(k), "override ") {
			continue
		}
		return true
	}
	return false
}

// namesSibling reports whether a defaults list has a plain entry (`- base`, no group) that
// names a config file beside this one: Hydra loads it from the same folder and merges this
// file over it (fish-speech's text2semantic_finetune.yaml lists `- base` and `- _self_`), so
// the file is a run of its own even with no group folders.
func namesSibling(fsys *listedOnce, dir string, b []byte) bool {
	ents, err := fsys.ReadDir(dir)
	if err != nil {
		return false
	}
	files := map[string]bool{}
	for _, e := range ents {
		if !e.Dir && isYAML(e.Name) {
			files[strings.TrimSuffix(e.Name, path.Ext(e.Name))] = true
		}
	}
	named := false
	for _, n := range defaultsNames(b) {
		if n != "_self_" && files[n] {
			named = true
		}
	}
	return named && !namedAsGroup(fsys, dir)
}

// namedAsGroup reports whether a folder is a config group of a config above it: a YAML file in
// one of the three folders above has a defaults entry whose group is the folder's path from
// there (lightning-hydra-template's callbacks/default.yaml lists `- model_checkpoint`, a
// sibling, and is the option train.yaml chooses with `- callbacks: default`). Such a file is a
// group option, composed inside that config's runs; an editor asking about one folder alone
// must not take it for a run of its own.
func namedAsGroup(fsys *listedOnce, dir string) bool {
	for f, i := dir, 0; i < 3 && f != "." && f != "/" && f != ""; f, i = path.Dir(f), i+1 {
		// f is dir or a folder above it, and a group of the folder holding f when a config
		// there names it.
		if GroupNamedIn(fsys, path.Dir(f), path.Base(f)) {
			return true
		}
	}
	return false
}

// GroupNamedIn reports whether a YAML config in folder dir of fsys has a defaults-list entry
// whose group is group (`- callbacks: default` names callbacks).
func GroupNamedIn(fsys FS, dir, group string) bool {
	ents, err := fsys.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, e := range ents {
		if e.Dir || !isYAML(e.Name) {
			continue
		}
		b, err := fsys.ReadFile(path.Join(dir, e.Name))
		if err != nil || !hasDefaultsList(b) {
			continue
		}
		for _, k := range defaultsKeys(b) {
			if groupOfKey(k) == group {
				return true
			}
		}
	}
	return false
}

// defaultsNames returns the entries of the top-level defaults list written without a colon
// (`- base`, `- _self_`).
func defaultsNames(b []byte) []string {
	var names []string
	for _, t := range defaultsItems(b) {
		if t != "" && !strings.ContainsAny(t, ":#{}[]") {
			names = append(names, strings.Trim(t, `"'`))
		}
	}
	return names
}

// defaultsKeys returns, in order, the text before the colon of each entry of the top-level
// defaults list that has one (`- trainer: ddp` gives "trainer", `- override /x: y` gives
// "override /x"; entries without a colon are left out).
func defaultsKeys(b []byte) []string {
	var keys []string
	for _, t := range defaultsItems(b) {
		if k, _, ok := strings.Cut(t, ":"); ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// hydraShaped reports whether a config's top-level defaults list is one Hydra could read: a
// list whose entries are names or single-key mappings to an option, a list of options or null
// (hydra/_internal/defaults_list.py). A Jekyll site's _config.yml has a `defaults:` list of
// scope/values mappings, which no Hydra launch reads.
func hydraShaped(d *doc.Document) bool {
	if d == nil {
		return false
	}
	l := d.Root.Get("defaults")
	if l == nil || l.Kind != doc.Seq {
		return false
	}
	for _, e := range l.Children {
		if e.Kind == doc.Map && len(e.Children) != 1 || e.Kind == doc.Map && e.Children[0].Kind == doc.Map {
			return false
		}
	}
	return true
}

// defaultsItems returns the text of each entry of the top-level defaults list, trimmed, read
// line by line (no YAML parse: discovery reads many files); lines that are no list entry are
// left out.
func defaultsItems(b []byte) []string {
	var items []string
	inList := false
	for _, line := range strings.Split(string(b), "\n") {
		if isDefaultsKey(line) {
			if flow, ok := flowItems(line); ok {
				return flow // `defaults: [_self_, data: d]` on its line
			}
			inList = true
			continue
		}
		if !inList {
			continue
		}
		if line != "" && line[0] != ' ' && line[0] != '-' && line[0] != '#' {
			break
		}
		t, item := strings.CutPrefix(strings.TrimSpace(line), "-")
		if !item {
			// Not an entry of a list (a GitHub workflow's `defaults: run: shell: bash` is a
			// mapping, which Hydra would refuse as a defaults list).
			continue
		}
		items = append(items, strings.TrimSpace(t))
	}
	return items
}

// flowItems reads a defaults list written in flow style on the key's own line (`defaults:
// [_self_, data: d, {exp: e}]`) into its entries' texts, braces dropped; ok is false when the
// line holds no complete list.
func flowItems(line string) (items []string, ok bool) {
	_, v, _ := strings.Cut(line, ":")
	v = strings.TrimSpace(v)
	if i := strings.Index(v, " #"); i >= 0 {
		v = strings.TrimSpace(v[:i])
	}
	if !strings.HasPrefix(v, "[") || !strings.HasSuffix(v, "]") {
		return nil, false
	}
	depth, start := 0, 1
	for i := 1; i < len(v); i++ {
		switch v[i] {
		case '[', '{':
			depth++
		case ']', '}':
			if depth > 0 {
				depth--
				continue
			}
			fallthrough
		case ',':
			if depth == 0 {
				if t := strings.TrimSpace(strings.Trim(strings.TrimSpace(v[start:i]), "{}")); t != "" {
					items = append(items, t)
				}
				start = i + 1
			}
		}
	}
	return items, true
}

// hasGroupDir reports whether the directory holds a folder named by a group of the defaults
// list (a `group: option` entry), which tells a primary config from a group option that has
// its own defaults list (callbacks/default.yaml lists configs of its own folder), or a config
// the list loads by path from one of its folders (loadsSubfolderConfig).
func hasGroupDir(fsys *listedOnce, dir string, b []byte) bool {
	dirs := fsys.subdirs(dir)
	if len(dirs) == 0 {
		return false
	}
	for _, k := range defaultsKeys(b) {
		if dirs[groupOfKey(k)] {
			return true
		}
	}
	return loadsSubfolderConfig(fsys, dir, dirs, b)
}

// loadsSubfolderConfig reports a defaults entry with no group that names, by path, a config
// file in a folder of dir (HumanoidVerse's base.yaml lists `- base/hydra` and chooses its
// groups on the command line, +exp=locomotion): a primary's entry path is from the config
// root, its own folder (Hydra v1.3.2 hydra/_internal/defaults_list.py:681 makes the primary
// ConfigDefault(path=config_name), whose group path is "" at the root; :541 gives it to each
// entry as parent_base_dir; hydra/core/default_element.py:376-392, get_config_path, then
// loads `base/hydra` and `/base/hydra` alike as base/hydra from the root). A name of the
// folder itself (`- base`, a sibling) is namesSibling's.
func loadsSubfolderConfig(fsys *listedOnce, dir string, dirs map[string]bool, b []byte) bool {
	for _, n := range defaultsNames(b) {
		n, _, _ = strings.Cut(n, "@")
		n = strings.TrimPrefix(strings.TrimPrefix(strings.TrimSpace(n), "optional "), "/")
		sub, file := path.Split(n)
		if sub == "" || !dirs[strings.Split(sub, "/")[0]] {
			continue
		}
		if !isYAML(file) {
			file += ".yaml"
		}
		ents, err := fsys.ReadDir(path.Join(dir, sub))
		if err == nil && slices.ContainsFunc(ents, func(e Entry) bool { return !e.Dir && e.Name == file }) {
			return true
		}
	}
	return false
}

// listedOnce is an FS whose folders are listed once (Discover's): the listing and the set of
// its subfolders are kept.
type listedOnce struct {
	FS
	dirs map[string]listing
}

type listing struct {
	ents    []Entry
	err     error
	subdirs map[string]bool // nil until subdirs asks
}

// RootName passes on the name of the wrapped tree's folder (Named), which gin includes that
// start with it need.
func (l *listedOnce) RootName() string {
	if n, ok := l.FS.(Named); ok {
		return n.RootName()
	}
	return ""
}

func (l *listedOnce) ReadDir(name string) ([]Entry, error) {
	d, ok := l.dirs[name]
	if !ok {
		d.ents, d.err = l.FS.ReadDir(name)
		l.dirs[name] = d
	}
	return d.ents, d.err
}

// subdirs is the set of dir's subfolders (empty when it cannot be listed), made once.
func (l *listedOnce) subdirs(dir string) map[string]bool {
	ents, err := l.ReadDir(dir)
	d := l.dirs[dir]
	if d.subdirs == nil {
		d.subdirs = map[string]bool{}
		if err == nil {
			for _, e := range ents {
				if e.Dir {
					d.subdirs[e.Name] = true
				}
			}
		}
		l.dirs[dir] = d
	}
	return d.subdirs
}

// experimentBases are the experiments that other experiments of dir name in their defaults
// lists (riemannian-score-sde's fire.yaml: `- earth_data`, a base it builds on, which Hydra
// reads from the same group; or `- /experiment/earth_data`): shared parts, composed in the
// runs of the experiments that include them, not launched alone.
func experimentBases(fsys FS, dir string, ents []Entry) map[string]bool {
	return optionBases(fsys, dir, "experiment", ents)
}

// IsOptionBase reports whether another option of the group folder of f (a slash path of fsys,
// in group folder group) names it in its defaults list (optionBases): SPA's
// callbacks/model_checkpoint.yaml, which callbacks/default.yaml lists and overrides, is a part
// of that option, not an option launched alone.
func IsOptionBase(fsys FS, f, group string) bool {
	ents, err := fsys.ReadDir(path.Dir(f))
	if err != nil {
		return false
	}
	return optionBases(fsys, path.Dir(f), group, ents)[strings.TrimSuffix(path.Base(f), path.Ext(f))]
}

// optionBases are the options of group (the folder dir, listed as ents) that other options of
// it name in their defaults lists, by name or as /group/name: experimentBases for any group.
func optionBases(fsys FS, dir, group string, ents []Entry) map[string]bool {
	var out map[string]bool
	for _, e := range ents {
		if e.Dir || !isYAML(e.Name) {
			continue
		}
		b, err := fsys.ReadFile(path.Join(dir, e.Name))
		if err != nil {
			continue
		}
		self := strings.TrimSuffix(e.Name, path.Ext(e.Name))
		for _, t := range defaultsItems(b) {
			t = strings.Trim(strings.TrimSpace(strings.TrimPrefix(t, "optional ")), `"'`)
			if strings.Contains(t, ":") {
				continue
			}
			name := strings.TrimPrefix(t, "/"+group+"/")
			if isYAML(name) {
				name = strings.TrimSuffix(name, path.Ext(name)) // `- default.yaml` (4D-Humans' experiments)
			}
			if name == t && strings.HasPrefix(t, "/") || strings.Contains(name, "/") || name == self || name == "_self_" {
				continue
			}
			if out == nil {
				out = map[string]bool{}
			}
			out[name] = true
		}
	}
	return out
}
