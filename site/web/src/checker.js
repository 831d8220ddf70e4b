// The in-browser checker: CodeMirror 6 on the outside, trainlint compiled to WebAssembly inside
// (globalThis.trainlint, see wasm/main.go). Everything runs in this page: after the module has
// loaded, nothing is sent anywhere, and the page's Content-Security-Policy enforces that.
import { EditorState, Compartment } from "@codemirror/state";
import {
  EditorView, lineNumbers, keymap, highlightActiveLine, highlightActiveLineGutter, drawSelection,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { syntaxHighlighting, defaultHighlightStyle, StreamLanguage, bracketMatching } from "@codemirror/language";
import { yaml } from "@codemirror/lang-yaml";
import { json } from "@codemirror/lang-json";
import { toml } from "@codemirror/legacy-modes/mode/toml";
import { python } from "@codemirror/legacy-modes/mode/python";
import { setDiagnostics, lintGutter, lintKeymap } from "@codemirror/lint";

const el = document.getElementById("checker");
if (el) start(el);

function start(el) {
  const $ = (id) => document.getElementById(id);
  const root = el.dataset.root || "";
  const ui = {
    path: $("tl-path"), format: $("tl-format"), framework: $("tl-framework"), hosts: $("tl-hosts"),
    devices: $("tl-devices"), picker: $("tl-files"), tabs: $("tl-tabs"), editor: $("tl-editor"),
    status: $("tl-status"), findings: $("tl-findings"), fixAll: $("tl-fix-all"), permalink: $("tl-permalink"),
    example: $("tl-example"),
  };
  const perf = (globalThis.trainlintPerf = { lints: 0 });

  // ---- files and the editor ----
  const language = new Compartment();
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
    if (fmt === "json") return json();
    if (fmt === "toml") return StreamLanguage.define(toml);
    if (fmt === "gin" || fmt === "python") return StreamLanguage.define(python);
    return yaml();
  }
  function newState(f, text) {
    return EditorState.create({
      doc: text,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), highlightActiveLine(), drawSelection(), history(),
        bracketMatching(), lintGutter(), syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
        language.of(languageFor(formatOf(f))),
        keymap.of([...defaultKeymap, ...historyKeymap, ...lintKeymap, indentWithTab]),
        EditorView.updateListener.of((u) => { if (u.docChanged) schedule(); }),
        EditorView.contentAttributes.of({ "aria-label": "configuration text" }),
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
  function renderTabs() {
    ui.tabs.textContent = "";
    if (files.length < 2) return;
    files.forEach((f, i) => {
      const b = document.createElement("button");
      b.type = "button";
      b.setAttribute("role", "tab");
      b.setAttribute("aria-selected", String(i === active));
      b.textContent = f.path;
      b.addEventListener("click", () => select(i));
      ui.tabs.append(b);
    });
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
  function request() {
    return {
      files: files.map((f, i) => ({ path: f.path, text: textOf(i), format: f.format || undefined })),
      options: { hosts: num(ui.hosts), devicesPerHost: num(ui.devices), framework: ui.framework.value || undefined },
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
      ui.status.textContent = "Cannot lint: " + res.error;
      return;
    }
    result = res;
    dirty = false;
    showDiagnostics();
    renderFindings();
    const info = res.files[active] || {};
    const n = res.diagnostics.length;
    ui.status.textContent = `${n} finding${n === 1 ? "" : "s"} in ${res.files.length} file${res.files.length === 1 ? "" : "s"}` +
      ` · ${info.path} read as ${info.format}, framework ${info.framework} · linted in ${ms.toFixed(1)} ms`;
    ui.status.dataset.state = "ready";
    updateHash();
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
      if (d.fix) {
        const b = document.createElement("button");
        b.type = "button";
        b.className = "fix";
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
    if (res.error) { ui.status.textContent = "Cannot fix: " + res.error; return; }
    const broken = res.files.filter((ff) => ff.error);
    res.files.forEach((ff, i) => {
      if (!ff.applied) return;
      const st = i === active ? view.state : files[i].state;
      const tr = { changes: { from: 0, to: st.doc.length, insert: ff.text } };
      if (i === active) view.dispatch(tr);
      else files[i].state = st.update(tr).state;
    });
    lintNow();
    if (broken.length) ui.status.textContent += " · not all fixes applied: " + broken.map((ff) => ff.error).join("; ");
  }

  // ---- permalinks: #f=<name>&c=<base64url of raw DEFLATE> ----
  // pipe writes bytes straight into a (de)compression stream: a Blob's stream() would read the
  // bytes back through the browser process, which delays the first text while the page loads.
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
  async function inflate(c) {
    const bin = atob(c.replace(/-/g, "+").replace(/_/g, "/"));
    const b = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
    return new TextDecoder().decode(await pipe(new DecompressionStream("deflate-raw"), b));
  }
  function parseHash(h) {
    const p = new URLSearchParams(h.replace(/^#/, ""));
    if (p.get("c") === null) return null;
    return { name: p.get("f") || "config.yaml", c: p.get("c"), hosts: p.get("h"), devices: p.get("d"), fw: p.get("fw") };
  }
  // A permalink's launch context (hosts, devices per host, framework) fills the inputs.
  function applyContext(h) {
    if (h.hosts) ui.hosts.value = h.hosts;
    if (h.devices) ui.devices.value = h.devices;
    if (h.fw && [...ui.framework.options].some((o) => o.value === h.fw)) ui.framework.value = h.fw;
  }
  function contextParams(q) {
    if (num(ui.hosts)) q.set("h", String(num(ui.hosts)));
    if (num(ui.devices)) q.set("d", String(num(ui.devices)));
    if (ui.framework.value) q.set("fw", ui.framework.value);
    return q;
  }
  let hashSeq = 0;
  async function updateHash() {
    if (!el.matches("#checker") || !location.pathname.endsWith("/check/") && !location.pathname.endsWith("/check/index.html")) return;
    const seq = ++hashSeq;
    const f = current();
    const c = await deflate(textOf(active));
    if (seq !== hashSeq) return;
    const q = contextParams(new URLSearchParams({ f: f.path, c }));
    window.history.replaceState(null, "", "#" + q.toString());
  }
  async function permalink() {
    const f = current();
    const q = contextParams(new URLSearchParams({ f: f.path, c: await deflate(textOf(active)) }));
    const url = new URL(`${root}check/index.html#${q}`, location.href).href;
    try { await navigator.clipboard.writeText(url); ui.status.textContent = "Permalink copied."; }
    catch { prompt("Permalink:", url); }
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
  for (const c of [ui.framework, ui.hosts, ui.devices]) c.addEventListener("change", lintNow);
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
    openFiles(e.dataTransfer.files);
  }, true);
  window.addEventListener("hashchange", async () => {
    const h = parseHash(location.hash);
    if (!h) return;
    const text = await inflate(h.c);
    applyContext(h);
    if (textOf(active) === text && current().path === h.name) { lintNow(); return; }
    addFile(h.name, text, { replaceUntouched: true });
  });

  // ---- start: load the module and the first file concurrently ----
  const ready = new Promise((resolve) => {
    globalThis.trainlintReady = () => { perf.moduleMs = performance.now(); resolve(); };
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
    .then((inst) => { perf.compiledMs = boot && boot.compiledMs || performance.now(); return go.run(inst); })
    .catch((err) => { ui.status.textContent = "The checker could not start: " + err; });
  const first = (async () => {
    const h = parseHash(location.hash) || parseHash(new URL(ui.example.href, location.href).hash);
    if (!h) return { name: "config.yaml", text: "" };
    applyContext(h);
    try { return { name: h.name, text: await inflate(h.c) }; }
    catch (e) { ui.status.textContent = "This permalink cannot be read: " + e; return { name: "config.yaml", text: "" }; }
  })();
  // The editor appears as soon as its text is known; linting starts when the module is ready.
  const shown = first.then((f) => {
    perf.textMs = performance.now();
    const fl = { path: f.name, format: "", state: null, touched: false };
    fl.state = newState(fl, f.text);
    files.push(fl);
    active = 0;
    show();
    perf.editorMs = performance.now();
  });
  Promise.all([ready, shown]).then(() => {
    if (dirty) lintNow(); // not yet linted when the module came last
    perf.firstLintMs = perf.lastLintMs;
    perf.readyMs = performance.now();
    performance.mark("trainlint-ready");
    el.dataset.ready = "true";
  });
}
