// The benchmark page: our side runs ours.py in the Pyodide worker (web/js/client.mjs), which sends the
// shared weights, the parity sample, the exported ONNX file and our timings; then TF.js and ORT Web
// run in this page (peers.mjs) on those weights. The results: a table, a bar chart (log scale), the
// adapter, browser and date, and a JSON download. ?sizes=small|full picks the sizes, ?autorun=1 starts
// at once. State for tests and scripts: window.borchBench = {running, done, error, result}.
import { PyWorker } from "../js/client.mjs";
import { runOrt, runTfjs } from "./peers.mjs";

const SIZES = ["small", "full"];   // the keys of _bench_resnet.PAGE
const TFJS = ["tf-core.es2017.min.js", "tf-backend-cpu.es2017.min.js", "tf-layers.es2017.min.js",
              "tf-backend-webgpu.es2017.min.js"];   // _assets.TFJS_FILES, in load order
const RUNTIMES = [["ours_eager", "borch_webgpu eager"], ["ours_compiled", "borch_webgpu compiled"],
                  ["tfjs", "TensorFlow.js"], ["ort", "ONNX Runtime Web"]];
const COLORS = { ours_eager: "#fdba74", ours_compiled: "#c2410c", tfjs: "#2563eb", ort: "#16a34a" };

const $ = (id) => document.getElementById(id);
const state = (window.borchBench = { running: false, done: false, error: null, result: null });
const logEl = $("log");
const log = (text) => { logEl.textContent += text.endsWith("\n") ? text : text + "\n"; };
const status = (text) => { $("status").textContent = text; log(text); };

function loadScript(src) {
  return new Promise((resolve, reject) => {
    const s = document.createElement("script");
    s.src = src;
    s.onload = resolve;
    s.onerror = () => reject(new Error(`could not load ${src}`));
    document.head.appendChild(s);
  });
}

async function loadTf() {
  if (!window.tf) for (const f of TFJS) await loadScript(new URL(`../tfjs/${f}`, import.meta.url).href);
  return window.tf;
}

async function loadOrt() {
  const ort = await import(new URL("../ort/ort.webgpu.min.mjs", import.meta.url).href);
  ort.env.wasm.wasmPaths = new URL("../ort/", import.meta.url).href;
  ort.env.wasm.numThreads = 1;
  return ort;
}

/** Our side, in the worker: resolves with {cfg, weights, sample, onnx, ours}. */
async function runOurs(sizes) {
  const got = { weights: new Map() };
  const py = new PyWorker({
    onStdout: log, onStderr: log,
    onData: (kind, meta, bytes) => {
      const m = JSON.parse(meta);
      if (kind === "config") got.cfg = m;
      else if (kind === "weights") got.weights.set(m.name, { shape: m.shape, data: new Float32Array(bytes) });
      else if (kind === "sample") {
        const n = m.x_shape.reduce((a, b) => a * b, 1), all = new Float32Array(bytes);
        got.sample = { x: { shape: m.x_shape, data: all.subarray(0, n) },
                       logits: { shape: m.logits_shape, data: all.subarray(n) } };
      } else if (kind === "onnx") got.onnx = new Uint8Array(bytes);
      else if (kind === "ours") got.ours = m;
    },
  });
  status("Starting Python (Pyodide, numpy, borch_webgpu)…");
  await py.ready;
  const code = `import json\nCONFIG = json.loads(${JSON.stringify(JSON.stringify({ sizes }))})\n`
    + await (await fetch(new URL("ours.py", import.meta.url))).text();
  status("borch_webgpu: exporting, then timing eager and compiled…");
  const { exitCode } = await py.run(code, "/home/pyodide/bench_ours.py");
  py.worker.terminate();   // give its GPU memory back before the peers start
  if (exitCode !== 0 || !got.ours) throw new Error(`our benchmark program failed (exit code ${exitCode}); see the log`);
  if (got.ours.error) throw new Error(got.ours.error);
  return got;
}

async function peer(name, fn) {
  try {
    return await fn();
  } catch (e) {
    log(`${name} failed: ${e && e.stack || e}`);
    return { error: String(e && e.message || e) };
  }
}

