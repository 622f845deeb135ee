// The landing page: boot the runtime from our own origin, show the adapter honestly, run the demo.
import { boot, runScript, describeAdapter } from "../runtime/runtime.mjs";

const $ = (id) => document.getElementById(id);
const out = $("demo-out");
const write = (cls) => (text) => {
  const span = document.createElement("span");
  if (cls) span.className = cls;
  span.textContent = text;
  out.appendChild(span);
};

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

const wheel = (await (await fetch("runtime/site.json")).json()).wheel;
const rt = await boot({
  indexURL: new URL("pyodide/", location.href).href,
  wheelURL: new URL("wheels/" + wheel, location.href).href,
  onStdout: write(""),
  onStderr: write("err"),
});
window.borchLanding = { gpu: rt.gpu, timings: rt.timings };
showAdapter(rt.gpu);
$("boot-time").textContent = `Runtime ready in ${(rt.timings.totalMs / 1000).toFixed(1)} s ` +
  `(Python ${(rt.timings.pyodideMs / 1000).toFixed(1)} s, numpy and borch_webgpu ${(rt.timings.packagesMs / 1000).toFixed(1)} s).`;

const run = async () => {
  $("demo-run").disabled = true;
  out.textContent = "";
  const code = await runScript(rt.pyodide, $("demo-code").value, "/home/pyodide/demo.py", []);
  window.borchLanding.lastExit = code;
  $("demo-run").disabled = false;
};
$("demo-run").addEventListener("click", run);
$("demo-run").disabled = false;
await run();
