package dialect

import (
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// TestExecConfigReading: a nanoGPT config/*.py read alone with the generic spellings, as
// train.py means them (Context.ExecConfig): gradient_accumulation_steps is the total over the
// processes, so the count per device is unknown, and W&B logs only under wandb_log.
func TestExecConfigReading(t *testing.T) {
	const src = "wandb_log = False\nwandb_project = 'owt'\nbatch_size = 64\neval_batch_size = 32\n" +
		"gradient_accumulation_steps = 5 * 8\neval_interval = 1000\n"
	d := doc.Parse("config/train_x.py", []byte(src), doc.Python, doc.Limits{})
	if d.Root == nil {
		t.Fatalf("parse: %+v", d.Problems)
	}
	alone := Generic.Normalize(d, Context{})
	if ga := alone.Train.GradAccum; !ga.IsExplicit() || ga.Value != 40 {
		t.Fatalf("generic reading: grad accum %+v", ga)
	}
	if tr := alone.Train; tr.PerDeviceBatch.Value != 64 {
		t.Fatalf("generic reading: batch %+v", tr.PerDeviceBatch)
	}
	p := Generic.Normalize(d, Context{ExecConfig: true})
	if ga := p.Train.GradAccum; ga.Known() || ga.Node == nil || factLine(ga) != 5 || ga.Key != "gradient_accumulation_steps" {
		t.Errorf("grad accum %+v, want unknown at line 5", ga)
	}
	if tr := p.Tracking.Trackers; tr.Known() {
		t.Errorf("trackers %+v with wandb_log False, want unknown", tr)
	}
	wantFact(t, "eval interval", p.Eval.Interval, plan.Interval{Value: 1000, Unit: plan.Steps, Text: "1000"}, plan.Explicit, "eval_interval", 6)
	if b, e := p.Train.PerDeviceBatch, p.Eval.PerDeviceBatch; b.Value != 64 || e.Value != 32 || factLine(e) != 4 {
		t.Errorf("batches %+v %+v", b, e)
	}

	d = doc.Parse("config/train_x.py", []byte("wandb_log = True\nwandb_project = 'owt'\n"), doc.Python, doc.Limits{})
	p = Generic.Normalize(d, Context{ExecConfig: true})
	if tr := p.Tracking.Trackers; !tr.IsExplicit() || len(tr.Value) != 1 || tr.Value[0] != "wandb" || tr.Key != "wandb_log" || factLine(tr) != 1 {
		t.Errorf("trackers %+v, want wandb at wandb_log", tr)
	}
}
