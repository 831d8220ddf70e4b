package dialect

import (
	"testing"

	"github.com/trainlint/trainlint/lint/doc"
)

// TestTorchtuneRequiredByVersion: a checkpointer without output_dir is refused up to 0.6.1
// (the Rejection ends at main, v0.7.0-bd2a0fc); a tensor-parallel plan, which the recipe gives
// its model, is not checked for missing arguments.
func TestTorchtuneRequiredByVersion(t *testing.T) {
	src := `model:
  _component_: torchtune.models.llama3_1.llama3_1_8b
checkpointer:
  _component_: torchtune.training.FullModelHFCheckpointer
  checkpoint_dir: /tmp/ckpt
  checkpoint_files: [model.safetensors]
  model_type: LLAMA3
tensor_parallel_plan:
  _component_: torchtune.models.llama3.base_llama_tp_plan
batch_size: 2
`
	d := doc.Parse("recipe.yaml", []byte(src), doc.YAML, doc.Limits{})
	p := Torchtune.Normalize(d, Context{})
	if len(p.Rejections) != 1 {
		t.Fatalf("rejections %+v, want one (output_dir)", p.Rejections)
	}
	r := p.Rejections[0]
	if r.Package != "torchtune" || r.Until != "v0.7.0-bd2a0fc" || r.Since != "" || r.Node.KeySpan.Start.Line != 4 ||
		r.Says != "TypeError: FullModelHFCheckpointer.__init__() missing 1 required positional argument: 'output_dir'" {
		t.Errorf("rejection %+v", r)
	}
}
