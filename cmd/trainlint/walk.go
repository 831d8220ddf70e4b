package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
)

// input is one thing to lint: a file on disk or standard input.
type input struct {
	Path   string // as reported (the argument, or the argument joined with the path under it)
	FSPath string // where to read it ("" for standard input)
	Stdin  bool
	// Root is the tree the input was found in: the folder walked, or a named file's folder.
	// --fix never writes outside it (or outside the repository holding the file) through a
	// symbolic link.
	Root string
	// Walked marks a file found in a folder (not named on the command line).
	Walked bool
	// OnlyConfigs skips the file quietly when it holds no config (a .py script or helper
	// module, a Jinja template, JSON Lines, a Git LFS pointer, an empty .json): set for walked
	// files and, with --only-configs, for named ones.
	OnlyConfigs bool
}

// skipDirs are never walked: version-control metadata and installed packages hold no configs of
// the project (and are large), editors' settings folders hold JSON with comments (JSONC) that
// is no training config, and CI services' folders hold workflows whose `${{ ... }}`
// expressions are no OmegaConf interpolation. Jupyter's .ipynb_checkpoints hold stale autosaved
// copies a folder below their originals, so the copies' relative `_base_` paths do not resolve.
// macOS's archiver puts __MACOSX beside the files of a zip it makes: AppleDouble records of their
// metadata (binary, named ._<file>), which an unzipped upload keeps (notConfig).
var skipDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, "node_modules": true,
	".vscode": true, ".devcontainer": true, ".idea": true, ".github": true, ".gitlab": true, ".circleci": true,
	".ipynb_checkpoints": true, "__MACOSX": true}

// walkedExt are the extensions linted inside folders; a file named on the command line is linted
// whatever its extension.
// .gin files are T5X configs; .py files are linted only when they read as configs (get_config,
// MMEngine variables), see lintOne.
var walkedExt = map[string]bool{".yaml": true, ".yml": true, ".json": true, ".toml": true, ".gin": true, ".py": true}

// notConfigs are never linted inside folders: trainlint's own config file and Python's project
// file (which may hold [tool.trainlint]) are not training configs, nor are the files of the
// JavaScript and C++ tools that sit beside a project's web client or native runtime, nor the
// documentation site's definition. Named on the command line, they are linted like any file.
var notConfigs = map[string]bool{".trainlint.toml": true, "pyproject.toml": true,
	// JavaScript tooling beside a project's web client: npm's manifests, and files that
	// TypeScript, ESLint and dev containers read as JSON with comments.
	"package.json": true, "package-lock.json": true, "tsconfig.json": true, "jsconfig.json": true,
	".eslintrc.json": true, "devcontainer.json": true, ".devcontainer.json": true,
	// C++ tooling beside a project's native runtime: Visual Studio's CMake settings (often saved
	// with a byte order mark), CMake's presets and vcpkg's manifest.
	"CMakeSettings.json": true, "CMakePresets.json": true, "CMakeUserPresets.json": true, "vcpkg.json": true,
	// Pyright's settings, which it reads as JSON with comments and trailing commas, and VS Code's
	// debug configurations (launch.json, JSON with comments) kept outside .vscode.
	"pyrightconfig.json": true, "launch.json": true,
	// What the Hugging Face Trainer writes into its checkpoints (TrainerState.save_to_json,
	// TRAINER_STATE_NAME): a record of a run, not a config of one.
	"trainer_state.json": true,
	// MkDocs' site definition (its project file is mkdocs.yml, or mkdocs.yaml; MkDocs'
	// user-guide/configuration.md): menus and themes that only the documentation build reads.
	"mkdocs.yml": true, "mkdocs.yaml": true,
	// GitLab's pipeline definition at the repository's root (the .gitlab folder is skipped):
	// GitLab reads it, and YAML anchors it defines twice are GitLab's to allow.
	".gitlab-ci.yml": true,
	// Ruff's settings (ruff.toml or .ruff.toml), read by ruff's own TOML parser.
	"ruff.toml": true, ".ruff.toml": true,
	// airspeed velocity's benchmark settings, which asv reads with comments and trailing commas
	// allowed (asv/config.py loads it with js_comments=True, through json5; dmlc/dgl keeps one).
	"asv.conf.json": true}

