// The playground page: a CodeMirror editor (editor.js, bundled at site-build time), Python in a
// Web Worker (../js/client.mjs), Run/Stop, the output pane, the live loss plot and the GPU
// instruments. Tests and curious people can reach it all through window.borchPlayground.
import { PyWorker, bootText } from "../js/client.mjs";
import { LossPlot } from "../js/plot.mjs";
import { OutputPane } from "./output.mjs";
import { Instruments } from "./instruments.mjs";
import * as share from "./share.mjs";

const USER_FILE = "/home/pyodide/main.py";   // tracebacks name this file; its "line N" links to the editor
const NS = "playground";                     // the namespace of session.py (user code runs as __main__)
const STATS = "\u0000stats";                 // session.py's reserved series: counter snapshots
const STOP_GRACE_MS = 3000;                  // Stop interrupts; past this, the worker is restarted
const EXAMPLES = ["tensors", "autograd", "linear_regression", "mlp", "cnn"];

const $ = (id) => document.getElementById(id);
const runBtn = $("run"), select = $("examples"), statusEl = $("status");

const state = {
  ready: false, running: false, runs: 0, lastRun: null, gpu: null, bootError: null, restarts: 0,
  lastPNG: null, example: null,
};
window.borchPlayground = state;

// ---- the pieces ------------------------------------------------------------------------------
const out = new OutputPane($("output"), { userFile: USER_FILE, onLine: (n) => editor && editor.goToLine(n) });
const plotEl = $("plot");
const plot = new LossPlot($("plot-canvas"), {
  onChange: (p) => {
    plotEl.dataset.points = String(p.pointCount()); plotEl.dataset.series = String(p.series.size);
    plotEl.dataset.nonfinite = String(p.nonFiniteCount());
  },
});
const instruments = new Instruments($("instruments"));
state.plot = plot;

const setStatus = (text, cls = "") => { statusEl.textContent = text; statusEl.className = `pg-status ${cls}`; };

// ---- Python in a worker -------------------------------------------------------------------------
// ?launch_blocking=1: each op that can fail (a bad index) waits for the GPU and raises at its own line
const params = new URLSearchParams(location.search);
const launchBlocking = params.get("launch_blocking") === "1";
// ?device=cpu: WebGPU hidden as PyTorch hides GPUs (CUDA_VISIBLE_DEVICES=""), tensors on the cpu device
const cpuChosen = params.get("device") === "cpu";
const py = new PyWorker({
  env: { ...(launchBlocking ? { BORCH_WEBGPU_LAUNCH_BLOCKING: "1" } : {}), ...(cpuChosen ? { CUDA_VISIBLE_DEVICES: "" } : {}) },
  onStdout: (t) => out.write("stdout", t),
  onStderr: (t) => out.write("stderr", t),
  onProgress: (p) => { if (!state.ready && !state.running && !pendingRun) setStatus(bootText(p)); },
  onLog: (name, step, value) => {
    if (name === STATS) instruments.snapshot(step, JSON.parse(value));
    else plot.add(name, step, value);
  },
});
state.worker = py;

// Settings: `import torch` runs borch_webgpu (borch_webgpu/_torch_alias.py) unless turned off here
const ALIAS_KEY = "borch_webgpu.playground.torchAlias";
const aliasBox = $("torch-alias");
try { aliasBox.checked = localStorage.getItem(ALIAS_KEY) !== "off"; } catch (e) { /* storage off: on */ }
aliasBox.addEventListener("change", () => {
  try { localStorage.setItem(ALIAS_KEY, aliasBox.checked ? "on" : "off"); } catch (e) { /* storage off */ }
});
const torchAlias = () => (aliasBox.checked ? "; Settings turns it off" : false);
state.progressLog = py.progressLog;
const sessionSource = fetch("session.py").then((r) => r.text());

