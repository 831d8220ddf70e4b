package main

// axolotl's and LLaMA-Factory's extraction (extract_finetune.py) renders into a table of its own,
// in the same format as knowledge.tsv plus "@enum" and "@check" rows, so that it merges apart
// from the other frameworks' extraction.
var finetuneFiles = []string{"axolotl.json", "llamafactory.json"}

const finetuneOut = "lint/dialect/knowledge_finetune.tsv"
