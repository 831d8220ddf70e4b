package dialect

import "github.com/trainlint/trainlint/lint/doc"

// genPairUncounted reports a train/eval pair of batch_size keys (tn, en) that do not count the
// same thing, so the generic reader compares neither:
//   - an evaluation of episodes: its batch_size is the number of environments stepped together,
//     not of examples (LeRobot's EvalConfig, src/lerobot/configs/default.py @7427f31: "batch_size
//     specifies the number of environments", capped at n_episodes);
//   - mesh-tensorflow microbatches train steps (utils.py:2243-2254 @0.1.18); PFGM's network
//     takes small_batch_size examples (Poisson_flow losses.py:83-97); score_sde's begin_ckpt
//     section is its eval job's, training evaluating at training.batch_size (datasets.py:83);
//   - a semi-supervised step takes uratio unlabelled examples for each labelled one beside
//     batch_size (semilearn/core/algorithmbase.py:132-134 in Chrisfsj2051's fork of USB @eaf2e2a:
//     the unlabelled loader's batch is batch_size × uratio, and FlexMatch with use_cat forwards
//     the labelled batch and both unlabelled views together), so batch_size is a part of it.
func genPairUncounted(g genericReader, tn, en *doc.Node) bool {
	if en.Parent != tn.Parent && g.child(en.Parent, "n_episodes") != nil {
		return true
	}
	if mb, ok := g.child(tn.Parent, "tokens_per_mb_per_replica").Int(); ok && mb > 0 {
		return true
	}
	for _, k := range []string{"small_batch_size", "uratio"} {
		if g.child(tn.Parent, k) != nil {
			return true
		}
	}
	return g.child(en.Parent, "begin_ckpt") != nil
}
