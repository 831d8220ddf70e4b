// node --test src/select.test.js: the extension's choices that need no VS Code.
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { looksLikeTrainingConfig, wantedDocument, findBinary } = require('./select');

const examples = path.join(__dirname, '..', '..', 'trainlint', 'examples');

test('every bundled example looks like a training config', () => {
  for (const name of fs.readdirSync(examples)) {
    if (name.startsWith('.')) continue;
    const text = fs.readFileSync(path.join(examples, name), 'utf8');
    assert.ok(looksLikeTrainingConfig(text), name);
  }
});

test('other YAML, JSON and TOML files do not', () => {
  const others = {
    'workflow.yml': 'name: CI\non:\n  push:\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n',
    'compose.yaml': 'services:\n  web:\n    image: nginx\n    ports:\n      - "80:80"\n',
    'package.json': '{"name": "x", "version": "1.0.0", "dependencies": {"left-pad": "1.0.0"}}',
    'Cargo.toml': '[package]\nname = "x"\nversion = "0.1.0"\n',
  };
  for (const [name, text] of Object.entries(others)) {
    assert.ok(!looksLikeTrainingConfig(text), name);
  }
});

test('gin bindings and Python configs are recognised', () => {
  assert.ok(looksLikeTrainingConfig('train.learning_rate = 1e-3\nMODEL = @Model()\n'));
  assert.ok(looksLikeTrainingConfig('optimizer = dict(type="AdamW", lr=0.001)\n'));
  assert.ok(!looksLikeTrainingConfig('def seeded():\n    return 1\n'));
});

test('gin and Python documents go to the server whatever their keys', () => {
  // A T5X run file that includes the model and sets only macros names no training key.
  const gin = "include 't5x/examples/t5/t5_1_1/base.gin'\nMIXTURE_OR_TASK_NAME = 'wmt_t2t_ende_v003'\nTRAIN_STEPS = 1_020_000\n";
  assert.ok(!looksLikeTrainingConfig(gin));
  assert.ok(wantedDocument('gin', gin, true));
  // MMEngine's runtime base file: the server decides, as the CLI does for walked .py files.
  const py = "default_scope = 'mmdet'\nenv_cfg = dict(cudnn_benchmark=False)\nlog_level = 'INFO'\n";
  assert.ok(wantedDocument('python', py, true));
  // Other YAML still needs a training key, unless the setting is off.
  const workflow = 'on: [push]\njobs: {}\n';
  assert.ok(!wantedDocument('yaml', workflow, true));
  assert.ok(wantedDocument('yaml', workflow, false));
  assert.ok(wantedDocument('yaml', 'model_checkpoint:\n  save_top_k: 1\n  monitor: val/acc\n', true));
});

test('binary: the setting, then PATH, then the bundled one', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trainlint-ext-'));
  const onPathDir = path.join(dir, 'path');
  const ext = path.join(dir, 'ext');
  fs.mkdirSync(onPathDir);
  fs.mkdirSync(path.join(ext, 'bin'), { recursive: true });
  const bundled = path.join(ext, 'bin', 'trainlint');
  fs.writeFileSync(bundled, '#!/bin/sh\n', { mode: 0o755 });
  const env = { PATH: onPathDir };
  assert.deepStrictEqual(findBinary('/opt/tl', ext, env, 'linux'), { path: '/opt/tl', source: 'the trainlint.path setting' });
  assert.deepStrictEqual(findBinary('', ext, env, 'linux'), { path: bundled, source: 'the extension' });
  const own = path.join(onPathDir, 'trainlint');
  fs.writeFileSync(own, '#!/bin/sh\n', { mode: 0o644 });
  assert.strictEqual(findBinary('', ext, env, 'linux').source, 'the extension', 'a file on PATH that is not executable is skipped');
  fs.chmodSync(own, 0o755);
  assert.deepStrictEqual(findBinary('', ext, env, 'linux'), { path: own, source: 'PATH' });
  fs.rmSync(path.join(ext, 'bin'), { recursive: true });
  fs.rmSync(own);
  assert.strictEqual(findBinary('', ext, env, 'linux'), undefined);
});
