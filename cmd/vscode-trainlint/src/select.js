// What the extension decides without VS Code: which binary to start and which files to send to
// the server. Kept apart from extension.js (which needs the vscode module) so that a plain Node
// test can run it.
'use strict';

const fs = require('node:fs');
const path = require('node:path');

// Keys that training configs of the supported frameworks write and other YAML/JSON/TOML files
// (CI workflows, docker-compose, package manifests) do not. One hit is enough.
const TRAINING_KEYS = [
  'learning_rate', 'lr', 'per_device_train_batch_size', 'per_device_eval_batch_size',
  'train_batch_size', 'train_micro_batch_size_per_gpu', 'micro_batch_size', 'global_batch_size',
  'batch_size', 'gradient_accumulation_steps', 'gradient_accumulation', 'max_steps', 'max_epochs',
  'num_train_epochs', 'num_epochs', 'eval_steps', 'eval_strategy', 'val_check_interval',
  'eval_interval', 'save_steps', 'save_total_limit', 'checkpointer', 'zero_optimization',
  'optimizer', 'lr_scheduler', 'warmup_steps', 'trainer', 'exp_manager', 'sync_batchnorm',
  'seed', 'data_seed', 'base_model', 'model_name_or_path', 'dataloader_num_workers',
  // Lightning's checkpoint callback, alone in a Hydra callbacks group file
  'save_top_k', 'every_n_train_steps', 'every_n_epochs',
];

// Gin bindings (`train.num_steps = 1000`, `MODEL = ...`) and Python configs (MMEngine,
// ml_collections) spell keys as assignments and calls; the key words are the same.
const keyPattern = new RegExp(
  '(^|[\\s{,"\'.(])(' + TRAINING_KEYS.join('|') + ')["\']?\\s*(:|=)',
  'm',
);

/**
 * looksLikeTrainingConfig reports whether a file's text names a training setting.
 * @param {string} text
 * @returns {boolean}
 */
function looksLikeTrainingConfig(text) {
  return keyPattern.test(text.length > 200000 ? text.slice(0, 200000) : text);
}

// Languages whose documents the key words do not judge: a gin file is a config (the bindings of
// a model or a mixture hold no training key but still make a run), and a Python file under a
// config folder is judged by the server with the test the CLI applies to the .py files a folder
// walk finds (a script or a helper module is left alone).
const CODE_LANGUAGES = new Set(['gin', 'python']);

/**
 * wantedDocument reports whether the client sends a document to the server.
 * @param {string} languageId
 * @param {string} text
 * @param {boolean} only the trainlint.onlyTrainingConfigs setting
 * @returns {boolean}
 */
function wantedDocument(languageId, text, only) {
  return !only || CODE_LANGUAGES.has(languageId) || looksLikeTrainingConfig(text);
}

/**
 * onPath returns the first executable called name in the folders of PATH, or undefined.
 * @param {string} name
 * @param {NodeJS.ProcessEnv} env
 * @param {string} platform
 */
function onPath(name, env, platform) {
  const dirs = (env.PATH || env.Path || '').split(path.delimiter).filter(Boolean);
  const exts = platform === 'win32' ? (env.PATHEXT || '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of dirs) {
    for (const ext of exts) {
      const p = path.join(dir, name + ext.toLowerCase());
      try {
        const st = fs.statSync(p);
        if (st.isFile() && (platform === 'win32' || (st.mode & 0o111) !== 0)) return p;
      } catch {
        // not there
      }
    }
  }
  return undefined;
}

/**
 * findBinary chooses the trainlint binary: the trainlint.path setting when set, else
 * `trainlint` on PATH (the one the user's terminal and CI run), else the binary bundled in the
 * extension's bin/ folder. It returns undefined when there is none.
 * @param {string} setting the trainlint.path setting ("" when unset)
 * @param {string} extensionDir
 * @param {NodeJS.ProcessEnv} env
 * @param {string} platform process.platform
 * @returns {{path: string, source: string} | undefined}
 */
function findBinary(setting, extensionDir, env, platform) {
  if (setting && setting.trim() !== '') {
    return { path: setting.trim(), source: 'the trainlint.path setting' };
  }
  const exe = platform === 'win32' ? 'trainlint.exe' : 'trainlint';
  const found = onPath('trainlint', env, platform);
  if (found) return { path: found, source: 'PATH' };
  const bundled = path.join(extensionDir, 'bin', exe);
  if (fs.existsSync(bundled)) return { path: bundled, source: 'the extension' };
  return undefined;
}

// The documents the client offers the server: file-backed YAML, JSON, TOML, gin and Python
// configs. Python is limited to config folders: most Python files are code, not configs.
const DOCUMENT_SELECTOR = [
  { scheme: 'file', language: 'yaml' },
  { scheme: 'file', language: 'json' },
  { scheme: 'file', language: 'jsonc' },
  { scheme: 'file', language: 'toml' },
  { scheme: 'file', language: 'gin' },
  { scheme: 'file', language: 'python', pattern: '**/{config,configs,conf}/**/*.py' },
  { scheme: 'untitled', language: 'yaml' },
];

module.exports = { looksLikeTrainingConfig, wantedDocument, findBinary, onPath, DOCUMENT_SELECTOR, TRAINING_KEYS };
