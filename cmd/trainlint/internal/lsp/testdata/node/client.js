// A real LSP client for `trainlint lsp`, built on vscode-jsonrpc and
// vscode-languageserver-protocol (the protocol libraries VS Code's own client uses). Run by the Go
// test TestRealClients:
//
//   node client.js BINARY WORKSPACE FILE
//
// It opens FILE (a copy of cmd/trainlint/examples/hf-sft.yaml inside WORKSPACE, next to
// deepspeed-zero2.json), waits for the findings, checks hover, completion and go to definition,
// applies the quick fix of TL202 as VS Code would (the code action's workspace edit, then a
// didChange), and checks the finding is gone. Then it edits a Hydra group file of WORKSPACE/conf
// without saving and checks the run's finding in another file is published on that file. Exit
// code 0 means every check passed.
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const {
  createProtocolConnection, StreamMessageReader, StreamMessageWriter,
  InitializeRequest, InitializedNotification, DidOpenTextDocumentNotification,
  DidChangeTextDocumentNotification, DidSaveTextDocumentNotification,
  PublishDiagnosticsNotification, CodeActionRequest, HoverRequest, CompletionRequest,
  DefinitionRequest, ShutdownRequest, ExitNotification, RegistrationRequest,
  ShowMessageNotification, LogMessageNotification,
} = require('vscode-languageserver-protocol/node');

const [bin, workspace, file] = process.argv.slice(2);
let failed = 0;
let passed = 0;
function check(ok, what, detail) {
  if (ok) {
    passed++;
    console.log(`ok   ${what}`);
  } else {
    failed++;
    console.log(`FAIL ${what}${detail === undefined ? '' : ': ' + detail}`);
  }
}

const server = spawn(bin, ['lsp'], { stdio: ['pipe', 'pipe', 'inherit'] });
const conn = createProtocolConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
const exited = new Promise((resolve) => server.on('exit', (code) => resolve(code)));

// Every publication, and waiters for the next one that satisfies a condition.
const latest = new Map();
let waiters = [];
conn.onNotification(PublishDiagnosticsNotification.type, (p) => {
  latest.set(p.uri, p);
  waiters = waiters.filter((w) => !(w.uri === p.uri && w.ok(p.diagnostics) && (w.resolve(p), true)));
});
conn.onRequest(RegistrationRequest.type, () => null);
conn.onNotification(ShowMessageNotification.type, (m) => console.log(`server says: ${m.message}`));
conn.onNotification(LogMessageNotification.type, () => {});
conn.listen();

