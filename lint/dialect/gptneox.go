package dialect

import (
	"github.com/trainlint/trainlint/lint/doc"
	"github.com/trainlint/trainlint/lint/plan"
)

// GPTNeoX reads GPT-NeoX configs: JSON-style YAML with Megatron and DeepSpeed keys, where dashes
// and underscores mix (the generic reader folds them). It states no defaults: NeoX's argument
// defaults (megatron/neox_arguments/neox_args.py) are merged from several files at launch, so an
// absent key stays Unknown, as in the generic dialect.
var GPTNeoX = register(newGPTNeoX())

// newGPTNeoX builds GPTNeoX (a function of its own: see register).
func newGPTNeoX() *Dialect {
	return &Dialect{
		Name:     "gpt-neox",
		Title:    "GPT-NeoX",
		Version:  "GPT-NeoX @ea7aefd (megatron/neox_arguments/neox_args.py)",
		Formats:  []doc.Format{doc.YAML, doc.JSON, doc.TOML},
		Fallback: true,
		Detect: func(d *doc.Document) int {
			if isNeoX(d.Root) {
				return 50
			}
			return 0
		},
		Normalize: func(d *doc.Document, ctx Context) *plan.Plan {
			return readGenericPlan("gpt-neox", d, ctx, neoxS3Retention)
		},
		Keys: neoxKeys,
	}
}

// neoxKeys are NeoX spellings the generic reader understands (dashes and underscores are
// interchangeable).
var neoxKeys = []Key{
	{Path: "train_micro_batch_size_per_gpu", Type: "integer", Concept: "train.per_device_batch", Doc: "micro batch per GPU"},
	{Path: "keep_last_n_checkpoints", Type: "integer", Concept: "ckpt.retention", Doc: "keep the latest N checkpoints"},
	{Path: "checkpoint_factor", Type: "integer", Concept: "ckpt.interval", Doc: "save interval in iterations"},
}

func isNeoX(root *doc.Node) bool {
	if genChild(root, "architectures") != nil || genChild(root, "model_type") != nil {
		return false // a transformers model's config.json shares the architecture names
	}
	// The model's shape (num_layers, hidden_size, ...) is written alike by Megatron's other
	// descendants: NeMo's megatron_model_base_config.yaml has those three and none of NeoX's
	// own names, so at least two of these are needed.
	hits, own := 0, 0
	for _, k := range []string{"num_layers", "hidden_size", "num_attention_heads", "seq_length", "max_position_embeddings"} {
		if genChild(root, k) != nil {
			hits++
		}
	}
	for _, k := range []string{"pipe_parallel_size", "model_parallel_size", "pos_emb", "train_iters", "checkpoint_factor", "norm", "tokenizer_type",
		"lr_decay_iters", "lr_decay_style", "keep_last_n_checkpoints", "data_impl", "synchronize_each_layer"} {
		if genChild(root, k) != nil {
			own++
		}
	}
	return hits+own >= 3 && own >= 2
}

// neoxS3Retention: with s3_path set, rank 0 uploads every checkpoint to S3 and
// keep_last_n_checkpoints then deletes only the local copies (save_checkpoint and
// delete_old_checkpoints, megatron/checkpointing.py @ea7aefd): every checkpoint is kept.
func neoxS3Retention(p *plan.Plan, g genericReader) {
	s3 := genChild(g.root, "s3_path")
	if s3 == nil || !s3.IsScalar() || s3.IsNull() || s3.IsUnknown() || s3.Value == "" {
		return
	}
	if n := genChild(g.root, "keep_last_n_checkpoints"); n != nil { // or keep-last-n-checkpoints
		p.Ckpt.Retention = plan.Fact[plan.Retention]{Value: plan.Retention{Kind: plan.KeepAll}, Origin: plan.Derived, Key: n.Key, Node: n,
			Note: "s3_path keeps every checkpoint in S3; the count prunes local copies only"}
	}
}