// Each (re)started worker runs session.py once before any user code.
let session = null;
function startSession() {
  state.ready = false;
  session = (async () => {
    const { gpu, timings } = await py.ready;
    const r = await py.cell(await sessionSource, "<playground session>", NS);
    if (r.exitCode !== 0) throw new Error("the playground's session code failed (see the output)");
    return { gpu, timings };
  })();
  session.then(({ gpu, timings }) => {
    state.ready = true;
    state.gpu = gpu;
    instruments.setAdapter(gpu, { cpuChosen, onSwitch: switchDevice });
    if (!state.running) {
      runBtn.disabled = false;
      setStatus(`Ready. Python started in ${(timings.totalMs / 1000).toFixed(1)} s.`, "ok");
    }
    if (pendingRun) { pendingRun = false; run(); }
  }, (e) => {
    state.bootError = String(e && e.message || e);
    setStatus("Python failed to start", "bad");
    out.write("stderr", `The Python runtime failed to start: ${state.bootError}\n`);
    out.end();
  });
  return session;
}
let pendingRun = false;
startSession();

// The device switch: the page reloads with or without ?device=cpu (the code is saved first).
async function switchDevice(device) {
  if (editor) await persist(editor.getCode());
  const next = new URLSearchParams(location.search);
  if (device === "cpu") next.set("device", "cpu"); else next.delete("device");
  location.search = next.toString() ? `?${next}` : "";
}

// ---- editor ---------------------------------------------------------------------------------------
const exampleCode = Object.fromEntries(await Promise.all(EXAMPLES.map(async (name) => {
  const r = await fetch(`examples/${name}.py`);
  return [name, r.ok ? await r.text() : `# examples/${name}.py could not be loaded (HTTP ${r.status})\n`];
})));

let editor = null;
let quiet = false;           // true while the code is replaced by an example (not saved as "your code")
let saveTimer = null;
const saved = await share.loadSaved();
let initial;
if (saved && saved.code != null) {
  initial = saved.code;
} else {
  const name = saved && EXAMPLES.includes(saved.example) ? saved.example : EXAMPLES[0];
  initial = exampleCode[name];
}
// the URL's #code= and localStorage follow the editor; state.saved is the code they hold
async function persist(code) {
  await share.save(code);
  state.saved = code;
}
const matchExample = (code) => EXAMPLES.find((n) => exampleCode[n] === code) || null;

try {
  const { createEditor } = await import("./editor.js");
  $("editor").textContent = "";
  editor = createEditor($("editor"), {
    doc: initial,
    onRun: () => { if (!state.running) run(); },
    onChange: (code) => {
      const ex = matchExample(code);
      state.example = ex;
      select.value = ex || "";
      if (quiet) return;
      clearTimeout(saveTimer);
      saveTimer = setTimeout(() => persist(code), 300);
    },
  });
} catch (e) {
  // without the bundle (a site built without scripts/site/20_playground.py): a plain text area
  $("editor").innerHTML = "";
  const ta = document.createElement("textarea");
  ta.className = "code pg-fallback";
  ta.value = initial;
  ta.addEventListener("input", () => { clearTimeout(saveTimer); saveTimer = setTimeout(() => persist(ta.value), 300); });
  $("editor").appendChild(ta);
  editor = { getCode: () => ta.value, setCode: (t) => { ta.value = t; }, focus: () => ta.focus(), markLine() {}, clearMark() {}, goToLine() {} };
  console.warn("playground: editor.js failed to load, using a text area", e);
}
state.editor = editor;
state.example = matchExample(initial);
select.value = state.example || "";

function selectExample(name) {
  if (!EXAMPLES.includes(name)) return;
  quiet = true;
  editor.setCode(exampleCode[name]);
  quiet = false;
  clearTimeout(saveTimer);
  share.showExample(name);
  state.example = name;
  select.value = name;
  editor.clearMark();
}
select.addEventListener("change", () => { selectExample(select.value); editor.focus(); });
state.selectExample = selectExample;

// ---- run and stop ------------------------------------------------------------------------------------
let runToken = 0, stopRequested = false, stopTimer = null, tickTimer = null;

function setButton(running) {
  runBtn.classList.toggle("stop", running);
  runBtn.querySelector(".label").textContent = running ? "Stop" : "Run";
  runBtn.querySelector(".icon").textContent = running ? "■" : "▶";
  runBtn.title = running ? "Stop the running script" : "Run (Ctrl+Enter / Cmd+Enter)";
}

