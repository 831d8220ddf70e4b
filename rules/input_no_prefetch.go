package rules

import (
	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/plan"
)

// InputNoPrefetch reports input pipelines that neither load in background workers nor keep a
// prefetch buffer, so every step waits for its batch to be read and transformed.
var InputNoPrefetch = register(&inputNoPrefetchDef)

var inputNoPrefetchDef = lint.Rule{
	Code: "TL101", Name: "input-no-prefetch", Category: lint.CatInputPipeline, Severity: lint.Warning,
	Anchor:    "optimizing-the-input-pipeline",
	Title:     "The input pipeline neither prefetches nor loads batches in the background",
	NeedsPlan: true,
	Rationale: `When the process that runs the training step also reads, decodes and collates the next
batch, the accelerators wait for the input at every step: input latency adds to step time
instead of hiding behind it. Background loader workers, or a buffer that prepares the next few
batches while the current one trains, overlap the two. Prefetching is one of the first things
the playbook suggests once a profiler shows that training is waiting for input.

Several trainers default to zero loader workers, so a config that never mentions the key loads
every batch in the training process. trainlint reports that case as info, because a small or
pre-tokenised dataset may not need workers; an explicit ` + "`0`" + ` is a warning.

In PyTorch data loaders a prefetch factor only applies to worker processes: with zero workers it
has no effect (some trainers refuse the combination at start-up).`,
	Fix:     `Load batches in background workers, or prefetch them.`,
	FixList: fixList("data.workers", `Then confirm with a profiler that the step no longer waits for input.`),
	Check:   checkInputNoPrefetch,
}

func checkInputNoPrefetch(p *lint.Pass) {
	d := p.Plan.Data
	w, pf := d.Workers, d.Prefetch
	torch := loadsWithTorch(p.Plan)

	workers := w.Known() && w.Value > 0
	prefetches := pf.Known() && pf.Value > 0 && (!torch || workers)
	if workers || prefetches {
		return
	}
	noWorkers := w.Known() && w.Value == 0
	noPrefetch := pf.Known() && pf.Value == 0
	if !noWorkers && !noPrefetch {
		// Negative or unknown values ("auto", an interpolation): nothing is known.
		return
	}

	f := lint.Finding{}
	const inProcess = " loads batches in the training process, so nothing is prefetched"
	switch {
	case noWorkers && w.IsExplicit():
		f.Message = keyOr(w, "num_workers") + " 0" + inProcess
		place(&f, w.Node)
	case noPrefetch && pf.IsExplicit():
		f.Message = keyOr(pf, "prefetch") + " 0 turns prefetching off and no worker loads batches in the background"
		place(&f, pf.Node)
	case noWorkers:
		f.Message = notSet(w, "0") + inProcess
		f.Severity = lint.Info // rests on a default only: lower confidence, as the catalogue asks
		place(&f, w.Node)
	default:
		f.Message = notSet(pf, "0") + " turns prefetching off and no worker loads batches in the background"
		f.Severity = lint.Info
		place(&f, pf.Node)
	}
	if noWorkers && torch && pf.Known() && pf.Value > 0 {
		f.Message += "; " + keyOr(pf, "prefetch_factor") + " " + itoa(pf.Value) + " has no effect without workers"
		f.Related = related(pf.Node, f.Node, "prefetch set here")
		if pf.IsExplicit() {
			f.Severity = 0 // the file asks for prefetching that cannot happen: no longer a mere default
		}
	}
	f.Key = w.Key
	if !noWorkers {
		f.Key = pf.Key
	}
	f.Help = prefetchHelp(torch, w)
	if noWorkers && !w.IsExplicit() {
		if h := adviceIfDefault(p.Plan, "data.workers", w); h != "" {
			f.Help = h // the framework's default leaves workers off in its own way
		}
	}
	p.Report(f)
}

func prefetchHelp(torch bool, w plan.Fact[int]) string {
	key := keyOr(w, "num_workers")
	if torch {
		return "set " + key + " to a few workers (e.g. 4) so batches are prepared while the model trains; check with a profiler that input was the bottleneck"
	}
	return "load batches in background workers or set a positive prefetch depth, then check with a profiler that the step no longer waits for input"
}
