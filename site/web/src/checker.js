// The in-browser checker: CodeMirror 6 on the outside, trainlint compiled to WebAssembly inside
// (globalThis.trainlint, see wasm/main.go). Everything runs in this page: after the module has
// loaded, nothing is sent anywhere, and the page's Content-Security-Policy enforces that.
// First: globalThis.trainlintShared, the names of these packages that checker-extra.js
// (src/extra.js) uses, so that both bundles share one copy of each (build.mjs makes it).
import "trainlint:shared";
import { EditorState, Compartment, Prec } from "@codemirror/state";
import {
  EditorView, lineNumbers, keymap, highlightActiveLine, highlightActiveLineGutter, drawSelection, highlightSpecialChars,
} from "@codemirror/view";
import { setDiagnostics, lintGutter } from "@codemirror/lint";

// Control and invisible characters are drawn as visible marks: on top of CodeMirror's default set,
// every bidirectional embedding, override and isolate (U+202A-U+202E, U+2066-U+2069), so text
// that reads differently from how it runs cannot hide in a shared permalink.
const bidiControls = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/;

// A permalink carries at most this much text once inflated, all its files together (the
// engine's own file limit); the limit is applied while inflating, so a small link that inflates
// to gigabytes stops at once. An opened folder is held to the same total.
const maxPermalinkBytes = 10 << 20;
// An opened or dropped folder: the config files it may hold (a run is a few dozen files; a
// repository checkout with thousands is refused with a message) and the entries walked to find
// them, so dropping a home folder stops early.
const maxFolderFiles = 300;
const maxFolderEntries = 20000;
const configFile = /\.(ya?ml|json|toml|gin|py)$/i;
// A Python file of an opened folder is a config when it reads like one (MMEngine's _base_ and
// module-level dict(...) variables, an ml_collections get_config, read_base()); scripts and
// helper modules beside the configs stay out of the tabs (the CLI's folder walks skip them too).
const pythonConfig = /^(_base_\s*=|def get_config\s*\(|with read_base\(\)|[A-Za-z_]\w*\s*=\s*dict\()/m;
// A get_config beside an `if __name__ == "__main__":` block is a program's (an evaluation
// script reading its own config, a test), as the engine's walk judges it (doc.IsPythonConfig).
const getConfigScript = (text) => /^def get_config\s*\(/m.test(text) &&
  /^if\s+(__name__\s*==\s*['"]__main__['"]|['"]__main__['"]\s*==\s*__name__)\s*:/m.test(text);
const skippedFolder = /^(\..*|node_modules|__pycache__|venv|site-packages|wandb|outputs|logs)$/;

const el = document.getElementById("checker");
if (el) start(el);

function start(el) {
  const $ = (id) => document.getElementById(id);
  const root = el.dataset.root || "";
  const ui = {
    path: $("tl-path"), format: $("tl-format"), framework: $("tl-framework"), hosts: $("tl-hosts"),
    devices: $("tl-devices"), picker: $("tl-files"), tabs: $("tl-tabs"), editor: $("tl-editor"),
    overrides: $("tl-overrides"), folder: $("tl-folder"), versions: [...el.querySelectorAll("select.tl-version")],
    status: $("tl-status"), findings: $("tl-findings"), fixAll: $("tl-fix-all"), permalink: $("tl-permalink"),
    example: $("tl-example"), notice: $("tl-notice"), detail: $("tl-detail"),
  };
  // The status line is a polite live region: it changes (and is read out) only when what it says
  // changes, the counts of findings and files, not on every keystroke. Timing goes to the
  // detail line, which is not announced.
  function setStatus(text) {
    if (ui.status.textContent !== text) ui.status.textContent = text;
  }
  // A notice (a broken permalink, fixes with nothing to do) stays until the text changes.
  function notice(text) {
    ui.notice.textContent = text;
    ui.notice.hidden = !text;
    ui.notice.dataset.kind = "";
  }
  const perf = (globalThis.trainlintPerf = { lints: 0, bundleStartMs: globalThis.trainlintBundleStartMs, scriptMs: performance.now() });

  // ---- files and the editor ----
  // The editor starts without what the first findings do not need; checker-extra.js brings it
  // once the checker is ready (loadExtra): each file's language and the rest (extras).
  const language = new Compartment();
  const extras = new Compartment();
  let extra = null; // checker-extra.js's {languageFor, extensions} once loaded
  const files = []; // {path, format, state}
  let active = 0;
  let view = null;
  let result = null; // the last lint result
  let dirty = true; // the text changed since `result`
  let timer = 0;

  function formatOf(f) {
    if (f.format) return f.format;
    const m = /\.(ya?ml|json|toml|gin|py)$/i.exec(f.path);
    if (!m) return "yaml";
    const ext = m[1].toLowerCase();
    return ext === "yml" ? "yaml" : ext === "py" ? "python" : ext;
  }
  function languageFor(fmt) {
    return extra ? extra.languageFor(fmt) : [];
  }
  function newState(f, text) {
    return EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), drawSelection(), lintGutter(),
        // Long lines wrap and the editor grows with its text: a region that scrolls inside the
        // page would need a keyboard stop of its own, and on a phone most lines are long.
        EditorView.lineWrapping,
        highlightSpecialChars({ addSpecialChars: bidiControls }),
        language.of(languageFor(formatOf(f))),
        extras.of(extra ? extra.extensions : []),
        // Tab indents; Escape lets the next Tab (within two seconds) leave the editor, also when
        // Escape first collapses a selection (the default keymap takes that Escape otherwise).
        Prec.highest(keymap.of([{ key: "Escape", run: (v) => { v.setTabFocusMode(2000); return false; } }])),
        EditorView.updateListener.of((u) => { if (u.docChanged) { notice(""); schedule(); } }),
        EditorView.contentAttributes.of({ "aria-label": "configuration text", "aria-describedby": "tl-hint" }),
      ],
    });
  }
  function current() { return files[active]; }
  function textOf(i) { return i === active && view ? view.state.doc.toString() : files[i].state.doc.toString(); }
  function save() { if (view && files[active]) files[active].state = view.state; }

  function addFile(path, text, { replaceUntouched = false } = {}) {
    const f = { path, format: "", state: null, touched: false };
    f.state = newState(f, text);
    if (replaceUntouched && files.length === 1 && !files[0].touched) {
      files[0] = f;
      active = 0;
    } else {
      save();
      files.push(f);
      active = files.length - 1;
    }
    show();
  }
  function show() {
    const f = current();
    if (!view) {
      ui.editor.textContent = "";
      view = new EditorView({ state: f.state, parent: ui.editor });
    } else {
      view.setState(f.state);
    }
    ui.path.value = f.path;
    ui.format.value = f.format;
    renderTabs();
    dirty = true;
    lintNow();
  }
  // Open files are a list of buttons (the file's name selects it, × closes it), shown once two
  // or more files are open.
  function renderTabs() {
    ui.tabs.textContent = "";
    ui.tabs.hidden = files.length < 2;
    if (files.length < 2) return;
    files.forEach((f, i) => {
      const li = document.createElement("li");
      const b = document.createElement("button");
      b.type = "button";
      b.className = "file";
      b.setAttribute("aria-current", String(i === active));
      b.textContent = f.path;
      b.addEventListener("click", () => select(i));
      const x = document.createElement("button");
      x.type = "button";
      x.className = "close";
      x.textContent = "×";
      x.setAttribute("aria-label", "close " + f.path);
      x.addEventListener("click", () => closeFile(i));
      li.append(b, x);
      ui.tabs.append(li);
    });
  }
  function closeFile(i) {
    if (files.length < 2) return;
    save();
    files.splice(i, 1);
    if (active > i || active >= files.length) active = Math.max(0, active - 1);
    show();
    const next = ui.tabs.querySelector('button[aria-current="true"]') || ui.editor;
    if (next.focus) next.focus();
  }
  function select(i) {
    if (i === active) return;
    save();
    active = i;
    show();
  }

  // ---- linting ----
  function num(input) {
    const n = parseInt(input.value, 10);
    return Number.isFinite(n) && n > 0 ? n : 0;
  }
  // Overrides are typed as on Hydra's command line, separated by spaces.
  function overrides() {
    return ui.overrides ? ui.overrides.value.split(/\s+/).filter(Boolean) : [];
  }
  // The version selectors' choices: {package: version}, without those left at "newest".
  function targets() {
    const t = {};
    for (const s of ui.versions) if (s.value) t[s.dataset.package] = s.value;
    return t;
  }
  function request() {
    const o = overrides();
    const t = targets();
    return {
      files: files.map((f, i) => ({ path: f.path, text: textOf(i), format: f.format || undefined })),
      options: {
        hosts: num(ui.hosts), devicesPerHost: num(ui.devices), framework: ui.framework.value || undefined,
        overrides: o.length ? o : undefined, targets: Object.keys(t).length ? t : undefined,
      },
    };
  }
  function schedule() {
    dirty = true;
    if (files[active]) files[active].touched = true;
    clearTimeout(timer);
    timer = setTimeout(lintNow, 120);
  }
  function lintNow() {
    clearTimeout(timer);
    if (!globalThis.trainlint || !view) return;
    const t = performance.now();
    const res = globalThis.trainlint.lint(request());
    const ms = performance.now() - t;
    perf.lints++;
    perf.lastLintMs = ms;
    if (res.error) {
      setStatus("Cannot lint: " + res.error);
      return;
    }
    result = res;
    dirty = false;
    const d0 = performance.now();
    showDiagnostics();
    const d1 = performance.now();
    renderFindings();
    const info = res.files[active] || {};
    const n = res.diagnostics.length;
    setStatus(`${n} finding${n === 1 ? "" : "s"} in ${res.files.length} file${res.files.length === 1 ? "" : "s"}`);
    ui.detail.textContent = `${info.path} read as ${info.format}, framework ${info.framework} · linted in ${ms.toFixed(1)} ms`;
    ui.status.dataset.state = "ready";
    updateHash();
    if (perf.lints === 1) { // the first findings update, split (site/doc.go, Timings)
      perf.firstDiagnosticsMs = d1 - d0;
      perf.firstFindingsMs = performance.now() - d1;
    }
  }

  // Diagnostics count columns in code points; CodeMirror counts UTF-16 units.
  function offset(doc, line, col) {
    if (line > doc.lines) return doc.length;
    const l = doc.line(Math.max(1, line));
    let i = 0;
    for (let c = 1; c < col && i < l.text.length; c++) {
      const cp = l.text.codePointAt(i);
      i += cp > 0xffff ? 2 : 1;
    }
    return l.from + i;
  }
  function showDiagnostics() {
    const f = current();
    const doc = view.state.doc;
    const ds = result.diagnostics.filter((d) => d.file === f.path).map((d) => {
      const from = offset(doc, d.line, d.column);
      let to = offset(doc, d.end_line, d.end_column);
      if (to < from) to = from;
      const cm = {
        from, to, severity: d.severity, source: `${d.code} ${d.rule}`,
        message: d.message + (d.help ? "\n" + d.help : ""),
      };
      if (d.fix) cm.actions = [{ name: "apply fix", apply: () => applyFix(d) }];
      return cm;
    });
    view.dispatch(setDiagnostics(view.state, ds));
  }
  // warmDiagnostics shows one diagnostic and clears it at once (no frame is drawn in between):
  // the first findings update ran CodeMirror's marker and gutter code for the first time
  // (about 25 ms); done here, while the page mostly waits for the module's compile, the first
  // lint's update costs what later ones do (site/doc.go, Timings).
  function warmDiagnostics() {
    const to = Math.min(1, view.state.doc.length);
    view.dispatch(setDiagnostics(view.state, [{ from: 0, to, severity: "warning", message: "" }]));
    view.dispatch(setDiagnostics(view.state, []));
  }
  function renderFindings() {
    ui.findings.textContent = "";
    for (const d of result.diagnostics) {
      const li = document.createElement("li");
      li.dataset.rule = d.rule;
      li.dataset.severity = d.severity;
      li.dataset.file = d.file;
      li.dataset.line = String(d.line);
      const sev = document.createElement("span");
      sev.className = "sev sev-" + d.severity;
      sev.textContent = d.severity;
      const loc = document.createElement("button");
      loc.type = "button";
      loc.className = "loc";
      loc.textContent = `${d.file}:${d.line}:${d.column}`;
      loc.title = "jump to the line";
      loc.addEventListener("click", () => jump(d));
      const rule = document.createElement("a");
      rule.className = "rule";
      rule.href = `${root}rules/${d.rule}/index.html`;
      rule.textContent = `${d.code} ${d.rule}`;
      const msg = document.createElement("span");
      msg.className = "msg";
      msg.textContent = d.message;
      li.append(sev, " ", loc, " ", msg, " ", rule);
      // Related locations, often in another file of the run: each jumps to its file and line.
      for (const r of d.related || []) {
        const rel = document.createElement("button");
        rel.type = "button";
        rel.className = "loc related";
        rel.textContent = `${r.file}:${r.line}`;
        rel.title = "jump to the line";
        rel.addEventListener("click", () => jump({ file: r.file, line: r.line, column: r.column, end_line: r.line, end_column: r.column }));
        const note = document.createElement("span");
        note.className = "related-note";
        note.append(`(${r.message}: `, rel, ")");
        li.append(" ", note);
      }
      if (d.fix) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "fix button secondary";
        b.textContent = "apply fix";
        b.title = d.fix.message + (d.fix.applicability === "safe" ? "" : " (review the change: not marked safe)");
        b.addEventListener("click", () => applyFix(d));
        li.append(b);
      }
      ui.findings.append(li);
    }
  }
  function jump(d) {
    const i = files.findIndex((f) => f.path === d.file);
    if (i < 0) return;
    select(i);
    const doc = view.state.doc;
    const from = offset(doc, d.line, d.column);
    view.dispatch({ selection: { anchor: from, head: Math.max(from, offset(doc, d.end_line, d.end_column)) }, scrollIntoView: true });
    view.focus();
  }
  function applyFix(d) {
    if (dirty) {
      // The text moved on since this diagnostic was computed: find it again in a fresh result.
      lintNow();
      d = result.diagnostics.find((x) => x.code === d.code && x.file === d.file && x.key === d.key && x.fix);
      if (!d) return;
    }
    save();
    const byFile = new Map();
    for (const e of d.fix.edits) {
      if (!byFile.has(e.file)) byFile.set(e.file, []);
      byFile.get(e.file).push(e);
    }
    for (const [path, edits] of byFile) {
      const i = files.findIndex((f) => f.path === path);
      if (i < 0) continue;
      const st = i === active ? view.state : files[i].state;
      const changes = edits.map((e) => ({ from: offset(st.doc, e.line, e.column), to: offset(st.doc, e.end_line, e.end_column), insert: e.new_text }));
      if (i === active) view.dispatch({ changes });
      else files[i].state = st.update({ changes }).state;
    }
    lintNow();
  }
  function fixAll() {
    save();
    const res = globalThis.trainlint.fix(request());
    if (res.error) { notice("Cannot fix: " + res.error); return; }
    const broken = res.files.filter((ff) => ff.error);
    let applied = 0;
    res.files.forEach((ff, i) => {
      if (!ff.applied) return;
      applied += ff.applied;
      const st = i === active ? view.state : files[i].state;
      const tr = { changes: { from: 0, to: st.doc.length, insert: ff.text } };
      if (i === active) view.dispatch(tr);
      else files[i].state = st.update(tr).state;
    });
    lintNow();
    let msg = applied ? `Applied ${applied} fix${applied === 1 ? "" : "es"}.` : "Nothing to fix: no finding has a safe fix.";
    if (broken.length) msg += " Not all fixes applied: " + broken.map((ff) => ff.error).join("; ");
    notice(msg);
  }

  // ---- permalinks: #f=<name>&c=<base64url of raw DEFLATE>, repeated for every open file;
  // t=<index> is the active one. h, d and fw carry the launch context. ----
  // pipe writes bytes straight into a compression stream: a Blob's stream() would read the bytes
  // back through the browser process, which delays the first text while the page loads.
  function pipe(ts, bytes) {
    const w = ts.writable.getWriter();
    w.write(bytes).catch(() => {});
    w.close().catch(() => {});
    return new Response(ts.readable).arrayBuffer();
  }
  async function deflate(text) {
    const b = new Uint8Array(await pipe(new CompressionStream("deflate-raw"), new TextEncoder().encode(text)));
    let bin = "";
    for (let i = 0; i < b.length; i += 0x8000) bin += String.fromCharCode.apply(null, b.subarray(i, i + 0x8000));
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  // inflate decodes a c parameter, refusing more than maxPermalinkBytes of text. The input goes in
  // by small pieces and the output is counted as it comes: a stream given everything at once
  // inflates all of it before the first byte can be read. DEFLATE expands a byte at most about
  // a thousandfold, so a 1 KB piece never yields more than about a megabyte past the limit.
  async function inflate(c, limit = maxPermalinkBytes) {
    let bin;
    try { bin = atob(c.replace(/-/g, "+").replace(/_/g, "/")); } catch { throw new Error("it is not valid base64url"); }
    const b = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
    const ds = new DecompressionStream("deflate-raw");
    const w = ds.writable.getWriter();
    const r = ds.readable.getReader();
    let stop = false;
    const feed = (async () => {
      for (let i = 0; i < b.length && !stop; i += 1024) await w.write(b.subarray(i, i + 1024));
      if (!stop) await w.close();
    })();
    feed.catch(() => {});
    const parts = [];
    let total = 0;
    try {
      for (;;) {
        const { value, done } = await r.read();
        if (done) break;
        total += value.length;
        if (total > limit) {
          stop = true;
          r.cancel().catch(() => {});
          w.abort().catch(() => {});
          throw new RangeError(`its text is larger than ${maxPermalinkBytes >> 20} MB once inflated`);
        }
        parts.push(value);
      }
      await feed;
    } catch (e) {
      if (e instanceof RangeError) throw e;
      throw new Error("it is truncated or not compressed as trainlint writes it");
    }
    const out = new Uint8Array(total);
    let o = 0;
    for (const p of parts) { out.set(p, o); o += p.length; }
    try { return new TextDecoder("utf-8", { fatal: true }).decode(out); } catch { throw new Error("its text is not UTF-8"); }
  }
  // parseHash returns the files of a fragment ({name, c} each), or null when there is none. o
  // holds the overrides (as typed), v a framework's version (package:version, repeated).
  function parseHash(h) {
    const p = new URLSearchParams(h.replace(/^#/, ""));
    const cs = p.getAll("c");
    if (cs.length === 0) return null;
    const names = p.getAll("f");
    return {
      files: cs.map((c, i) => ({ name: names[i] || "config.yaml", c })),
      active: parseInt(p.get("t") || "0", 10) || 0,
      hosts: p.get("h"), devices: p.get("d"), fw: p.get("fw"), overrides: p.get("o"), versions: p.getAll("v"),
    };
  }
  // readHash inflates every file of a fragment; a broken one is reported, never linted as empty.
  // The files share one budget of maxPermalinkBytes.
  async function readHash(h) {
    const out = [];
    let left = maxPermalinkBytes;
    for (const f of h.files) {
      try {
        const text = await inflate(f.c, left);
        left -= new TextEncoder().encode(text).length;
        out.push({ name: f.name, text });
      }
      catch (e) {
        notice(e instanceof RangeError
          ? `This link is not opened: the file "${f.name}" is too large (${e.message}).`
          : `This link is broken: the file "${f.name}" cannot be read (${e.message}). ` +
            "Links are often cut short when copied; copy the whole address again.");
        ui.notice.dataset.kind = "broken";
        return null;
      }
    }
    return out;
  }
  // A permalink's launch context (hosts, devices per host, framework, overrides, versions) fills
  // the inputs; a version the selector does not offer is left at newest.
  function applyContext(h) {
    if (h.hosts) ui.hosts.value = h.hosts;
    if (h.devices) ui.devices.value = h.devices;
    if (h.fw && [...ui.framework.options].some((o) => o.value === h.fw)) ui.framework.value = h.fw;
    if (ui.overrides) ui.overrides.value = h.overrides || "";
    for (const s of ui.versions) {
      const want = (h.versions || []).map((v) => v.split(":")).find((pv) => pv[0] === s.dataset.package);
      s.value = want && [...s.options].some((o) => o.value === want[1]) ? want[1] : "";
    }
  }
  async function hashParams() {
    save();
    const q = new URLSearchParams();
    for (let i = 0; i < files.length; i++) {
      q.append("f", files[i].path);
      q.append("c", await deflate(textOf(i)));
    }
    if (files.length > 1 && active > 0) q.set("t", String(active));
    if (num(ui.hosts)) q.set("h", String(num(ui.hosts)));
    if (num(ui.devices)) q.set("d", String(num(ui.devices)));
    if (ui.framework.value) q.set("fw", ui.framework.value);
    if (overrides().length) q.set("o", overrides().join(" "));
    for (const [pkg, v] of Object.entries(targets())) q.append("v", pkg + ":" + v);
    return q;
  }
  let hashSeq = 0;
  let ownHash = "";
  async function updateHash() {
    if (!el.matches("#checker") || !location.pathname.endsWith("/check/") && !location.pathname.endsWith("/check/index.html")) return;
    if (!ui.notice.hidden && ui.notice.dataset.kind === "broken") return; // keep the broken link in the address bar
    const seq = ++hashSeq;
    const q = await hashParams();
    if (seq !== hashSeq) return;
    ownHash = "#" + q.toString();
    window.history.replaceState(null, "", ownHash);
  }
  async function permalink() {
    const q = await hashParams();
    const url = new URL(`${root}check/index.html#${q}`, location.href).href;
    try { await navigator.clipboard.writeText(url); notice("Permalink copied: it holds every open file."); }
    catch { prompt("Permalink:", url); }
  }
  // openFiles replaces the open files with a permalink's.
  function openAll(list, activeIndex) {
    files.length = 0;
    for (const f of list) {
      const fl = { path: f.name, format: "", state: null, touched: false };
      fl.state = newState(fl, f.text);
      files.push(fl);
    }
    active = Math.min(Math.max(0, activeIndex), files.length - 1);
    show();
  }

  // ---- controls ----
  ui.path.addEventListener("change", () => {
    const f = current();
    save();
    f.path = ui.path.value.trim() || "config.yaml";
    view.dispatch({ effects: language.reconfigure(languageFor(formatOf(f))) });
    renderTabs();
    lintNow();
  });
  ui.format.addEventListener("change", () => {
    const f = current();
    f.format = ui.format.value;
    view.dispatch({ effects: language.reconfigure(languageFor(formatOf(f))) });
    lintNow();
  });
  for (const c of [ui.framework, ui.hosts, ui.devices, ui.overrides, ...ui.versions]) if (c) c.addEventListener("change", lintNow);
  ui.fixAll.addEventListener("click", fixAll);
  ui.permalink.addEventListener("click", permalink);
  async function openFiles(list) {
    let first = true;
    for (const file of list) {
      addFile(file.name, await file.text(), { replaceUntouched: first });
      first = false;
    }
  }
  ui.picker.addEventListener("change", () => openFiles(ui.picker.files));

  // ---- folders: the config files of a folder open together as one run (the engine finds the
  // Hydra primaries among them; their group files and experiments come with them) ----
  // openFolder takes [{path, file}] with paths relative to the folder chosen or dropped.
  async function openFolder(entries, name) {
    const found = entries.filter((e) => configFile.test(e.path) && !e.path.split("/").slice(0, -1).some((d) => skippedFolder.test(d)));
    if (!found.length) { notice(`The folder "${name}" holds no YAML, JSON, TOML, gin or Python file.`); return; }
    // Python files count only when they read as configs: a repository's code beside its
    // configs (scripts, modules, tests) neither fills the limits below nor opens as tabs.
    // Configs are small; a Python file over the size limit is no config to open here.
    const list = [];
    const pyText = new Map();
    for (const e of found) {
      if (/\.py$/i.test(e.path)) {
        if (e.file.size > maxPermalinkBytes) continue;
        const text = await e.file.text();
        if (!pythonConfig.test(text) || getConfigScript(text)) continue;
        pyText.set(e, text);
      }
      list.push(e);
    }
    if (!list.length) { notice(`The folder "${name}" holds no config file (its Python files are scripts or modules).`); return; }
    if (list.length > maxFolderFiles) {
      notice(`The folder "${name}" holds ${list.length} config files; the checker opens at most ${maxFolderFiles}: open its config folder instead.`);
      return;
    }
    const size = list.reduce((n, e) => n + e.file.size, 0);
    if (size > maxPermalinkBytes) {
      notice(`The folder "${name}" holds ${(size / (1 << 20)).toFixed(1)} MB of config files; the checker opens at most ${maxPermalinkBytes >> 20} MB.`);
      return;
    }
    list.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const texts = [];
    for (const e of list) texts.push({ name: e.path, text: pyText.has(e) ? pyText.get(e) : await e.file.text() });
    // The run's primary config is the first tab: the shallowest YAML file with a defaults list;
    // else the shallowest MMEngine config with bases outside a _base_ folder, ml_collections
    // get_config or gin file with includes.
    const depth = (p) => p.split("/").length;
    const primary = [
      (t) => /\.ya?ml$/i.test(t.name) && /^defaults:/m.test(t.text),
      (t) => /\.py$/i.test(t.name) && !/(^|\/)_base_\//.test(t.name) && /^(_base_\s*=|with read_base\(\)|def get_config\s*\()/m.test(t.text),
      (t) => /\.gin$/i.test(t.name) && /^include\s/m.test(t.text),
    ];
    let first = -1;
    for (const is of primary) {
      texts.forEach((t, i) => {
        if (is(t) && (first < 0 || depth(t.name) < depth(texts[first].name))) first = i;
      });
      if (first >= 0) break;
    }
    if (first > 0) texts.unshift(texts.splice(first, 1)[0]);
    notice("");
    openAll(texts, 0);
  }
  // A folder chosen with the folder input: paths come as "<folder>/<path inside it>".
  if (ui.folder) ui.folder.addEventListener("change", () => {
    const fs = [...ui.folder.files];
    const top = fs.length ? fs[0].webkitRelativePath.split("/")[0] : "";
    openFolder(fs.map((f) => ({ path: f.webkitRelativePath.split("/").slice(1).join("/") || f.name, file: f })), top);
    ui.folder.value = "";
  });
  // walkEntry lists a dropped folder's files (FileSystemEntry API), skipping hidden and tool
  // folders and stopping after maxFolderEntries entries.
  async function walkEntry(entry) {
    const out = [];
    let seen = 0;
    async function walk(e, prefix) {
      if (++seen > maxFolderEntries) return;
      if (e.isFile) {
        if (configFile.test(e.name)) out.push({ path: prefix + e.name, file: await new Promise((res, rej) => e.file(res, rej)) });
        return;
      }
      if (!e.isDirectory || (prefix !== null && skippedFolder.test(e.name))) return;
      const reader = e.createReader();
      const inner = prefix === null ? "" : prefix + e.name + "/";
      for (;;) {
        const batch = await new Promise((res, rej) => reader.readEntries(res, rej));
        if (!batch.length || seen > maxFolderEntries) break;
        for (const c of batch) await walk(c, inner);
      }
    }
    await walk(entry, null);
    if (seen > maxFolderEntries) throw new RangeError(`more than ${maxFolderEntries} entries`);
    return out;
  }
  async function dropFolder(entry) {
    try { await openFolder(await walkEntry(entry), entry.name); }
    catch (e) { notice(`The folder "${entry.name}" cannot be opened: ${e.message || e}.`); }
  }
  // Dropped files open as new tabs. The listeners capture, so CodeMirror does not paste a dropped
  // file's text into the current one; dragged text still goes to CodeMirror.
  const hasFiles = (e) => e.dataTransfer && Array.from(e.dataTransfer.types || []).includes("Files");
  ui.editor.addEventListener("dragover", (e) => {
    if (!hasFiles(e)) return;
    e.preventDefault();
    ui.editor.classList.add("dragging");
  }, true);
  ui.editor.addEventListener("dragleave", () => ui.editor.classList.remove("dragging"), true);
  ui.editor.addEventListener("drop", (e) => {
    ui.editor.classList.remove("dragging");
    if (!hasFiles(e) || !e.dataTransfer.files.length) return;
    e.preventDefault();
    e.stopPropagation();
    // A dropped folder loads a run; its entry must be taken during the event.
    const entries = [...(e.dataTransfer.items || [])].map((it) => it.webkitGetAsEntry && it.webkitGetAsEntry());
    const dir = entries.find((x) => x && x.isDirectory);
    if (dir) dropFolder(dir);
    else openFiles(e.dataTransfer.files);
  }, true);
  window.addEventListener("hashchange", async () => {
    if (location.hash === ownHash) return;
    const h = parseHash(location.hash);
    if (!h) {
      if (location.hash.length > 1) { notice("This link is broken: it holds no file (no c= part)."); ui.notice.dataset.kind = "broken"; }
      return;
    }
    const list = await readHash(h);
    if (!list) return;
    notice("");
    applyContext(h);
    openAll(list, h.active);
  });

  // ---- checker-extra.js: highlighting, bracket matching, undo and the keymaps ----
  // It is loaded once the checker is ready (or could not start), so that its download and compile
  // take nothing from the start-up (site/doc.go, Timings); its extensions then join every open
  // file. Before that the editor works (typing, the Escape-Tab exit) without them.
  let extraLoading = false;
  function loadExtra() {
    if (extraLoading) return;
    extraLoading = true;
    globalThis.trainlintExtraLoaded = (x) => {
      extra = x;
      save();
      files.forEach((f, i) => {
        const effects = [language.reconfigure(languageFor(formatOf(f))), extras.reconfigure(extra.extensions)];
        if (i === active && view) view.dispatch({ effects });
        else f.state = f.state.update({ effects }).state;
      });
      perf.extraMs = performance.now();
      el.dataset.extra = "true";
    };
    const s = document.createElement("script");
    s.src = root + "assets/checker-extra.js";
    s.onerror = () => notice("The editor's highlighting and keyboard commands could not load; linting still works.");
    document.head.append(s);
  }

  // ---- start: load the module and the first file concurrently ----
  // trainlint.wasm is the light module (no yaml.v3: see site/doc.go). When it marks a reply
  // needsFullModule (TOML, gin, Python, a YAML file its direct reader declined, or a dialect it
  // leaves to the full module: Composer), trainlint-full.wasm is loaded once,
  // replaces globalThis.trainlint when it starts, and the files are linted again by it.
  let full = null;
  function loadFull() {
    if (full) return;
    perf.fullStartMs = performance.now();
    const fullGo = new globalThis.Go();
    full = WebAssembly.instantiateStreaming(fetch(root + "trainlint-full.wasm"), fullGo.importObject)
      .then((r) => {
        globalThis.trainlintReady = () => { perf.fullMs = performance.now(); lintNow(); };
        return fullGo.run(r.instance);
      })
      .catch((err) => { setStatus("The checker's full reader (TOML, gin, Python and rare YAML) could not load: " + err); });
  }
  function watchLight() {
    const light = globalThis.trainlint;
    const watch = (name) => (req) => {
      const res = light[name](req);
      if (res && res.needsFullModule) loadFull();
      return res;
    };
    globalThis.trainlint = Object.assign({}, light, { lint: watch("lint"), fix: watch("fix") });
  }
  const ready = new Promise((resolve) => {
    globalThis.trainlintReady = () => {
      perf.moduleMs = performance.now();
      Object.assign(perf, globalThis.trainlintGoPerf); // goMainMs, goWarmStartMs, goWarmEndMs
      watchLight();
      resolve();
    };
  });
  const go = new globalThis.Go();
  const boot = globalThis.trainlintBoot;
  perf.startMs = boot ? boot.startMs : performance.now();
  perf.bundleMs = performance.now();
  // boot.js (in the page head) has been compiling the module since the head was parsed.
  const instance = boot
    ? boot.module.then((m) => WebAssembly.instantiate(m, go.importObject))
    : WebAssembly.instantiateStreaming(fetch(root + "trainlint.wasm"), go.importObject).then((r) => r.instance);
  instance
    .then((inst) => {
      perf.compiledMs = boot && boot.compiledMs || performance.now();
      perf.runMs = performance.now();
      return go.run(inst);
    })
    .catch((err) => { setStatus("The checker could not start: " + err); shown.then(loadExtra); });
  const first = (async () => {
    const fallback = [{ name: "config.yaml", text: "" }];
    const h = parseHash(location.hash);
    if (!h && location.hash.length > 1 && /(^#|&)(f|c)=/.test(location.hash)) {
      notice("This link is broken: it holds no file (no c= part). Links are often cut short when copied.");
      ui.notice.dataset.kind = "broken";
      return { list: fallback, active: 0 };
    }
    const use = h || parseHash(new URL(ui.example.href, location.href).hash);
    if (!use) return { list: fallback, active: 0 };
    applyContext(use);
    const list = await readHash(use);
    return list ? { list, active: use.active } : { list: fallback, active: 0 };
  })();
  // The editor appears as soon as its text is known; linting starts when the module is ready.
  const shown = first.then((f) => {
    perf.textMs = performance.now();
    openAll(f.list, f.active);
    if (el.dataset.focus === "true") view.focus();
    perf.editorMs = performance.now();
    if (!result) warmDiagnostics();
  });
  // Files or a folder chosen on the landing page before the checker had loaded open now.
  if (el.dataset.lazy === "true") shown.then(() => {
    if (ui.folder && ui.folder.files.length) ui.folder.dispatchEvent(new Event("change"));
    else if (ui.picker.files.length) openFiles(ui.picker.files);
  });
  Promise.all([ready, shown]).then(() => {
    if (dirty) lintNow(); // not yet linted when the module came last
    perf.firstLintMs = perf.lastLintMs;
    perf.readyMs = performance.now();
    performance.mark("trainlint-ready");
    el.dataset.ready = "true";
    loadExtra();
  });
}
