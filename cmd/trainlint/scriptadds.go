package main

import (
	"regexp"
	"strings"
)

var (
	// openDictRE starts a block in which a Hydra config accepts new keys: `with
	// open_dict(cfg.model):` (omegaconf.open_dict), its indentation, the node's attribute path
	// and the rest of the line (a one-line body) captured. OmegaConf's read_write is not one:
	// it clears the read-only flag and leaves struct mode on (omegaconf.py read_write at 2.2.2;
	// `with read_write(c): c.x = 1` raises "Key 'x' is not in struct").
	openDictRE = regexp.MustCompile(`(?m)^([ \t]*)with[ \t]+(?:omegaconf\.)?open_dict\(\s*(?:cfg|config|conf)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*\)\s*:([^\n]*)`)
	// setStructOffRE turns struct mode off on a config or a node of it, its attribute path
	// captured: new keys may then be added below it.
	setStructOffRE = regexp.MustCompile(`\bOmegaConf\.set_struct\(\s*(?:cfg|config|conf)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)\s*,\s*False\s*\)`)
	// cfgItemAdd is an item assignment on a config or a node of it: cfg.model["k"] = ...
	cfgItemAdd = regexp.MustCompile(`(?:^|[^.\w])(?:cfg|config|conf)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)\[\s*["']([A-Za-z_][A-Za-z0-9_]*)["']\s*\]\s*=(?:[^=]|$)`)
	// cfgUpdateKw is a dict-style update with keywords: cfg.update(device=..., n=...).
	cfgUpdateKw = regexp.MustCompile(`(?:^|[^.\w])(?:cfg|config|conf)((?:\.[A-Za-z_][A-Za-z0-9_]*)*)\.update\(`)
	// checkpointMerge replaces a node of the config with the model config of a checkpoint
	// merged under it: NeMo-Aligner's `cfg.model = load_and_override_model_config(restore_path,
	// cfg.model)` returns OmegaConf.merge(checkpoint_cfg, model_cfg) (nemo_aligner/utils/utils.py
	// :134-152 at af2b3bd9), run by its train scripts before exp_manager resolves the config.
	checkpointMerge = regexp.MustCompile(`(?:^|[^.\w])(?:cfg|config|conf)((?:\.[A-Za-z_][A-Za-z0-9_]*)+)\s*=\s*(?:[A-Za-z_][A-Za-z0-9_]*\.)*load_and_override_model_config\(`)
)

// scriptAdds adds to adds the dotted keys a script adds to its composed config, which Hydra
// leaves in struct mode (a key it lacks cannot be assigned: OmegaConf raises
// ConfigAttributeError): OmegaConf.update with force_add=True (physicsnemo's
// unified_external_aero_recipe/src/datasets.py:971 adds out_dim before train.py instantiates
// cfg.model, whose ${out_dim} it fills), an assignment, item assignment or keyword update
// inside `with open_dict(cfg):` (its body on the next lines or after the colon) below the node
// it opens, or one below a node OmegaConf.set_struct(node, False) opens anywhere in the file.
// A plain assignment elsewhere changes a key the config has (lint.Options.ScriptSets) and adds
// none: calvin's evaluation helper replaces cfg.datamodule.datasets, which says nothing of keys
// a training run's callbacks name below it. Text in triple-quoted strings (an example in a
// docstring) is not read. The keys are the repository's: a helper that adds one to a config of
// its own hides the key in every run (the scan does not know which config a script holds).
func scriptAdds(text string, adds map[string]bool) map[string]bool {
	add := func(k string) {
		if adds == nil {
			adds = map[string]bool{}
		}
		adds[k] = true
	}
	if !strings.Contains(text, "OmegaConf.update") && !strings.Contains(text, "open_dict") && !strings.Contains(text, "set_struct") {
		return adds
	}
	text = blankTripleQuoted(text)
	for _, m := range omegaUpdate.FindAllStringSubmatchIndex(text, -1) {
		if hasArg(callArgs(text[strings.Index(text[m[0]:], "(")+m[0]+1:]), "force_add=True") {
			add(strings.TrimPrefix(text[m[2]:m[3]]+"."+text[m[4]:m[5]], "."))
		}
	}
	for _, m := range setStructOffRE.FindAllStringSubmatch(text, -1) {
		addsBelow(text, m[1], add)
	}
	for _, w := range openDictRE.FindAllStringSubmatchIndex(text, -1) {
		node := text[w[4]:w[5]]
		if one := text[w[6]:w[7]]; strings.TrimSpace(one) != "" && !strings.HasPrefix(strings.TrimSpace(one), "#") {
			addsBelow(one, node, add) // `with open_dict(cfg): cfg.device = d`
			continue
		}
		indent := w[3] - w[2]
		rest := text[w[1]:]
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			rest = rest[i+1:]
		} else {
			continue
		}
		var body strings.Builder
		for line := range strings.Lines(rest) {
			t := strings.TrimLeft(line, " \t")
			if strings.TrimSpace(t) == "" || strings.HasPrefix(t, "#") {
				body.WriteString(line)
				continue
			}
			if len(line)-len(t) <= indent {
				break
			}
			body.WriteString(line)
		}
		addsBelow(body.String(), node, add)
	}
	return adds
}