// loggerRecord reports a hparams.yaml that a Lightning logger wrote (CSVLogger and
// TensorBoardLogger save a run's hyperparameters under that name, loggers/csv_logs.py
// NAME_HPARAMS_FILE, 2.2.5): in a version_N folder of the logs, or kept beside a released
// .ckpt. It records a run; nothing launches one from it.
//
// So is the params.yaml that DVCLive writes into its output folder, named dvclive unless told
// otherwise (Live(dir="dvclive"), live.py:83 and params_file :363, dvclive 3.49.0; its Hugging
// Face callback logs the TrainingArguments there): the project's own params.yaml sits elsewhere
// (alex000kim/ML-Pipeline-With-DVC-SkyPilot-HuggingFace keeps its config at the root and the
// record under dvclive/).
func loggerRecord(name, dir string, entries []os.DirEntry) bool {
	if name == "params.yaml" {
		return filepath.Base(dir) == "dvclive"
	}
	if name != "hparams.yaml" {
		return false
	}
	if v, ok := strings.CutPrefix(filepath.Base(dir), "version_"); ok && v != "" && strings.Trim(v, "0123456789") == "" {
		return true
	}
	return slices.ContainsFunc(entries, func(e os.DirEntry) bool { return strings.HasSuffix(e.Name(), ".ckpt") })
}

// checkpointRecord reports a config.yaml in a folder that holds a model.pt: an unsharded
// checkpoint of OLMo's trainer, which saves the run's whole config under that name beside the
// weights (olmo/checkpoint.py:607 Checkpointer._save_config and :797
// FullCheckpointer._write_model_dict, v0.6.0). Its readers take the model section to rebuild
// the model (olmo/model.py:1744 OLMo.from_checkpoint); nothing trains from it, so its run
// settings (a time limit, a schedule) are a record, as a Lightning hparams.yaml beside a .ckpt
// is (OLMo's test_fixtures/test-olmo-model, a tracked config.yaml beside model.pt that only
// its tests read, conftest.py:98 v0.6.0).
func checkpointRecord(name string, entries []os.DirEntry) bool {
	return name == "config.yaml" && slices.ContainsFunc(entries, func(e os.DirEntry) bool { return e.Name() == "model.pt" && !e.IsDir() })
}

// buildCopy reports a folder name under a folder named build that setuptools' build step
// copies a package into: build/lib, or build/lib.<platform>-<tag> when the package has
// extension modules (setuptools/_distutils/command/build.py:54, :98-100, v84.0.0;
// build_py copies the package's files there, build_py.py:115). What is in it is a copy of the
// project's package, not configs of the project, and a committed copy is walked because git
// tracks it however .gitignore names build/ (WHY-student/GPCDet @105f99a keeps, under
// build/lib/mmdet/.mim, an older copy of its configs/ and mmcv's tests/data/config fixtures,
// which exist to be refused). The rest of a build folder is walked.
func buildCopy(parent, name string) bool {
	return parent == "build" && (name == "lib" || strings.HasPrefix(name, "lib."))
}

// skippedDir reports a folder a walk passes over, by its name and its parent's ("" at the top):
// one of skipDirs, a setuptools build copy or a Unity game's StreamingAssets.
func skippedDir(parent, name string) bool {
	return skipDirs[name] || buildCopy(parent, name) || unityAssets(parent, name)
}

// unityAssets reports a Unity game's StreamingAssets folder: Assets/StreamingAssets in a Unity
// project, <Game>_Data/StreamingAssets in a Windows or Linux player build and
// <Game>.app/Contents/Resources/Data/StreamingAssets in a macOS one (Unity's manual,
// StreamingAssets). The game's C# reads what is there (kakaoenterprise/JORLDY's bundled
// DroneDelivery builds parse their Inference_Data/*.json with Json.NET, which takes trailing
// commas): data of the game, not configs of a training run.
func unityAssets(parent, name string) bool {
	return name == "StreamingAssets" && (parent == "Assets" || parent == "Data" || strings.HasSuffix(parent, "_Data"))
}

