package dialect

import (
	"strconv"
	"strings"
	"time"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// ---------------------------------------------------------------------------------------------
// Interval spellings.

var (
	genStepsString = lazyRegexp(`(?i)^\s*(\d+(?:\.\d+)?(?:e\d+)?)\s*(steps?|ba|batch(?:es)?|iters?|iterations?|it)\s*$`)
	genEpochString = lazyRegexp(`(?i)^\s*(\d+(?:\.\d+)?)\s*(ep|epochs?)\s*$`)
	genClockString = lazyRegexp(`^\s*(?:(\d+):)?(\d{1,2}):(\d{1,2}):(\d{1,2})\s*$`)
	genUnitWords   = lazyRegexp(`(?i)^\s*(\d+(?:\.\d+)?)\s*(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?|d|days?)\s*$`)
)

// genDurationSeconds parses a wall-clock duration as teams write it: Go-style "1h30m", "90s", "30m",
// word units "10 minutes", "2h", clock "00:30:00" or "DD:HH:MM:SS". ok is false for anything else.
func genDurationSeconds(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, false
	}
	if m := genUnitWords().FindStringSubmatch(s); m != nil {
		v, _ := strconv.ParseFloat(m[1], 64)
		switch u := strings.ToLower(m[2]); {
		case strings.HasPrefix(u, "s"):
			return v, true
		case u == "m" || strings.HasPrefix(u, "min"):
			return v * 60, true
		case strings.HasPrefix(u, "h"):
			return v * 3600, true
		case strings.HasPrefix(u, "d"):
			return v * 86400, true
		}
	}
	if m := genClockString().FindStringSubmatch(s); m != nil {
		d, _ := strconv.Atoi(m[1])
		h, _ := strconv.Atoi(m[2])
		mi, _ := strconv.Atoi(m[3])
		se, _ := strconv.Atoi(m[4])
		return float64(((d*24+h)*60+mi)*60 + se), true
	}
	if d, err := time.ParseDuration(strings.ReplaceAll(s, " ", "")); err == nil && d > 0 {
		return d.Seconds(), true
	}
	return 0, false
}

// genericInterval reads an interval value whose key does not state a unit: a bare number is in
// the key's unit (defUnit), a string may carry its own ("500steps", "2 epochs", "30m").
func genericInterval(root, n *doc.Node, key string, defUnit plan.Unit) plan.Fact[plan.Interval] {
	t, via := genDeref(root, n)
	if !t.IsScalar() || t.IsNull() || t.IsUnknown() || t.Type == doc.Bool {
		return plan.Fact[plan.Interval]{Key: key, Node: n}
	}
	set := func(v float64, u plan.Unit) plan.Fact[plan.Interval] {
		f := plan.Set(plan.Interval{Value: v, Unit: u, Text: t.Value}, key, n)
		f.Note = genViaNote(via)
		return f
	}
	if v, ok := t.Float(); ok {
		return set(v, defUnit)
	}
	if m := genStepsString().FindStringSubmatch(t.Value); m != nil {
		v, _ := strconv.ParseFloat(m[1], 64)
		return set(v, plan.Steps)
	}
	if m := genEpochString().FindStringSubmatch(t.Value); m != nil {
		v, _ := strconv.ParseFloat(m[1], 64)
		return set(v, plan.Epochs)
	}
	if secs, ok := genDurationSeconds(t.Value); ok {
		return set(secs, plan.Seconds)
	}
	return plan.Fact[plan.Interval]{Key: key, Node: n}
}

func genUnitWord(s string, def plan.Unit) plan.Unit {
	switch u := strings.ToLower(strings.TrimSpace(s)); {
	case u == "":
		return def
	case strings.HasPrefix(u, "step"), strings.HasPrefix(u, "iter"), strings.HasPrefix(u, "batch"), u == "ba":
		return plan.Steps
	case strings.HasPrefix(u, "ep"):
		return plan.Epochs
	case strings.HasPrefix(u, "sec"), u == "s":
		return plan.Seconds
	case strings.HasPrefix(u, "sample"):
		return plan.Samples
	case strings.HasPrefix(u, "tok"):
		return plan.Tokens
	}
	return def
}
