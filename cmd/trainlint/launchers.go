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

// launchCommands are the words that start a LLaMA-Factory launch (its CLI, or its train.py run
// by an interpreter or a launcher): a config named on a line without one (echo, cp, a usage
// text) is no launch.
var launchCommands = map[string]bool{"llamafactory-cli": true, "lmf": true, "python": true, "python3": true, "torchrun": true, "accelerate": true, "deepspeed": true}

// launchKeys records in launch, by the config file's absolute path, the keys of the `key=value`
// words that follow a config file on each command line of the script at path (in root) that
// launches it, one set a launch (a launch with none records an empty set). Comments are left
// out. The config is looked for from root (where scripts are usually run), then from the
// script's folder; a path that names no file is left out. launchedKeys keeps what every launch
// gives.
func launchKeys(root, path, text string, launch map[string][]map[string]bool) {
	for _, line := range strings.Split(joinContinued(text), "\n") {
		words := strings.Fields(line)
		for i, w := range words {
			if strings.HasPrefix(w, "#") {
				words = words[:i] // a comment to the end of the line
				break
			}
		}
		if len(words) > 0 && (words[0] == "echo" || words[0] == "printf") {
			continue // a usage text
		}
		command := false
		for i, w := range words {
			w = strings.Trim(w, `"'`)
			command = command || launchCommands[filepath.Base(w)]
			ext := strings.ToLower(filepath.Ext(w))
			if !command || ext != ".yaml" && ext != ".yml" && ext != ".json" || strings.Contains(w, "=") || strings.Contains(w, "$") {
				continue
			}
			keys := map[string]bool{}
			for _, o := range words[i+1:] {
				k, _, ok := strings.Cut(strings.TrimLeft(o, `"'`), "=")
				if !ok || !launchKey(k) {
					break
				}
				keys[k] = true
			}
			if cfg := configAt(root, path, w); cfg != "" {
				launch[cfg] = append(launch[cfg], keys)
			}
		}
	}
}

// joinContinued joins a shell script's lines continued with a backslash.
func joinContinued(text string) string {
	return strings.ReplaceAll(strings.ReplaceAll(text, "\\\r\n", " "), "\\\n", " ")
}

// launchedKeys are the keys every launch recorded gives (nil when none does).
func launchedKeys(launches []map[string]bool) map[string]bool {
	var out map[string]bool
	for k := range launches[0] {
		all := true
		for _, l := range launches[1:] {
			all = all && l[k]
		}
		if all {
			if out == nil {
				out = map[string]bool{}
			}
			out[k] = true
		}
	}
	return out
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
