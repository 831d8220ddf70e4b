package main

import (
	"archive/zip"
	"bufio"
	"bytes"
	"crypto/sha256"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/base64"
	"encoding/binary"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/trainlint/trainlint/lint"
)

// The wheels are built once (seven wheels from five cross-builds: a few minutes on a cold
// build cache) and shared by the tests below.
var (
	distOnce sync.Once
	distRes  *distResult
	distErr  error
	distDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if distDir != "" {
		os.RemoveAll(distDir)
	}
	os.Exit(code)
}

func built(t *testing.T) *distResult {
	t.Helper()
	distOnce.Do(func() {
		distDir, distErr = os.MkdirTemp("", "trainlint-dist-")
		// A fixed build date, as a reproducible release build sets it; the tests find it in the
		// zip members and in `trainlint version`.
		os.Setenv("SOURCE_DATE_EPOCH", "1764579600") // 2025-12-01T09:00:00Z
		if distErr == nil {
			distRes, distErr = dist(config{root: filepath.Join("..", ".."), out: distDir, goCmd: "go"})
		}
	})
	if distErr != nil {
		t.Fatal(distErr)
	}
	return distRes
}

// The LICENSE file is the standard Apache-2.0 text, unmodified (the hash of the text the
// Apache Software Foundation publishes at apache.org/licenses/LICENSE-2.0.txt).
func TestLicenseIsApache2(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(b)
	if got := hex.EncodeToString(sum[:]); got != "cfc7749b96f63bd31c3c42b5c471bf756814053e847c10f3eb003417bc523d30" {
		t.Errorf("LICENSE is not the standard Apache-2.0 text (sha256 %s)", got)
	}
}

func TestWheelStructure(t *testing.T) {
	res := built(t)
	if len(res.wheels) != len(targets) {
		t.Fatalf("%d wheels for %d targets", len(res.wheels), len(targets))
	}
	version := lint.Version
	for i, tg := range targets {
		path := res.wheels[i]
		want := fmt.Sprintf("trainlint-%s-py3-none-%s.whl", version, tg.platform)
		if filepath.Base(path) != want {
			t.Errorf("wheel %d is %s, want %s", i, filepath.Base(path), want)
		}
		t.Run(tg.platform, func(t *testing.T) { checkWheel(t, path, tg, version, res) })
	}
}

