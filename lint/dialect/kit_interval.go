package dialect

import (
	"strconv"
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// The reading kit, part 4: one parser for wall-clock durations and interval spellings, used by
// every dialect. A dialect that accepts only some spellings checks the form (Lightning's Timer
// wants DD:HH:MM:SS; Composer's wall clock is XhYmZs).

// The spellings (stepsString, epochString, clockString, hmsString, unitWords) are matched in
// kit_match.go.

// durationForm is how a duration is spelled.
type durationForm uint8

const (
	formClock     durationForm = iota + 1 // HH:MM:SS
	formClockDays                         // DD:HH:MM:SS
	formHMS                               // integer parts in order, no spaces: "1h30m", "90s"
	formWords                             // one number and a unit word: "10 minutes", "1.5h", "2 d"
	formGo                                // any other Go duration: "1h0.5m", "500ms"
)

// durationSeconds parses a wall-clock duration as configs write it: clock "00:30:00" or
// "DD:HH:MM:SS", "1h30m", word units "10 minutes", "2h", or a Go duration. ok is false for
// anything else; form says which spelling it was.
func durationSeconds(s string) (secs float64, form durationForm, ok bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, 0, false
	}
	if m, ok := clockString(s); ok {
		d, h, mi, se := atoi(m[0]), atoi(m[1]), atoi(m[2]), atoi(m[3])
		form = formClock
		if m[0] != "" {
			form = formClockDays
		}
		return float64(((d*24+h)*60+mi)*60 + se), form, true
	}
	if m, ok := hmsString(s); ok {
		var total float64
		for i, unit := range []float64{3600, 60, 1} {
			if m[i] != "" {
				v, _ := strconv.ParseFloat(m[i], 64)
				total += v * unit
			}
		}
		return total, formHMS, true
	}
	if num, unit, ok := unitWords(s); ok {
		v, _ := strconv.ParseFloat(num, 64)
		switch u := strings.ToLower(unit); {
		case strings.HasPrefix(u, "s"):
			return v, formWords, true
		case u == "m" || strings.HasPrefix(u, "min"):
			return v * 60, formWords, true
		case strings.HasPrefix(u, "h"):
			return v * 3600, formWords, true
		case strings.HasPrefix(u, "d"):
			return v * 86400, formWords, true
		}
	}
	if d, ok := goDuration(strings.ReplaceAll(s, " ", "")); ok && d > 0 {
		return durationSecondsOf(d), formGo, true
	}
	return 0, 0, false
}

// genDurationSeconds is durationSeconds in any spelling (in-house configs).
func genDurationSeconds(s string) (float64, bool) {
	secs, _, ok := durationSeconds(s)
	return secs, ok
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
		f.Note = viaNote(via)
		return f
	}
	if v, ok := t.Float(); ok {
		return set(v, defUnit)
	}
	if num, ok := stepsString(t.Value); ok {
		v, _ := strconv.ParseFloat(num, 64)
		return set(v, plan.Steps)
	}
	if num, ok := epochString(t.Value); ok {
		v, _ := strconv.ParseFloat(num, 64)
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

func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil || n > 1<<30 {
		return 0
	}
	return n
}

// timedeltaUnit is a keyword argument of datetime.timedelta in seconds, and whether it is one
// (a switch, not a map built at init: see isBNKey).
func timedeltaUnit(kw string) (float64, bool) {
	switch kw {
	case "weeks":
		return 7 * 86400, true
	case "days":
		return 86400, true
	case "hours":
		return 3600, true
	case "minutes":
		return 60, true
	case "seconds":
		return 1, true
	case "milliseconds":
		return 1e-3, true
	case "microseconds":
		return 1e-6, true
	}
	return 0, false
}

// timedeltaMap reads a dict of timedelta kwargs ({minutes: 30}); a Hydra `_target_:
// datetime.timedelta` entry is allowed. ok is false when the map is not such a dict; complete
// is false when a component is not a number (an interpolation), leaving the total unknown.
func timedeltaMap(n *doc.Node) (secs float64, text string, ok, complete bool) {
	if n == nil || n.Kind != doc.Map || len(n.Children) == 0 {
		return 0, "", false, false
	}
	complete = true
	var parts []string
	for _, c := range n.Children {
		if c.Key == "_target_" {
			continue
		}
		unit, known := timedeltaUnit(c.Key)
		if !known {
			return 0, "", false, false
		}
		v, isNum := c.Float()
		if !isNum || c.Type == doc.String {
			complete = false
			parts = append(parts, c.Key+": "+c.Value)
			continue
		}
		secs += v * unit
		parts = append(parts, c.Key+": "+c.Value)
	}
	if len(parts) == 0 {
		return 0, "", false, false
	}
	return secs, "{" + strings.Join(parts, ", ") + "}", true, complete
}
