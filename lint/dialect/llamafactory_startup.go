package dialect

import (
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// LLaMA-Factory's start-up refusals come from the knowledge table (knowledge_finetune.tsv
// "@check" rows): the `if ...: raise` and `assert` checks of the __post_init__ methods that run
// when HfArgumentParser builds ModelArguments, DataArguments, FinetuningArguments and
// GeneratingArguments, and of hparams/parser.py's _verify_model_args and get_train_args, read at
// v0.8.3-v0.9.5 by cmd/trainlint-knowledge. Only conditions on LLaMA-Factory's own fields are
// kept (their defaults apply to keys the file leaves out); checks that also read the Trainer's
// arguments are not in the table.

// lfRejections adds the start-up checks a v0 (HfArgumentParser) file fails. An export or chat
// config is parsed by get_infer_args or get_eval_args, which build the same argument classes and
// call _verify_model_args (hparams/parser.py@v0.9.5) but not get_train_args: every check of
// get_train_args the newest tag read makes needs a stage other than sft, which such configs do
// not write (TestLlamaFactoryTrainChecksNeedStage), so all checks are evaluated on every file.
// later are the keys a launcher gives after the file (read_args merges them into it).
func lfRejections(root *doc.Node, p *plan.Plan, later map[string]bool) {
	p.Rejections = append(p.Rejections, KnowledgeOf("llamafactory").Rejections(root, "llamafactory", nil, later)...)
}
