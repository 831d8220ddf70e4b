package lint

import (
	"errors"
	"strconv"
	"strings"
)

// Severity of a finding.
type Severity int

const (
	Info Severity = iota + 1
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "none"
}

// ParseSeverity reads "info", "warning" or "error".
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "info", "note":
		return Info, nil
	case "warning", "warn":
		return Warning, nil
	case "error":
		return Error, nil
	}
	return 0, errors.New("unknown severity " + strconv.Quote(s) + " (want error, warning or info)")
}

func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Categories, in catalogue order.
const (
	CatStructure     = "structure"
	CatInputPipeline = "input-pipeline"
	CatEvaluation    = "evaluation"
	CatCheckpoints   = "checkpoints"
	CatTracking      = "tracking"
	CatBatchNorm     = "batch-norm"
	CatMultiHost     = "multi-host"
	CatBatchSchedule = "batch-and-schedule"
)

// PlaybookURL is the canonical playbook; rule anchors are appended to it.
const PlaybookURL = "https://github.com/google-research/tuning_playbook"

// SiteURL is where the guidance site is published; rule pages live at SiteURL/rules/<name>/.
const SiteURL = "https://trainlint.github.io"

// Option is one tunable of a rule, set in the config file under [rules.<name>].
type Option struct {
	// noEq: not comparable, so the light WebAssembly module links no equality function for
	// it (site/doc.go); compare fields.
	noEq [0]func()

	Name    string `json:"name"`
	Type    string `json:"type"` // "integer", "number", "boolean", "string"
	Default any    `json:"default"`
	Doc     string `json:"doc"`
}

// Rule is one check: metadata beside the code. Rules hold no state; Check reports through the Pass.
type Rule struct {
	Code     string // "TL202"; stable
	Name     string // "eval-batch-smaller-than-train"; stable
	Title    string // one line, sentence case, no period
	Category string
	Severity Severity // default severity
	// Anchor is the playbook section slug ("setting-up-periodic-evaluations"); "" for structure rules.
	Anchor string
	// Rationale is Markdown: why it matters, in our own words (adapted from the playbook).
	Rationale string
	// Fix is Markdown: how to fix it in general. FixText is the whole text: when FixList is
	// set, Fix is only its start (at least the first paragraph, which a finding without help
	// of its own shows).
	Fix string
	// FixList, when set, makes the whole fix text from Fix (the rules' per-framework lists,
	// from the dialects' advice). It runs when the text is read (FixText: rule pages, the
	// catalogue, explain, editor hovers), not when the rule is registered: a lint does not read
	// it, and the checker does not build 26 lists before it is ready.
	FixList func(fix string) string
	// Frameworks the rule can fire in ("*" for all).
	Frameworks []string
	Options    []Option
	// Off reports that the rule runs only when selected explicitly.
	Off bool
	// NeedsPlan: skip the rule when the file could not be parsed or normalised.
	NeedsPlan bool
	// Composed marks a structure rule that also runs on composed runs (LintRun): its facts may
	// come from several files of the run (a start-up check between a recipe and its DeepSpeed
	// file). Other structure rules run on each file alone.
	Composed bool
	Check    func(*Pass)
}

// FixText is the rule's whole fix text (Markdown): Fix, completed by FixList when set.
func (r *Rule) FixText() string {
	if r.FixList == nil {
		return r.Fix
	}
	return r.FixList(r.Fix)
}

// URL is the rule's page on the site.
func (r *Rule) URL() string { return SiteURL + "/rules/" + r.Name + "/" }

// PlaybookLink is the playbook section the rule enforces ("" for structure rules).
func (r *Rule) PlaybookLink() string {
	if r.Anchor == "" {
		return ""
	}
	return PlaybookURL + "#" + r.Anchor
}

// OptionDefault returns the default of a named option, or nil.
func (r *Rule) OptionDefault(name string) any {
	for _, o := range r.Options {
		if o.Name == name {
			return o.Default
		}
	}
	return nil
}
