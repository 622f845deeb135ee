// The page side of web/js/worker.mjs: start Python in a worker, run code, stream its output,
// interrupt it (Stop) through Pyodide's interrupt buffer, or restart the worker.
//
//   const py = new PyWorker({ onStdout, onStderr, onLog, onProgress, onData, siteRoot, env });   // env: os.environ additions
//   onProgress(py.progress) while it boots: {stage: {loaded, total, done}}; bootText(py.progress) says it
//   onData(kind, meta, bytes): what Python sends with js.borchSend(kind, meta_json, bytes), bytes an ArrayBuffer
//   const { gpu, timings } = await py.ready;
//   const { exitCode, stats } = await py.run(code, filename, { torchAlias });   // or py.cell(code, name, ns)
//   py.interrupt();                                        // KeyboardInterrupt in the running code
export class PyWorker {
  constructor({ onStdout = () => {}, onStderr = () => {}, onLog = () => {}, onProgress = () => {}, onData = () => {},
                siteRoot, env = {} } = {}) {
    this.handlers = { onStdout, onStderr, onLog, onProgress, onData };
    this.env = env;
    this.siteRoot = siteRoot || new URL("../", import.meta.url).href;
    this.pending = new Map();
    this.nextId = 1;
    this.running = 0;
    this._start();
  }

  _start() {
    // SharedArrayBuffer exists only on cross-origin-isolated pages (our server sends COOP/COEP)
    this.interruptBuffer = typeof SharedArrayBuffer !== "undefined" ? new SharedArrayBuffer(4) : null;
    this.progress = {};
    this.progressLog = [];   // every report, in order (tests read it)
    this.worker = new Worker(new URL("./worker.mjs", import.meta.url), { type: "module" });
    this.ready = new Promise((resolve, reject) => { this._readyResolve = resolve; this._readyReject = reject; });
    this.worker.onmessage = (ev) => this._onMessage(ev.data);
    this.worker.onerror = (ev) => this._readyReject(new Error(ev.message || "worker failed to start"));
    this.ready.then(() => {}, () => {});
    fetch(new URL("runtime/site.json", this.siteRoot)).then((r) => r.json()).then((site) => {
      this.worker.postMessage({
        type: "boot",
        indexURL: new URL("pyodide/", this.siteRoot).href,
        wheelURL: new URL("wheels/" + site.wheel, this.siteRoot).href,
        interrupt: this.interruptBuffer,
        env: this.env,
      });
    }, (e) => this._readyReject(e));
  }

  _onMessage(m) {
    if (m.type === "progress") {
      const { stage, loaded, total, done } = m;
      this.progress[stage] = { loaded, total, done };
      this.progressLog.push({ stage, loaded, total, done, t: performance.now() });
      this.handlers.onProgress(this.progress);
    } else if (m.type === "ready") this._readyResolve({ gpu: m.gpu, timings: m.timings });
    else if (m.type === "boot-error") this._readyReject(new Error(m.message));
    else if (m.type === "stdout") this.handlers.onStdout(m.text);
    else if (m.type === "stderr") this.handlers.onStderr(m.text);
    else if (m.type === "log") this.handlers.onLog(m.name, m.step, m.value);
    else if (m.type === "data") this.handlers.onData(m.kind, m.meta, m.bytes);
    else if (m.type === "done" || m.type === "stats") {
      const p = this.pending.get(m.id);
      if (p) { this.pending.delete(m.id); p(m); }
    }
  }

  _request(msg) {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      if (this.interruptBuffer && msg.type !== "stats") new Int32Array(this.interruptBuffer)[0] = 0;
      this.worker.postMessage({ ...msg, id });
    });
  }

  async run(code, filename = "/home/pyodide/main.py", { torchAlias } = {}) {
    await this.ready;
    this.running++;
    try { return await this._request({ type: "run", code, filename, torchAlias }); } finally { this.running--; }
  }

  async cell(code, name, ns = "page") {
    await this.ready;
    this.running++;
    try { return await this._request({ type: "cell", code, name, ns }); } finally { this.running--; }
  }

  async stats() {
    await this.ready;
    return (await this._request({ type: "stats" })).stats;
  }

  // Stop: a KeyboardInterrupt in the running Python code (needs SharedArrayBuffer); without it,
  // restart the worker (state is lost).
  interrupt() {
    if (this.interruptBuffer) { new Int32Array(this.interruptBuffer)[0] = 2; return "interrupted"; }
    this.restart();
    return "restarted";
  }

  restart() {
    this.worker.terminate();
    for (const p of this.pending.values()) p({ type: "done", exitCode: 130, stats: null });
    this.pending.clear();
    this.running = 0;
    this._start();
  }
}

const STAGE_NAMES = { python: "Python", numpy: "numpy", borch_webgpu: "borch_webgpu", device: "the WebGPU device" };
const mb = (n) => (n / 1e6).toFixed(1);

// One line for a status bar: the stage in progress and its bytes, e.g.
// "Starting Python: numpy 1.2 of 3.1 MB (Python 12.5 MB done)".
export function bootText(progress) {
  const stages = Object.keys(STAGE_NAMES);
  const doneBytes = stages.filter((k) => progress[k] && progress[k].done && progress[k].total)
    .map((k) => `${STAGE_NAMES[k]} ${mb(progress[k].total)} MB`);
  const now = stages.find((k) => !progress[k] || !progress[k].done);
  if (!now) return "Starting Python: ready";
  const p = progress[now] || { loaded: 0, total: 0 };
  let text = now === "device" ? "Starting Python: probing WebGPU and starting the device\u2026"
    : `Starting Python: ${STAGE_NAMES[now]} ` + (p.total ? `${mb(p.loaded)} of ${mb(p.total)} MB` : "\u2026");
  if (doneBytes.length) text += ` (${doneBytes.join(", ")} done)`;
  return text;
}

// The fraction of the bytes to download that have arrived (0..1), for a <progress> bar.
export function bootFraction(progress) {
  let loaded = 0, total = 0;
  for (const p of Object.values(progress)) { loaded += p.loaded; total += p.total; }
  return total ? Math.min(1, loaded / total) : 0;
}
