package dialect

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// All sorts by hand (no sort.Slice, see All): every dialect once, by name, Generic last.
func TestAllSortedByName(t *testing.T) {
	all := All()
	if len(all) != len(registry) {
		t.Fatalf("All has %d dialects, the registry %d", len(all), len(registry))
	}
	if all[len(all)-1] != Generic {
		t.Errorf("last is %q, want the generic dialect", all[len(all)-1].Name)
	}
	seen := map[string]bool{}
	for i, d := range all {
		if seen[d.Name] {
			t.Errorf("%q twice", d.Name)
		}
		seen[d.Name] = true
		if i > 0 && i < len(all)-1 && all[i-1].Name >= d.Name {
			t.Errorf("%q before %q", all[i-1].Name, d.Name)
		}
	}
}

// Each dialect is built by a function of its own (register's comment: the package initialiser
// as one large WebAssembly function was recompiled by V8 while the browser checker started).
func TestDialectsBuiltByFunctions(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), "register(&Dialect{") {
			t.Errorf("%s registers a Dialect literal; build it in a function: var X = register(newX())", f)
		}
	}
}

// An AdviceSet gives each concept once (as the map it replaced did), so that For's first match
// is the only one; a concept's Help or Doc is never empty for nothing.
func TestAdviceConceptsUnique(t *testing.T) {
	sets := map[string]AdviceSet{"hfAdvice": hfAdvice, "mmAdvice": mmAdvice, "timmAdvice": timmAdvice,
		"bigVisionAdvice": bigVisionAdvice, "t5xAdvice": t5xAdvice, "scenicAdvice": scenicAdvice,
		"lightningTrainerAdvice": lightningTrainerAdvice}
	for _, d := range All() {
		sets[d.Name] = d.Advice
	}
	for name, s := range sets {
		seen := map[string]bool{}
		for _, a := range s {
			if seen[a.Concept] {
				t.Errorf("%s: concept %q given twice", name, a.Concept)
			}
			seen[a.Concept] = true
			if a.Concept == "" || a.Help == "" && a.Doc == "" && a.IfDefault == "" {
				t.Errorf("%s: concept %q has no advice", name, a.Concept)
			}
		}
	}
	// The Lightning Trainer's advice comes after a dialect's own, which wins for a concept both give.
	own := AdviceSet{{"bn.sync", Advice{Help: "own"}}}
	if got := lightningAdvice(own).For("bn.sync").Help; got != "own" {
		t.Errorf("lightningAdvice: own advice %q, want %q", got, "own")
	}
	if got := lightningAdvice(own).For("ckpt.direction"); !reflect.DeepEqual(got, lightningTrainerAdvice.For("ckpt.direction")) {
		t.Errorf("lightningAdvice: the Trainer's advice for ckpt.direction lost: %+v", got)
	}
	if !reflect.DeepEqual((AdviceSet{}).For("x"), Advice{}) {
		t.Error("For of a concept the set lacks is not the zero Advice")
	}
}

// LLaMA-Factory takes the Trainer's advice for the concepts it passes on unchanged.
func TestLlamaFactoryAdviceFromTrainer(t *testing.T) {
	for _, c := range []string{"ckpt.retention", "ckpt.align", "ckpt.direction", "ckpt.scope", "logging.scope",
		"data.workers", "eval.per_device_batch", "precision", "eval.drop_last", "logging.sync_every",
		"tracking.trackers", "schedule.warmup"} {
		got, ok := LlamaFactory.Advice.Lookup(c)
		if want := hfAdvice.For(c); !ok || !reflect.DeepEqual(got, want) || want.Help == "" && want.Doc == "" {
			t.Errorf("%s: LLaMA-Factory's advice %+v (%v), the Trainer's %+v", c, got, ok, want)
		}
	}
	if a := LlamaFactory.Advice.For("data.streaming"); !strings.Contains(a.Help, "LLaMA-Factory") {
		t.Errorf("LLaMA-Factory's own data.streaming advice lost: %+v", a)
	}
}
