// The checker's second bundle (assets/checker-extra.js): what the editor does not need before the
// first findings are shown, loaded once the checker is ready (site/doc.go, Timings): syntax
// highlighting (the YAML, JSON, TOML and Python languages with the Lezer parsers they use),
// bracket matching, undo history and the keymaps. checker.js shares its CodeMirror packages
// with it through globalThis.trainlintShared (build.mjs maps their imports here to it), so both
// bundles use one copy of each module; it hands its extensions to checker.js through
// trainlintExtraLoaded.
import { keymap } from "@codemirror/view";
import { lintKeymap } from "@codemirror/lint";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { syntaxHighlighting, StreamLanguage, bracketMatching } from "@codemirror/language";
import { classHighlighter } from "@lezer/highlight";
import { yaml } from "@codemirror/lang-yaml";
import { json } from "@codemirror/lang-json";
import { toml } from "@codemirror/legacy-modes/mode/toml";
import { python } from "@codemirror/legacy-modes/mode/python";

globalThis.trainlintExtraLoaded({
  // languageFor gives the highlighting of a file format (checker.js's formatOf).
  languageFor(fmt) {
    if (fmt === "json") return json();
    if (fmt === "toml") return StreamLanguage.define(toml);
    if (fmt === "gin" || fmt === "python") return StreamLanguage.define(python);
    return yaml();
  },
  extensions: [
    history(), bracketMatching(), syntaxHighlighting(classHighlighter),
    keymap.of([...defaultKeymap, ...historyKeymap, ...lintKeymap, indentWithTab]),
  ],
});
