package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/dialect"
)

// The repository's pins: the framework versions a file is linted for when the config file's
// [target] does not say (knowledge.md). The engine is pure, so the driver reads them: from the
// linted file's folder upwards, the nearest folder whose pin files name the package wins.

// pinPackages are the packages whose versions the knowledge tables distinguish.
// pytorch-lightning pins count for lightning (the same source and version numbers since 2.0);
// NeMo is published as nemo_toolkit (normalized: nemo-toolkit).
var pinPackages = []string{"transformers", "trl", "deepspeed", "axolotl", "llamafactory", "lightning", "nemo-toolkit", "llm-foundry", "torchtune", "litgpt"}

// hydraPin is a package whose pin changes how a repository's configs are composed rather than
// which knowledge table applies: hydra-core before 1.1 composes as Hydra 1.0 does
// (lint.Options.HydraLegacy; withPins).
const hydraPin = "hydra-core"

// tracked reports a package whose pins folderPins reads: one of pinPackages, hydraPin, or a
// dependency whose pin or cap bounds the release of one that installs with it (floorBounds:
// torch for Lightning, huggingface-hub for transformers).
func tracked(pkg string) bool {
	return slices.Contains(pinPackages, pkg) || pkg == hydraPin || slices.ContainsFunc(floorBounds, func(b floorBound) bool { return b.dep == pkg })
}

// pinFiles are read in this order in each folder, then its requirement*.txt (requirements.txt,
// and the singular some projects write), then its
// Dockerfile, then its install scripts (installScripts); the first that pins a package wins. setup.py's requirements are string literals
// ("transformers==4.52.3" in install_requires or a _deps list, as open-r1 pins them); the file
// is read as text, never run. A Dockerfile pins in its `pip install` lines (flash-attention's
// training/Dockerfile installs pytorch-lightning==1.8.6, its only pin), and in the axolotl
// image it builds FROM (imagePins). A package any of them
// installs from git is pinned by the release tag it names, or else linted at no version
// (parseGitPins).
var pinFiles = []string{"uv.lock", "poetry.lock", "pyproject.toml", "setup.cfg", "setup.py", "environment.yml"}

// pinOf is the pin of pkg nearest dir (nearestPin), else the one of the environment the
// repository documents, which may live in a folder of its own beside the configs (pdearena's
// docker/environment.yml, pytorch-lightning==1.7.7: envFolderPin). root caches the repository's
// top across calls ("" not looked for yet, "-" none).
func pinOf(dir, pkg string, root *string) (lint.Target, bool) {
	if t, _, found := nearestPin(dir, pkg); found {
		return t, true
	}
	if *root == "" {
		if *root = repoRoot(dir); *root == "" {
			*root = "-" // no repository: looked for once
		}
	}
	if *root == "-" {
		return lint.Target{}, false
	}
	return envFolderPin(*root, pkg)
}

// withPins fills o.Targets with the pins found from file upwards for packages [target] left open.
func withPins(o lint.Options, file string) lint.Options {
	abs, err := filepath.Abs(file)
	if err != nil {
		return o
	}
	dir := filepath.Dir(abs)
	root := ""
	for _, pkg := range pinPackages {
		if _, ok := o.Targets[pkg]; ok {
			continue
		}
		if t, found := pinOf(dir, pkg, &root); found {
			if o.Targets == nil {
				o.Targets = map[string]lint.Target{}
			} else if len(o.Targets) > 0 {
				o.Targets = cloneTargets(o.Targets)
			}
			o.Targets[pkg] = t
		}
	}
	if _, _, ok := nearestPin(dir, ginFork); ok {
		o.GinFork = true
	}
	// A hydra-core pin (or cap) below 1.1 composes as Hydra 1.0 does: zhejz/carla-roach's
	// environment.yml installs hydra-core==1.0.3, whose defaults list merges a group's repeated
	// entries in turn (compose's sameChoice).
	if t, found := pinOf(dir, hydraPin, &root); found {
		if v := dialect.ParseVersion(t.Version); v != nil && dialect.CompareVersions(v, []int{1, 1}) < 0 {
			o.HydraLegacy = true
		}
	}
	return o
}

// nearestPin is the pin of key (a package of pinPackages, or ginFork) in the nearest folder from
// dir upwards whose files pin it, and that folder.
func nearestPin(dir, key string) (t lint.Target, folder string, ok bool) {
	for d := dir; ; d = filepath.Dir(d) {
		if t, ok := folderPins(d)[key]; ok {
			return t, d, true
		}
		if filepath.Dir(d) == d {
			return lint.Target{}, "", false
		}
	}
}

// ginFork is the key of folderPins' map saying a pin file of the folder installs
// HorizonRobotics' fork of gin-config (ALF's setup.py:
// `gin-config@git+https://github.com/HorizonRobotics/gin-config.git`), whose parser reads more
// than upstream gin's (lint.Options.GinFork): its gin files are read in that grammar. Not a
// package of pinPackages: no knowledge table has its versions.
const ginFork = "gin-config (HorizonRobotics)"

// ginForkURL is a git install of that fork.
var ginForkURL = regexp.MustCompile(`(?i)git\+[a-z]+://(?:[^\s"'@/#]+@)?github\.com/HorizonRobotics/gin-config(?:\.git)?/?(?:[@#\s"';&|]|$)`)

// envFolderPin is the pin of pkg in the first of root's envFolders that pins it, not counting
// Dockerfiles: an image there may serve or deploy the model rather than train it (a FastAPI
// image pinning an older transformers); only the environment files say what the project
// installs to train.
func envFolderPin(root, pkg string) (lint.Target, bool) {
	for _, sub := range envFolders {
		if t, ok := folderPins(filepath.Join(root, sub))[pkg]; ok && !strings.HasPrefix(t.Source, "Dockerfile") {
			t.Source = sub + "/" + t.Source // "docker/environment.yml pins 1.7.7"
			return t, true
		}
	}
	return lint.Target{}, false
}

// envFolders are the folders at a repository's root, in this order, whose pin files (not their
// Dockerfiles) count for every config of the repository when no folder from the config upwards
// pins the package: where projects keep the environment they document (a conda environment,
// requirements).
var envFolders = []string{"docker", "env", "envs", "environment", "environments", "requirements"}

