// Lesson and tutorial pages (rendered by scripts/site/30_lessons.py): every code block is an editable
// cell with a Run button; the cells of a page share one Python namespace in one PyWorker, like a
// notebook. Running a cell first runs the cells above it that have not run yet. The exercise cell
// has Check: it runs the learner's code, then hidden check code against the same namespace.
import { PyWorker, bootText } from "./client.mjs";
import { LossPlot } from "./plot.mjs";

const $ = (id) => document.getElementById(id);
const data = JSON.parse($("lesson-data").textContent);
const CHECK_MARK = "\u001eborch-check ";

// ---- a small Python highlighter (comments, strings, numbers, keywords, builtins, decorators) ----
const KEYWORDS = new Set(("and as assert async await break class continue def del elif else except finally for " +
  "from global if import in is lambda nonlocal not or pass raise return try while with yield None True False").split(" "));
const BUILTINS = new Set(("print len range int float str list dict tuple set sum min max abs round enumerate zip " +
  "isinstance type super sorted any all open map filter reversed").split(" "));
const TOKEN = /(#[^\n]*)|([rbfuRBFU]{0,2}(?:"""[\s\S]*?(?:"""|$)|'''[\s\S]*?(?:'''|$)|"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?))|(@[A-Za-z_][\w.]*)|\b(\d[\d_]*\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_]\w*)/g;
const esc = (s) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function highlight(src) {
  let out = "", last = 0;
  for (const m of src.matchAll(TOKEN)) {
    out += esc(src.slice(last, m.index));
    last = m.index + m[0].length;
    const [tok, com, str, deco, num, word] = m;
    let cls = null;
    if (com) cls = "c"; else if (str) cls = "s"; else if (deco) cls = "d"; else if (num) cls = "n";
    else if (word && KEYWORDS.has(word)) cls = "k";
    else if (word && BUILTINS.has(word)) cls = "b";
    out += cls ? `<span class="${cls}">${esc(tok)}</span>` : esc(tok);
  }
  return out + esc(src.slice(last));
}

// ---- the runtime: one worker per page, one namespace, one cell at a time ----
let sink = null;          // where output goes now: {stdout, stderr, log}
let nsCount = 1;
let ns = `${data.ns}#${nsCount}`;
let generation = 0;       // bumped by Stop/Restart: queued work of an older generation is dropped
let chain = Promise.resolve();
let busy = 0;
let py = null;
const page = { ready: false, gpu: null, timings: null };
window.borchLesson = page;  // for tests and the curious

function setStatus(text, dot) {
  $("rt-status").textContent = text;
  $("rt-dot").className = "dot " + dot;
}

function describe(gpu) {
  if (!gpu.available) return { text: `no WebGPU (${gpu.reason}): running on the cpu device (numpy)`, dot: "none" };
  const a = gpu.adapter;
  const name = [a.vendor, a.architecture, a.device].filter(Boolean).join(" / ");
  if (a.is_software) return { text: `${name}: a software renderer (SwiftShader, on the CPU): correct but slow`, dot: "soft" };
  return { text: `GPU: ${name}`, dot: "gpu" };
}

function startWorker() {
  py = new PyWorker({
    onStdout: (t) => sink && sink.stdout(t),
    onStderr: (t) => sink && sink.stderr(t),
    onLog: (n, s, v) => sink && sink.log && sink.log(n, s, v),
    onProgress: (p) => { if (!page.ready) setStatus(bootText(p), "wait"); },
  });
  page.progressLog = py.progressLog;
  watchReady();
}

function watchReady() {
  page.ready = false;
  setStatus("Starting Python and WebGPU\u2026", "wait");
  const ready = py.ready;
  ready.then(({ gpu, timings }) => {
    if (py.ready !== ready) return;
    Object.assign(page, { ready: true, gpu, timings });
    const d = describe(gpu);
    setStatus(`Ready in ${(timings.totalMs / 1000).toFixed(1)} s \u00b7 ${d.text}`, d.dot);
  }, (e) => {
    if (py.ready !== ready) return;
    page.error = String(e.message || e);
    setStatus(`Python failed to start: ${page.error}`, "none");
  });
}

function enqueue(fn) {
  const gen = generation;
  const p = chain.then(() => (gen === generation ? fn() : false));
  chain = p.catch(() => {});
  return p;
}

function updateBusy(delta) {
  busy += delta;
  $("rt-stop").disabled = busy === 0;
}

// ---- cells ----
class Cell {
  constructor(el, index) {
    this.el = el;
    this.index = index;
    this.n = Number(el.dataset.cell);
    this.kind = el.dataset.kind;
    this.state = "idle";
    this.textarea = el.querySelector("textarea.code");
    this.original = this.textarea.value;
    this.outBox = el.querySelector(".cell-out");
    this.out = el.querySelector("pre.out");
    this.status = el.querySelector(".cell-status");
    this.makeEditor();
    el.querySelector("button.run").addEventListener("click", () => runCell(this));
    if (this.kind === "exercise") {
      this.exercise = data.exercises[String(this.n)];
      this.result = el.querySelector(".check-result");
      el.querySelector("button.check").addEventListener("click", () => checkCell(this));
      const sol = el.querySelector(".solution");
      const btn = el.querySelector("button.show-solution");
      btn.addEventListener("click", () => {
        sol.hidden = !sol.hidden;
        btn.textContent = sol.hidden ? "Show a solution" : "Hide the solution";
      });
      el.querySelector("button.reset-code").addEventListener("click", () => {
        this.textarea.value = this.original;
        this.textarea.dispatchEvent(new Event("input"));
      });
    }
  }

  makeEditor() {
    const wrap = document.createElement("div");
    wrap.className = "editor";
    const pre = document.createElement("pre");
    pre.className = "hl";
    pre.setAttribute("aria-hidden", "true");
    this.textarea.replaceWith(wrap);
    wrap.append(pre, this.textarea);
    const paint = () => { pre.innerHTML = highlight(this.textarea.value) + "\n"; };
    this.textarea.addEventListener("input", () => {
      paint();
      if (this.state === "ok" || this.state === "error") this.el.classList.add("edited");
    });
    this.textarea.addEventListener("keydown", (ev) => {
      if (ev.key === "Enter" && ev.shiftKey) {
        ev.preventDefault();
        runCell(this);
      } else if (ev.key === "Tab" && !ev.shiftKey && !ev.ctrlKey && !ev.metaKey) {
        ev.preventDefault();
        document.execCommand("insertText", false, "    ");
      }
    });
    paint();
  }

  setState(state, note = "") {
    this.state = state;
    this.el.dataset.state = state;
    this.status.textContent = note;
  }

  clearOutput() {
    this.out.textContent = "";
    this.outBox.hidden = true;
    this.plot = null;
    const chart = this.el.querySelector(".chart");
    if (chart) chart.remove();
  }

  write(text, cls) {
    this.outBox.hidden = false;
    const last = this.out.lastChild;
    if (last && last.className === (cls || "")) last.textContent += text;
    else {
      const span = document.createElement("span");
      span.className = cls || "";
      span.textContent = text;
      this.out.appendChild(span);
    }
  }

  // borch_webgpu.log(name, value) in a cell: the playground's plot under its output (NaN and inf are
  // marked on it, not dropped); data-points / data-nonfinite follow it
  log(name, step, value) {
    if (!this.plot) {
      const box = document.createElement("div");
      box.className = "chart";
      const canvas = document.createElement("canvas");
      canvas.setAttribute("role", "img");
      canvas.setAttribute("aria-label", "logged values");
      box.appendChild(canvas);
      this.outBox.after(box);
      this.plot = new LossPlot(canvas, {
        onChange: (p) => {
          box.dataset.points = String(p.pointCount());
          box.dataset.nonfinite = String(p.nonFiniteCount());
        },
      });
    }
    this.plot.add(name, step, value);
  }

  note(text) {
    this.write(text, "note");
  }
}

const cells = [...document.querySelectorAll(".cell")].map((el, i) => new Cell(el, i));
for (const code of document.querySelectorAll("pre.static > code")) {
  if (!code.className || code.className === "language-python") code.innerHTML = highlight(code.textContent);
}

// Run one cell in the page's namespace, its output under it; resolves to true when it succeeded.
async function execute(cell, code = cell.textarea.value) {
  cell.clearOutput();
  cell.el.classList.remove("edited");
  if (cell.result) cell.result.hidden = true;
  cell.setState("running", page.ready ? "running\u2026" : "waiting for Python to start\u2026");
  const started = performance.now();
  sink = {
    stdout: (t) => cell.write(t),
    stderr: (t) => cell.write(t, "err"),
    log: (n, s, v) => cell.log(n, s, v),
  };
  updateBusy(+1);
  let exitCode = 1;
  try {
    await py.ready;
    cell.setState("running", "running\u2026");
    const name = cell.kind === "exercise" ? "exercise" : `cell [${cell.n}]`;
    // let tracebacks quote the cell's own lines
    await py.cell(`__import__("linecache").cache[${JSON.stringify(name)}] = (${code.length}, None, ` +
      `${JSON.stringify(code)}.splitlines(True), ${JSON.stringify(name)})\n`, "linecache", ns);
    ({ exitCode } = await py.cell(code, name, ns));
  } catch (e) {
    cell.write(`The runtime failed: ${e.message || e}\n`, "err");
  } finally {
    updateBusy(-1);
    sink = null;
  }
  const secs = ((performance.now() - started) / 1000).toFixed(1);
  if (exitCode === 0) {
    cell.setState("ok", `done in ${secs} s`);
  } else {
    cell.setState("error", exitCode === 130 ? "stopped" : `failed after ${secs} s`);
  }
  return exitCode === 0;
}

// The cells above `cell` that have not run successfully, then `cell` itself (queued behind any
// running work). Exercises above are the learner's own and are not run for them.
function withPrerequisites(cell, body, onBlocked = () => {}) {
  const before = cells.slice(0, cell.index).filter((c) => c.kind === "run" && c.state !== "ok");
  for (const c of before) if (c.state !== "running") c.setState("queued", "queued");
  cell.setState("queued", before.length ? `queued: runs [${before.map((c) => c.n).join("], [")}] first` : "queued");
  return enqueue(async () => {
    for (const c of before) {
      if (c.state === "ok") continue;
      if (!(await execute(c))) {
        cell.clearOutput();
        cell.setState("blocked", `block [${c.n}] above failed`);
        cell.note(`Block [${c.n}] above failed, so this block did not run. Fix it (or press Restart), then run this one again.\n`);
        onBlocked(c);
        return false;
      }
    }
    return body();
  });
}

function runCell(cell) {
  if (cell.state === "queued" || cell.state === "running") return Promise.resolve(false);
  return withPrerequisites(cell, () => execute(cell));
}

function checkSource(check) {
  // JSON text is a valid Python string literal
  return `def _borch_check(_src):
    import json as _json
    _g = dict(globals())
    try:
        exec(compile(_src, "check", "exec"), _g)
        _r = {"ok": True, "message": ""}
    except AssertionError as _e:
        _r = {"ok": False, "message": str(_e) or "Not yet: the check failed."}
    except Exception as _e:
        _r = {"ok": False, "message": "The check could not run on your code: %s: %s" % (type(_e).__name__, _e)}
    print(${JSON.stringify(CHECK_MARK)} + _json.dumps(_r))
_borch_check(${JSON.stringify(check)})
del _borch_check
`;
}

function showResult(cell, ok, message, extra = "") {
  cell.result.hidden = false;
  cell.result.dataset.result = ok ? "pass" : "fail";
  cell.result.innerHTML = "";
  const head = document.createElement("strong");
  head.textContent = ok ? "\u2713 Correct." : "\u2717 Not yet.";
  cell.result.append(head, " ", message);
  if (extra.trim()) {
    const p = document.createElement("pre");
    p.textContent = extra.trim();
    cell.result.append(p);
  }
}

function checkCell(cell) {
  if (cell.state === "queued" || cell.state === "running") return Promise.resolve(false);
  cell.result.hidden = true;
  delete cell.result.dataset.result;
  return withPrerequisites(cell, async () => {
    if (!(await execute(cell))) {
      showResult(cell, false, "Your code raised an error (shown above). Fix it, then press Check again.");
      return false;
    }
    let captured = "";
    sink = { stdout: (t) => { captured += t; }, stderr: (t) => { captured += t; } };
    cell.setState("running", "checking\u2026");
    updateBusy(+1);
    try {
      await py.cell(checkSource(cell.exercise.check), "check", ns);
    } finally {
      updateBusy(-1);
      sink = null;
    }
    const i = captured.lastIndexOf(CHECK_MARK);
    if (i < 0) {
      showResult(cell, false, "The check was interrupted.", captured);
      cell.setState("error", "check interrupted");
      return false;
    }
    const line = captured.slice(i + CHECK_MARK.length).split("\n")[0];
    const r = JSON.parse(line);
    const extra = captured.slice(0, i);
    showResult(cell, r.ok, r.ok ? (r.message || "Well done.") : r.message, extra);
    cell.setState(r.ok ? "ok" : "error", r.ok ? "check passed" : "check failed");
    return r.ok;
  }, (c) => showResult(cell, false, `Block [${c.n}] above failed, so the check could not run. Fix that block first.`));
}

// ---- page actions ----
// Run all: every block in order (again, if it ran before), stopping at the first failure.
$("rt-run-all").addEventListener("click", () => {
  const runs = cells.filter((c) => c.kind === "run" && c.state !== "queued" && c.state !== "running");
  for (const c of runs) c.setState("queued", "queued");
  enqueue(async () => {
    for (const c of runs) {
      if (!(await execute(c))) {
        for (const d of runs) if (d.state === "queued") d.setState("idle", "not run: a block above failed");
        return false;
      }
    }
    return true;
  });
});

$("rt-stop").addEventListener("click", () => {
  generation++;
  for (const c of cells) if (c.state === "queued") c.setState("idle", "cancelled");
  if (py.interrupt() === "restarted") {
    forgetEverything();
    watchReady();
  }
});

function forgetEverything() {
  for (const c of cells) {
    c.clearOutput();
    c.setState("idle", "");
    c.el.classList.remove("edited");
    if (c.result) c.result.hidden = true;
  }
}

// Restart: a fresh namespace; the old one's variables (and the GPU memory they hold) are dropped.
$("rt-reset").addEventListener("click", () => {
  generation++;
  if (busy && py.interrupt() === "restarted") watchReady();
  const old = ns;
  ns = `${data.ns}#${++nsCount}`;
  forgetEverything();
  enqueue(() => py.cell("for _k in [k for k in globals() if not k.startswith('__')] + ['_k']:\n" +
    "    globals().pop(_k, None)\n__import__('gc').collect()\n", "restart", old));
});

page.cells = cells;
page.runCell = (i) => runCell(cells[i]);
page.checkCell = (i) => checkCell(cells[i]);
page.plotOf = (i) => cells[i].plot;   // the LossPlot under cell i (null before it logs)
startWorker();
