// Builds the extension into a .vsix: esbuild bundles src/extension.js with vscode-languageclient
// into dist/extension.js (vscode itself is provided by the editor), a trainlint binary is bundled
// under bin/ when one is given, and @vscode/vsce packages the folder (offline: the bundle needs no
// node_modules, so --no-dependencies).
//
//   node build.mjs [--binary PATH] [--target PLATFORM-ARCH] [--out FILE.vsix]
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, chmodSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const out = resolve(opt('--out') || join(here, 'trainlint.vsix'));
const binary = opt('--binary');
// A bundled binary makes the package platform-specific: the host's platform unless told.
const target = opt('--target') || (binary ? `${process.platform}-${process.arch}` : undefined);

await build({
  entryPoints: [join(here, 'src', 'extension.js')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  minify: true,
  outfile: join(here, 'dist', 'extension.js'),
  logLevel: 'warning',
});

rmSync(join(here, 'bin'), { recursive: true, force: true });
if (binary) {
  mkdirSync(join(here, 'bin'));
  const name = binary.endsWith('.exe') ? 'trainlint.exe' : 'trainlint';
  copyFileSync(binary, join(here, 'bin', name));
  chmodSync(join(here, 'bin', name), 0o755);
}

// The licence shipped with the extension is the repository's (once it has one).
const license = join(here, '..', '..', 'LICENSE');
const vsceArgs = ['package', '--no-dependencies', '--out', out];
if (existsSync(license)) {
  copyFileSync(license, join(here, 'LICENSE'));
} else {
  vsceArgs.push('--skip-license');
}
if (target) vsceArgs.push('--target', target);
const vsce = join(here, 'node_modules', '@vscode', 'vsce', 'vsce');
execFileSync(process.execPath, [vsce, ...vsceArgs], { cwd: here, stdio: ['ignore', 'inherit', 'inherit'] });
console.log(out);