func checkWheel(t *testing.T, path string, tg target, version string, res *distResult) {
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	info := "trainlint-" + version + ".dist-info/"
	script := "trainlint-" + version + ".data/scripts/" + tg.exe()
	members := map[string][]byte{}
	var order []string
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatalf("%s: %v", f.Name, err)
		}
		if _, dup := members[f.Name]; dup {
			t.Errorf("%s appears twice", f.Name)
		}
		members[f.Name] = b
		order = append(order, f.Name)
		if !f.Modified.Equal(res.date) {
			t.Errorf("%s is dated %v, want the build date %v", f.Name, f.Modified, res.date)
		}
		switch {
		case f.Name == script:
			if f.Mode().Perm() != 0o755 || !f.Mode().IsRegular() {
				t.Errorf("the binary's mode is %v, want -rwxr-xr-x", f.Mode())
			}
		case strings.HasPrefix(f.Name, info), strings.HasPrefix(f.Name, "trainlint/"):
		default:
			t.Errorf("unexpected member %s", f.Name)
		}
	}
	// .dist-info comes last, RECORD at the very end.
	for i, n := range order {
		if strings.HasPrefix(n, info) && i < len(order)-1 && !strings.HasPrefix(order[i+1], info) {
			t.Errorf("%s comes before %s: .dist-info should be last", n, order[i+1])
		}
	}
	if order[len(order)-1] != info+"RECORD" {
		t.Errorf("last member is %s, want RECORD", order[len(order)-1])
	}
	for _, n := range []string{info + "METADATA", info + "WHEEL", info + "RECORD", info + "LICENSE", info + "NOTICE", script, "trainlint/__init__.py", "trainlint/__main__.py"} {
		if _, ok := members[n]; !ok {
			t.Errorf("missing %s", n)
		}
	}

	// WHEEL: one Tag line per tag of the file name's compressed set.
	fields := headerFields(t, members[info+"WHEEL"])
	if got := fields["Wheel-Version"]; !slices.Equal(got, []string{"1.0"}) {
		t.Errorf("Wheel-Version %q", got)
	}
	if got := fields["Root-Is-Purelib"]; !slices.Equal(got, []string{"false"}) {
		t.Errorf("Root-Is-Purelib %q (the wheel holds a platform binary)", got)
	}
	var wantTags []string
	for _, p := range strings.Split(tg.platform, ".") {
		wantTags = append(wantTags, "py3-none-"+p)
	}
	if got := fields["Tag"]; !slices.Equal(got, wantTags) {
		t.Errorf("Tag lines %q, want %q", got, wantTags)
	}
	meta := headerFields(t, members[info+"METADATA"])
	for k, v := range map[string]string{"Metadata-Version": "2.1", "Name": "trainlint", "Version": version, "License": "Apache-2.0"} {
		if got := meta[k]; !slices.Equal(got, []string{v}) {
			t.Errorf("METADATA %s: %q, want %q", k, got, v)
		}
	}
	if !bytes.Contains(members[info+"NOTICE"], []byte("CC BY 4.0")) || !bytes.Contains(members[info+"METADATA"], []byte("CC BY 4.0")) {
		t.Error("the wheel does not say the guidance is adapted from the playbook under CC BY 4.0")
	}

	// RECORD: every member exactly once, with its sha256 and size; RECORD itself without.
	rows, err := csv.NewReader(bytes.NewReader(members[info+"RECORD"])).ReadAll()
	if err != nil {
		t.Fatalf("RECORD: %v", err)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		if len(r) != 3 {
			t.Errorf("RECORD row %q has %d fields", r, len(r))
			continue
		}
		name, hash, size := r[0], r[1], r[2]
		if seen[name] {
			t.Errorf("RECORD lists %s twice", name)
		}
		seen[name] = true
		b, ok := members[name]
		if !ok {
			t.Errorf("RECORD lists %s, which is not in the wheel", name)
			continue
		}
		if name == info+"RECORD" {
			if hash != "" || size != "" {
				t.Errorf("RECORD lists itself with %q,%q", hash, size)
			}
			continue
		}
		sum := sha256.Sum256(b)
		if want := "sha256=" + base64.RawURLEncoding.EncodeToString(sum[:]); hash != want {
			t.Errorf("RECORD hash of %s is %s, want %s", name, hash, want)
		}
		if size != fmt.Sprint(len(b)) {
			t.Errorf("RECORD size of %s is %s, want %d", name, size, len(b))
		}
	}
	for n := range members {
		if !seen[n] {
			t.Errorf("%s is not in RECORD", n)
		}
	}

	// The binary is the bare one built for this platform, and it is what the tag says.
	bare, err := os.ReadFile(filepath.Join(filepath.Dir(path), binaryName(version, tg.goos, tg.goarch)))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(bare, members[script]) {
		t.Error("the wheel's binary differs from the bare binary of the same platform")
	}
	checkBinary(t, members[script], tg)

	// The same inputs give the same bytes (with SOURCE_DATE_EPOCH, a rebuilt release matches
	// its published SHA256SUMS).
	w := &wheel{version: version, platform: tg.platform, binary: members[script], exe: tg.exe(),
		license: members[info+"LICENSE"], modTime: res.date}
	var again bytes.Buffer
	if err := w.write(&again); err != nil {
		t.Fatal(err)
	}
	if whole, _ := os.ReadFile(path); !bytes.Equal(whole, again.Bytes()) {
		t.Error("writing the wheel again from the same inputs gives different bytes")
	}
}

// headerFields reads an email-header style file (METADATA, WHEEL) up to its body.
func headerFields(t *testing.T, b []byte) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		line := sc.Text()
		if line == "" {
			break
		}
		k, v, ok := strings.Cut(line, ": ")
		if !ok {
			t.Errorf("bad header line %q", line)
			continue
		}
		out[k] = append(out[k], v)
	}
	return out
}

// checkBinary reads the executable's headers: the right architecture; on Linux no interpreter
// and no shared libraries (what lets one binary carry both manylinux and musllinux tags); on
// macOS the minimum OS version in LC_BUILD_VERSION equal to the tag's.
func checkBinary(t *testing.T, b []byte, tg target) {
	t.Helper()
	r := bytes.NewReader(b)
	switch tg.goos {
	case "linux":
		f, err := elf.NewFile(r)
		if err != nil {
			t.Fatalf("not an ELF file: %v", err)
		}
		want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[tg.goarch]
		if f.Machine != want {
			t.Errorf("ELF machine %v, want %v", f.Machine, want)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
				t.Errorf("the binary is dynamically linked (%v)", p.Type)
			}
		}
		if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
			t.Errorf("the binary needs %v", libs)
		}
	case "darwin":
		f, err := macho.NewFile(r)
		if err != nil {
			t.Fatalf("not a Mach-O file: %v", err)
		}
		want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[tg.goarch]
		if f.Cpu != want {
			t.Errorf("Mach-O CPU %v, want %v", f.Cpu, want)
		}
		const lcBuildVersion = 0x32
		minos := ""
		for _, l := range f.Loads {
			raw := l.Raw()
			if len(raw) >= 16 && f.ByteOrder.Uint32(raw) == lcBuildVersion {
				v := binary.LittleEndian.Uint32(raw[12:])
				minos = fmt.Sprintf("%d_%d", v>>16, (v>>8)&0xff)
			}
		}
		if minos == "" || !strings.Contains(tg.platform, "macosx_"+minos+"_") {
			t.Errorf("the binary's minimum macOS is %q, the tag says %s", minos, tg.platform)
		}
	case "windows":
		f, err := pe.NewFile(r)
		if err != nil {
			t.Fatalf("not a PE file: %v", err)
		}
		if f.Machine != pe.IMAGE_FILE_MACHINE_AMD64 {
			t.Errorf("PE machine %#x, want amd64", f.Machine)
		}
	}
}