function waitFor(uri, ok, what) {
  const have = latest.get(uri);
  if (have && ok(have.diagnostics)) return Promise.resolve(have);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${what}`)), 15000);
    waiters.push({ uri, ok, resolve: (p) => { clearTimeout(timer); resolve(p); } });
  });
}
const hasCode = (code) => (ds) => ds.some((d) => d.code === code);
const lacksCode = (code) => (ds) => !ds.some((d) => d.code === code);

// applyEdits applies LSP text edits to a string. Positions are UTF-16 code units, which is what
// JavaScript string indexes count.
function applyEdits(text, edits) {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const off = (p) => Math.min(starts[p.line] + p.character, text.length);
  const sorted = [...edits].sort((a, b) => off(b.range.start) - off(a.range.start));
  for (const e of sorted) text = text.slice(0, off(e.range.start)) + e.newText + text.slice(off(e.range.end));
  return text;
}

async function main() {
  const rootUri = pathToFileURL(workspace).href;
  const uri = pathToFileURL(file).href;
  const init = await conn.sendRequest(InitializeRequest.type, {
    processId: process.pid,
    rootUri,
    workspaceFolders: [{ uri: rootUri, name: path.basename(workspace) }],
    capabilities: {
      general: { positionEncodings: ['utf-16'] },
      workspace: { workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } },
      textDocument: {
        synchronization: { didSave: true, dynamicRegistration: false },
        publishDiagnostics: { relatedInformation: true, codeDescriptionSupport: true, versionSupport: true },
        codeAction: { codeActionLiteralSupport: { codeActionKind: { valueSet: ['quickfix'] } }, isPreferredSupport: true },
        hover: { contentFormat: ['markdown', 'plaintext'] },
        completion: { completionItem: { snippetSupport: false, documentationFormat: ['markdown'] } },
        definition: { linkSupport: false },
      },
    },
  });
  check(init.serverInfo && init.serverInfo.name === 'trainlint', 'initialize names the server', JSON.stringify(init.serverInfo));
  check(init.capabilities.positionEncoding === 'utf-16', 'position encoding utf-16', init.capabilities.positionEncoding);
  await conn.sendNotification(InitializedNotification.type, {});

  let text = fs.readFileSync(file, 'utf8');
  let version = 1;
  await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri, languageId: 'yaml', version, text } });

  // Findings on open: the rule code with its page, severity, related location.
  const pub = await waitFor(uri, hasCode('TL202'), 'TL202 on open');
  const d = pub.diagnostics.find((x) => x.code === 'TL202');
  check(d.severity === 2, 'TL202 is a warning', d.severity);
  check(d.source === 'trainlint', 'source is trainlint', d.source);
  check(d.codeDescription && d.codeDescription.href.endsWith('/rules/eval-batch-smaller-than-train/'), 'TL202 links its rule page', JSON.stringify(d.codeDescription));
  check(d.range.start.line === 8, 'TL202 is on line 9', JSON.stringify(d.range));
  check((d.relatedInformation || []).some((r) => r.location.uri === uri && r.location.range.start.line === 7), 'TL202 points at the train batch', JSON.stringify(d.relatedInformation));
  check(pub.version === version, 'diagnostics carry the document version', pub.version);

  // Hover on the finding and on a key.
  const hoverAt = async (line, character) => {
    const h = await conn.sendRequest(HoverRequest.type, { textDocument: { uri }, position: { line, character } });
    return h && h.contents ? h.contents.value : '';
  };
  const onFinding = await hoverAt(d.range.start.line, d.range.start.character);
  check(onFinding.includes('TL202 eval-batch-smaller-than-train') && onFinding.includes('https://trainlint.github.io/rules/eval-batch-smaller-than-train/'), 'hover on the finding shows its rule with a link', onFinding.slice(0, 200));
  const onKey = await hoverAt(7, 4);
  check(onKey.includes('per_device_train_batch_size') && onKey.includes('Default: `8`') && onKey.includes('transformers'), 'hover on a key shows its default and where it comes from', onKey.slice(0, 300));

  // Typing: a half-typed key is completed with its default.
  const line = text.split('\n').length - 1; // the appended line (text ends with a newline)
  await conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: ++version }, contentChanges: [{ text: text + 'dataloader_num\n' }] });
  const comp = await conn.sendRequest(CompletionRequest.type, { textDocument: { uri }, position: { line, character: 'dataloader_num'.length } });
  const items = Array.isArray(comp) ? comp : (comp ? comp.items : []);
  const item = items.find((i) => i.label === 'dataloader_num_workers');
  check(item && item.textEdit && item.textEdit.newText === 'dataloader_num_workers: 0', 'completion offers dataloader_num_workers with its default', JSON.stringify(item));
  // A deepspeed reference goes to its file.
  await conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: ++version }, contentChanges: [{ text: text + 'deepspeed: deepspeed-zero2.json\n' }] });
  const def = await conn.sendRequest(DefinitionRequest.type, { textDocument: { uri }, position: { line, character: 15 } });
  const loc = Array.isArray(def) ? def[0] : def;
  check(loc && loc.uri === pathToFileURL(path.join(workspace, 'deepspeed-zero2.json')).href, 'go to definition on deepspeed: opens the DeepSpeed file', JSON.stringify(def));

  // Back to the file as saved; the quick fix, applied as VS Code applies it.
  await conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: ++version }, contentChanges: [{ text }] });
  const again = await waitFor(uri, (ds) => hasCode('TL202')(ds), 'TL202 after the edit was undone');
  const d2 = again.diagnostics.find((x) => x.code === 'TL202');
  const actions = await conn.sendRequest(CodeActionRequest.type, { textDocument: { uri }, range: d2.range, context: { diagnostics: [d2], only: ['quickfix'] } });
  const titles = actions.map((a) => a.title);
  check(titles.some((t) => t.startsWith('suppress eval-batch-smaller-than-train')), 'a suppress-with-reason action is offered', JSON.stringify(titles));
  const fix = actions.find((a) => a.title.startsWith('set per_device_eval_batch_size'));
  check(fix && fix.kind === 'quickfix' && fix.isPreferred === true && fix.edit, 'the rule\'s fix is a preferred quick fix', JSON.stringify(titles));
  if (fix && fix.edit) {
    text = applyEdits(text, fix.edit.changes[uri]);
    check(text.includes('per_device_eval_batch_size: 16'), 'the fix sets the eval batch to 16');
    await conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri, version: ++version }, contentChanges: [{ text }] });
    const after = await waitFor(uri, lacksCode('TL202'), 'TL202 gone after the fix');
    check(after.version === version, 'the clean publication is for the fixed version', after.version);
    fs.writeFileSync(file, text);
    await conn.sendNotification(DidSaveTextDocumentNotification.type, { textDocument: { uri } });
    const saved = await waitFor(uri, lacksCode('TL202'), 'findings after save');
    check(saved.diagnostics.some((x) => x.code === 'TL101'), 'other findings stay after the fix', JSON.stringify(saved.diagnostics.map((x) => x.code)));
  }

  // A composed run (Hydra, the workspace's conf/): editing callbacks/default.yaml without
  // saving re-lints the runs that include it, and the finding this makes in another file of the
  // run, model_checkpoint.yaml's mode, is published on that file, pointing back at the edit.
  const defFile = path.join(workspace, 'conf', 'callbacks', 'default.yaml');
  const defUri = pathToFileURL(defFile).href;
  const ckptUri = pathToFileURL(path.join(workspace, 'conf', 'callbacks', 'model_checkpoint.yaml')).href;
  const defText = fs.readFileSync(defFile, 'utf8');
  await conn.sendNotification(DidOpenTextDocumentNotification.type, { textDocument: { uri: defUri, languageId: 'yaml', version: 1, text: defText } });
  const clean = await waitFor(defUri, () => true, 'the Hydra group file linted');
  check(!clean.diagnostics.some((x) => x.code === 'TL310') && !(latest.get(ckptUri) || { diagnostics: [] }).diagnostics.some((x) => x.code === 'TL310'), 'the run as saved has no TL310', JSON.stringify(clean.diagnostics.map((x) => x.code)));
  await conn.sendNotification(DidChangeTextDocumentNotification.type, { textDocument: { uri: defUri, version: 2 }, contentChanges: [{ text: defText.replace('  mode: max\n', '') }] });
  const ck = await waitFor(ckptUri, hasCode('TL310'), 'TL310 published on model_checkpoint.yaml');
  const d3 = ck.diagnostics.find((x) => x.code === 'TL310');
  check(d3.range.start.line === 4, 'TL310 is on model_checkpoint.yaml line 5', JSON.stringify(d3.range));
  check((d3.relatedInformation || []).some((r) => r.location.uri === defUri), 'TL310 points at the monitor in the edited file', JSON.stringify(d3.relatedInformation));
  check(fs.readFileSync(defFile, 'utf8') === defText, 'the unsaved edit did not reach the disk');

  await conn.sendRequest(ShutdownRequest.type);
  await conn.sendNotification(ExitNotification.type);
  const code = await exited;
  check(code === 0, 'the server exits 0 after shutdown and exit', code);
}

main().catch((e) => {
  failed++;
  console.log(`FAIL ${e.stack || e}`);
}).finally(() => {
  console.log(`node client: ${passed} checks passed, ${failed} failed`);
  conn.dispose();
  server.kill();
  process.exit(failed === 0 && passed > 0 ? 0 : 1);
});
