package main

import (
	"strings"
	"testing"
)

// bigVisionConfig is a small big_vision-style config (hand-made): with the argument runlocal,
// its get_config leaves ckpt_steps unset.
const bigVisionConfig = `import big_vision.configs.common as bvcc
import ml_collections as mlc


def get_config(arg=None):
  arg = bvcc.parse_arg(arg, runlocal=False)
  config = mlc.ConfigDict()
  config.seed = 0
  config.total_epochs = 90
  config.input = dict(batch_size=4096, prefetch=8)
  config.log_training_steps = 50
  if not arg.runlocal:
    config.ckpt_steps = 1000
  return config
`

// TestConfigArg: --config-arg is what `--config cfg.py:ARG` passes to get_config; an argument
// big_vision's parse_arg would refuse leaves the config unknown, so no rule guesses.
func TestConfigArg(t *testing.T) {
	writeTree(t, map[string]string{"cfg.py": bigVisionConfig})
	if code, out, errOut := cli(t, nil, "check", "--quiet", "cfg.py"); code != 0 || strings.Contains(out, "TL304") {
		t.Fatalf("default argument: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ := cli(t, nil, "check", "--quiet", "--config-arg", "runlocal", "cfg.py")
	if !strings.Contains(out, "cfg.py:") || !strings.Contains(out, "TL304") {
		t.Errorf("--config-arg runlocal: exit %d\n%s", code, out)
	}
	if _, out, _ := cli(t, nil, "check", "--quiet", "--config-arg", "nonsense=1", "cfg.py"); strings.Contains(out, "TL304") {
		t.Errorf("an argument parse_arg refuses must leave the config unknown:\n%s", out)
	}
}
