package api_test

// hfPitfall is the browser test's pitfall: an eval batch smaller than the train batch.
const hfPitfall = `# Fine-tuning run
output_dir: out/sft
per_device_train_batch_size: 16
per_device_eval_batch_size: 4
eval_strategy: steps
eval_steps: 500
save_total_limit: 2
`