func cloneTargets(m map[string]lint.Target) map[string]lint.Target {
	out := make(map[string]lint.Target, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// installScriptName is a shell script that sets up the training environment: install.sh,
// setup.sh, install_env.sh, setup_environment.sh, install_deps.sh, env_setup.sh,
// conda_install.sh; not one that prepares data or another environment (setup_data.sh,
// install_eval_deps.sh).
var installScriptName = regexp.MustCompile(`(?i)^(?:(?:install|setup)(?:[_-](?:env|environment|deps|dependencies|requirements|conda))?|(?:env|environment|conda)(?:[_-](?:setup|install))?)\.sh$`)

// installLine is a line of a script that installs packages (pip, conda, mamba, uv), read for
// pins after backslash-continued lines are joined: a version a script writes elsewhere (a
// wget URL, an echo) pins nothing.
var installLine = regexp.MustCompile(`\b(?:pip3?|conda|mamba|micromamba|uv[ \t]+pip)[ \t]+install\b`)

// installLines is a script's install lines, the rest blanked.
func installLines(text string) string {
	lines := strings.Split(joinContinued(text), "\n")
	for i, l := range lines {
		if !installLine.MatchString(l) {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// installScripts are the folder's environment set-up scripts (installScriptName), by name: read
// after its Dockerfile, their `pip install` lines pin as a Dockerfile's do (divelab/AIRS's
// OpenBio/ATGC_Gen/install.sh installs pytorch_lightning==1.8.6 and OpenPDE/SineNet/setup.sh
// pytorch-lightning==1.7.7, pins no other file there states).
func installScripts(dir string) []string {
	all, _ := filepath.Glob(filepath.Join(dir, "*.sh"))
	var out []string
	for _, p := range all {
		if name := filepath.Base(p); installScriptName.MatchString(name) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// folderPins reads one folder's pin files once.
func folderPins(dir string) map[string]lint.Target {
	cache := &repo.Load().pins
	if v, ok := cache.Load(dir); ok {
		return v.(map[string]lint.Target)
	}
	out := map[string]lint.Target{}
	for _, v := range vendored {
		if _, done := out[v.pkg]; done {
			continue
		}
		if ver, src := vendoredVersion(dir, v.marker, v.file); ver != "" {
			out[v.pkg] = lint.Target{Version: ver, Source: src + " says " + ver, Vendored: true}
		}
	}
	names := append([]string(nil), pinFiles...)
	names = append(names, condaFiles(dir)...)
	if reqs, _ := filepath.Glob(filepath.Join(dir, "requirement*.txt")); len(reqs) > 0 {
		sort.Strings(reqs)
		for _, r := range reqs {
			names = append(names, filepath.Base(r))
		}
	}
	names = append(names, "Dockerfile")
	names = append(names, installScripts(dir)...)
	if _, ok := out["llamafactory"]; ok {
		// A copy of LLaMA-Factory checks its dependencies at start-up (extras/misc.py
		// check_dependencies, v0.9.1: require_version("transformers>=4.41.2,<=4.46.1")): its
		// bounds are the copy's, read like a requirement file's after the folder's own.
		names = append(names, lfDependencyChecks)
	}
	texts := make([]string, len(names))
	for i, name := range names {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil || len(data) > 8<<20 {
			continue
		}
		texts[i] = string(data)
		if isCondaName(name) && !condaDeps.MatchString(texts[i]) {
			texts[i] = "" // named like one, but no conda environment
			continue
		}
		if strings.HasSuffix(name, ".sh") {
			// A set-up script pins only by what it installs: every reader below (versions,
			// git installs, bounds) sees its install lines alone, not a URL it downloads or
			// a line it echoes.
			texts[i] = installLines(texts[i])
		}
		for pkg, v := range parsePins(name, texts[i]) {
			if _, ok := out[pkg]; ok {
				continue
			}
			t := lint.Target{Version: v, Source: name + " pins " + v}
			if dialect.PreRelease(v) {
				// A development build (a lock of a git install: 4.50.0.dev0) lies between two
				// releases, and the rules that compare versions read only the numbers: no
				// version, as for a git install.
				t = lint.Target{Version: gitVersion, Source: name + " locks " + pkg + " " + v + ", a development build"}
			}
			out[pkg] = t
		}
		for pkg, t := range parseGitPins(name, texts[i]) {
			if _, ok := out[pkg]; !ok {
				out[pkg] = t
			}
		}
		if _, ok := out[ginFork]; !ok && ginForkURL.MatchString(requirementsOnly(name, texts[i])) {
			out[ginFork] = lint.Target{Version: gitVersion, Source: name + " installs HorizonRobotics' fork of gin-config"}
		}
	}
	// An upper bound counts only where no file of the folder pins the package; one under
	// environment markers only where no file bounds it unmarked.
	for i, name := range names {
		for pkg, c := range parseCaps(name, texts[i]) {
			if _, ok := out[pkg]; !ok {
				out[pkg] = c
			}
		}
	}
	var plain []string // each file's unconditional requirements, for markedCaps' packages
	for i, name := range names {
		for pkg, c := range markedCaps(name, texts[i]) {
			if plain == nil {
				plain = make([]string, len(names))
				for j, n := range names {
					if texts[j] != "" && !strings.HasSuffix(n, ".lock") {
						plain[j] = requirementsOnly(n, texts[j])
					}
				}
			}
			// another file of the folder requiring the package unmarked leaves it open
			unmarked := slices.ContainsFunc(plain, func(t string) bool { return requiresPackage(t, pkg) })
			if _, ok := out[pkg]; !ok && !unmarked {
				out[pkg] = c
			}
		}
	}
	cache.Store(dir, out)
	return out
}

// lfDependencyChecks is the file of a copy of LLaMA-Factory that bounds its dependencies.
const lfDependencyChecks = "src/llamafactory/extras/misc.py"

// vendored are the frameworks whose own source a repository may carry (LIMO and SkyThought copy
// LLaMA-Factory into a folder of theirs, with its examples): in a folder that holds the
// package's source (marker), its version is that source's, read from the marker's
// `__version__ = "..."` or `VERSION = "..."` line, or else from file (trl and axolotl keep it in
// a VERSION file at the top of their repositories since they read it back with
// importlib.metadata; torchtune in version.txt). It comes before the folder's pins: it is the code
// that runs.
var vendored = []struct{ pkg, marker, file string }{
	{"llamafactory", "src/llamafactory/extras/env.py", ""},
	{"llamafactory", "src/llamafactory/cli.py", ""}, // 0.7.x wrote VERSION there
	// Before 0.8.0 the package was llmtuner: src/llmtuner/__init__.py says `__version__ =
	// "0.7.0"` (:10@v0.7.0; "0.0.9" at :6@v0.0.9), and v0.7.1 moved it to src/llmtuner/cli.py
	// (`VERSION = "0.7.1"`, :26@v0.7.1; __init__.py:6 `__version__ = VERSION`). Tongyaya's
	// Hbb_bakery carries 0.7.1.dev0 there, older than every tag the table read.
	{"llamafactory", "src/llmtuner/__init__.py", ""},
	{"llamafactory", "src/llmtuner/cli.py", ""},
	{"llm-foundry", "llmfoundry/_version.py", ""},
	{"llm-foundry", "llmfoundry/__init__.py", ""}, // before _version.py (0.4.0: superagi's fork)
	{"transformers", "src/transformers/__init__.py", ""},
	{"trl", "trl/__init__.py", "VERSION"},
	{"axolotl", "src/axolotl/__init__.py", "VERSION"},
	// torchtune's source says `__version__ = ""` (torchtune/__init__.py:7 at v0.2.0-v0.6.1 and
	// bd2a0fc) and its pyproject.toml reads the version from it ({attr =
	// "torchtune.__version__"}, :55 at v0.2.0, :64 at v0.5.0, :85 at bd2a0fc); the release build's
	// pre-script writes BUILD_VERSION there (.github/scripts/pre_build_script.sh:3-6), which
	// pytorch/test-infra's pkg-helpers take from version.txt at the root
	// (tools/pkg-helpers/pytorch_pkg_helpers/version.py:56 @61a7757). So a checkout or fork of
	// torchtune (janhq's says 0.5.0) is the release its version.txt names; main bumps it to the
	// next release at the branch cut (0.7.0 at 29d09ee, before c8b985a added validation).
	{"torchtune", "torchtune/__init__.py", "version.txt"},
}

var versionLine = regexp.MustCompile(`(?m)^(?:__version__|VERSION)\s*=\s*["']([0-9][0-9A-Za-z.+\-]*)["']`)

// vendoredVersion is the version of the package whose source marker is under dir, and the file
// it was read from (slash-separated, relative to dir); "" when dir holds no such source or
// its version cannot be read.
func vendoredVersion(dir, marker, file string) (string, string) {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(marker)))
	if err != nil || len(data) > 1<<20 {
		return "", ""
	}
	if m := versionLine.FindSubmatch(data); m != nil {
		return string(m[1]), marker
	}
	if file == "" {
		return "", ""
	}
	data, err = os.ReadFile(filepath.Join(dir, file))
	if v := strings.TrimSpace(string(data)); err == nil && len(data) < 64 && len(dialect.ParseVersion(v)) > 0 {
		return v, file
	}
	return "", ""
}

var (
	// pkg==1.2.3, pkg~=1.2, pkg===1.2 in requirement lists (requirements.txt, pyproject's
	// dependencies, setup.cfg's install_requires, setup.py's requirement strings,
	// environment.yml's pip list); a lower bound
	// (>=) is not a pin. Extras (pkg[torch]==) are allowed, and so is a specifier in
	// parentheses, which PEP 508 allows (`specifier = LEFT_PARENTHESIS WS? version_many WS?
	// RIGHT_PARENTHESIS | WS? version_many WS?`, packaging's src/packaging/_parser.py:251-255
	// at 26.3, which pip vendors) and Poetry 2 writes in [project] dependencies
	// ("requests (>=2.23.0,<3.0.0)", python-poetry/poetry docs/dependency-specification.md):
	// Ice-Moon-28/Mini-R1's pyproject.toml pins "transformers (==4.48.1)". rangePin, capPin,
	// markedRequirement and reqAny allow it too.
	reqPin = regexp.MustCompile(`(?m)(?:^|["'\s])([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?\s*(?:\(\s*)?(?:===?|~=)\s*v?([0-9]+(?:\.[0-9]+)*)`)
	// pkg>=4.46.1,<=4.46.1 (either order): bounds that meet are a pin (parler-tts's setup.py).
	rangePin = regexp.MustCompile(`(?m)(?:^|["'\s])([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?\s*(?:\(\s*)?(?:>=|<=)\s*v?([0-9]+(?:\.[0-9]+)*)\s*,\s*(?:>=|<=)\s*v?([0-9]+(?:\.[0-9]+)*)`)
	// Poetry's [tool.poetry.dependencies]: pkg = "4.46.0" or "^4.46" or {version = "4.46"}.
	poetryPin = regexp.MustCompile(`(?m)^([A-Za-z0-9_.\-]+)\s*=\s*(?:\{[^}\n]*version\s*=\s*)?"[=^~]*([0-9]+(?:\.[0-9]+)*)"`)
	// pkg<4.46 or pkg>=4.41.2,<4.46 (any other bounds before it): an upper bound, which the
	// newest release may be past (360-LLaMA-Factory's transformers>=4.41.2,<4.46).
	capPin = regexp.MustCompile(`(?m)(?:^|["'\s])([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?\s*(?:\(\s*)?(?:(?:>=|>|!=|==|~=)\s*v?[0-9][0-9A-Za-z.*+!]*\s*,\s*)*<(=?)\s*v?([0-9]+(?:\.[0-9]+)*)((?:\.?(?:a|b|rc|dev|post)[0-9]*)*)`)
	// A conda environment's own dependency, pkg=1.5.10 or, as `conda env export` writes it,
	// pkg=1.5.10=pyhd8ed1ab_0 (conda's MatchSpec: a single '=' and a whole version, with the
	// build string after a second '='): zhejz/TrafficBots' environment.yml pins
	// pytorch-lightning=1.5.10=pyhd8ed1ab_0. A shorter version (pkg=1.5, every 1.5.x) is no pin.
	condaPin = regexp.MustCompile(`(?m)^[ \t]*-[ \t]*([A-Za-z0-9_.\-]+)[ \t]*=[ \t]*([0-9]+\.[0-9]+\.[0-9]+)(?:=[^\s=]+)?[ \t]*$`)
	// uv.lock and poetry.lock: [[package]] name = "pkg" followed by version = "x", a
	// development build's suffix kept (a git install locks 4.50.0.dev0, which comes before
	// 4.50.0: Knowledge's bracket reads it so).
	lockPin = regexp.MustCompile(`(?m)^name = "([A-Za-z0-9_.\-]+)"\s*\nversion = "([0-9]+(?:\.[0-9]+)*(?:\.?(?:a|b|rc|dev)[0-9]*)?)`)
)

// parsePins returns package -> pinned version for the packages trainlint tracks.
func parsePins(name, text string) map[string]string {
	out := map[string]string{}
	add := func(ms [][]string) {
		for _, m := range ms {
			pkg := normalPackage(m[1])
			if !slices.Contains(pinPackages, pkg) && strings.ContainsAny(m[0], "~^") {
				// torch~=1.8 or Poetry's "^1.8.1" allows releases up to 2, huggingface-hub~=0.28
				// up to 1: no bound
				continue
			}
			if _, ok := out[pkg]; !ok && tracked(pkg) {
				out[pkg] = m[2]
			}
		}
	}
	if strings.HasSuffix(name, ".lock") {
		add(lockPin.FindAllStringSubmatch(text, -1))
		return out
	}
	text = requirementsOnly(name, text)
	add(reqPin.FindAllStringSubmatch(text, -1))
	var met [][]string
	for _, m := range rangePin.FindAllStringSubmatch(text, -1) {
		if m[2] == m[3] {
			met = append(met, m[:3])
		}
	}
	add(met)
	if name == "environment.yml" || isCondaName(name) {
		add(condaPin.FindAllStringSubmatch(text, -1))
	}
	if name == "pyproject.toml" {
		add(poetryPin.FindAllStringSubmatch(text, -1))
	}
	return out
}

// parseGitPins returns package -> target for the tracked packages the file installs from a git
// repository: a direct reference (`transformers @ git+https://github.com/huggingface/transformers.git@336dc69`,
// R1-V's setup.py) or a bare URL (`pip install git+https://github.com/huggingface/trl.git@v0.16.0`,
// the package named by #egg= or else by the repository). A release tag (v4.49.0) pins its
// version; a commit, a branch or no ref at all installs a version the knowledge tables cannot
// place, which the target says with a Version that is not one (gitVersion): the rules that
// depend on the version then stay silent (lint.Target).
func parseGitPins(name, text string) map[string]lint.Target {
	if strings.HasSuffix(name, ".lock") {
		return nil
	}
	out := map[string]lint.Target{}
	if name == "Dockerfile" {
		imagePins(text, out)
	}
	if name == "pyproject.toml" {
		// Poetry's and uv's git sources: pkg = { git = "https://...", tag|rev|branch = "..." }.
		for _, m := range tomlGit.FindAllStringSubmatch(text, -1) {
			ref := ""
			if r := tomlRef.FindStringSubmatch(m[2]); r != nil {
				ref = r[1]
			}
			addGitPin(out, name, m[1], ref)
		}
	}
	if !strings.Contains(text, "git+") {
		return out
	}
	for _, m := range gitRef.FindAllStringSubmatch(requirementsOnly(name, text), -1) {
		pkg := m[1] // pip takes an explicit name over #egg=
		if e := eggName.FindStringSubmatch(m[4]); pkg == "" && e != nil {
			pkg = e[1]
		} else if pkg == "" {
			pkg = m[2]
		}
		addGitPin(out, name, pkg, m[3])
	}
	return out
}

// axolotlImage is a Dockerfile's FROM of axolotl's published image (axolotlai/axolotl,
// axolotlai/axolotl-cloud, the older winglian/axolotl), with its tag.
var axolotlImage = regexp.MustCompile(`(?mi)^\s*FROM\s+(?:--\S+\s+)*(?:\S+/)?(?:axolotlai|winglian)/axolotl(?:-cloud)?:(\S+)`)

// imagePins reads the axolotl version a Dockerfile's base image holds: a release tag
// (0.12.0-py3.11-cu126-2.7.1) pins that release; main-… (built from the main branch) or any other
// tag installs a build the knowledge tables cannot place, which gitVersion says.
func imagePins(text string, out map[string]lint.Target) {
	m := axolotlImage.FindStringSubmatch(text)
	if m == nil {
		return
	}
	tag := strings.TrimPrefix(m[1], "v")
	ver, _, _ := strings.Cut(tag, "-")
	if p := dialect.ParseVersion(ver); len(p) >= 2 && strings.Count(ver, ".") >= 1 {
		out["axolotl"] = lint.Target{Version: ver, Source: "Dockerfile's image axolotl:" + m[1] + " holds " + ver}
		return
	}
	out["axolotl"] = lint.Target{Version: gitVersion, Source: "Dockerfile's image axolotl:" + m[1] + ", a build of no release"}
}

// addGitPin records that file name installs the package named n from git at ref ("" for the
// default branch), unless the file did so already or the package is not tracked.
func addGitPin(out map[string]lint.Target, name, n, ref string) {
	pkg := gitPackage(n)
	if _, seen := out[pkg]; seen || !slices.Contains(pinPackages, pkg) {
		return
	}
	if v := strings.TrimPrefix(ref, "v"); releaseTag.MatchString(v) {
		out[pkg] = lint.Target{Version: v, Source: name + " installs " + pkg + " " + ref + " from git"}
		return
	}
	what := "the default branch"
	if ref != "" {
		what = ref
		if len(what) > 12 {
			what = what[:12]
		}
	}
	out[pkg] = lint.Target{Version: gitVersion, Source: name + " installs " + pkg + " from git (" + what + ")"}
}

// gitVersion is the target Version of a package installed from a git commit or branch: not a
// version, so no release's facts are claimed of it.
const gitVersion = "git"

var (
	// gitRef is a requirement installed from git: an optional `name[extras] @ ` (1), the
	// repository's name (2), the ref after @ (3) and the URL's fragment (4: #egg=name,
	// #subdirectory=...).
	gitRef = regexp.MustCompile(`(?:([A-Za-z0-9_.\-]+)(?:\[[^\]]*\])?\s*@\s*)?git\+[a-z]+://(?:[^\s"'@/#]+@)?[^\s"'@#]*/([A-Za-z0-9_.\-]+?)(?:\.git)?/?(?:@([^\s"'#;&|]+))?(#[^\s"';&|]*)?(?:[\s"';&|]|$)`)
	// tomlGit is a TOML dependency table with a git source (1: the package, 2: the table).
	tomlGit = regexp.MustCompile(`(?m)^\s*["']?([A-Za-z0-9_.\-]+)["']?\s*=\s*(\{[^}\n]*\bgit\s*=\s*"[^"\n]*"[^}\n]*\})`)
	// tomlRef is the tag, rev or branch of such a table.
	tomlRef = regexp.MustCompile(`\b(?:tag|rev|branch)\s*=\s*"([^"\n]+)"`)
	// eggName is the package a URL's fragment names.
	eggName = regexp.MustCompile(`egg=([A-Za-z0-9_.\-]+)`)
	// releaseTag is a release's version as its tag names it (4.49.0), not a pre-release or a
	// release with models added on top (v4.49.0-Gemma-3).
	releaseTag = regexp.MustCompile(`^[0-9]+(?:\.[0-9]+)+$`)
)

// gitPackage is the tracked package a git repository's or #egg= name stands for.
func gitPackage(n string) string {
	switch pkg := normalPackage(n); pkg {
	case "llama-factory":
		return "llamafactory"
	case "nemo":
		return "nemo-toolkit"
	default:
		return pkg
	}
}

// parseCaps returns package -> target for the packages trainlint tracks whose requirement has
// an upper bound (pkg<4.46, pkg>=4.41,<4.46, pkg<=4.45.2): the file is linted for the newest
// version the bound allows, which a repository capped below a major release (a key deprecated
// or a default changed in transformers 5) never runs (capTarget). A requirement with an
// environment marker (`; python_version < "3.10"`) is not one (which line applies is unknown),
// nor a bound in a comment. Messages name the bound (Shown).
func parseCaps(name, text string) map[string]lint.Target {
	out := map[string]lint.Target{}
	if strings.HasSuffix(name, ".lock") {
		return out
	}
	for _, line := range strings.Split(requirementsOnly(name, text), "\n") {
		for _, m := range capPin.FindAllStringSubmatch(line, -1) {
			pkg := normalPackage(m[1])
			if !tracked(pkg) {
				continue
			}
			if _, ok := out[pkg]; ok {
				continue
			}
			shown, inclusive := capOf(m)
			if ver, ok := capTarget(pkg, m[3], inclusive); ok {
				out[pkg] = lint.Target{Version: ver, Shown: shown, Source: name + " requires " + m[1] + shown}
			}
		}
	}
	return out
}

// capOf is how a capPin match m is shown ("<=4.45.2") and whether its bound is inclusive: a
// pre-release lies below its release (<=4.46.0rc1 excludes 4.46.0), a post-release above it
// (<4.41.0.post1 allows 4.41.0).
func capOf(m []string) (shown string, inclusive bool) {
	inclusive = m[2] == "="
	if suffix := strings.TrimPrefix(m[4], "."); suffix != "" {
		inclusive = strings.HasPrefix(suffix, "post")
	}
	return "<" + m[2] + m[3] + m[4], inclusive
}

// markedCaps are the bounds of the packages every requirement of which, in the file, carries
// an environment marker and an upper bound or a pin (LIMO's `transformers>=4.41.2,<=4.45.2;
// python_version<'3.10'` and `...,<=4.48.2; python_version>='3.10'`): whichever line applies,
// the version is at most the loosest bound, so the file is linted for it. A package any of
// whose marked requirements is unbounded, or that the file also requires unmarked, gets none.
func markedCaps(name, text string) map[string]lint.Target {
	type bound struct {
		ver, shown, req string
		inclusive, open bool
		lines           int // the package's marked requirements
	}
	best := map[string]*bound{}
	for _, req := range markedRequirements(name, text) {
		m := reqName.FindStringSubmatch(req)
		if m == nil {
			continue
		}
		pkg := normalPackage(m[1])
		if !tracked(pkg) {
			continue
		}
		b := &bound{open: true}
		if c := capPin.FindStringSubmatch(req); c != nil && normalPackage(c[1]) == pkg {
			shown, inclusive := capOf(c)
			b = &bound{ver: c[3], shown: shown, req: c[1], inclusive: inclusive}
		} else if p := reqPin.FindStringSubmatch(req); p != nil && normalPackage(p[1]) == pkg && !strings.Contains(req, "~=") {
			b = &bound{ver: p[2], shown: "==" + p[2], req: p[1], inclusive: true}
		}
		switch old := best[pkg]; {
		case old == nil:
			b.lines = 1
			best[pkg] = b
		case old.open || b.open:
			old.open = true
			old.lines++
		default:
			c := dialect.CompareVersions(dialect.ParseVersion(b.ver), dialect.ParseVersion(old.ver))
			b.lines = old.lines + 1
			if c > 0 || c == 0 && b.inclusive {
				best[pkg] = b
			} else {
				old.lines++
			}
		}
	}
	out := map[string]lint.Target{}
	plain := requirementsOnly(name, text)
	for pkg, b := range best {
		// One marked line leaves the other environments unbounded (a lone
		// `transformers<4.46; python_version<'3.9'`), and so does an unmarked requirement.
		if b.open || b.lines < 2 || requiresPackage(plain, pkg) {
			continue
		}
		if ver, ok := capTarget(pkg, b.ver, b.inclusive); ok {
			shown := b.shown
			if strings.HasPrefix(shown, "==") {
				shown = "<=" + b.ver
			}
			out[pkg] = lint.Target{Version: ver, Shown: shown, Source: name + " requires " + b.req + shown + " under each of its environment markers"}
		}
	}
	return out
}

// reqName is the package a requirement names.
var reqName = regexp.MustCompile(`^\s*([A-Za-z0-9_.\-]+)`)

// normalPackage is a requirement's package name as pinPackages spell it.
func normalPackage(n string) string {
	pkg := strings.ToLower(strings.ReplaceAll(n, "_", "-"))
	if pkg == "pytorch-lightning" {
		return "lightning"
	}
	return pkg
}

// requiresPackage reports whether text (requirementsOnly's) names the package pkg in a
// requirement.
func requiresPackage(text, pkg string) bool {
	for _, line := range strings.Split(text, "\n") {
		// a list item of environment.yml or a TOML array, written or not in quotes
		line = strings.TrimLeft(line, " \t-")
		for _, m := range reqAny.FindAllStringSubmatch(line, -1) {
			if normalPackage(m[1]) == pkg {
				return true
			}
		}
	}
	return false
}

// reqAny is a requirement's package name: at a line's start or in quotes, followed by a
// version operator, extras, a URL's @, a specifier's parenthesis, a quote or the line's end.
var reqAny = regexp.MustCompile(`(?:^|["'])([A-Za-z0-9_.\-]+)[ \t]*(?:\[|[<>=!~@(]|["']|$)`)

// markedRequirements are the requirement parts (before the ';') of the file's requirements
// with an environment marker: quoted ones in any file, and whole lines in the files that hold
// one requirement a line (as requirementsOnly drops them).
func markedRequirements(name, text string) []string {
	perLine := onePerLine(name)
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		if strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if perLine {
			l := strings.TrimLeft(strings.TrimSpace(line), "- ")
			if markedRequirement.MatchString(l) || markedURL.MatchString(l) {
				out = append(out, l[:strings.IndexByte(l, ';')])
			}
			continue
		}
		for _, q := range quotedMarked.FindAllStringSubmatch(line, -1) {
			if markedRequirement.MatchString(q[1]) || markedURL.MatchString(q[1]) {
				out = append(out, q[1][:strings.IndexByte(q[1], ';')])
			}
		}
	}
	return out
}

// markedURL is a direct reference with an environment marker (`transformers @ git+https://...
// ; python_version>='3.10'`): a requirement of no version bound.
var markedURL = regexp.MustCompile(`^\s*[A-Za-z0-9_.\-]+(?:\[[^\]]*\])?\s*@[^;]*;`)

// quotedMarked is a quoted string holding a ';'.
var quotedMarked = regexp.MustCompile(`["']([^"';]*;[^"']*)["']`)

// markedRequirement is a requirement with an environment marker (`torch>=2.1; sys_platform ==
// 'linux'`, `accelerate; python_version>'3.8'`), not a shell command (`set -e; pip install ...`).
var markedRequirement = regexp.MustCompile(`^\s*[A-Za-z0-9_.\-]+(?:\[[^\]]*\])?\s*(?:\(\s*)?(?:(?:[<>=!~]=?|===)\s*[^;]*)?;`)

// onePerLine reports a pin file that holds one requirement a line (requirement*.txt,
// setup.cfg, environment.yml).
func onePerLine(name string) bool {
	return strings.HasPrefix(name, "requirement") || name == "setup.cfg" || name == "environment.yml" || isCondaName(name)
}

// condaFiles are the folder's other conda environment files, by name (caduceus_env.yml pins
// pytorch-lightning==1.8.6 in its pip list; environment.yaml, conda-env.yml), sorted: each is
// read only when it has a top-level dependencies list (condaDeps).
func condaFiles(dir string) []string {
	var out []string
	for _, pat := range []string{"*.yml", "*.yaml"} {
		ms, _ := filepath.Glob(filepath.Join(dir, pat))
		for _, m := range ms {
			if b := filepath.Base(m); isCondaName(b) {
				out = append(out, b)
			}
		}
	}
	sort.Strings(out)
	return out
}

// isCondaName reports a YAML file named as conda environments are: a word env, environment or
// conda in its name (environment.yaml, caduceus_env.yml, conda-gpu.yml), not environment.yml.
func isCondaName(name string) bool {
	return name != "environment.yml" && condaName.MatchString(name)
}

var (
	condaName = regexp.MustCompile(`(?i)^(?:.*[_.-])?(?:env|environment|conda)(?:[_.-].*)?\.ya?ml$`)
	condaDeps = regexp.MustCompile(`(?m)^dependencies:\s*$`)
)

// lintTools are the tools whose pyproject.toml tables name packages without installing them
// (isort's known-third-party, mypy's plugins).
var lintTools = []string{"ruff", "isort", "black", "mypy", "pytest", "pylint", "flake8", "coverage", "codespell",
	"pyright", "yapf", "docformatter", "pydocstyle", "bandit", "interrogate", "towncrier", "bumpversion", "commitizen", "setuptools_scm"}

// requirementsOnly is a pin file's text without what pip would not install unconditionally: the
// tables of pyproject.toml that linters and test runners read (lintTools); a
// comment ('#' at a line's start or after a blank, outside quotes: a URL's #egg= stays), a quoted
// requirement with an environment marker (`"torch>=2.1; sys_platform == 'linux'"`), and, in the
// files that hold one requirement a line (requirement*.txt, setup.cfg, environment.yml), a
// line with a marker. Blanked, not removed, so that what stays keeps its place.
func requirementsOnly(name, text string) string {
	perLine := onePerLine(name)
	lines := strings.Split(text, "\n")
	toolTable := false // in pyproject.toml, a table of a linter, formatter or test runner
	for li, line := range lines {
		if name == "pyproject.toml" {
			t, _, _ := strings.Cut(line, "#")
			if t = strings.TrimSpace(t); strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]") && !strings.ContainsAny(t, "\",") {
				toolTable = false
				for _, tool := range lintTools {
					if rest, ok := strings.CutPrefix(t, "[tool."+tool); ok && (rest == "]" || strings.HasPrefix(rest, ".")) {
						toolTable = true
					}
				}
			}
			if toolTable {
				// R1-Onevision's [tool.ruff.lint.isort] known-third-party = ["transformers"]
				// names the package for import sorting, not for pip.
				lines[li] = ""
				continue
			}
		}
		b := []byte(line)
		var quote byte
		start := -1 // where the open quoted string starts
		for i := 0; i < len(b); i++ {
			c := b[i]
			switch {
			case quote != 0 && c == quote:
				if markedRequirement.MatchString(string(b[start+1 : i])) {
					for j := start; j <= i; j++ {
						b[j] = ' '
					}
				}
				quote = 0
			case quote != 0:
			case c == '"' || c == '\'':
				quote, start = c, i
			case c == '#' && (i == 0 || b[i-1] == ' ' || b[i-1] == '\t'):
				b = b[:i]
			}
		}
		if perLine && strings.Contains(string(b), ";") {
			b = nil
		}
		lines[li] = string(b)
	}
	return strings.Join(lines, "\n")
}

// capTarget is the version a bound on pkg is linted for: none when the bound allows the
// newest release the knowledge table read (the file is then linted for it, as with no bound:
// a version past the tags read is outside every fact); else a version just below a strict
// bound (justBelow) or the inclusive bound itself. Between two releases read, a version is
// judged by either (Knowledge.Has's bracket), so a key added in the release the bound excludes
// is not claimed missing: lenient where the tags read are far apart.
func capTarget(pkg, bound string, inclusive bool) (string, bool) {
	b := dialect.ParseVersion(bound)
	if len(b) == 0 {
		return "", false
	}
	past := func(tag string) bool { // a release read lies past the bound
		v := dialect.ParseVersion(tag)
		c := dialect.CompareVersions(v, b)
		return len(v) > 0 && (c > 0 || c == 0 && !inclusive)
	}
	if k := dialect.KnowledgeOf(pkg); k != nil && len(k.Tags) > 0 && !slices.ContainsFunc(k.Tags, past) {
		return "", false
	}
	if inclusive {
		return bound, true
	}
	v := justBelow(bound)
	return v, v != ""
}

// justBelow is a version just below v and above every release below it ("4.46" → "4.45.999999",
// "5.0" → "4.999999", "0.19.1" → "0.19.0.999999"); "" for v of zeros.
func justBelow(v string) string {
	parts := strings.Split(v, ".")
	for len(parts) > 0 && strings.TrimLeft(parts[len(parts)-1], "0") == "" {
		parts = parts[:len(parts)-1]
	}
	if len(parts) == 0 {
		return ""
	}
	n, err := strconv.Atoi(parts[len(parts)-1])
	if err != nil {
		return ""
	}
	parts[len(parts)-1] = strconv.Itoa(n - 1)
	return strings.Join(append(parts, "999999"), ".")
}

// lightningBefore19 returns a module text imports that Lightning 1.9.0 removed, "" for none:
// pytorch_lightning.core.lightning and pytorch_lightning.utilities.cli exist at 1.8.6, and at
// 1.9.0 only as stubs whose classes raise NotImplementedError ("removed as of v1.9.0",
// src/pytorch_lightning/_graveyard/core.py and cli.py). A repository whose code imports one runs
// Lightning 1.8 or older, so its configs are read for the newest such release, as a pin
// `pytorch-lightning<1.9` would have them read, when no file pins Lightning. Only a module-level
// import counts (at the start of a line): one inside a try block with a fallback to the new
// module, or in a docstring's example, is indented.
//
// So does pytorch_lightning.loggers.base and the LightningLoggerBase its loggers package
// re-exported (1.8.6 src/pytorch_lightning/loggers/__init__.py:17): 1.9.0 keeps the module
// only as a stub whose LightningLoggerBase raises when used (_graveyard/loggers.py), as the
// two modules above, and no longer exports the name from pytorch_lightning.loggers, so
// LouChao98/seq2seq_with_qcfg's `from pytorch_lightning.loggers import LightningLoggerBase`
// fails at import.
func lightningBefore19(text string) string {
	if m := lightningOldRE.FindStringSubmatch(text); m != nil {
		return "pytorch_lightning." + m[1]
	}
	if lightningOldNameRE.MatchString(text) {
		return "pytorch_lightning.loggers.LightningLoggerBase"
	}
	return ""
}

// lightningNew reports text importing a module Lightning 1.7 added, or the lightning package
// (pytorch_lightning.cli, lightning.pytorch): a repository importing one runs a release the
// removed modules' repository-wide evidence says nothing of.
func lightningNew(text string) bool { return lightningNewRE.MatchString(text) }

var (
	lightningOldRE     = regexp.MustCompile(`(?m)^(?:from|import)[ \t]+pytorch_lightning\.(core\.lightning|utilities\.cli|loggers\.base)\b`)
	lightningOldNameRE = regexp.MustCompile(`(?m)^from[ \t]+pytorch_lightning\.loggers[ \t]+import[ \t]+(?:\([^)#]*|[^\n#]*)\bLightningLoggerBase\b`)
	lightningNewRE     = regexp.MustCompile(`(?m)^[ \t]*(?:from[ \t]+(?:pytorch_lightning\.cli|lightning\.pytorch|lightning)\b|import[ \t]+(?:lightning\.pytorch|lightning)\b)`)
)

// inVendoredPackage reports a file p of the repository at root inside the package folder of a
// framework copy that vendored reads the version of (llmfoundry/, src/llamafactory/, trl/, ...),
// at the root or in a subfolder (foundry/llmfoundry/, which withPins finds walking up from a
// config there): the classes there are the copy's, so their fields are that framework's
// settings at the copy's version (lint.Options.ClassFields); a class of the same name elsewhere
// is the project's own.
func inVendoredPackage(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	if err != nil {
		return false
	}
	rel = "/" + filepath.ToSlash(rel)
	return slices.ContainsFunc(vendoredDirs, func(dir string) bool { return strings.Contains(rel, dir) })
}

// vendoredDirs are the package folders of vendored's markers, as "/llmfoundry/" or
// "/src/llamafactory/" (inVendoredPackage), worked out once.
var vendoredDirs = func() []string {
	var out []string
	for _, v := range vendored {
		dir, rest, _ := strings.Cut(v.marker, "/")
		if dir == "src" {
			pkg, _, _ := strings.Cut(rest, "/")
			dir += "/" + pkg
		}
		if dir = "/" + dir + "/"; !slices.Contains(out, dir) {
			out = append(out, dir)
		}
	}
	return out
}()

// floorBound is a dependency (dep) whose pin or cap bounds the releases of pkg that install
// with it: each release of pkg requires dep at least at a floor, and floors, oldest first, are
// those of the releases where the floor rose, each with the newest release that requires no
// more. Below the oldest floor, a release older than below, shown "<"+below. The last floor's
// newest is the newest release of the knowledge table, or "" when the floors of the newest
// releases were not read: a dependency allowing the last floor bounds nothing.
type floorBound struct {
	pkg, dep, name string // name: how messages name pkg
	floors         []depFloor
	below          string
}

type depFloor struct{ dep, newest string }

// floorBounds are the dependencies whose pins bound a package's release (withFloorBounds).
var floorBounds = []floorBound{
	{pkg: "lightning", dep: "torch", name: "Lightning", floors: lightningTorchFloors, below: "1.0"},
	{pkg: "transformers", dep: "huggingface-hub", name: "transformers", floors: transformersHubFloors, below: "4.41"},
}

// lightningTorchFloors are the torch floors of Lightning's releases, oldest first, each with the
// newest release that requires no more: the `torch>=` line of the requirements its package
// installs with (requirements.txt:4 at 1.1.8-1.6.3, requirements/base.txt:2 at 1.6.4-1.6.5,
// requirements/pytorch/base.txt:2 at 1.7.0, :5 at 1.7.1-2.3.3, :4 at 2.4.0-2.6.5;
// Lightning-AI/pytorch-lightning tags). The install drops the upper bound of a line not marked
// strict and keeps the floor (_load_requirements, pytorch_lightning/setup_tools.py:43-45 at
// 1.6.5), and the floors never fell from one release to the next (1.6.x's torch>=1.8.* is 1.8).
var lightningTorchFloors = []depFloor{
	{"1.3", "1.1.8"},
	{"1.4", "1.3.8"},  // from 1.2.0
	{"1.6", "1.5.3"},  // from 1.4.0
	{"1.7", "1.5.10"}, // from 1.5.4
	{"1.8", "1.6.5"},  // from 1.6.0
	{"1.9", "1.8.6"},  // from 1.7.0
	{"1.10", "1.9.5"}, // from 1.9.0
	{"1.11", "2.0.9"}, // from 2.0.0
	{"1.12", "2.1.4"}, // from 2.1.0
	{"1.13", "2.2.5"}, // from 2.2.0
	{"2.0", "2.3.3"},  // from 2.3.0
	{"2.1", "2.6.5"},  // from 2.4.0 to the newest release the knowledge table read
}

// transformersHubFloors are the huggingface-hub floors of transformers' releases where the
// floor rose, from 4.41.0 (the knowledge table reads 4.40 on), each with the newest release that
// requires no more: ">=0.23.0,<1.0" from 4.41.0 to 4.50.3, ">=0.30.0,<1.0" from 4.51.0 to 4.53.3
// (huggingface/transformers PR #37166, merged 2025-04-01, before 4.51.0), ">=0.34.0,<1.0" from
// 4.54.0 to 4.57.6, the last 4.x release; ">=1.0.0,<2.0" on the main branch from PR #42033
// (merged 2025-11-05, after the 4.57 branch) and so in every 5.x release, whose floor rose later
// (to 1.3.0 by PR #43188) at releases not read here (""). Read from
// conda-forge/transformers-feedstock's recipe/meta.yaml:25-26 of each release's build, which
// copies install_requires of the release's setup.py (huggingface_hub line at d5bef84 4.41.0,
// d8c15b1 4.50.3, e3b47b7 4.51.0, f2bbf52 4.53.3, b144ea8 4.54.0, fccd777 4.57.6, 297a25f
// 5.0.0): transformers' own tags are not read here.
var transformersHubFloors = []depFloor{
	{"0.23.0", "4.50.3"},
	{"0.30.0", "4.53.3"}, // from 4.51.0
	{"0.34.0", "4.57.6"}, // from 4.54.0
	{"1.0", ""},          // from 5.0.0
}

// withFloorBounds lints a file for the newest release of each floorBounds package that installs
// with the dependency its repository pins or caps (nearest from the file upwards, as withPins
// finds a package's pins), when that is older than the release it would be linted for:
// kuielab/mdx-net pins torch==1.8.1 beside pytorch-lightning>=1.3.2, which pip resolves to
// 1.6.5 (1.7.0 requires torch>=1.9), whose Trainer still takes gpus and amp_backend; the
// alignment-handbook forks (wsklee's, xiyang-aads-lilly's) cap huggingface-hub<1.0 beside
// transformers>=4.39.3, which installs 4.57.6 at the newest, where warmup_ratio is no deprecated
// key and report_to defaults to every installed integration. A pin of the package, a
// [target], a copy or a git install says what runs and is kept; of two bounds the tighter holds
// (a cap of the package itself, the Python's imports of modules Lightning 1.9 removed).
func withFloorBounds(o lint.Options, file string) lint.Options {
	for _, b := range floorBounds {
		o = withFloorBound(o, file, b)
	}
	return o
}

func withFloorBound(o lint.Options, file string, b floorBound) lint.Options {
	pt, ok := o.Targets[b.pkg]
	if ok && pt.Shown == "" {
		return o
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return o
	}
	root := ""
	dt, found := pinOf(filepath.Dir(abs), b.dep, &root)
	dv := dialect.ParseVersion(dt.Version)
	if !found || len(dv) == 0 {
		return o
	}
	v, shown := justBelow(b.below), "<"+b.below
	for _, f := range b.floors {
		if dialect.CompareVersions(dv, dialect.ParseVersion(f.dep)) < 0 {
			break
		}
		v, shown = f.newest, ""
	}
	if v == "" || v == b.floors[len(b.floors)-1].newest ||
		ok && dialect.CompareVersions(dialect.ParseVersion(pt.Version), dialect.ParseVersion(v)) <= 0 {
		return o
	}
	name, _, _ := strings.Cut(dt.Source, " ")
	src := name + " pins " + b.dep + " " + dt.Version
	if dt.Shown != "" {
		src = name + " requires " + b.dep + dt.Shown
	}
	if shown == "" {
		src += ", so " + b.name + " " + v + " at most"
	} else {
		src += ", so " + b.name + " " + shown
	}
	o.Targets = cloneTargets(o.Targets)
	o.Targets[b.pkg] = lint.Target{Version: v, Shown: shown, Source: src}
	return o
}
