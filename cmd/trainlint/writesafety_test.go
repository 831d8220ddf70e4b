//go:build unix

package main

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Write safety (issue 15): --fix and --output must not write outside the tree through a link,
// must leave read-only files, hard links and files edited meanwhile alone with a message, keep
// mode and owner, and leave no temporary file behind on an interrupt.
//
// Permission checks pass for root, and CI runs as root, so the cases run as an unprivileged
// user: as root, TestWriteSafety copies the test binary where that user can run it and runs
// itself again as nobody (uid and gid 65534); it fails, never skips, when that is impossible.
// What only root can set up (a file owned by another user) is tested by root before that.

const nobody = 65534

func TestWriteSafety(t *testing.T) {
	if os.Getenv("TRAINLINT_WRITE_SAFETY_CHILD") == "" && os.Geteuid() == 0 {
		t.Run("owner kept", ownerKept)
		runAsNobody(t, "^TestWriteSafety$")
		return
	}
	if os.Geteuid() == 0 {
		t.Fatal("the write-safety cases must not run as root: permission checks would pass")
	}
	t.Run("symlink out of the tree", fixSymlinkOut)
	t.Run("symlink inside the tree", fixSymlinkInside)
	t.Run("read-only file", fixReadOnlyFile)
	t.Run("read-only folder", fixReadOnlyFolder)
	t.Run("hard links", fixHardLinks)
	t.Run("mode kept", fixModeKept)
	t.Run("edited meanwhile", fixEditedMeanwhile)
	t.Run("interrupt", fixInterrupt)
	t.Run("output through a symlink", outputSymlink)
	t.Run("output in a read-only folder", outputReadOnlyFolder)
}

// runAsNobody runs the tests matching run in a copy of the test binary as uid/gid 65534.
func runAsNobody(t *testing.T, run string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatalf("cannot find the test binary to run it unprivileged: %v", err)
	}
	dir, err := os.MkdirTemp("", "trainlint-nobody-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	tmp := filepath.Join(dir, "tmp")
	for _, d := range []string{dir, tmp} {
		os.MkdirAll(d, 0o755)
		os.Chmod(d, 0o755)
	}
	if err := os.Chown(tmp, nobody, nobody); err != nil {
		t.Fatalf("cannot give a folder to nobody: %v", err)
	}
	bin := filepath.Join(dir, "trainlint.test")
	if err := copyFile(self, bin); err != nil {
		t.Fatalf("cannot copy the test binary: %v", err)
	}
	cmd := exec.Command(bin, "-test.run", run, "-test.v", "-test.count=1")
	cmd.Dir = tmp
	cmd.Env = []string{"TRAINLINT_WRITE_SAFETY_CHILD=1", "TMPDIR=" + tmp, "HOME=" + tmp, "PATH=" + os.Getenv("PATH")}
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.CombinedOutput()
	t.Logf("as nobody:\n%s", out)
	if err != nil {
		t.Fatalf("the write-safety cases failed as nobody (or could not run as nobody): %v", err)
	}
	if !strings.Contains(string(out), "--- PASS: TestWriteSafety/read-only_file") {
		t.Fatal("the write-safety cases did not run as nobody")
	}
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// noTemps fails when a temporary file of trainlint is left in dir.
func noTemps(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.Contains(d.Name(), ".trainlint-") {
			t.Errorf("temporary file left: %s", p)
		}
		return nil
	})
}

func fixSymlinkOut(t *testing.T) {
	dir := writeTree(t, map[string]string{"outside/sft.yaml": sftRecipe, "repo/.git/HEAD": "ref: x\n", "repo/ok.yaml": "a: 1\n"})
	if err := os.Symlink(filepath.Join(dir, "outside", "sft.yaml"), filepath.Join(dir, "repo", "linked.yaml")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(dir, "repo"))
	code, _, stderr := cli(t, nil, "check", "--fix", ".")
	if got := readFile(t, filepath.Join(dir, "outside", "sft.yaml")); got != sftRecipe {
		t.Fatalf("the file outside the tree was written through a link:\n%s", got)
	}
	if code != exitUsage || !strings.Contains(stderr, `cannot write the fixes to "linked.yaml": it is a symbolic link to `) || !strings.Contains(stderr, "outside") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if fi, err := os.Lstat("linked.yaml"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is no longer a link: %v", err)
	}
}

