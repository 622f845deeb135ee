// A dedicated Web Worker that owns Pyodide and the GPU device, so that a page never freezes while
// Python runs. Talks to web/js/client.mjs with messages:
//   in:  {type:"boot", indexURL, wheelURL, interrupt: SharedArrayBuffer|null, env: {NAME: value}}
//        {type:"run", id, code, filename, torchAlias}  run a file as __main__ (the playground); torchAlias:
//                                                   `import torch` on (the note's ending) or off (false)
//        {type:"cell", id, code, name, ns}          run a cell in a shared namespace (lessons)
//        {type:"stats", id}                         the device's counters
//   out: {type:"progress", stage, loaded, total, done} (while booting) | {type:"ready", gpu, timings}
//        | {type:"boot-error", message}
//        {type:"stdout"|"stderr", text} | {type:"log", name, step, value}
//        {type:"done", id, exitCode, stats} | {type:"stats", id, stats}
//        {type:"data", kind, meta, bytes}     what Python hands the page: js.borchSend(kind, meta_json, bytes)
import { boot, runScript, runCell } from "../runtime/runtime.mjs";

let rt = null;
const post = (m) => self.postMessage(m);

async function stats() {
  try {
    return JSON.parse(await rt.pyodide.runPythonAsync(`
import json, borch_webgpu as _b
json.dumps(_b.webgpu.stats() if _b.webgpu.is_available() else {})`));
  } catch (e) {
    return { error: String(e) };
  }
}

self.onmessage = async (ev) => {
  const m = ev.data;
  if (m.type === "boot") {
    try {
      rt = await boot({
        indexURL: m.indexURL, wheelURL: m.wheelURL, env: m.env || {},
        onStdout: (text) => post({ type: "stdout", text }),
        onStderr: (text) => post({ type: "stderr", text }),
        onProgress: (p) => post({ type: "progress", ...p }),
      });
      if (m.interrupt) {
        self.borchInterrupt = new Int32Array(m.interrupt);   // also read after each blocking GPU wait (_ffi.wait)
        rt.pyodide.setInterruptBuffer(self.borchInterrupt);
      }
      self.borchLogSink = (name, step, value) => post({ type: "log", name, step, value });
      self.borchSend = (kind, meta, bytes) => {   // bytes: a Uint8Array copy (to_js of Python bytes) or null
        const buf = bytes ? bytes.slice().buffer : null;
        self.postMessage({ type: "data", kind, meta, bytes: buf }, buf ? [buf] : []);
      };
      rt.pyodide.runPython("import borch_webgpu, js\nborch_webgpu.set_log_sink(lambda n, s, v: js.borchLogSink(n, s, v))");
      post({ type: "ready", gpu: rt.gpu, timings: rt.timings });
    } catch (e) {
      post({ type: "boot-error", message: String(e && e.stack || e) });
    }
    return;
  }
  if (!rt) { post({ type: "done", id: m.id, exitCode: 1, error: "not booted" }); return; }
  if (m.type === "stats") { post({ type: "stats", id: m.id, stats: await stats() }); return; }
  let exitCode = 1;
  try {
    if (m.type === "run") exitCode = await runScript(rt.pyodide, m.code, m.filename || "/home/pyodide/main.py", [],
                                                   { torchAlias: m.torchAlias });
    else if (m.type === "cell") exitCode = await runCell(rt.pyodide, m.code, m.name, m.ns || "page");
  } catch (e) {
    post({ type: "stderr", text: `borch_webgpu: the runtime failed: ${e && e.stack || e}\n` });
  }
  post({ type: "done", id: m.id, exitCode, stats: await stats() });
};
