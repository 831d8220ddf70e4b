package dialect

import (
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// hfGeneratedEval leaves the eval batch unknown when evaluation generates with a beam count the
// file does not pin to 1. With predict_with_generate, Seq2SeqTrainer.prediction_step calls
// model.generate with num_beams from generation_num_beams, else from the model's own config
// (transformers src/transformers/trainer_seq2seq.py @00e12e7): each eval example then holds
// that many sequences, so an eval batch below the train batch may be what fits, and the batch
// sizes alone say nothing (parler-tts's training configs evaluate 4 beside a train batch of 6).
func hfGeneratedEval(root *doc.Node, p *plan.Plan) {
	gen, ok := pyBoolAt(root, "predict_with_generate")
	if !ok || !gen.Known() || !gen.Value || !p.Eval.PerDeviceBatch.Known() {
		return
	}
	if n := root.Get("generation_num_beams"); n != nil {
		if v, ok := n.Int(); ok && v == 1 {
			return
		}
	}
	b := p.Eval.PerDeviceBatch
	p.Eval.PerDeviceBatch = plan.Fact[int]{Key: b.Key, Node: b.Node, Note: "generated with beam search (predict_with_generate; generation_num_beams or the model's num_beams)"}
}
