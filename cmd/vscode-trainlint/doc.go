// Package vscodetrainlint is trainlint's VS Code extension. The extension itself is JavaScript
// (src/extension.js on vscode-languageclient; src/select.js chooses the binary and the files),
// bundled by esbuild and packaged into a .vsix by @vscode/vsce: `make vsix`, or
// `node build.mjs [--binary PATH] [--out FILE]` after `npm ci`. It starts `trainlint lsp` for
// YAML, JSON and TOML files that look like training configs, every gin file and the Python
// files of config folders (the server passes over scripts and helper modules among them). The
// Go package holds only the test that builds the .vsix, checks what is inside and runs the
// extension's Node tests.
package vscodetrainlint
