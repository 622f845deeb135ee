// The playground's code editor: CodeMirror 6 (npm, pinned in scripts/site/package-lock.json),
// bundled by scripts/site/20_playground.py with esbuild into build/site/playground/editor.js.
//
//   import { createEditor } from "./editor.js";
//   const ed = createEditor(parentElement, { doc, onRun, onChange });
//   ed.getCode(); ed.setCode(text); ed.focus(); ed.markLine(n); ed.clearMark(); ed.goToLine(n);
import { basicSetup } from "codemirror";
import { EditorView, Decoration, keymap } from "@codemirror/view";
import { EditorState, Prec, StateEffect, StateField } from "@codemirror/state";
import { indentWithTab } from "@codemirror/commands";
import { indentUnit } from "@codemirror/language";
import { python } from "@codemirror/lang-python";

// One highlighted line: the line of the user's file that a traceback names.
const setMark = StateEffect.define();
const errorLine = Decoration.line({ class: "cm-error-line" });
const markField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(setMark)) deco = e.value == null ? Decoration.none : Decoration.set([errorLine.range(e.value)]);
    }
    // an edit of the marked code clears the mark
    return tr.docChanged && deco.size ? Decoration.none : deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const theme = EditorView.theme({
  "&": { height: "100%", fontSize: "14px", backgroundColor: "#fff" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", lineHeight: "1.55" },
  ".cm-content": { padding: "10px 0" },
  ".cm-gutters": { backgroundColor: "#f8fafc", color: "#94a3b8", borderRight: "1px solid #e3e6ea" },
  ".cm-activeLine": { backgroundColor: "#f1f5f9" },
  ".cm-activeLineGutter": { backgroundColor: "#e2e8f0", color: "#334155" },
  ".cm-error-line": { backgroundColor: "#fee2e2", boxShadow: "inset 3px 0 0 #dc2626" },
  "&.cm-focused": { outline: "none" },
});

// The editor lives in a shadow root of `parent`: there CodeMirror's styles go into a constructed style
// sheet (adoptedStyleSheets) instead of a <style> element, which the site's Content-Security-Policy
// (style-src 'self', no inline styles) would block, leaving the editor unstyled.
export function createEditor(parent, { doc = "", onRun = () => {}, onChange = () => {} } = {}) {
  const run = () => { onRun(); return true; };
  const root = parent.shadowRoot || parent.attachShadow({ mode: "open" });
  const view = new EditorView({
    parent: root,
    root,
    state: EditorState.create({
      doc,
      extensions: [
        Prec.highest(keymap.of([{ key: "Mod-Enter", run }])),
        basicSetup,
        keymap.of([indentWithTab]),
        indentUnit.of("    "),
        EditorState.tabSize.of(4),
        python(),
        markField,
        theme,
        EditorView.contentAttributes.of({ "aria-label": "Python code" }),
        EditorView.updateListener.of((u) => { if (u.docChanged) onChange(u.state.doc.toString()); }),
      ],
    }),
  });

  const lineStart = (n) => {
    const d = view.state.doc;
    return d.line(Math.min(Math.max(1, n), d.lines)).from;
  };

  return {
    view,
    getCode: () => view.state.doc.toString(),
    setCode(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 },
                      scrollIntoView: true });
    },
    focus: () => view.focus(),
    markLine(n) {
      const pos = lineStart(n);
      view.dispatch({ effects: [setMark.of(pos), EditorView.scrollIntoView(pos, { y: "center" })] });
    },
    clearMark: () => view.dispatch({ effects: setMark.of(null) }),
    goToLine(n) {
      const pos = lineStart(n);
      view.dispatch({ selection: { anchor: pos }, effects: [setMark.of(pos), EditorView.scrollIntoView(pos, { y: "center" })] });
      view.focus();
    },
  };
}
