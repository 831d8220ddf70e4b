package dialect

import (
	"reflect"
	"testing"
)

// TestKnowledgeByFramework: reading one framework's rows (KnowledgeOf parses each on first use)
// gives what reading every table at once gives, for every framework, and nothing for a name
// the tables do not have.
func TestKnowledgeByFramework(t *testing.T) {
	all := parseKnowledge("", knowledgeTSV, knowledgeFinetuneTSV, knowledgeLightningTSV, knowledgeOmegaconfTSV, knowledgeTorchtuneTSV, knowledgeOpenMMLabTSV)
	if len(all) < 5 {
		t.Fatalf("%d frameworks in the tables", len(all))
	}
	for fw, want := range all {
		got := KnowledgeOf(fw)
		if got == nil || got.Framework != fw || !reflect.DeepEqual(got.Sections, want.Sections) ||
			!reflect.DeepEqual(got.Facts, want.Facts) || !reflect.DeepEqual(got.Tags, want.Tags) {
			t.Errorf("%s: its own rows differ from the whole table's", fw)
		}
		if len(want.Sections) == 0 || len(want.Tags) == 0 {
			t.Errorf("%s: no sections or no tags", fw)
		}
	}
	for _, fw := range []string{"", "nope", "transformer", "@tags"} {
		if KnowledgeOf(fw) != nil {
			t.Errorf("knowledge of %q", fw)
		}
	}
	// Lines of the wrong shape are skipped as before; a row is 8 fields, @tags 3.
	odd := parseKnowledge("", "x\ty\n@tags\tfw\tv1 v2\n@tags\tfw\n#c\n\na\tb\tc\td\te\tf\tg\th\ti\nfw\ts\tk\td\t\t\t-\tsrc\nz\tq\tw\n")
	if len(odd) != 1 || odd["fw"] == nil || !reflect.DeepEqual(odd["fw"].Tags, []string{"v1", "v2"}) || odd["fw"].Sections["s"]["k"].Source != "src" {
		t.Errorf("odd lines: %+v", odd)
	}
	// One framework's rows are the one block that follows its @tags line (comments and empty
	// lines inside it are skipped); nothing after the block is read, neither its rows after
	// another framework's (k3) nor in a later table (k4). The whole tables hold to that (the
	// loop above compares every framework's block with the whole tables' rows).
	blocks := parseKnowledge("fw", "#c\nfw\ts\tk0\td\t\t\t-\tsrc\n@tags\tfw\tv1\nfw\ts\tk1\td\t\t\t-\tsrc\n#c\n\nfw\ts\tk2\td\t\t\t-\tsrc\n"+
		"gw\ts\tk\td\t\t\t-\tsrc\nfw\ts\tk3\td\t\t\t-\tsrc\n", "@tags\tfw\tv1\nfw\ts\tk4\td\t\t\t-\tsrc\n")["fw"]
	if blocks == nil || len(blocks.Sections["s"]) != 2 || blocks.Sections["s"]["k1"].Source != "src" || blocks.Sections["s"]["k2"].Key != "k2" {
		t.Errorf("blocks: %+v", blocks)
	}
}