// checkpointAdds records in addsFor, by config file (absolute, cleaned), the nodes the script at
// p replaces with a checkpoint's model config merged with them (checkpointMerge): such a node
// may hold any key below it in the configs the script's @hydra.main or @hydra_runner decorators
// name (NeMo-Aligner's train scripts, each with its own config). A decorator whose config this
// reading cannot tell adds nothing: the merge is tied to the files known to be merged.
func checkpointAdds(p, text string, addsFor map[string]map[string]bool) {
	if !strings.Contains(text, "load_and_override_model_config") {
		return
	}
	text = blankTripleQuoted(text)
	var nodes []string
	for _, m := range checkpointMerge.FindAllStringSubmatch(text, -1) {
		nodes = append(nodes, strings.TrimPrefix(m[1], "."))
	}
	if len(nodes) == 0 {
		return
	}
	for _, cfg := range hydraPrimaries(p, text) {
		if addsFor[cfg] == nil {
			addsFor[cfg] = map[string]bool{}
		}
		for _, n := range nodes {
			addsFor[cfg][n] = true
		}
	}
}

// addsBelow calls add with each key text assigns (attribute, item or keyword update) on the
// config at or below node (".model", "" for the root).
func addsBelow(text, node string, add func(string)) {
	below := func(path string) {
		path = strings.TrimPrefix(path, ".")
		if n := strings.TrimPrefix(node, "."); n == "" || path == n || strings.HasPrefix(path, n+".") {
			add(path)
		}
	}
	for _, m := range cfgSet.FindAllStringSubmatch(text, -1) {
		below(m[1])
	}
	for _, m := range cfgItemAdd.FindAllStringSubmatch(text, -1) {
		below(m[1] + "." + m[2])
	}
	for _, m := range cfgUpdateKw.FindAllStringSubmatchIndex(text, -1) {
		for _, a := range callArgs(text[m[1]:]) {
			if k := keywordArg.FindStringSubmatch(a); k != nil { // nofit.go
				below(text[m[2]:m[3]] + "." + k[1])
			}
		}
	}
}

// blankTripleQuoted is text with what lies inside triple-quoted strings replaced by spaces
// (line breaks kept), so an example in a docstring is not read as code.
func blankTripleQuoted(text string) string {
	if !strings.Contains(text, `"""`) && !strings.Contains(text, "'''") {
		return text
	}
	b := []byte(text)
	for i := 0; i+2 < len(b); i++ {
		if (b[i] != '"' && b[i] != '\'') || b[i+1] != b[i] || b[i+2] != b[i] {
			continue
		}
		q := b[i]
		j := i + 3
		for ; j+2 < len(b); j++ {
			if b[j] == '\\' {
				j++
				continue
			}
			if b[j] == q && b[j+1] == q && b[j+2] == q {
				break
			}
		}
		end := min(j, len(b))
		for k := i + 3; k < end; k++ {
			if b[k] != '\n' {
				b[k] = ' '
			}
		}
		i = end + 2
	}
	return string(b)
}