async function run() {
  if (state.running) return;
  if (!state.ready) {
    if (!state.bootError) { pendingRun = true; setStatus("Still starting Python: the script runs when it is ready…"); }
    return;
  }
  const code = editor.getCode();
  const token = ++runToken;
  state.running = true;
  stopRequested = false;
  setButton(true);
  runBtn.disabled = false;
  out.clear();
  plot.clear();
  instruments.beginRun();
  editor.clearMark();
  const t0 = performance.now();
  const tick = () => setStatus(`Running… ${((performance.now() - t0) / 1000).toFixed(0)} s`, "busy");
  tick();
  tickTimer = setInterval(tick, 500);
  let r;
  try {
    await session;
    await py.cell("begin_run()", "<playground>", NS);
    r = await py.run(code, USER_FILE, { torchAlias: torchAlias() });
  } catch (e) {
    out.write("stderr", `The playground failed to run the script: ${e && e.message || e}\n`);
    r = { exitCode: 1, stats: null };
  }
  if (token !== runToken) return;
  finish(r, (performance.now() - t0) / 1000);
}

function finish(r, seconds) {
  clearInterval(tickTimer);
  clearTimeout(stopTimer);
  out.end();
  state.running = false;
  setButton(false);
  runBtn.disabled = !state.ready;
  const stopped = stopRequested && r.exitCode !== 0;
  if (stopped) {
    out.write("note", `\n■ Stopped after ${seconds.toFixed(1)} s.\n`);
    setStatus(`Stopped after ${seconds.toFixed(1)} s`, "warn");
  } else if (r.exitCode === 0) {
    setStatus(`Finished in ${seconds.toFixed(1)} s`, "ok");
  } else {
    setStatus(`Failed (exit code ${r.exitCode}) after ${seconds.toFixed(1)} s`, "bad");
    if (out.lastUserLine) editor.markLine(out.lastUserLine);
  }
  out.end();
  instruments.endRun(r.stats);
  state.runs++;
  state.lastRun = { exitCode: r.exitCode, seconds, stopped, example: state.example };
  if (!state.ready && !state.bootError) setStatus(`${$("status").textContent}. Restarting Python…`, "warn");
}

function stop() {
  if (!state.running || stopRequested) return;
  stopRequested = true;
  setStatus("Stopping…", "warn");
  const token = runToken;
  if (py.interrupt() === "restarted") {   // no SharedArrayBuffer: the worker was restarted at once
    state.restarts++;
    startSession();
    return;
  }
  stopTimer = setTimeout(() => {
    if (!state.running || token !== runToken) return;
    out.write("note", `\nPython did not stop within ${STOP_GRACE_MS / 1000} s: restarting it (variables and imports are lost).\n`);
    state.restarts++;
    py.restart();          // settles the pending run with exit code 130
    startSession();
  }, STOP_GRACE_MS);
}
state.run = run;
state.stop = stop;

runBtn.addEventListener("click", () => (state.running ? stop() : run()));
$("clear-output").addEventListener("click", () => out.clear());
$("log-scale").addEventListener("change", (ev) => plot.setLogScale(ev.target.checked));
document.addEventListener("keydown", (ev) => {
  // Ctrl/Cmd+Enter anywhere on the page (the editor handles it itself when focused)
  if ((ev.ctrlKey || ev.metaKey) && ev.key === "Enter" && !ev.defaultPrevented && !state.running) {
    ev.preventDefault();
    run();
  }
});

$("save-png").addEventListener("click", () => {
  const url = plot.toPNG();
  state.lastPNG = url;
  const a = document.createElement("a");
  a.href = url;
  a.download = `borch_webgpu-${state.example || "plot"}-loss.png`;
  document.body.appendChild(a);
  a.click();
  a.remove();
});

$("copy-link").addEventListener("click", async () => {
  const btn = $("copy-link");
  await persist(editor.getCode());
  let ok = true;
  try { await navigator.clipboard.writeText(location.href); } catch (e) { ok = false; }
  btn.textContent = ok ? "Link copied" : "Link is in the address bar";
  setTimeout(() => { btn.textContent = "Copy link"; }, 1800);
});

if (state.ready) runBtn.disabled = false;
