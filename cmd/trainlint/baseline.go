package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/baseline"
)

// The baseline step of check (--baseline FILE, --write-baseline FILE). The baseline in force is
// the one --write-baseline writes when given (so the run that records today's findings passes),
// else the one --baseline reads. Findings are matched by fingerprint, not by line: see package
// baseline. Paths are compared as reported, so run trainlint from the same folder (usually the
// repository root) when writing and when using a baseline.

// loadBaseline reads --baseline before any file is linted, so a missing or malformed baseline is
// a usage error (exit 2) rather than a run that quietly reports every old finding.
func (c *checkConfig) loadBaseline() (*baseline.Baseline, error) {
	if c.Baseline == "" || c.WriteBaseline != "" {
		return nil, nil
	}
	f, err := os.Open(c.Baseline)
	if err != nil {
		return nil, usagef("cannot read baseline: %v", err)
	}
	defer f.Close()
	b, err := baseline.Read(f)
	if err != nil {
		return nil, usagef("%s: %v", c.Baseline, err)
	}
	return b, nil
}

// applyBaseline writes --write-baseline from the full result, then returns the result without
// the findings the baseline in force accepts. Notes go to stderr, so stdout stays the report.
func (c *checkConfig) applyBaseline(res *lint.Result, b *baseline.Baseline, rules []*lint.Rule, stderr io.Writer) (*lint.Result, error) {
	if c.WriteBaseline != "" {
		var buf bytes.Buffer
		if err := baseline.Write(&buf, res); err != nil {
			return res, err
		}
		if err := writeBaselineFile(c.WriteBaseline, buf.Bytes()); err != nil {
			return res, fmt.Errorf("cannot write baseline: %w", err)
		}
		b = baseline.New(res)
		fmt.Fprintf(stderr, "trainlint: recorded %s in baseline %s; they are left out of this report\n", baselineCount(len(b.Entries), "finding"), c.WriteBaseline)
	}
	if b == nil {
		return res, nil
	}
	// Entries of rules this run did not select (--select, --ignore) are not fixed, only unchecked.
	active := map[string]bool{}
	for _, r := range lint.Selected(rules, c.Select, c.Ignore) {
		active[r.Code] = true
	}
	var gone []baseline.Entry
	for _, e := range baseline.Fixed(res, b) {
		if active[e.Code] {
			gone = append(gone, e)
		}
	}
	if len(gone) > 0 && c.WriteBaseline == "" {
		verb := "no longer occur"
		if len(gone) == 1 {
			verb = "no longer occurs"
		}
		fmt.Fprintf(stderr, "trainlint: %s recorded in %s %s; run with --write-baseline %s to update the baseline\n",
			baselineCount(len(gone), "finding"), c.Baseline, verb, c.Baseline)
	}
	kept := baseline.Filter(res, b)
	if c.WriteBaseline == "" {
		hidden := len(res.Diagnostics) - len(kept.Diagnostics)
		fmt.Fprintf(stderr, "trainlint: baseline %s hid %s; %d new reported\n", c.Baseline, baselineCount(hidden, "finding"), len(kept.Diagnostics))
	}
	return kept, nil
}

func baselineCount(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// writeBaselineFile writes through a temporary file in the same folder and renames it, so a
// failed run never leaves a truncated baseline that a later run would trust.
func writeBaselineFile(name string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), name)
}