/** Median ms per runtime for each workload: [{workload, ours_eager, ours_compiled, tfjs, ort}]. */
export function rows(result) {
  const med = (v) => (v && v.ms ? v.ms.median : null);
  const timed = (r) => (r && r.parity && r.parity.passed ? r : null);
  const tf = timed(result.tfjs), ort = timed(result.ort);
  const out = [];
  for (const sec of ["train", "infer"]) {
    for (const [b, v] of Object.entries(result.ours[sec] || {})) {
      out.push({ workload: `${sec} ${b.toUpperCase()}`, ours_eager: med(v.eager), ours_compiled: med(v.compiled),
                 tfjs: med(tf && tf[sec] && tf[sec][b]), ort: med(ort && ort[sec] && ort[sec][b]) });
    }
  }
  return out;
}

function peerNote(r) {
  if (!r) return "not run";
  if (r.error) return `failed: ${r.error}`;
  if (!r.parity) return `could not start (${(r.ep_errors || []).join("; ")})`;
  return r.parity.passed ? null : `parity failed (max |diff| ${r.parity.max_abs_diff.toExponential(2)})`;
}

function fmt(v) { return v == null ? "–" : v < 10 ? v.toFixed(2) : v.toFixed(1); }

/** A results table: one row per workload, a column per runtime (notes: why a runtime has no figure). */
function table(rows, runtimes, notes = {}) {
  const t = document.createElement("table");
  t.className = "bench-table";
  const tr = (cells, tag = "td") => {
    const row = document.createElement("tr");
    for (const [text, cls] of cells) {
      const c = document.createElement(tag);
      c.textContent = text;
      if (cls) c.className = cls;
      row.appendChild(c);
    }
    return row;
  };
  t.createTHead().appendChild(tr([["workload"], ...runtimes.map(([, label]) => [label]), ["compiled vs TF.js"],
                                  ["compiled vs ORT"]], "th"));
  const body = t.createTBody();
  for (const r of rows) {
    const cells = [[r.workload]];
    for (const [key] of runtimes) {
      if (r[key] != null) cells.push([`${fmt(r[key])} ms`]);
      else if (notes[key]) cells.push([notes[key], "bad"]);
      else cells.push([key === "ort" && r.workload.startsWith("train") ? "does not train" : "–", "na"]);
    }
    for (const key of ["tfjs", "ort"]) {
      cells.push(r[key] && r.ours_compiled ? [`${(r[key] / r.ours_compiled).toFixed(1)}× faster`] : ["–", "na"]);
    }
    body.appendChild(tr(cells));
  }
  return t;
}

function drawTable(result) {
  const t = table(rows(result), RUNTIMES, { tfjs: peerNote(result.tfjs), ort: peerNote(result.ort) });
  t.id = "results";
  $("results").replaceWith(t);
  const p = (name, r) => (r && r.parity ? `${name} ${r.parity.max_abs_diff.toExponential(2)}${r.parity.passed ? "" : " (failed)"}` : null);
  $("parity").textContent = "Parity gate (max |logit difference| from ours, tolerance 1e-3): "
    + [p("TF.js", result.tfjs), p(`ORT Web (${result.ort && result.ort.ep || "?"} EP)`, result.ort)].filter(Boolean).join(", ") + ".";
}

/** The committed figures (bench/results/, through scripts/site/40_bench.py). */
async function drawPublished() {
  let pub;
  try {
    pub = await (await fetch(new URL("published.json", import.meta.url))).json();
  } catch (e) {
    $("published").textContent = `No published figures in this build (${e}).`;
    return;
  }
  const box = $("published");
  box.replaceChildren();
  for (const run of pub.runs) {
    const h = document.createElement("h3");
    h.textContent = run.title;
    const a = run.adapter || {};
    const p = document.createElement("p");
    p.className = "muted";
    const par = Object.entries(run.parity || {}).filter(([, v]) => v).map(([k, v]) => `${k} ${v.max_abs_diff.toExponential(1)}`);
    p.textContent = `Adapter: ${[a.vendor, a.architecture, a.device, a.description].filter(Boolean).join(" / ")}`
      + `${a.is_software ? " (software renderer, not a GPU)" : ""}. Runtime: ${run.browser}. Date: ${run.date}.`
      + (run.native ? ` Native: ${run.native}.` : "") + ` Parity: ${par.join(", ")}. Files: bench/results/${run.files.join(", bench/results/")}.`;
    const cols = run.rows.some((r) => r.native != null) ? [...RUNTIMES.slice(0, 2), ["native", "native PyTorch"], ...RUNTIMES.slice(2)] : RUNTIMES;
    box.append(h, p, table(run.rows, cols));
  }
}

