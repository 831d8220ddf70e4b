package main

import (
	"os"
	"path/filepath"
	"strings"
)

// The repository's launcher scripts. LLaMA-Factory merges `key=value` words given after the
// config file into it (hparams/parser.py read_args: OmegaConf.merge of the YAML and
// OmegaConf.from_cli), so a base recipe that a shell or Slurm script completes on the command
// line (`llamafactory-cli train base.yaml model_name_or_path=Qwen/Qwen2.5-7B`) does not stop at
// start-up for lack of the keys the script gives it. The driver reads the scripts' command
// lines and tells the dialect which keys are given at launch (lint.Options.LaunchKeys).

// launcherExts are the script files read for command lines.
var launcherExts = map[string]bool{".sh": true, ".bash": true, ".sbatch": true, ".slurm": true}

// launchKeys adds to launch, by the config file's absolute path, the keys of the `key=value`
// words that follow a config file on a command line of the script at path (in root). The
// config is looked for from root (where scripts are usually run), then from the script's
// folder; a path that names no file is left out.
func launchKeys(root, path, text string, launch map[string]map[string]bool) {
	text = strings.ReplaceAll(text, "\\\r\n", " ")
	text = strings.ReplaceAll(text, "\\\n", " ")
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		words := strings.Fields(line)
		for i, w := range words {
			w = strings.Trim(w, `"'`)
			ext := strings.ToLower(filepath.Ext(w))
			if ext != ".yaml" && ext != ".yml" && ext != ".json" || strings.Contains(w, "=") || strings.Contains(w, "$") {
				continue
			}
			var keys []string
			for _, o := range words[i+1:] {
				k, _, ok := strings.Cut(strings.TrimLeft(o, `"'`), "=")
				if !ok || !launchKey(k) {
					break
				}
				keys = append(keys, k)
			}
			if len(keys) == 0 {
				continue
			}
			cfg := configAt(root, path, w)
			if cfg == "" {
				continue
			}
			if launch[cfg] == nil {
				launch[cfg] = map[string]bool{}
			}
			for _, k := range keys {
				launch[cfg][k] = true
			}
		}
	}
}

// launchKey reports a dotted key as an OmegaConf dotlist word writes it (a.b_c).
func launchKey(k string) bool {
	if k == "" || k[0] >= '0' && k[0] <= '9' || k[0] == '.' {
		return false
	}
	for _, r := range k {
		if r != '_' && r != '.' && (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9') {
			return false
		}
	}
	return true
}

// configAt is the absolute path of the config file a script names, from the repository root
// or the script's folder, or "" when neither holds it.
func configAt(root, script, name string) string {
	if filepath.IsAbs(name) {
		return ""
	}
	for _, dir := range []string{root, filepath.Dir(script)} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			return filepath.Clean(p)
		}
	}
	return ""
}