// notConfig reports whether a walked file is one of notConfigs, an AppleDouble record of another
// file's macOS metadata (._config.yaml: binary, starting 00 05 16 07, which macOS writes beside a
// file on a foreign disk and into the zips it makes), a variant of TypeScript's
// configuration (tsconfig.base.json, tsconfig.app.json, jsconfig.node.json), or a Docker Compose
// file: compose.yaml, docker-compose.yml and their variants (docker-compose.override.yml,
// docker-compose.gpu.yaml), which Docker Compose reads to start containers (the Compose
// specification's default names, compose.yaml and compose.yml, and the older docker-compose.*).
func notConfig(name string) bool {
	if notConfigs[name] || strings.HasPrefix(name, "._") {
		return true
	}
	lower := strings.ToLower(name)
	if strings.HasSuffix(lower, ".yml") || strings.HasSuffix(lower, ".yaml") {
		return strings.HasPrefix(lower, "docker-compose.") || strings.HasPrefix(lower, "compose.")
	}
	return (strings.HasPrefix(lower, "tsconfig.") || strings.HasPrefix(lower, "jsconfig.")) && strings.HasSuffix(lower, ".json")
}

// walkSkips reports whether a folder walk would pass over the file at path p (as named on
// the command line): an extension it does not read, one of notConfigs, a run's record (a
// Lightning logger's, a checkpoint's), or a folder of skipDirs or a setuptools build copy on
// the way. --only-configs drops such named files.
func walkSkips(p string) bool {
	p = filepath.Clean(p)
	name := filepath.Base(p)
	if !walkedExt[strings.ToLower(filepath.Ext(name))] || notConfig(name) {
		return true
	}
	if name == "hparams.yaml" || name == "config.yaml" || name == "params.yaml" {
		if es, err := os.ReadDir(filepath.Dir(p)); err == nil && (loggerRecord(name, filepath.Dir(p), es) || checkpointRecord(name, es)) {
			return true
		}
	}
	parts := strings.Split(filepath.ToSlash(filepath.Dir(p)), "/")
	for i, part := range parts {
		parent := ""
		if i > 0 {
			parent = parts[i-1]
		}
		if skippedDir(parent, part) {
			return true
		}
	}
	return false
}

// collectInputs expands the command line into files. A path that cannot be read is reported and
// skipped, and the others are still linted (the run then exits 2). A file reached twice is
// linted once. A folder without a single config file is worth a warning (a mistyped path or an
// over-eager .gitignore would otherwise pass CI silently) but is not an error.
func collectInputs(paths []string, stdinFilename string) (ins []input, errs []error, warnings []string) {
	seen := map[string]bool{}
	wd, _ := os.Getwd()
	add := func(in input) {
		key := in.FSPath
		if in.Stdin {
			key = "\x00stdin"
		}
		if abs, err := absIn(wd, key); err == nil && !in.Stdin {
			key = abs
		}
		if !seen[key] {
			seen[key] = true
			ins = append(ins, in)
		}
	}
	for _, p := range paths {
		if p == "-" {
			name := stdinFilename
			if name == "" {
				name = "<stdin>"
			}
			add(input{Path: name, Stdin: true})
			continue
		}
		fi, err := os.Stat(p)
		if err != nil {
			errs = append(errs, readError(p, err))
			continue
		}
		if !fi.IsDir() {
			add(input{Path: filepath.Clean(p), FSPath: p, Root: filepath.Dir(p)})
			continue
		}
		files, werrs := walkDir(p)
		errs = append(errs, werrs...)
		if len(files) == 0 && len(werrs) == 0 {
			warnings = append(warnings, fmt.Sprintf("no .yaml, .yml, .json, .toml, .gin or .py files to check in %q (or all are ignored)", p))
		}
		for _, f := range files {
			f.Root = p
			add(f)
		}
	}
	return ins, errs, warnings
}

// readError words a file-system error for the terminal: the path quoted, the cause without Go's
// operation prefix.
func readError(p string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot read %q: %v", p, err)
}

// walkDir lists the config files under root in lexical order, honouring the .gitignore files of
// the folders walked and of the folders between root and its repository's top (the folder that
// holds .git), plus .git/info/exclude; a file git tracks is listed whatever they say.
func walkDir(root string) ([]input, []error) {
	files, errs, _ := walkDirMax(root, 0)
	return files, errs
}

// walkDirMax is walkDir that stops once it has listed more than max entries of folders (files
// and folders alike, configs or not; 0: no bound), and then says so (over).
func walkDirMax(root string, max int) (files []input, errs []error, over bool) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, []error{readError(root, err)}, false
	}
	top := gitTop(abs)
	w := &walker{top: top, max: max}
	w.walk(root, filepath.ToSlash(abs), parentIgnores(abs, top), false)
	return w.files, w.errs, w.over
}

