// The landing page: start Python in a worker (web/js/worker.mjs), show the adapter honestly, run the
// demo, and "Check my GPU": a short benchmark in the worker (elementwise add, matmul).
import { PyWorker, bootText, bootFraction } from "./client.mjs";
import { describeAdapter } from "../runtime/runtime.mjs";

const $ = (id) => document.getElementById(id);
const out = $("demo-out");
let sink = null;   // where stdout goes while the benchmark runs
const write = (cls) => (text) => {
  if (sink && !cls) { sink.push(text); return; }
  const span = document.createElement("span");
  if (cls) span.className = cls;
  span.textContent = text;
  out.appendChild(span);
};

// Python's numbers: sizes chosen so that SwiftShader (WebGPU on the CPU) finishes in a few seconds
const BENCH = `
import json, time
import numpy as np
import borch_webgpu as torch

gpu = torch.webgpu.is_available()
dev = "webgpu" if gpu else "cpu"
soft = gpu and torch.webgpu.adapter_info()["is_software"]
sync = torch.webgpu.synchronize if gpu else (lambda: None)
n, m, budget = ((1 << 20, 256, 0.8) if soft or not gpu else (1 << 24, 2048, 1.0))

def measure(fn):
    fn(); sync()                          # first call compiles the pipelines
    t = time.perf_counter(); fn(); sync(); once = max(time.perf_counter() - t, 1e-6)
    reps = max(1, min(200, int(budget / once)))
    t = time.perf_counter()
    for _ in range(reps):
        fn()
    sync()
    return (time.perf_counter() - t) / reps, reps

a, b = torch.rand(n, device=dev), torch.rand(n, device=dev)
t_add, r_add = measure(lambda: a + b)
x, y = torch.rand(m, m, device=dev), torch.rand(m, m, device=dev)
t_mm, r_mm = measure(lambda: x @ y)
want = float(np.dot(x[0].numpy().astype(np.float64), y[:, 0].numpy().astype(np.float64)))
got = (x @ y)[0, 0].item()
print("BORCH_BENCH " + json.dumps({
    "device": dev, "software": bool(soft),
    "add": {"n": n, "ms": t_add * 1e3, "reps": r_add, "gbps": 3 * 4 * n / t_add / 1e9},
    "matmul": {"m": m, "ms": t_mm * 1e3, "reps": r_mm, "gflops": 2 * m ** 3 / t_mm / 1e9},
    "checked": abs(got - want) <= 1e-4 * max(1.0, abs(want))}))
`;

function showAdapter(gpu) {
  const badge = $("adapter-badge");
  const help = $("adapter-help");
  $("adapter-name").textContent = describeAdapter(gpu);
  if (!gpu.available) {
    badge.className = "badge none";
    badge.textContent = "no WebGPU";
    help.hidden = false;
    help.innerHTML = "This browser gave no WebGPU adapter, so tensors run on the <code>cpu</code> device (numpy). " +
      "To use your GPU: Chrome or Edge 113+ on Windows, macOS and ChromeOS have WebGPU on; on Linux start Chrome " +
      "with <code>--enable-unsafe-webgpu --enable-features=Vulkan</code>; Firefox 141+ on Windows and Safari 26+ " +
      "have it too. Check <code>chrome://gpu</code> for \"WebGPU: Hardware accelerated\".";
  } else if (gpu.adapter.is_software) {
    badge.className = "badge soft";
    badge.textContent = "software renderer";
    help.hidden = false;
    help.textContent = "This adapter is SwiftShader, a WebGPU implementation that runs on the CPU: results are " +
      "correct, but it is not a GPU and it is slow. A browser with hardware WebGPU will use your real GPU.";
  } else {
    badge.className = "badge gpu";
    badge.textContent = "GPU";
  }
}

const py = new PyWorker({
  onStdout: write(""), onStderr: write("err"),
  onProgress: (p) => { $("boot-text").textContent = bootText(p); $("boot-bar").value = bootFraction(p); },
});
window.borchLanding = { progressLog: py.progressLog };
let busy = Promise.resolve();   // one program at a time in the worker
const exclusive = (fn) => (busy = busy.then(fn, fn));

const { gpu, timings } = await py.ready.catch((e) => {
  $("adapter-badge").className = "badge none";
  $("adapter-badge").textContent = "failed to start";
  $("adapter-name").textContent = String(e.message || e);
  throw e;
});
Object.assign(window.borchLanding, { gpu, timings });
$("boot-progress").hidden = true;
showAdapter(gpu);
const secs = (ms) => (ms / 1000).toFixed(1);
$("boot-time").textContent = `Runtime ready in ${secs(timings.totalMs)} s (Python ${secs(timings.pyodideMs)} s, ` +
  `numpy and borch_webgpu ${secs(timings.packagesMs)} s).`;

const run = () => exclusive(async () => {
  $("demo-run").disabled = true;
  out.textContent = "";
  const { exitCode } = await py.run($("demo-code").value, "/home/pyodide/demo.py");
  window.borchLanding.lastExit = exitCode;
  $("demo-run").disabled = false;
});

const bench = () => exclusive(async () => {
  const button = $("bench-run");
  button.disabled = true;
  button.textContent = "Measuring…";
  $("bench-out").hidden = false;
  $("bench-note").textContent = "";
  sink = [];
  let exitCode;
  try {
    ({ exitCode } = await py.run(BENCH, "/home/pyodide/check_my_gpu.py"));
  } finally {
    const lines = sink.join("").split("\n");
    sink = null;
    button.disabled = false;
    button.textContent = "Check my GPU";
    const line = lines.find((l) => l.startsWith("BORCH_BENCH "));
    if (exitCode !== 0 || !line) {
      $("bench-note").textContent = "The benchmark failed: see the output below.";
      window.borchLanding.bench = { error: true };
    } else {
      const r = JSON.parse(line.slice("BORCH_BENCH ".length));
      r.adapter = describeAdapter(gpu);
      window.borchLanding.bench = r;
      $("bench-gbps").textContent = `${r.add.gbps.toFixed(r.add.gbps < 10 ? 2 : 1)} GB/s`;
      $("bench-add-note").textContent = `${r.add.n.toLocaleString("en")} floats, ${r.add.ms.toFixed(2)} ms each`;
      $("bench-gflops").textContent = `${r.matmul.gflops.toFixed(r.matmul.gflops < 10 ? 2 : 1)} GFLOP/s`;
      $("bench-mm-note").textContent = `${r.matmul.m}×${r.matmul.m} float32, ${r.matmul.ms.toFixed(2)} ms each`;
      const what = r.device === "cpu" ? "the cpu device (numpy): this browser gave no WebGPU adapter"
        : r.software ? `${r.adapter}: WebGPU on the CPU, so these are CPU figures, not a GPU's`
        : r.adapter;
      $("bench-note").textContent = `On ${what}. Timed from Python in this tab (a Web Worker), dispatch ` +
        `overhead included; the matmul result was ${r.checked ? "checked against numpy" : "WRONG against numpy"}.`;
    }
  }
});

$("demo-run").addEventListener("click", run);
$("bench-run").addEventListener("click", bench);
$("demo-run").disabled = false;
$("bench-run").disabled = false;
await run();
