package main

import "strings"

// LightningModules that cannot be fit. Lightning's fit stops unless the module overrides
// training_step (trainer/configuration_validator.py __verify_train_val_loop_configuration,
// 2.6.5), and a module whose training_step only raises NotImplementedError fails at its first
// step: a LightningCLI config of such a module is validated, tested or predicted with, and
// those write no checkpoint (ModelCheckpoint skips saving outside fit). kaiko-ai/eva's language
// modules define only validation_step and test_step; ModelGenerator's structure tokenizers
// raise "can not be trained". The driver reads the repository's classes and tells the dialect
// which can never fit (lint.Options.NoFitModels).

// moduleClass is what a class statement of the repository says about training.
type moduleClass struct {
	bases string // the bases as written, comma-separated
	// step: 0 no training_step in the class body, 1 one that trains, 2 one that only raises
	// NotImplementedError.
	step int
	// val: a validation_step in the class body.
	val bool
}

// moduleClasses adds text's classes to classes, by name (each definition of a name kept). One
// pass, with the classes whose bodies are open on a stack: a `def training_step(` belongs to
// the innermost one.
func moduleClasses(text string, classes map[string][]moduleClass) {
	type open struct {
		name   string
		indent int
		c      moduleClass
	}
	var stack []open
	closeTo := func(indent int) {
		for len(stack) > 0 && stack[len(stack)-1].indent >= indent {
			top := stack[len(stack)-1]
			classes[top.name] = append(classes[top.name], top.c)
			stack = stack[:len(stack)-1]
		}
	}
	lines := strings.Split(text, "\n")
	quote := "" // the delimiter of a triple-quoted string left open by an earlier line
	for i, line := range lines {
		line = strings.TrimSuffix(line, "\r") // a CRLF file's blank line is no statement
		if quote != "" {
			// Inside a string: its lines, at whatever column, close no class.
			if strings.Count(line, quote)%2 == 1 {
				quote = ""
			}
			continue
		}
		for _, q := range []string{`"""`, "'''"} {
			if strings.Count(line, q)%2 == 1 {
				quote = q
				break
			}
		}
		t := strings.TrimLeft(line, " \t")
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		indent := len(line) - len(t)
		closeTo(indent)
		if strings.HasPrefix(t, "def training_step(") && len(stack) > 0 {
			top := &stack[len(stack)-1]
			top.c.step = 1
			if stepRaises(lines[i+1:], indent) {
				top.c.step = 2
			}
			continue
		}
		if (strings.HasPrefix(t, "def validation_step(") || strings.HasPrefix(t, "validation_step =") || strings.HasPrefix(t, "validation_step=")) && len(stack) > 0 {
			stack[len(stack)-1].c.val = true
			continue
		}
		if name, args, ok := classHeader(t); ok { // scriptargs.go
			stack = append(stack, open{name: name, indent: indent, c: moduleClass{bases: args}})
		}
	}
	closeTo(0)
}

// stepRaises reports a method body (the lines after its def, at more than indent) whose first
// statement, past a docstring, raises NotImplementedError. Only the first 200 lines are read,
// so that a file of many defs inside an unclosed string stays linear.
func stepRaises(lines []string, indent int) bool {
	doc := false
	if len(lines) > 200 {
		lines = lines[:200]
	}
	for _, l := range lines {
		t := strings.TrimLeft(l, " \t")
		if t == "" || strings.HasPrefix(t, "#") {
			continue
		}
		if len(l)-len(t) <= indent {
			return false
		}
		if doc {
			doc = !strings.Contains(t, `"""`)
			continue
		}
		if strings.HasPrefix(t, `"""`) {
			doc = strings.Count(t, `"""`) == 1
			continue
		}
		return strings.HasPrefix(t, "raise NotImplementedError")
	}
	return false
}

// untrainable are the classes that can never fit: every definition of the name either has a
// training_step that only raises, or has none and only bases that are LightningModule itself
// or untrainable classes of the repository. A base the repository does not define (a
// library's module) may train: the class is then not listed. Nil when none.
func untrainable(classes map[string][]moduleClass) map[string]bool {
	return lacking(classes, func(c moduleClass) int { return c.step })
}

// unvalidated are the classes that never validate: no definition of the name, nor of its
// bases up to LightningModule, has a validation_step, so fit runs no validation loop
// (loops/evaluation_loop.py skip, Lightning 2.6.5; lightning-diffusers' DDPM logs only its
// train loss). A base the repository does not define may have one. Nil when none.
func unvalidated(classes map[string][]moduleClass) map[string]bool {
	return lacking(classes, func(c moduleClass) int {
		if c.val {
			return 1
		}
		return 0
	})
}

// lacking are the classes that lack a method: has says, for one definition, 0 when its body
// does not define it (its bases decide), 1 when it does, 2 when it does but only raises
// NotImplementedError (it counts as lacking).
func lacking(classes map[string][]moduleClass, has func(moduleClass) int) map[string]bool {
	state := map[string]int{} // 1 visiting, 2 lacking, 3 may have it
	var visit func(string) bool
	visit = func(name string) bool {
		switch state[name] {
		case 1, 3:
			return false
		case 2:
			return true
		}
		defs, ok := classes[name]
		if !ok {
			return false
		}
		state[name] = 1
		no := true
		for _, c := range defs {
			switch has(c) {
			case 1:
				no = false
			case 0:
				bases := 0
				for _, b := range strings.Split(c.bases, ",") {
					if b = strings.TrimSpace(b); b == "" || strings.Contains(b, "=") {
						continue // a keyword argument (metaclass=...)
					}
					bases++
					b = b[strings.LastIndexByte(b, '.')+1:]
					if b != "LightningModule" && !visit(b) {
						no = false
					}
				}
				no = no && bases > 0
			}
		}
		state[name] = 3
		if no {
			state[name] = 2
		}
		return no
	}
	var out map[string]bool
	for name := range classes {
		if visit(name) {
			if out == nil {
				out = map[string]bool{}
			}
			out[name] = true
		}
	}
	return out
}

// allModules is the key of unvalidated's set that stands for every LightningModule of the
// repository: added when there is one and none of them validates, so that a config that names
// no model (a trainer fragment passed beside a model file) still knows no module validates.
const allModules = "*"

// withAllModules adds allModules to set (unvalidated's) when the repository defines a
// LightningModule (a class whose bases lead to LightningModule) and every one is in set.
func withAllModules(classes map[string][]moduleClass, set map[string]bool) map[string]bool {
	memo := map[string]int{} // 1 visiting, 2 a module, 3 not
	var module func(string) bool
	module = func(name string) bool {
		switch memo[name] {
		case 1, 3:
			return false
		case 2:
			return true
		}
		memo[name] = 1
		is := false
		for _, c := range classes[name] {
			for _, b := range strings.Split(c.bases, ",") {
				b = strings.TrimSpace(b)
				b = b[strings.LastIndexByte(b, '.')+1:]
				if b == "LightningModule" || b != "" && module(b) {
					is = true
				}
			}
		}
		memo[name] = 3
		if is {
			memo[name] = 2
		}
		return is
	}
	any := false
	for name := range classes {
		if module(name) {
			if !set[name] {
				return set
			}
			any = true
		}
	}
	if any {
		set[allModules] = true
	}
	return set
}
