package measure

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

func TestMedian(t *testing.T) {
	xs := []float64{5, 1, 3, 2}
	for _, c := range []struct {
		in   []float64
		want float64
	}{{nil, 0}, {[]float64{7}, 7}, {[]float64{3, 1, 2}, 2}, {xs, 3}} {
		if got := Median(c.in); got != c.want {
			t.Errorf("Median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
	if xs[0] != 5 || xs[1] != 1 {
		t.Errorf("Median reordered its input: %v", xs)
	}
	if l := LoadPerCPU(); l < 0 {
		t.Errorf("LoadPerCPU = %v", l)
	}
}

// A browser that never starts is tried three times, each with a profile folder of its own, and
// leaves no folder behind.
func TestLaunchRetriesAFailedStart(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	log := filepath.Join(t.TempDir(), "calls")
	script := filepath.Join(t.TempDir(), "chromium")
	body := "#!/bin/sh\nfor a in \"$@\"; do case $a in --user-data-dir=*) echo \"$a\" >> " + log + ";; esac; done\necho 'no zygote' >&2\nexit 1\n"
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		t.Fatal(err)
	}
	ran := 0
	_, _, failed, err := Launch(script, nil, func(ctx context.Context) error {
		ran++
		return chromedp.Do(ctx, chromedp.Navigate("about:blank"))
	})
	if err == nil || len(failed) != 2 || ran != 3 {
		t.Fatalf("Launch of a browser that exits at once: err %v, %d earlier failures, first ran %d times; want an error, 2, 3", err, len(failed), ran)
	}
	calls, _ := os.ReadFile(log)
	dirs := strings.Fields(string(calls))
	if len(dirs) != 3 || dirs[0] == dirs[1] || dirs[1] == dirs[2] {
		t.Errorf("profile folders of the three starts: %q; want three different ones", dirs)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("Launch left %d entries in the temporary folder: %v", len(left), left[0].Name())
	}
}
