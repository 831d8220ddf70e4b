package dialect

import (
	"strings"

	"github.com/trainlint/trainlint/lint/doc"
)

// trackerNames are the experiment trackers a callback's class may name (WandbImageCallback,
// MLflowModelLogger), and the switches a callback may take to report to one itself.
var trackerNames = []string{"wandb", "mlflow", "comet", "neptune", "clearml", "tensorboard"}

// trackingCallback reports a Trainer callback that reports to an experiment tracker itself,
// whatever the Trainer's logger says: its class names a tracker, or it takes a tracker switch
// set true (lighter's LighterLogger with wandb: True calls wandb.init and wandb.log,
// lighter/callbacks/logger.py @8411b19). A callback that logs through the Trainer's loggers
// (CompVis' ImageLogger) names none.
func trackingCallback(tr *doc.Node) bool {
	return anyCallback(tr, func(ref string, args *doc.Node) bool {
		cls := strings.ToLower(ref[strings.LastIndexByte(ref, '.')+1:])
		for _, t := range trackerNames {
			if strings.Contains(cls, t) {
				return true
			}
			for _, k := range []string{t, "use_" + t} {
				if b, ok := args.Get(k).Bool(); ok && b {
					return true
				}
			}
		}
		return false
	})
}
