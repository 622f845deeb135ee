// The GPU instruments panel: the adapter (honest about software renderers), and per step the
// dispatches, GPU time (timestamp-query) and wall time, pipelines compiled, memory in use and peak.
// A step is the interval between two consecutive borch_webgpu.log() calls of the first series a
// run logs; web/playground/session.py sends a snapshot of the counters at each of those calls.
import { describeAdapter } from "../runtime/runtime.mjs";

const WINDOW = 20;    // per-step figures are means over the last WINDOW steps

function bytes(n) {
  if (n == null) return "–";
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  return `${(n / 1024 ** 3).toFixed(2)} GiB`;
}

function ms(v) {
  return v >= 100 ? `${v.toFixed(0)} ms` : v >= 10 ? `${v.toFixed(1)} ms` : `${v.toFixed(2)} ms`;
}

export class Instruments {
  constructor(root) {
    this.root = root;
    this.$ = (k) => root.querySelector(`[data-k="${k}"]`);
    this.gpu = null;
    this.beginRun();
  }

  // cpuChosen: the page hid the GPU (?device=cpu); onSwitch(device) reloads on "cpu" or "webgpu".
  setAdapter(gpu, { cpuChosen = false, onSwitch = null } = {}) {
    this.gpu = gpu;
    const badge = this.$("badge"), warn = this.$("warning"), sw = this.$("switch");
    this.$("adapter").textContent = describeAdapter(gpu);
    const offer = (label, device) => {
      if (!sw || !onSwitch) return;
      sw.hidden = false; sw.textContent = label; sw.dataset.device = device;
      sw.onclick = () => onSwitch(device);
    };
    if (sw) sw.hidden = true;
    if (cpuChosen) {
      badge.className = "badge none"; badge.textContent = "cpu device";
      warn.hidden = false;
      warn.textContent = "You chose the cpu device: WebGPU is hidden (CUDA_VISIBLE_DEVICES=\"\"), so " +
        "torch.cuda.is_available() is False and tensors run on numpy.";
      offer("Use WebGPU again", "webgpu");
    } else if (!gpu.available) {
      badge.className = "badge none"; badge.textContent = "no WebGPU";
      warn.hidden = false;
      warn.textContent = "This browser gave no WebGPU adapter: tensors run on the cpu device (numpy). " +
        "Chrome or Edge 113+ on Windows, macOS and ChromeOS have WebGPU; on Linux start Chrome with " +
        "--enable-unsafe-webgpu --enable-features=Vulkan.";
    } else if (gpu.adapter.is_software) {
      badge.className = "badge soft"; badge.textContent = "software renderer";
      warn.hidden = false;
      warn.textContent = "This adapter is SwiftShader, a WebGPU implementation that runs on the CPU: results are " +
        "correct, but it is not a GPU and it is slow. Here the cpu device (numpy) is faster: several times " +
        "on a training step. A browser with hardware WebGPU would use your real GPU.";
      offer("Switch to the cpu device (faster here)", "cpu");
    } else {
      badge.className = "badge gpu"; badge.textContent = "GPU";
      warn.hidden = true;
    }
    const ts = gpu.available && (gpu.adapter.features || []).includes("timestamp-query");
    this.timestamps = ts;
    this.render();
  }

  beginRun() {
    this.base = null;         // the snapshot taken when the run started
    this.snaps = [];          // [{step, t, snap}] at each log() of the first series
    this.last = null;
    this.render();
  }

  // A snapshot from session.py: step -1 is the start of a run.
  snapshot(step, snap) {
    if (step < 0) { this.base = snap; this.last = snap; this.render(); return; }
    this.snaps.push({ step, t: performance.now(), snap });
    if (this.snaps.length > WINDOW + 1) this.snaps.shift();
    this.last = snap;
    this.render();
  }

  // The run's final counters (the worker sends webgpu.stats() with its "done").
  endRun(stats) {
    if (stats && stats.pipelines !== undefined) {
      this.last = { ...(this.last || {}), gpu: true, pipelines: stats.pipelines, memory: stats.live_bytes,
                    peak: stats.peak_bytes };
    }
    this.render();
  }

  perStep() {
    const s = this.snaps;
    if (s.length < 2) return null;
    const a = s[0], b = s[s.length - 1], n = s.length - 1;
    const out = { steps: n, dispatches: null, wallMs: (b.t - a.t) / n };
    if (!a.snap.gpu || !b.snap.gpu) return out;     // the cpu device: no GPU counters
    out.dispatches = (b.snap.dispatches - a.snap.dispatches) / n;
    // GPU times are read back asynchronously, so the latest ones may still be missing: a mean over
    // the window, not the last step alone
    if (a.snap.gpu_ms != null && b.snap.gpu_ms != null) out.gpuMs = (b.snap.gpu_ms - a.snap.gpu_ms) / n;
    return out;
  }

  render() {
    if (!this.root) return;
    const p = this.perStep(), last = this.last, base = this.base;
    const gpuOk = this.gpu && this.gpu.available;
    const set = (k, v) => { const el = this.$(k); if (el) el.textContent = v; };
    set("steps", this.snaps.length ? String(this.snaps[this.snaps.length - 1].step + 1) : "–");
    set("dispatches", p && p.dispatches != null ? p.dispatches.toFixed(p.dispatches % 1 ? 1 : 0) : "–");
    set("wall", p ? ms(p.wallMs) : "–");
    if (!this.gpu) set("gputime", "–");   // the WebGPU probe has not finished: nothing to say yet
    else if (!gpuOk) set("gputime", "no WebGPU adapter");
    else if (!this.timestamps) set("gputime", "not available on this adapter (no timestamp-query)");
    else set("gputime", p && p.gpuMs != null ? ms(p.gpuMs) : "–");
    if (last && last.gpu) {
      const fresh = base && base.gpu ? last.pipelines - base.pipelines : null;
      set("pipelines", `${last.pipelines}${fresh != null ? ` (${fresh} new in this run)` : ""}`);
      set("memory", bytes(last.memory));
      set("peak", bytes(last.peak));
    } else if (!gpuOk && this.gpu) {
      for (const k of ["pipelines", "memory", "peak"]) set(k, "–");
    }
    this.root.dataset.steps = String(this.snaps.length ? this.snaps[this.snaps.length - 1].step + 1 : 0);
  }
}
