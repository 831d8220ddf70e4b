package main

import (
	"strings"
	"testing"
)

// TestWalkSkipsJsonnetJSON: in a repository whose Python imports AllenNLP at module level
// (allenai/scibert), a walk passes over a .json that Python's json refuses, which AllenNLP
// reads through Jsonnet (std.extVar, // comments, single quotes, trailing commas); a .json
// that parses is linted. Named, such a file is reported and its parse errors say it may be
// Jsonnet. Where AllenNLP is imported only inside a function (flair's optional ELMo), or not at
// all, the file is linted and its parse errors say nothing of Jsonnet.
func TestWalkSkipsJsonnetJSON(t *testing.T) {
	ner := "{\n  \"random_seed\": std.parseInt(std.extVar(\"SEED\")),\n  \"trainer\": {\n" +
		"    \"num_epochs\": 3,\n//  \"patience\": 2,\n    \"cuda_device\": -1,\n  },\n  \"model\": {\"type\": \"crf_tagger\", \"requires_grad\": 'all'}\n}\n"
	files := map[string]string{
		"setup.py":                   "",
		"scibert/models/tagger.py":   "import torch\nfrom allennlp.models.model import Model\n",
		"allennlp_config/ner.json":   ner,
		"allennlp_config/plain.json": "{\"trainer\": {\"num_epochs\": 3}}\n",
		"taskcards/ner.json":         "{\n  \"id\": \"ner\",\n  \"examples\": [\"a\"],\n}\n",
	}
	writeTree(t, files)
	if got := walkLints(t); got != "allennlp_config/plain.json" {
		t.Errorf("files linted: %v", got)
	}
	skippedOnlyInWalks(t, []string{"allennlp_config/ner.json", "taskcards/ner.json"}, true, "--select", "TL001")
	_, res, _ := checkJSON(t, "--select", "TL001", "taskcards/ner.json")
	if len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, "trailing comma") || !strings.Contains(res.Diagnostics[0].Message, "may be Jsonnet") {
		t.Errorf("named: %v", res.Diagnostics)
	}

	for name, py := range map[string]string{
		"indented": "def elmo():\n    import allennlp.commands.elmo\n",
		"none":     "import json\n",
	} {
		files["scibert/models/tagger.py"] = py
		writeTree(t, files)
		if got := walkLints(t); got != "allennlp_config/ner.json,allennlp_config/plain.json,taskcards/ner.json" {
			t.Errorf("%s: files linted: %v", name, got)
		}
		_, res, _ := checkJSON(t, "--select", "TL001", "taskcards/ner.json")
		if len(res.Diagnostics) != 1 || strings.Contains(res.Diagnostics[0].Message, "Jsonnet") {
			t.Errorf("%s: named: %v", name, res.Diagnostics)
		}
	}
}

// TestWalkSkipsJSON5JSON: in a repository whose Python loads files with a JSON5 reader
// (parlance-zz/dualdiffusion's load_config: `from pyjson5 import load as json5_load`), a walk
// passes over a .json that Python's json refuses (comments, trailing commas, unquoted keys);
// named, its parse errors say it may be JSON5. json5.loads of a string (an agent parsing a tool
// call) is no such evidence: the file is linted and its errors do not say it may be JSON5.
func TestWalkSkipsJSON5JSON(t *testing.T) {
	files := map[string]string{
		"setup.py":                   "",
		"src/utils/config.py":        "import os\nfrom pyjson5 import load as json5_load\n\ndef load_config(p):\n    with open(p) as f:\n        return json5_load(f)\n",
		"config/dataset/encode.json": "{\n  // the batch\n  batch_size: 4,\n  \"num_workers\": 2,\n}\n",
		"config/dataset/plain.json":  "{\"batch_size\": 4}\n",
	}
	writeTree(t, files)
	if got := walkLints(t); got != "config/dataset/plain.json" {
		t.Errorf("files linted: %v", got)
	}
	_, res, _ := checkJSON(t, "--select", "TL001", "config/dataset/encode.json")
	if len(res.Diagnostics) == 0 || !strings.Contains(res.Diagnostics[0].Message, "may be JSON5") {
		t.Errorf("named: %v", res.Diagnostics)
	}
	for name, py := range map[string]string{
		"module json5":     "import json5\n",
		"import attribute": "import pyjson5\n",
		"loads only":       "import json5\n\ndef parse(s):\n    return json5.loads(s)\n",
	} {
		files["src/utils/config.py"] = py
		writeTree(t, files)
		if got := walkLints(t); got != "config/dataset/encode.json,config/dataset/plain.json" {
			t.Errorf("%s: files linted: %v", name, got)
		}
		_, res, _ := checkJSON(t, "--select", "TL001", "config/dataset/encode.json")
		if len(res.Diagnostics) == 0 || strings.Contains(res.Diagnostics[0].Message, "may be JSON5") {
			t.Errorf("%s: named: %v", name, res.Diagnostics)
		}
	}
	files["src/utils/config.py"] = "import pyjson5\n\ndef load_config(p):\n    with open(p) as f:\n        return pyjson5.load(f)\n"
	writeTree(t, files)
	if got := walkLints(t); got != "config/dataset/plain.json" {
		t.Errorf("pyjson5.load: files linted: %v", got)
	}
}
