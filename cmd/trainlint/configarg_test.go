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
// big_vision's parse_arg would refuse is rejected-at-startup at the parse_arg call, and no other
// rule guesses.
func TestConfigArg(t *testing.T) {
	writeTree(t, map[string]string{"cfg.py": bigVisionConfig})
	if code, out, errOut := cli(t, nil, "check", "--quiet", "cfg.py"); code != 0 || strings.Contains(out, "TL304") {
		t.Fatalf("default argument: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ := cli(t, nil, "check", "--quiet", "--config-arg", "runlocal", "cfg.py")
	if !strings.Contains(out, "cfg.py:") || !strings.Contains(out, "TL304") {
		t.Errorf("--config-arg runlocal: exit %d\n%s", code, out)
	}
	code, out, _ = cli(t, nil, "check", "--quiet", "--config-arg", "nonsense=1", "cfg.py")
	if code != 1 || strings.Contains(out, "TL304") || !strings.Contains(out, "cfg.py:6:9") || !strings.Contains(out, "TL011") ||
		!strings.Contains(out, `parse_arg refuses the config argument "nonsense=1"`) {
		t.Errorf("an argument parse_arg refuses must be rejected-at-startup at the parse_arg call, and nothing else:\n%s", out)
	}
}