func fixSymlinkInside(t *testing.T) {
	dir := writeTree(t, map[string]string{"real/sft.yaml": sftRecipe})
	if err := os.Symlink(filepath.Join("real", "sft.yaml"), filepath.Join(dir, "linked.yaml")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := cli(t, nil, "check", "--fix", "linked.yaml")
	if got := readFile(t, filepath.Join(dir, "real", "sft.yaml")); got != sftFixed {
		t.Errorf("target of a link inside the tree not fixed (exit %d, %s):\n%s", code, stderr, got)
	}
	if fi, err := os.Lstat("linked.yaml"); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link is no longer a link: %v", err)
	}
	noTemps(t, dir)
}

func fixReadOnlyFile(t *testing.T) {
	dir := writeTree(t, map[string]string{"sft.yaml": sftRecipe})
	os.Chmod("sft.yaml", 0o444)
	code, _, stderr := cli(t, nil, "check", "--fix", "sft.yaml")
	if got := readFile(t, "sft.yaml"); got != sftRecipe {
		t.Fatalf("read-only file rewritten:\n%s", got)
	}
	if code != exitUsage || !strings.Contains(stderr, `cannot write the fixes to "sft.yaml": the file is read-only; it was left unchanged`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	if fi, _ := os.Stat("sft.yaml"); fi.Mode().Perm() != 0o444 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
	noTemps(t, dir)
}

func fixReadOnlyFolder(t *testing.T) {
	dir := writeTree(t, map[string]string{"ro/sft.yaml": sftRecipe})
	os.Chmod(filepath.Join(dir, "ro"), 0o555)
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "ro"), 0o755) })
	code, _, stderr := cli(t, nil, "check", "--fix", "ro/sft.yaml")
	if got := readFile(t, "ro/sft.yaml"); got != sftRecipe {
		t.Fatalf("file changed:\n%s", got)
	}
	if code != exitUsage || !strings.Contains(stderr, `cannot write the fixes to "ro/sft.yaml": its folder is not writable`) {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func fixHardLinks(t *testing.T) {
	dir := writeTree(t, map[string]string{"sft.yaml": sftRecipe})
	if err := os.Link("sft.yaml", "other-name.yml"); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := cli(t, nil, "check", "--fix", "sft.yaml")
	if code != exitUsage || !strings.Contains(stderr, "the file has 2 hard links; replacing it would split them") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	a, _ := os.Stat("sft.yaml")
	b, _ := os.Stat("other-name.yml")
	if !os.SameFile(a, b) || readFile(t, "sft.yaml") != sftRecipe {
		t.Error("hard links split or file changed")
	}
	noTemps(t, dir)
}

func fixModeKept(t *testing.T) {
	dir := writeTree(t, map[string]string{"sft.yaml": sftRecipe})
	os.Chmod("sft.yaml", 0o640)
	code, _, stderr := cli(t, nil, "check", "--fix", "sft.yaml")
	if got := readFile(t, "sft.yaml"); got != sftFixed {
		t.Fatalf("not fixed (exit %d, %s):\n%s", code, stderr, got)
	}
	if fi, _ := os.Stat("sft.yaml"); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode after --fix %v, want 0640", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("folder holds %d entries, want 1", len(entries))
	}
}

// ownerKept runs as root: a file of another user keeps its owner and group.
func ownerKept(t *testing.T) {
	writeTree(t, map[string]string{"sft.yaml": sftRecipe})
	if err := os.Chown("sft.yaml", 1234, 2345); err != nil {
		t.Fatal(err)
	}
	cli(t, nil, "check", "--fix", "sft.yaml")
	fi, _ := os.Stat("sft.yaml")
	st := fi.Sys().(*syscall.Stat_t)
	if readFile(t, "sft.yaml") != sftFixed || st.Uid != 1234 || st.Gid != 2345 {
		t.Errorf("owner %d:%d after --fix, want 1234:2345", st.Uid, st.Gid)
	}
}

