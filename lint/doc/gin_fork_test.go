package doc

import "testing"

// TestGinForkValues: HorizonRobotics' fork of gin-config (the one ALF pins) reads identifier
// references and references evaluated with arguments (gin/config_parser.py at c8a2c66,
// parse_value and _parse_args_kwargs); with Options.GinFork they are opaque values, and
// without it upstream gin's grammar still refuses them.
func TestGinForkValues(t *testing.T) {
	src := "import functools\nimport alf\n" +
		"INIT_LR = 0.1\n" +
		"A.f = functools.partial(\n    @datagen.load_mnist, label_idx=[0,1], train_bs=100)\n" +
		"camera = alf.nest.get_field(%observation_spec, \"observation.camera\")\n" +
		"B.opt = @AdamTF(lr=3e-4)\n" +
		"B.sched = @ExponentialScheduler(progress_type='iterations', initial_value=%INIT_LR)\n" +
		"enc/C.pre = @alf.layers.Reshape([-1])\n" +
		"B.plain = @Plain()\n" +
		"B.n = 3\n"
	d := ParseWith("x.gin", []byte(src), Gin, Options{GinFork: true})
	if len(d.Problems) != 0 || d.Root == nil {
		t.Fatalf("fork grammar: problems %+v", d.Problems)
	}
	for path, want := range map[string]string{
		"A.f":       "functools.partial(\n    @datagen.load_mnist, label_idx=[0,1], train_bs=100)",
		"camera":    `alf.nest.get_field(%observation_spec, "observation.camera")`,
		"B.opt":     "@AdamTF(lr=3e-4)",
		"B.sched":   "@ExponentialScheduler(progress_type='iterations', initial_value=%INIT_LR)",
		"enc/C.pre": "@alf.layers.Reshape([-1])",
		"B.plain":   "@Plain()",
	} {
		n := d.Root.At(path)
		if n == nil || n.Kind != Scalar || n.Type != Unknown || n.Style != "reference" || n.Value != want {
			t.Errorf("%s = %+v, want the opaque reference %q", path, n, want)
		}
	}
	if n := d.Root.At("B.n"); n == nil || n.Value != "3" {
		t.Errorf("B.n = %+v", n)
	}
	// Still errors in the fork: an argument list left open, a space inside a dotted name.
	for _, bad := range []string{"B.opt = @AdamTF(lr=3e-4\n", "A.f = functools .partial(1)\n"} {
		if d := ParseWith("x.gin", []byte(bad), Gin, Options{GinFork: true}); len(d.Problems) == 0 {
			t.Errorf("%q: no problem in the fork's grammar", bad)
		}
	}
	// Upstream gin refuses both forms.
	for _, c := range []problemCase{
		{src: "A.f = functools.partial(1)\n", kind: Syntax, line: 1, col: 7, msg: `^gin: "functools" is not a value`},
		{src: "B.opt = @AdamTF(lr=3e-4)\n", kind: Syntax, line: 1, col: 17, msg: `^gin: expected "\)", found "lr"$`},
	} {
		checkProblem(t, Gin, c)
	}
}
