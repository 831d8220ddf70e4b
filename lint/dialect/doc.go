// Package dialect knows how each training framework spells the settings trainlint cares about,
// and is the only place that does: rules read the normalised plan.Plan and never name a framework.
//
// A Dialect is a value registered from its own file: it scores how likely a Document belongs to
// its framework (Detect) and normalises it into a plan.Plan (Normalize), filling in the
// framework's defaults for keys nobody wrote down. Beside the code it carries what rules and
// tools need to know about the framework:
//
//   - Keys: the keys it reads (path, type, default, the plan concept they feed, doc line), and
//     Settings, the framework's other settings; renamed and removed keys carry Replacement, How,
//     Since, Removed and Rename. `trainlint schema`, the site's framework pages, the unknown-key,
//     invalid-value and deprecated-key rules are built from these (Closed, SettingsName, Roots).
//   - Advice, by concept: the help a finding gets in this framework and its line on rule pages.
//   - Loader: what feeds the input (a PyTorch DataLoader, where prefetch needs workers).
//   - Interpolates (and RefSections): the framework loads files with OmegaConf, so ${a.b} names a
//     key; UnresolvedRefs (kit_interp.go) lists those that point into the file but find nothing.
//   - Fallback: recognised by shape only, consulted when no other dialect claims a file
//     (torchtitan, GPT-NeoX); Generic reads whatever is left.
//
// Every fact of the plan says where it came from (plan.Origin), the key and node it was read at,
// and, for a default, whose default it is (plan.Why: By "the Trainer default", Note "transformers
// v5"). Rules never parse notes: what they need to branch on is a typed field (plan.Granularity,
// plan.Retention.DroppedBest, plan.Logging.TextLogsOnly).
//
// # The reading kit
//
// The kit_*.go files are shared by every dialect: kit_read.go (typed fact readers: IntAt, IntOr,
// BoolOr, the gen* readers that follow references, intFact/boolFact for a section), kit_interp.go
// (the one ${...} resolver, OmegaConf's rules: dotted keys, list indices as in ${a.0}, resolvers
// and relative references not followed), kit_interval.go (one duration parser that reports the
// spelling, so a dialect accepts only its framework's; interval strings "500steps", "2ep"),
// kit_bn.go (one batch-norm word list and evidence scan) and kit_detect.go (evidence scoring,
// rank-derived seeds). The generic reader (generic.go, generic_sections.go) is there for in-house
// files and for frameworks without a schema of their own; [mapping] (mapping.go) teaches it a
// team's key names by concept.
//
// # How to add a framework
//
// Three things, nothing else (torchtitan.go and gptneox.go are small examples):
//
//  1. One dialect file, <framework>.go, whose registry line is
//     `var X = register(&Dialect{Name: "<id>", Title: ..., Version: "<checked against>",
//     Formats: ..., Detect: ..., Normalize: ..., Keys: ..., Advice: ..., Loader: ...})`.
//     Normalize fills plan facts with the kit's readers: plan.Set for what the file says,
//     plan.Defaulted(v, key, plan.Why{By: "the X default", Note: "<version>"}, at) for the
//     framework's defaults, checked in its source at a named version. End with ApplyContext.
//  2. One golden archive, testdata/<id>.txtar: configs in, the Plan out (every fact with origin,
//     key and line). Write the configs, run `go test ./lint/dialect -run TestDialectGolden
//     -update`, and read the plan it wrote. TestDialectGolden fails for a dialect without one.
//  3. If the shared corpus has files of the framework, their MANIFEST.tsv label is the id (or
//     TestCorpusDetection maps it in tcgExpected).
//
// A dialect written against the earlier API ports mechanically: a default's note becomes a
// plan.Why (plan.Defaulted(v, key, plan.Why{By: "the X default", Note: "v1.2"}, at), or
// plan.Because(text) when it is no one's default in particular, and why.Plus(more) for
// note+": more"); Key.Deprecated: "new" becomes Replacement: "new", Rename: "safe"; help texts
// that a rule switched on the framework id become the dialect's Advice.
//
// The id then works everywhere: --framework <id>, [[files]] framework = "<id>", the JSON output,
// `trainlint schema <id>`, rule testdata sections named bad-<id>.yaml, and the rule pages, whose
// framework lists and fix lists are derived from the dialects and the rules' testdata.
package dialect
