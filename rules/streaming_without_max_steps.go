package rules

import (
	"github.com/trainlint/trainlint/lint"
)

// StreamingWithoutMaxSteps reports streamed training data with no step budget.
var StreamingWithoutMaxSteps = register(&streamingWithoutMaxStepsDef)

var streamingWithoutMaxStepsDef = lint.Rule{
	Code: "TL107", Name: "streaming-without-max-steps", Category: lint.CatInputPipeline, Severity: lint.Error,
	Anchor:    "optimizing-the-input-pipeline",
	Title:     "Streamed training data without a step budget",
	NeedsPlan: true,
	Rationale: `A streamed (iterable) dataset has no length: the trainer cannot tell how many steps an epoch
has, so it cannot turn an epoch count into a number of steps, size the learning-rate schedule or
place ratio-based warmup, logging, evaluation and checkpoints. Trainers that need the number
refuse to start without an explicit step budget, after the job has been queued and the model
loaded.

Streaming is a fine way to feed a large corpus without materialising it; it just means the run
length has to be given in steps. The playbook asks for a fixed step budget anyway: runs that are
compared should train for the same number of steps, whatever the data loader does. Adapted from
the Deep Learning Tuning Playbook (Godbole, Dahl, Gilmer, Shallue, Nado; CC BY 4.0); no
endorsement implied.`,
	Fix: `Set ` + "`max_steps`" + ` to the number of optimizer steps to train for (a positive integer), or stop
streaming.`,
	FixList: fixList("data.streaming", ""),
	Check:   checkStreamingWithoutMaxSteps,
}

func checkStreamingWithoutMaxSteps(p *lint.Pass) {
	st := p.Plan.Schedule.Streaming
	if !st.Known() || !st.Value || st.Node == nil {
		return
	}
	ms := p.Plan.Train.MaxSteps
	if ms.Known() && ms.Value > 0 || !ms.Known() && ms.Node != nil {
		return // a budget, or one written whose value is not known here (a template placeholder)
	}
	what := st.Key + " is on"
	if !st.IsExplicit() {
		what = st.Key + " streams the training data"
	}
	f := lint.Finding{
		Key:     st.Key,
		Message: what + " but no positive max_steps is set",
		Help:    advice(p.Plan, "data.streaming", st),
	}
	if f.Help == "" {
		f.Help = "set max_steps to the number of optimizer steps: a streamed dataset has no length to count epochs with"
	}
	place(&f, st.Node)
	p.Report(f)
}
