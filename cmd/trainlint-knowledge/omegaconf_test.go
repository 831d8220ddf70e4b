package main

import (
	"testing"
)

// TestOmegaconfTableUpToDate fails when lint/dialect/knowledge_omegaconf.tsv is not what the committed
// NeMo and llm-foundry extraction renders to, and checks facts read in their source.
func TestOmegaconfTableUpToDate(t *testing.T) {
	table := renderedUpToDate(t, omegaconfFiles, omegaconfOut)
	tableHas(t, table,
		// exp_manager merges the section into OmegaConf.structured(ExpManagerConfig).
		"nemo-toolkit\t\t@extra\tforbid\t\t\t\tnemo/utils/exp_manager.py@v2.5.0rc0",
		"nemo-toolkit\tExpManagerConfig\tresume_if_exists\tFalse\t",
		// resume_from_checkpoint joined ExpManagerConfig at v1.21.0.
		"nemo-toolkit\tExpManagerConfig\tresume_from_checkpoint\tNone\tv1.21.0\t",
		"nemo-toolkit\tCallbackParams\tsave_top_k\t3\t",
		// async_save joined CallbackParams at v2.0.0.
		"nemo-toolkit\tCallbackParams\tasync_save\tFalse\tv2.0.0\t",
		"nemo-toolkit\tEarlyStoppingParams\tpatience\t10\t",
		"nemo-toolkit\tMLFlowParams\tlog_model\tFalse\tv1.21.0\t\t\tnemo/utils/loggers/mlflow_logger.py@",
		// make_dataclass_and_log_config raises on top-level keys that are not TrainConfig fields.
		"llm-foundry\t\t@extra\tforbid\t\t\t\tllmfoundry/utils/config_utils.py@v0.21.0",
		"llm-foundry\tTrainConfig\tvariables\t",
		"llm-foundry\tTrainConfig\tsave_num_checkpoints_to_keep\t-1\t",
		// tp_config joined TrainConfig at v0.13.0.
		"llm-foundry\tTrainConfig\ttp_config\tNone\tv0.13.0\t",
		// The eval script checks against EvalConfig; its transform admits a top-level model and
		// what goes with it from v0.11.0.
		"llm-foundry\tEvalConfig\tmodels\tMISSING\t\t",
		"llm-foundry\tEvalConfig@toplevel\tload_path\t\tv0.11.0\t",
		// The eval script requires icl_tasks up to v0.11.0 (icl_tasks_required=True).
		"llm-foundry\tEvalConfig@required\ticl_tasks\t\t\tv0.12.0\t",
	)
}