function drawChart(result) {
  const data = rows(result), svgNS = "http://www.w3.org/2000/svg";
  const vals = data.flatMap((r) => RUNTIMES.map(([k]) => r[k]).filter((v) => v != null));
  if (!vals.length) return;
  const lo = Math.log10(Math.min(...vals)) - 0.3, hi = Math.log10(Math.max(...vals)) + 0.1;
  const W = 780, left = 120, barH = 14, group = RUNTIMES.length * barH + 16, H = data.length * group + 40;
  const svg = document.createElementNS(svgNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const el = (tag, attrs, text) => {
    const e = document.createElementNS(svgNS, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    if (text != null) e.textContent = text;
    svg.appendChild(e);
    return e;
  };
  const x = (v) => left + ((Math.log10(v) - lo) / (hi - lo)) * (W - left - 90);
  data.forEach((r, i) => {
    const y0 = 10 + i * group;
    el("text", { x: 0, y: y0 + group / 2, class: "bar-label" }, r.workload);
    RUNTIMES.forEach(([k, label], j) => {
      if (r[k] == null) return;
      const y = y0 + j * barH;
      el("rect", { x: left, y, width: Math.max(2, x(r[k]) - left), height: barH - 3, fill: COLORS[k] }).appendChild(
        Object.assign(document.createElementNS(svgNS, "title"), { textContent: `${label}: ${fmt(r[k])} ms` }));
      el("text", { x: x(r[k]) + 4, y: y + barH - 4, class: "bar-label" }, `${fmt(r[k])} ms`);
    });
  });
  RUNTIMES.forEach(([k, label], j) => {
    el("rect", { x: j * 190, y: H - 18, width: 12, height: 12, fill: COLORS[k] });
    el("text", { x: j * 190 + 16, y: H - 8, class: "bar-label" }, label);
  });
  $("chart").replaceChildren(svg);
}

async function run() {
  if (state.running) return;
  const sizes = $("sizes").value;
  Object.assign(state, { running: true, done: false, error: null, result: null });
  $("run").disabled = true;
  logEl.textContent = "";
  try {
    const got = await runOurs(sizes);
    const cfg = got.cfg, a = got.ours.adapter || {};
    const result = { date: new Date().toISOString(), browser: navigator.userAgent, sizes, config: cfg, adapter: a,
                     ours: { train: got.ours.train, infer: got.ours.infer } };
    status("TensorFlow.js: parity, then timing…");
    result.tfjs = await peer("TF.js", async () => runTfjs(await loadTf(), got.weights, got.sample, cfg, log));
    status("ONNX Runtime Web: parity, then timing…");
    result.ort = await peer("ORT Web", async () => runOrt(await loadOrt(), got.onnx, got.sample, cfg, log));
    result.rows = rows(result);
    state.result = result;
    const soft = a.is_software ? " (a software renderer: it runs on the CPU, it is not a GPU)" : "";
    $("env").textContent = `Adapter: ${[a.vendor, a.architecture, a.device, a.description].filter(Boolean).join(" / ")}`
      + `${soft}. Browser: ${navigator.userAgent}. Date: ${result.date}. Sizes: ${sizes} (ResNet-18 width ${cfg.width}, `
      + `${cfg.hw}×${cfg.hw} images; ${cfg.steps} timed steps, ${cfg.runs} timed runs; medians).`;
    drawTable(result);
    drawChart(result);
    const dl = $("download");
    dl.href = URL.createObjectURL(new Blob([JSON.stringify(result, null, 1)], { type: "application/json" }));
    dl.hidden = false;
    status("Done.");
  } catch (e) {
    state.error = String(e && e.message || e);
    status(`The benchmark failed: ${state.error}`);
  } finally {
    state.running = false;
    state.done = true;
    $("run").disabled = false;
  }
}

const params = new URLSearchParams(location.search);
if (SIZES.includes(params.get("sizes"))) $("sizes").value = params.get("sizes");
$("run").addEventListener("click", run);
drawPublished();
if (params.get("autorun") === "1") run();
