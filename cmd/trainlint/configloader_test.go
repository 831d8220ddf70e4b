package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestOtherConfigLoader: a repository whose scripts read configs with another package's
// Config.load (OADP's todd.Config.load) and never call Config.fromfile is marked; one that also
// calls MMEngine's or MMCV's reader anywhere (a test, a copy of config.py), or only uses
// Config.load in a test, is not.
func TestOtherConfigLoader(t *testing.T) {
	todd := "import todd\nparser.add_argument('config', type=todd.Config.load)\n"
	for _, tc := range []struct {
		texts  []string
		script []bool
		want   bool
	}{
		{[]string{todd, "trainer = mmcv.Config(config.trainer)\n"}, []bool{true, true}, true},
		{[]string{todd, "from mmcv import Config\ncfg = Config.fromfile(args.config)\n"}, []bool{true, true}, false},
		{[]string{todd, "cfg = Config.fromfile('configs/a.py')\n"}, []bool{true, false}, false}, // a test reads with MMCV's
		{[]string{todd, "def _file2dict(filename):\n    pass\n"}, []bool{true, true}, false},    // a copy of MMEngine's reader
		{[]string{todd}, []bool{false}, false},                                                  // only a test reads so
		{[]string{"cfg = AutoConfig.load(p)\nc = LazyConfig.load(p)\n"}, []bool{true}, false},
		// todd's later PyConfig (magic-research/vector_quantization's vq/fid.py)
		{[]string{"from todd.configs import PyConfig\nconfig = PyConfig.load(args.config, **args.config_options)\n"}, []bool{true}, true},
	} {
		l := &loaderScan{}
		for i, text := range tc.texts {
			loaderUses(text, tc.script[i], l)
		}
		if got := l.otherLoader(); got != tc.want {
			t.Errorf("%q: other loader %v, want %v", tc.texts, got, tc.want)
		}
	}
}

// TestOtherConfigLoaderSkipsBaseRefusals: through check, two bases that set one key are not
// refused in a repository whose script reads its configs with todd.Config.load (LutingWang/OADP:
// todd merges them); beside a script that reads them with MMCV's Config.fromfile they are.
func TestOtherConfigLoaderSkipsBaseRefusals(t *testing.T) {
	files := map[string]string{
		"pyproject.toml":        "[project]\nname = 'x'\n",
		"configs/models/a.py":   "model = dict(type='ViLD', roi_head=dict(type='ViLDEnsembleRoIHead'))\n",
		"configs/models/b.py":   "model = dict(global_head=dict(topk=20))\n",
		"configs/models/run.py": "_base_ = [\n    'a.py',\n    'b.py',\n]\nmodel = dict(type='OADP')\n",
		"oadp/train.py":         "import argparse\nimport todd\nparser = argparse.ArgumentParser()\nparser.add_argument('config', type=todd.Config.load)\n",
	}
	dir := writeTree(t, files)
	if _, out, _ := cli(t, nil, "check", "--select", "TL011", dir); strings.Contains(out, "TL011") {
		t.Errorf("todd's loader:\n%s", out)
	}
	files["oadp/train.py"] = "import mmcv\ncfg = mmcv.Config.fromfile(args.config)\n"
	dir = writeTree(t, files)
	if _, out, _ := cli(t, nil, "check", "--select", "TL011", filepath.Join(dir, "configs")); !strings.Contains(out, `refuse a key that two bases set: "model"`) {
		t.Errorf("MMCV's loader:\n%s", out)
	}
}