func fixEditedMeanwhile(t *testing.T) {
	dir := writeTree(t, map[string]string{"sft.yaml": sftRecipe})
	edited := sftRecipe + "# a line the user added while --fix ran\n"
	beforeRename = func(string) { os.WriteFile(filepath.Join(dir, "sft.yaml"), []byte(edited), 0o644) }
	t.Cleanup(func() { beforeRename = func(string) {} })
	code, _, stderr := cli(t, nil, "check", "--fix", "sft.yaml")
	if got := readFile(t, "sft.yaml"); got != edited {
		t.Fatalf("the user's edit was lost:\n%s", got)
	}
	if code != exitUsage || !strings.Contains(stderr, "the file changed while the fixes were computed; it was left as it is") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	noTemps(t, dir)
}

// TestHelperInterrupt is not a test: fixInterrupt runs the test binary with it, to fix a file
// and receive SIGTERM once the temporary file is written.
func TestHelperInterrupt(t *testing.T) {
	file := os.Getenv("TRAINLINT_INTERRUPT_FILE")
	if file == "" {
		return
	}
	beforeRename = func(string) {
		syscall.Kill(os.Getpid(), syscall.SIGTERM)
		time.Sleep(10 * time.Second)
	}
	run([]string{"check", "--fix", file}, nil, io.Discard, io.Discard)
	t.Fatal("still running after SIGTERM")
}

func fixInterrupt(t *testing.T) {
	dir := writeTree(t, map[string]string{"sft.yaml": sftRecipe})
	cmd := exec.Command(os.Args[0], "-test.run", "^TestHelperInterrupt$")
	cmd.Env = append(os.Environ(), "TRAINLINT_INTERRUPT_FILE="+filepath.Join(dir, "sft.yaml"))
	err := cmd.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("helper: %v", err)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGTERM {
		t.Errorf("helper did not end by SIGTERM: %v", err)
	}
	if got := readFile(t, "sft.yaml"); got != sftRecipe {
		t.Errorf("file changed:\n%s", got)
	}
	noTemps(t, dir)
}

func outputSymlink(t *testing.T) {
	dir := writeTree(t, map[string]string{"repo/a.yaml": "a: 1\n", "x.sh": "#!/bin/sh\necho hi\n"})
	os.Chmod(filepath.Join(dir, "x.sh"), 0o755)
	t.Chdir(filepath.Join(dir, "repo"))
	if err := os.Symlink("../x.sh", "report.txt"); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := cli(t, nil, "check", "--output", "json=report.txt", "--output", "text=/dev/null", "a.yaml")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if got := readFile(t, filepath.Join(dir, "x.sh")); got != "#!/bin/sh\necho hi\n" {
		t.Errorf("the link's target was overwritten:\n%s", got)
	}
	fi, err := os.Lstat("report.txt")
	if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o644 || !strings.Contains(readFile(t, "report.txt"), `"version": 1`) {
		t.Errorf("report.txt: %v %v", fi.Mode(), err)
	}
	if fi, _ := os.Stat(filepath.Join(dir, "x.sh")); fi.Mode().Perm() != 0o755 {
		t.Errorf("x.sh mode %v", fi.Mode().Perm())
	}
	noTemps(t, dir)
}

// outputReadOnlyFolder: an existing report the user may write, in a folder they may not, is
// written in place; a new one there is a clear error.
func outputReadOnlyFolder(t *testing.T) {
	dir := writeTree(t, map[string]string{"a.yaml": "a: 1\n", "out/report.json": "old\n"})
	os.Chmod(filepath.Join(dir, "out"), 0o555)
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "out"), 0o755) })
	code, _, stderr := cli(t, nil, "check", "--output", "json=out/report.json", "a.yaml")
	if code != exitOK || !strings.Contains(readFile(t, "out/report.json"), `"version": 1`) {
		t.Errorf("existing report: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = cli(t, nil, "check", "--output", "json=out/new.json", "a.yaml")
	if code != exitUsage || !strings.Contains(stderr, "cannot write json output") || !strings.Contains(stderr, "permission denied") {
		t.Errorf("new report: exit %d, stderr %q", code, stderr)
	}
	noTemps(t, dir)
}
