package main

import (
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/trainlint/trainlint/lint"
	"github.com/trainlint/trainlint/lint/config"
)

// The config-file step of check. Every input gets the options of its nearest config file
// (.trainlint.toml, or [tool.trainlint] in pyproject.toml; see package config), or of --config
// when given; command-line flags are laid over them. Config files are read once per folder and
// before any file is linted, so a broken config is a clear error (exit 2) naming the file, line
// and key, never a half-linted tree.
//
// fail-on is one per run: the flag, else the config that applies to the first path on the
// command line (usually the repository root's), else the default. That config's select and
// ignore are also the run's for the baseline step.

// configErrors prints each config mistake on its own "trainlint: " line.
type configErrors []error

func (es configErrors) Error() string {
	var lines []string
	for _, e := range es {
		lines = append(lines, e.Error())
	}
	return strings.Join(lines, "\ntrainlint: ")
}

// flatten splits a config file's several mistakes into one error each.
func flatten(err error) []error {
	var many config.Errors
	if !errors.As(err, &many) {
		return []error{err}
	}
	out := make([]error, len(many))
	for i, e := range many {
		out[i] = e
	}
	return out
}

// flagsSet returns the names of the check flags given on the command line (flags override the
// config file only when given; their zero values cannot tell).
func flagsSet(args []string) map[string]bool {
	set := map[string]bool{}
	fs := newCheckFlags(&checkConfig{})
	for i, a := range args {
		if a == "--" {
			args = args[:i]
			break
		}
	}
	for len(args) > 0 {
		if err := fs.Parse(args); err != nil {
			break
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		args = rest[1:]
	}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}

// configOptions reads the config files that apply to the inputs and returns the options of each
// input; it may also set c.FailOn from the config file.
func (c *checkConfig) configOptions(args []string, ins []input, rules []*lint.Rule) (optionsFunc, error) {
	set := flagsSet(args)
	loader := config.NewLoader(rules)
	wd, _ := os.Getwd()

	var fixed *config.Config
	if c.ConfigFile != "" {
		cfg, err := loader.Load(c.ConfigFile)
		if err != nil {
			var pe *os.PathError
			if errors.As(err, &pe) {
				return nil, usagef("cannot read --config file: %v", err)
			}
			return nil, configErrors(flatten(err))
		}
		fixed = cfg
	}

	// diskPath is where an input lives for discovery and globs (standard input: its
	// --stdin-filename under the working folder).
	diskPath := func(in input) string {
		if in.Stdin {
			name := c.StdinFilename
			if name == "" {
				name = "stdin"
			}
			if filepath.IsAbs(name) {
				return name
			}
			return filepath.Join(wd, name)
		}
		p, err := absIn(wd, in.FSPath)
		if err != nil {
			return in.FSPath
		}
		return p
	}
	configs := make(map[string]*config.Config, len(ins))
	var errs configErrors
	seen := map[string]bool{}
	for _, in := range ins {
		cfg := fixed
		if fixed == nil {
			var err error
			cfg, err = nearestConfig(loader, diskPath(in))
			if err != nil {
				if msg := err.Error(); !seen[msg] {
					seen[msg] = true
					errs = append(errs, flatten(err)...)
				}
				continue
			}
		}
		configs[in.Path] = cfg
	}
	if len(errs) > 0 {
		return nil, errs
	}

	// The run-level settings (fail-on; the select/ignore the baseline step uses to tell rules
	// left out from findings fixed) come from the config of the first path on the command line.
	first := fixed
	if first == nil && len(c.Paths) > 0 {
		p := c.Paths[0]
		var err error
		switch fi, statErr := os.Stat(p); {
		case p == "-" || statErr != nil:
			first, err = loader.ForDir(wd)
		case fi.IsDir():
			first, err = loader.ForDir(p)
		default:
			first, err = loader.ForFile(p)
		}
		if err != nil {
			return nil, configErrors(flatten(err))
		}
	}
	flags := c.lintOptions()
	if first != nil {
		if !set["fail-on"] && first.FailOn != 0 {
			c.FailOn = first.FailOn
		}
		if !set["select"] {
			c.Select = first.Select
		}
		if !set["ignore"] {
			c.Ignore = first.Ignore
		}
	}
	var more sync.Mutex // the configs of files no input named (configFor)
	configFor := func(in input) *config.Config {
		if cfg, ok := configs[in.Path]; ok {
			return cfg
		}
		// A file the runs read that the command line did not give (the other files of the
		// config directory around a named group option): the options a walk would give it.
		if fixed != nil {
			return fixed
		}
		more.Lock()
		defer more.Unlock()
		cfg, _ := nearestConfig(loader, diskPath(in)) // a broken config file: the defaults
		return cfg
	}
	return func(in input) lint.Options {
		o := withRepo(configFor(in).Options(diskPath(in)), diskPath(in))
		if set["select"] {
			o.Select = flags.Select
		}
		if set["ignore"] {
			o.Ignore = flags.Ignore
		}
		if set["hosts"] {
			o.Hosts = flags.Hosts
		}
		if set["devices-per-host"] {
			o.DevicesPerHost = flags.DevicesPerHost
		}
		if set["framework"] {
			o.Framework = flags.Framework
		}
		if set["config-arg"] {
			o.ConfigArg = flags.ConfigArg
		}
		return o
	}, nil
}

// nearestConfig is the config file that applies to a file on disk (nil when none does): the
// discovery step check and the language server share.
func nearestConfig(loader *config.Loader, file string) (*config.Config, error) {
	return loader.ForFile(file)
}

// fileOptions gives a file on disk the options `trainlint check FILE` lints it with when no flag
// is given: its nearest config file's. The language server lints every file this way.
func fileOptions(loader *config.Loader, file string) (lint.Options, error) {
	cfg, err := nearestConfig(loader, file)
	if err != nil {
		return lint.Options{}, err
	}
	return withRepo(cfg.Options(file), file), nil
}

// writeConfigSchema prints the config file's JSON Schema (`trainlint schema config`).
func writeConfigSchema(w io.Writer) error {
	_, err := w.Write(config.Schema(allRules()))
	return err
}
