// The trainlint extension for VS Code: starts `trainlint lsp` (the language server built into the
// trainlint binary) for training configs and lets vscode-languageclient do the rest: findings as
// you type, quick fixes, hover, completion, go to definition.
'use strict';

const fs = require('node:fs');
const vscode = require('vscode');
const { LanguageClient, TransportKind, DidOpenTextDocumentNotification } = require('vscode-languageclient/node');
const { findBinary, wantedDocument, DOCUMENT_SELECTOR } = require('./select');

/** @type {LanguageClient | undefined} */
let client;
/** URIs of the documents the server was told about. */
const forwarded = new Set();

function settings() {
  const c = vscode.workspace.getConfiguration('trainlint');
  return { path: c.get('path', ''), only: c.get('onlyTrainingConfigs', true) };
}

/** @param {vscode.TextDocument} doc */
function wanted(doc) {
  return wantedDocument(doc.languageId, doc.getText(), settings().only);
}

/** @param {vscode.ExtensionContext} context */
async function start(context) {
  const bin = findBinary(settings().path, context.extensionPath, process.env, process.platform);
  if (!bin) {
    vscode.window.showErrorMessage('trainlint: no trainlint binary found. Install it (pip install trainlint, or go install github.com/trainlint/trainlint/cmd/trainlint@latest), or set trainlint.path.');
    return;
  }
  if (bin.source === 'the extension' && process.platform !== 'win32') {
    // The package keeps the executable bit, but an unpacker that drops it must not break us.
    try {
      fs.chmodSync(bin.path, 0o755);
    } catch {
      // read-only install: it is executable already or nothing can be done
    }
  }
  const run = { command: bin.path, args: ['lsp'], transport: TransportKind.stdio };
  forwarded.clear();
  client = new LanguageClient('trainlint', 'trainlint', { run, debug: run }, {
    documentSelector: DOCUMENT_SELECTOR,
    synchronize: {
      fileEvents: [
        vscode.workspace.createFileSystemWatcher('**/.trainlint.toml'),
        vscode.workspace.createFileSystemWatcher('**/pyproject.toml'),
      ],
    },
    middleware: {
      // Only training configs reach the server; a file that becomes one while typed is opened
      // on the server then.
      didOpen: (doc, next) => {
        if (!wanted(doc)) return Promise.resolve();
        forwarded.add(doc.uri.toString());
        return next(doc);
      },
      didChange: (event, next) => {
        const uri = event.document.uri.toString();
        if (forwarded.has(uri)) return next(event);
        if (!wanted(event.document)) return Promise.resolve();
        forwarded.add(uri);
        const d = event.document;
        return client.sendNotification(DidOpenTextDocumentNotification.type, {
          textDocument: { uri, languageId: d.languageId, version: d.version, text: d.getText() },
        });
      },
      didSave: (doc, next) => (forwarded.has(doc.uri.toString()) ? next(doc) : Promise.resolve()),
      didClose: (doc, next) => {
        const uri = doc.uri.toString();
        if (!forwarded.delete(uri)) return Promise.resolve();
        return next(doc);
      },
    },
  });
  client.outputChannel.appendLine(`trainlint: starting ${bin.path} lsp (from ${bin.source})`);
  await client.start();
}

async function stop() {
  if (client) {
    const c = client;
    client = undefined;
    await c.stop();
  }
}

/** @param {vscode.ExtensionContext} context */
async function activate(context) {
  context.subscriptions.push(
    vscode.commands.registerCommand('trainlint.restart', async () => {
      await stop();
      await start(context);
    }),
    vscode.workspace.onDidChangeConfiguration(async (e) => {
      if (e.affectsConfiguration('trainlint.path') || e.affectsConfiguration('trainlint.onlyTrainingConfigs')) {
        await stop();
        await start(context);
      }
    }),
  );
  await start(context);
}

function deactivate() {
  return stop();
}

module.exports = { activate, deactivate };
