package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// ensureDebianTool returns the path of a command, installing its Debian package when it is
// missing and this is root (CI); otherwise the test fails rather than skipping.
func ensureDebianTool(t *testing.T, command, pkg string) string {
	t.Helper()
	if p, err := exec.LookPath(command); err == nil {
		return p
	}
	if os.Geteuid() != 0 {
		t.Fatalf("%s is missing and this is not root: install it with `apt-get install -y %s`", command, pkg)
	}
	for _, args := range [][]string{{"update", "-qq"}, {"install", "-y", "-qq", pkg}} {
		cmd := exec.Command("apt-get", args...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("apt-get %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	p, err := exec.LookPath(command)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var (
	stampedOnce sync.Once
	stampedDir  string
	stampedErr  error
)

// stampedBinary builds trainlint the way the Makefile does, with the commit and build date
// linked in, into a folder that the shells find on PATH.
func stampedBinary(t *testing.T) string {
	t.Helper()
	stampedOnce.Do(func() {
		stampedDir, stampedErr = os.MkdirTemp("", "trainlint-completion-")
		if stampedErr != nil {
			return
		}
		cmd := exec.Command("go", "build", "-buildvcs=false", "-ldflags",
			"-X main.commit=0123456789abcdef0123456789abcdef01234567 -X main.modified=true -X main.date=2026-12-01T09:00:00Z",
			"-o", filepath.Join(stampedDir, "trainlint"), ".")
		if out, err := cmd.CombinedOutput(); err != nil {
			stampedErr = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if stampedErr != nil {
		t.Fatal(stampedErr)
	}
	return stampedDir
}

// TestMain removes the folder of the binary stampedBinary built once for the package's tests.
func TestMain(m *testing.M) {
	code := m.Run()
	if stampedDir != "" {
		os.RemoveAll(stampedDir)
	}
	os.Exit(code)
}

// Every subcommand of the usage text is offered by the completion scripts.
func TestCompletionCoversSubcommands(t *testing.T) {
	re := regexp.MustCompile(`(?m)^  trainlint (\[?[a-z]+)`)
	offered := map[string]bool{}
	for _, s := range subcommands {
		offered[s.name] = true
	}
	n := 0
	for _, m := range re.FindAllStringSubmatch(usageText, -1) {
		name := strings.TrimPrefix(m[1], "[")
		n++
		if !offered[name] {
			t.Errorf("subcommand %q of the usage is not in the completion's list", name)
		}
	}
	if n < 7 {
		t.Errorf("found only %d subcommands in the usage text", n)
	}
}

func TestVersionStamped(t *testing.T) {
	dir := stampedBinary(t)
	out, err := exec.Command(filepath.Join(dir, "trainlint"), "version").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"commit:  0123456789abcdef0123456789abcdef01234567 (with uncommitted changes)\n",
		"built:   2026-12-01T09:00:00Z\n",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("version lacks %q:\n%s", want, out)
		}
	}
}

func TestCompletionUsage(t *testing.T) {
	for _, args := range [][]string{{"completion"}, {"completion", "tcsh"}, {"completion", "bash", "zsh"}} {
		if code, _, _ := cli(t, nil, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// shellOut runs a script in a shell with the stamped trainlint first on PATH.
func shellOut(t *testing.T, shell string, args ...string) string {
	t.Helper()
	cmd := exec.Command(shell, args...)
	cmd.Env = append(os.Environ(), "PATH="+stampedBinary(t)+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s %q: %v\n%s", shell, args, err, out)
	}
	return string(out)
}

func TestCompletionBash(t *testing.T) {
	bash := ensureDebianTool(t, "bash", "bash")
	if out := shellOut(t, bash, "-c", "source <(trainlint completion bash); complete -p trainlint"); !strings.Contains(out, "-F _trainlint") || !strings.Contains(out, " trainlint") {
		t.Fatalf("complete -p: %s", out)
	}
	// What the completion function offers for a command line, the cursor on its last word.
	complete := func(line string) []string {
		words := strings.Fields(line)
		if strings.HasSuffix(line, " ") {
			words = append(words, "")
		}
		script := "source <(trainlint completion bash); COMP_WORDS=("
		for _, w := range words {
			script += "'" + w + "' "
		}
		script += "); COMP_CWORD=" + strconv.Itoa(len(words)-1) + "; _trainlint; printf '%s\\n' \"${COMPREPLY[@]}\""
		return strings.Fields(shellOut(t, bash, "-c", script))
	}
	for _, c := range []struct {
		line string
		want []string
	}{
		{"trainlint ch", []string{"check"}},
		{"trainlint comp", []string{"completion"}},
		{"trainlint check --select TL20", []string{"TL201", "TL202", "TL203", "TL204", "TL205", "TL209"}},
		{"trainlint --select TL20", []string{"TL201", "TL202", "TL203", "TL204", "TL205", "TL209"}},
		{"trainlint --format j", []string{"json", "junit"}},
		{"trainlint --hosts 4 ch", []string{"check"}},
		{"trainlint rules --format ", []string{"text", "json"}},
		{"trainlint rules --f", []string{"--format"}},
		{"trainlint check --ignore TL101,TL20", []string{"TL101,TL201", "TL101,TL202", "TL101,TL203", "TL101,TL204", "TL101,TL205", "TL101,TL209"}},
		{"trainlint configs/ --select eval-b", []string{"eval-batch-smaller-than-train", "eval-batch-much-larger-than-train"}},
		{"trainlint check --format sa", []string{"sarif"}},
		{"trainlint check --fail-on w", []string{"warning"}},
		{"trainlint check --framework hugg", []string{"huggingface"}},
		{"trainlint check --no-c", []string{"--no-color"}},
		{"trainlint explain TL60", []string{"TL601", "TL602", "TL603", "TL604", "TL606", "TL608"}},
		{"trainlint schema con", []string{"config"}},
		{"trainlint completion f", []string{"fish"}},
	} {
		got := complete(c.line)
		if strings.Join(got, " ") != strings.Join(c.want, " ") {
			t.Errorf("%q completes to %q, want %q", c.line, got, c.want)
		}
	}
}

// The zsh script parses, and registers its function when sourced after compinit.
func TestCompletionZsh(t *testing.T) {
	zsh := ensureDebianTool(t, "zsh", "zsh")
	shellOut(t, zsh, "-f", "-c", "trainlint completion zsh > $HOME/_trainlint && zsh -n $HOME/_trainlint")
	out := shellOut(t, zsh, "-f", "-c", "autoload -Uz compinit && compinit -u -d $HOME/.zcompdump; source <(trainlint completion zsh); print -r -- \"registered=$_comps[trainlint]\"; whence -w _trainlint _trainlint_check _trainlint_rules")
	for _, want := range []string{"registered=_trainlint", "_trainlint: function", "_trainlint_check: function", "_trainlint_rules: function"} {
		if !strings.Contains(out, want) {
			t.Errorf("zsh output lacks %q:\n%s", want, out)
		}
	}
}

// zshDriver types command lines into an interactive zsh on a pseudo-terminal (zsh/zpty), presses
// Tab on each, and records what the completion functions hand to compadd, one "== N" line
// after the matches of the N-th command line. Each line waits for a marker the shell computes
// (so the echo of the typed command cannot match it early).
const zshDriver = `zmodload zsh/zpty
out=$1; shift
: > $out
zpty z zsh -f -i
zpty -w z "autoload -Uz compinit && compinit -u -D"
zpty -w z "source <(trainlint completion zsh)"
zpty -w z 'compadd() { local -a __m; builtin compadd -O __m "$@"; print -rl -- $__m >> '$out'; print -n CADD$((6*7)); builtin compadd "$@" }'
zpty -w z "bindkey '^I' complete-word"
zpty -w z 'print READY$((6*7))'
zpty -r z line '*READY42*' || exit 3
n=0
for l in "$@"; do
  (( n++ ))
  zpty -n -w z "$l"$'\t'
  # Wait until the completion ran: zle skips completing when more input is already queued,
  # which happened on a loaded machine when ^U followed too fast.
  zpty -r z line '*CADD42*' || exit 5
  zpty -n -w z $'\C-u'
  zpty -w z "print -r -- '== $n' >> $out; print DONE\$(( $n * 1000 + 1 ))"
  zpty -r z line "*DONE$(( n * 1000 + 1 ))*" || exit 4
done
zpty -d z
`

// The zsh completion offers subcommands, rules, formats and rule lists when Tab is pressed in
// a real interactive zsh.
func TestCompletionZshCompletes(t *testing.T) {
	zsh := ensureDebianTool(t, "zsh", "zsh")
	dir := t.TempDir()
	driver := filepath.Join(dir, "driver.zsh")
	os.WriteFile(driver, []byte(zshDriver), 0o644)
	cases := []struct {
		line string
		want []string
		not  string
	}{
		{"trainlint ch", []string{"check"}, "rules"},
		{"trainlint check --select TL20", []string{"TL201", "TL202"}, "TL101"},
		{"trainlint --format sa", []string{"sarif"}, "text"},
		{"trainlint check --fail-on w", []string{"warning"}, "error"},
		{"trainlint explain TL60", []string{"TL601", "TL602", "TL603", "TL604", "TL606", "TL608"}, "TL202"},
		{"trainlint check --ignore TL101,TL20", []string{"TL201", "TL202"}, "TL301"},
		{"trainlint completion f", []string{"fish"}, "bash"},
	}
	args := []string{"-f", driver, filepath.Join(dir, "out.txt")}
	for _, c := range cases {
		args = append(args, c.line)
	}
	cmd := exec.Command("timeout", append([]string{"60", zsh}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "PATH="+stampedBinary(t)+string(os.PathListSeparator)+os.Getenv("PATH"), "HOME="+dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("zsh driver: %v\n%s", err, out)
	}
	b, err := os.ReadFile(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	groups := map[int][]string{}
	n := 1
	for _, l := range strings.Split(string(b), "\n") {
		if k, ok := strings.CutPrefix(l, "== "); ok {
			n, _ = strconv.Atoi(k)
			n++
			continue
		}
		if l != "" {
			groups[n] = append(groups[n], l)
		}
	}
	for i, c := range cases {
		got := groups[i+1]
		for _, w := range c.want {
			if !slices.Contains(got, w) {
				t.Errorf("zsh: %q offers %q, want %q among them", c.line, got, w)
			}
		}
		if slices.Contains(got, c.not) {
			t.Errorf("zsh: %q offers %q, which includes %q", c.line, got, c.not)
		}
	}
}

// The fish script parses, and fish's own completion engine offers the rules, formats and
// subcommands from it.
func TestCompletionFish(t *testing.T) {
	fish := ensureDebianTool(t, "fish", "fish")
	shellOut(t, fish, "-c", "trainlint completion fish > $HOME/trainlint.fish; and fish -n $HOME/trainlint.fish")
	complete := func(line string) string {
		return shellOut(t, fish, "--no-config", "-c", "trainlint completion fish | source; complete -C '"+line+"'")
	}
	for _, c := range []struct{ line, want, not string }{
		{"trainlint ch", "check\tlint files and folders", ""},
		{"trainlint check --select TL20", "TL202\teval-batch-smaller-than-train", "TL101"},
		{"trainlint check --select TL101,TL20", "TL101,TL202", ""},
		{"trainlint --format sa", "sarif\t", "text\t"},
		{"trainlint check --fail-on ", "warning", ""},
		{"trainlint explain eval-b", "eval-batch-smaller-than-train", ""},
		{"trainlint rules --format ", "json", "sarif"},
	} {
		out := complete(c.line)
		if !strings.Contains(out, c.want) || (c.not != "" && strings.Contains(out, c.not)) {
			t.Errorf("fish completes %q to:\n%s\nwant %q, not %q", c.line, out, c.want, c.not)
		}
	}
}