type walker struct {
	// max bounds the entries listed (0: none); over is set once they pass it.
	max, seen int
	over      bool
	files     []input
	errs      []error
	// top is the work tree's top folder ("" outside a repository); tracked is what its index
	// tracks, read when an ignore pattern first matches (gitindex.go).
	top         string
	tracked     *gitTracked
	readTracked bool
}

// tracks reports whether git tracks absP (a folder: a file in it), reading the index the first
// time it is asked.
func (w *walker) tracks(absP string, isDir bool) bool {
	if !w.readTracked {
		w.readTracked = true
		if w.top != "" {
			w.tracked = loadTracked(w.top)
		}
	}
	return w.tracked.has(absP, isDir)
}

// walk lists dir's config files; inIgnored says that an ignore pattern matched dir, which is
// walked only for the files git tracks in it.
func (w *walker) walk(dir, absDir string, stack ignoreStack, inIgnored bool) {
	if w.over {
		return
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		w.errs = append(w.errs, readError(dir, err))
		return
	}
	if w.seen += len(entries); w.max > 0 && w.seen > w.max {
		w.over = true
		return
	}
	if data, err := readSmall(filepath.Join(dir, ".gitignore")); err == nil {
		stack = append(stack[:len(stack):len(stack)], parseIgnore(absDir, data))
	}
	for _, e := range entries {
		name := e.Name()
		p := filepath.Join(dir, name)
		absP := absDir + "/" + name
		if absDir == "/" {
			absP = "/" + name
		}
		isDir := e.IsDir()
		isFile := e.Type().IsRegular()
		if e.Type()&fs.ModeSymlink != 0 {
			// Follow links to files; never links to folders, which can loop.
			fi, err := os.Stat(p)
			if err != nil || fi.IsDir() {
				continue
			}
			isFile = fi.Mode().IsRegular()
		}
		if isDir && skippedDir(filepath.Base(dir), name) {
			continue
		}
		ign := inIgnored || stack.ignored(absP, isDir)
		if ign && !w.tracks(absP, isDir) {
			continue
		}
		switch {
		case isDir:
			w.walk(p, absP, stack, ign)
		case isFile && walkedExt[strings.ToLower(filepath.Ext(name))] && !notConfig(name) && !loggerRecord(name, dir, entries) && !checkpointRecord(name, entries):
			w.files = append(w.files, input{Path: p, FSPath: p, Walked: true, OnlyConfigs: true})
		}
	}
}

// parentIgnores loads the ignore files that apply to dir from above it: those of its repository
// (found by looking upwards for .git), from the top down to dir's parent. Outside a repository
// only the .gitignore files inside the walked folder count.
func parentIgnores(dir, top string) ignoreStack {
	if top == "" {
		return nil
	}
	var stack ignoreStack
	if data, err := readSmall(filepath.Join(top, ".git", "info", "exclude")); err == nil {
		stack = append(stack, parseIgnore(filepath.ToSlash(top), data))
	}
	rel, err := filepath.Rel(top, dir)
	if err != nil || rel == "." {
		return stack
	}
	d := top
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		if data, err := readSmall(filepath.Join(d, ".gitignore")); err == nil {
			stack = append(stack, parseIgnore(filepath.ToSlash(d), data))
		}
		d = filepath.Join(d, part)
	}
	return stack
}

// gitTop is the top folder of the work tree that holds dir: the nearest folder, dir or above,
// with a .git entry ("" when there is none).
func gitTop(dir string) string {
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// absIn is filepath.Abs with the working folder wd looked up once by the caller: Abs asks the
// system for it on every call (a getcwd and two stats), and the driver makes each input's path
// absolute several times (about 2% of the CPU time of a corpus run). An empty wd (the lookup
// failed) falls back to Abs, and so does Windows, where a rooted path without a drive ("\x")
// or a drive without a root ("C:x") is resolved differently.
func absIn(wd, p string) (string, error) {
	if filepath.IsAbs(p) {
		return filepath.Clean(p), nil
	}
	if wd == "" || runtime.GOOS == "windows" {
		return filepath.Abs(p)
	}
	return filepath.Join(wd, p), nil
}