func TestSHA256SUMS(t *testing.T) {
	res := built(t)
	b, err := os.ReadFile(res.sums)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, line := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		sum, name, ok := strings.Cut(line, "  ")
		if !ok || len(sum) != 64 {
			t.Fatalf("bad line %q", line)
		}
		listed[name] = true
	}
	for _, p := range append(append([]string{}, res.binaries...), res.wheels...) {
		if !listed[filepath.Base(p)] {
			t.Errorf("SHA256SUMS lacks %s", filepath.Base(p))
		}
	}
	if len(listed) != len(res.binaries)+len(res.wheels) {
		t.Errorf("SHA256SUMS has %d lines for %d files", len(listed), len(res.binaries)+len(res.wheels))
	}
	// sha256sum -c is how users (and the GitHub Action) check a download.
	cmd := exec.Command("sha256sum", "--strict", "-c", "SHA256SUMS")
	cmd.Dir = filepath.Dir(res.sums)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("sha256sum -c: %v\n%s", err, out)
	}
}

// venv creates a fresh virtual environment with python3 -m venv. Debian splits venv (and the
// pip it seeds) into python3-venv: installed here as root when missing, else the test fails.
func venv(t *testing.T) string {
	t.Helper()
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 is not on PATH")
	}
	dir := filepath.Join(t.TempDir(), "venv")
	out, err := exec.Command(python, "-m", "venv", dir).CombinedOutput()
	if err != nil && os.Geteuid() == 0 && runtime.GOOS == "linux" {
		t.Logf("python3 -m venv: %v\n%s\ninstalling python3-venv", err, out)
		for _, args := range [][]string{{"update", "-qq"}, {"install", "-y", "-qq", "python3-venv"}} {
			cmd := exec.Command("apt-get", args...)
			cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
			if o, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("apt-get %s: %v\n%s", strings.Join(args, " "), err, o)
			}
		}
		os.RemoveAll(dir)
		out, err = exec.Command(python, "-m", "venv", dir).CombinedOutput()
	}
	if err != nil {
		t.Fatalf("python3 -m venv: %v\n%s", err, out)
	}
	return dir
}

// pipEnv keeps pip offline and quiet about its own version.
func pipEnv(extra ...string) []string {
	return append(append(os.Environ(), "PIP_DISABLE_PIP_VERSION_CHECK=1", "PIP_NO_INDEX=1", "PIP_NO_INPUT=1"), extra...)
}

func runIn(t *testing.T, env []string, name string, args ...string) (string, error) {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Env = env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// hostWheel is the manylinux wheel of the machine running the test.
func hostWheel(t *testing.T, res *distResult) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skipf("installs the Linux wheel; this is %s", runtime.GOOS)
	}
	for i, tg := range targets {
		if tg.goos == "linux" && tg.goarch == runtime.GOARCH && strings.HasPrefix(tg.platform, "manylinux") {
			return res.wheels[i]
		}
	}
	t.Fatalf("no manylinux wheel for %s", runtime.GOARCH)
	return ""
}

