package rules

import (
	"strconv"

	"github.com/trainlint/trainlint/lint"
)

// InputDataNotColocated reports training data read from remote storage as the run trains, with
// nothing staged locally. Info: object storage in the accelerators' region with enough
// parallel reads can keep up; the finding asks to check that it does.
var InputDataNotColocated = register(&inputDataNotColocatedDef)

var inputDataNotColocatedDef = lint.Rule{
	Code: "TL104", Name: "input-data-not-colocated", Category: lint.CatInputPipeline, Severity: lint.Info,
	Anchor:    "optimizing-the-input-pipeline",
	Title:     "Training data is streamed from remote storage",
	NeedsPlan: true,
	Rationale: `Reading training examples over the network while the model trains puts the network's latency and
throughput on the step's critical path: a slow or distant bucket, a throttled endpoint or a busy
link shows up as idle accelerators, and the cost differs from run to run. Among the common causes
of an input-bound pipeline the playbook lists data that is not colocated with the training
process.

Reported when a training-data path is a remote URL (s3://, gs://, http(s)://, hdfs://, ...) that
the framework streams, with no local cache or staging directory named beside it. Data downloaded
to a local cache before training is not reported. Profile the input pipeline before changing
anything.

Adapted from the Deep Learning Tuning Playbook (Godbole, Dahl, Gilmer, Shallue, Nado; CC BY 4.0);
no endorsement implied.`,
	Fix: `Copy or cache the data on local disk (or storage in the accelerators' region) before training, or
stream with enough parallel reads and prefetching, and check with a profiler that input is not the
bottleneck.`,
	Check: checkInputDataNotColocated,
}

func checkInputDataNotColocated(p *lint.Pass) {
	r := p.Plan.Data.Remote
	if !r.Known() || r.Value == "" {
		return
	}
	f := lint.Finding{Key: r.Key}
	f.Message = keyOr(r, "the training data") + " " + strconv.Quote(r.Value) + " is read from remote storage while training, with nothing staged locally"
	if r.Note != "" {
		f.Message += " (" + r.Note + ")"
	}
	place(&f, r.Node)
	f.Help = "stage the data on local disk or in storage near the accelerators before training (or cache it), and check with a profiler that the step does not wait for input"
	p.Report(f)
}
