// node --test src/extension.test.js: activate() with VS Code's API and vscode-languageclient
// replaced by recording fakes. It checks what the extension asks of the client: the command it
// starts, the documents it covers, the config files it watches, and that only training configs
// reach the server (middleware).
'use strict';

const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const Module = require('node:module');

const settings = {};
const errors = [];
const clients = [];

const fakeVscode = {
  workspace: {
    getConfiguration: () => ({ get: (key, def) => (key in settings ? settings[key] : def) }),
    createFileSystemWatcher: (glob) => ({ glob }),
    onDidChangeConfiguration: () => ({ dispose() {} }),
  },
  commands: { registerCommand: (name) => ({ name, dispose() {} }) },
  window: { showErrorMessage: (m) => errors.push(m) },
};

class FakeLanguageClient {
  constructor(id, name, serverOptions, clientOptions) {
    Object.assign(this, { id, name, serverOptions, clientOptions, sent: [], started: false });
    this.outputChannel = { appendLine() {} };
    clients.push(this);
  }
  start() { this.started = true; return Promise.resolve(); }
  stop() { return Promise.resolve(); }
  sendNotification(type, params) { this.sent.push({ type, params }); return Promise.resolve(); }
}
const fakeClientLib = {
  LanguageClient: FakeLanguageClient,
  TransportKind: { stdio: 0 },
  DidOpenTextDocumentNotification: { type: { method: 'textDocument/didOpen' } },
};

const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'vscode') return fakeVscode;
  if (request === 'vscode-languageclient/node') return fakeClientLib;
  return load.call(this, request, parent, isMain);
};
const extension = require('./extension');

function doc(uri, text, languageId = 'yaml', version = 1) {
  return { uri: { toString: () => uri }, getText: () => text, languageId, version };
}

const hfSft = fs.readFileSync(path.join(__dirname, '..', '..', 'trainlint', 'examples', 'hf-sft.yaml'), 'utf8');
const workflow = 'name: CI\non: push\njobs:\n  t:\n    runs-on: ubuntu-latest\n';

test('activate starts trainlint lsp with the bundled binary and covers configs', async () => {
  const ext = fs.mkdtempSync(path.join(os.tmpdir(), 'trainlint-ext-'));
  fs.mkdirSync(path.join(ext, 'bin'));
  fs.writeFileSync(path.join(ext, 'bin', process.platform === 'win32' ? 'trainlint.exe' : 'trainlint'), '', { mode: 0o755 });
  const savedPath = process.env.PATH;
  process.env.PATH = ext; // no trainlint on PATH
  try {
    await extension.activate({ extensionPath: ext, subscriptions: [] });
  } finally {
    process.env.PATH = savedPath;
  }
  assert.strictEqual(errors.length, 0, errors.join('\n'));
  const c = clients.at(-1);
  assert.ok(c.started);
  assert.deepStrictEqual(c.serverOptions.run.args, ['lsp']);
  assert.strictEqual(c.serverOptions.run.command, path.join(ext, 'bin', 'trainlint'));
  const langs = c.clientOptions.documentSelector.map((s) => s.language);
  for (const l of ['yaml', 'json', 'toml', 'gin', 'python']) assert.ok(langs.includes(l), l);
  assert.deepStrictEqual(c.clientOptions.synchronize.fileEvents.map((w) => w.glob), ['**/.trainlint.toml', '**/pyproject.toml']);

  // Only training configs reach the server.
  const mw = c.clientOptions.middleware;
  const passed = [];
  const next = (x) => { passed.push(x); return Promise.resolve(); };
  await mw.didOpen(doc('file:///w/ci.yml', workflow), next);
  assert.strictEqual(passed.length, 0, 'a CI workflow was sent to the server');
  await mw.didOpen(doc('file:///w/sft.yaml', hfSft), next);
  assert.strictEqual(passed.length, 1);
  await mw.didChange({ document: doc('file:///w/sft.yaml', hfSft, 'yaml', 2) }, next);
  assert.strictEqual(passed.length, 2, 'changes of an open config go through');
  await mw.didChange({ document: doc('file:///w/ci.yml', workflow, 'yaml', 2) }, next);
  assert.strictEqual(passed.length, 2, 'changes of a workflow do not');
  // A file that becomes a training config while typed is opened on the server.
  await mw.didChange({ document: doc('file:///w/new.yaml', 'learning_rate: 1e-4\n', 'yaml', 3) }, next);
  assert.strictEqual(c.sent.length, 1);
  assert.strictEqual(c.sent[0].type.method, 'textDocument/didOpen');
  assert.deepStrictEqual(c.sent[0].params.textDocument, { uri: 'file:///w/new.yaml', languageId: 'yaml', version: 3, text: 'learning_rate: 1e-4\n' });
  await mw.didClose(doc('file:///w/ci.yml', workflow), next);
  assert.strictEqual(passed.length, 2, 'closing a file the server never saw is not sent');
  await mw.didClose(doc('file:///w/new.yaml', ''), next);
  assert.strictEqual(passed.length, 3);

  // A gin file is sent whatever its keys (the language decides, not the words).
  await mw.didOpen(doc('file:///w/run.gin', "include 'base.gin'\nTRAIN_STEPS = 1000\n", 'gin'), next);
  assert.strictEqual(passed.length, 4, 'a gin file was held back');

  // The setting turns the filter off.
  settings.onlyTrainingConfigs = false;
  await mw.didOpen(doc('file:///w/ci2.yml', workflow), next);
  assert.strictEqual(passed.length, 5);
  delete settings.onlyTrainingConfigs;
  await extension.deactivate();
});

test('trainlint.path wins; no binary at all is an error message', async () => {
  settings.path = '/opt/trainlint/bin/trainlint';
  await extension.activate({ extensionPath: fs.mkdtempSync(path.join(os.tmpdir(), 'trainlint-ext-')), subscriptions: [] });
  assert.strictEqual(clients.at(-1).serverOptions.run.command, '/opt/trainlint/bin/trainlint');
  await extension.deactivate();
  delete settings.path;

  const before = clients.length;
  const savedPath = process.env.PATH;
  process.env.PATH = '';
  try {
    await extension.activate({ extensionPath: fs.mkdtempSync(path.join(os.tmpdir(), 'trainlint-ext-')), subscriptions: [] });
  } finally {
    process.env.PATH = savedPath;
  }
  assert.strictEqual(clients.length, before, 'a client was started without a binary');
  assert.match(errors.at(-1), /no trainlint binary found/);
});