// The user's path: pip install the wheel into a fresh virtual environment, no Go, no network;
// `trainlint` on the environment's PATH is the binary and lints a bundled example.
func TestWheelInstallsAndRuns(t *testing.T) {
	res := built(t)
	whl := hostWheel(t, res)
	env := venv(t)
	bin := filepath.Join(env, "bin")
	if out, err := runIn(t, pipEnv(), filepath.Join(bin, "pip"), "install", "--no-index", whl); err != nil {
		t.Fatalf("pip install: %v\n%s", err, out)
	}
	fi, err := os.Stat(filepath.Join(bin, "trainlint"))
	if err != nil || fi.Mode().Perm()&0o111 == 0 {
		t.Fatalf("pip did not install an executable trainlint: %v %v", fi, err)
	}
	// Run it as a user would: the environment's bin first on PATH, no Go toolchain anywhere on it.
	userEnv := append(os.Environ(), "PATH="+bin+":/usr/bin:/bin", "NO_COLOR=1", "GITHUB_ACTIONS=")
	// Through a shell, so that `trainlint` is found on the environment's PATH as a user's shell
	// would find it (exec.Command would search the test's own PATH).
	out, err := runIn(t, userEnv, "/bin/sh", "-c", "command -v trainlint && trainlint version")
	if err != nil {
		t.Fatalf("trainlint version: %v\n%s", err, out)
	}
	for _, want := range []string{bin + "/trainlint\ntrainlint " + lint.Version + "\n", "built:   " + res.date.Format("2006-01-02T15:04:05Z") + "\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("trainlint version lacks %q:\n%s", want, out)
		}
	}
	if res.commit != "" && !strings.Contains(out, "commit:  "+res.commit) {
		t.Errorf("trainlint version lacks the commit %s:\n%s", res.commit, out)
	}
	t.Logf("installed wheel %s:\n%s", filepath.Base(whl), out)

	example, _ := filepath.Abs(filepath.Join("..", "trainlint", "examples", "hf-sft.yaml"))
	cmd := exec.Command("/bin/sh", "-c", `trainlint check "$1"`, "sh", example)
	cmd.Env = userEnv
	o, err := cmd.CombinedOutput()
	if code := cmd.ProcessState.ExitCode(); code != 1 {
		t.Errorf("trainlint check on %s: exit %d (%v), want 1\n%s", example, code, err, o)
	}
	if !strings.Contains(string(o), "TL202 eval-batch-smaller-than-train") {
		t.Errorf("trainlint check output lacks TL202:\n%s", o)
	}

	// python -m trainlint finds the same binary.
	if out, err := runIn(t, userEnv, filepath.Join(bin, "python"), "-m", "trainlint", "version"); err != nil || !strings.HasPrefix(out, "trainlint "+lint.Version) {
		t.Errorf("python -m trainlint version: %v\n%s", err, out)
	}
	// RECORD is right if pip can uninstall everything it installed.
	if out, err := runIn(t, pipEnv(), filepath.Join(bin, "pip"), "uninstall", "-y", "trainlint"); err != nil {
		t.Fatalf("pip uninstall: %v\n%s", err, out)
	}
	if _, err := os.Stat(filepath.Join(bin, "trainlint")); err == nil {
		t.Error("pip uninstall left bin/trainlint behind")
	}
}

// pip itself accepts each wheel's tags for the platform it names, and refuses the musllinux
// wheel on this glibc machine: the tags are real, not decorative.
func TestPipAcceptsEveryWheel(t *testing.T) {
	res := built(t)
	env := venv(t)
	pip := filepath.Join(env, "bin", "pip")
	for i, tg := range targets {
		plat := strings.Split(tg.platform, ".")[0]
		dir := t.TempDir()
		out, err := runIn(t, pipEnv(), pip, "install", "--no-index", "--no-deps", "--only-binary=:all:",
			"--platform", plat, "--target", dir, res.wheels[i])
		if err != nil {
			t.Errorf("pip install --platform %s: %v\n%s", plat, err, out)
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, "bin", tg.exe())); err != nil {
			t.Errorf("%s: pip --target did not install bin/%s", plat, tg.exe())
		}
	}
	if runtime.GOOS == "linux" && runtime.GOARCH == "amd64" && isGlibc() {
		for i, tg := range targets {
			if tg.platform == "musllinux_1_1_x86_64" {
				out, err := runIn(t, pipEnv(), pip, "install", "--no-index", "--dry-run", res.wheels[i])
				if err == nil || !strings.Contains(out, "not a supported wheel") {
					t.Errorf("pip accepted the musllinux wheel on a glibc system (%v):\n%s", err, out)
				}
			}
		}
	}
}

func isGlibc() bool {
	out, err := exec.Command("ldd", "--version").CombinedOutput()
	return err == nil && (bytes.Contains(out, []byte("GLIBC")) || bytes.Contains(out, []byte("GNU libc")))
}

// The GitHub Action downloads the bare binaries by the names dist gives them.
func TestActionDownloadsDistNames(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", ".github", "actions", "trainlint", "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	// The action builds the name as trainlint-$version-$os-$arch, plus .exe on Windows.
	if !bytes.Contains(b, []byte(`asset="trainlint-$version-$os-$arch"`)) || !bytes.Contains(b, []byte(`asset="$asset.exe"`)) {
		t.Fatal("action.yml no longer names the asset trainlint-$version-$os-$arch[.exe]")
	}
	for _, c := range []struct{ goos, goarch, want string }{
		{"linux", "amd64", "trainlint-1.2.3-linux-amd64"},
		{"darwin", "arm64", "trainlint-1.2.3-darwin-arm64"},
		{"windows", "amd64", "trainlint-1.2.3-windows-amd64.exe"},
	} {
		if got := binaryName("1.2.3", c.goos, c.goarch); got != c.want {
			t.Errorf("binaryName(%s/%s) = %s, the action downloads %s", c.goos, c.goarch, got, c.want)
		}
	}
}
