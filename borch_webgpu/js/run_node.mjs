// `python -m borch_webgpu.run --node script.py`: the same wheel and kernels in Pyodide under
// Node 20, with navigator.gpu provided by Dawn (dawn.node from the npm package webgpu@0.6.2).
// Run with `node --experimental-wasm-stack-switching` so that run_sync (blocking .item()) works.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { boot, runScript, describeAdapter } from "./runtime.mjs";

const cfg = JSON.parse(process.env.BORCH_NODE_RUN);
const require = createRequire(import.meta.url);
const { loadPyodide } = await import(pathToFileURL(cfg.pyodide + "/pyodide.mjs").href);

let rt;
try {
  rt = await boot({
    indexURL: cfg.pyodide + "/",
    packages: [cfg.numpy, cfg.wheel],
    loadPyodide,
    onStdout: (t) => process.stdout.write(t),
    onStderr: (t) => process.stderr.write(t),
    dataPath: "/borch_webgpu_data",
    env: cfg.env || {},
    torchAlias: cfg.torchAlias === false ? false : "; --no-torch-alias turns it off",
    beforePackages: async (pyodide) => {
      // the data sets: the host's cache folder, mounted read-only-in-practice through NODEFS
      pyodide.FS.mkdirTree("/borch_webgpu_data");
      pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: cfg.data }, "/borch_webgpu_data");
      // Pyodide inspects navigator while it boots: provide WebGPU only afterwards
      const { create, globals } = require(cfg.dawn);
      Object.assign(globalThis, globals);
      Object.defineProperty(globalThis, "navigator", { value: { gpu: create(cfg.dawnOptions || []), userAgent: "node" }, configurable: true });
    },
  });
} catch (e) {
  process.stderr.write(`borch_webgpu: boot failed: ${e && e.stack || e}\n`);
  process.exit(2);
}
process.stderr.write(`borch_webgpu: adapter: ${describeAdapter(rt.gpu)} [Node ${process.version} + Dawn]\n`);
process.stderr.write(`borch_webgpu: boot ${(rt.timings.totalMs / 1000).toFixed(2)} s\n`);
for (const [host, guest] of cfg.mounts) {
  const data = readFileSync(host);
  rt.pyodide.FS.mkdirTree(guest.substring(0, guest.lastIndexOf("/")) || "/");
  rt.pyodide.FS.writeFile(guest, data);
}
let code = 1;
try {
  code = await runScript(rt.pyodide, readFileSync(cfg.script, "utf8"), cfg.guest, cfg.argv);
} catch (e) {
  process.stderr.write(`borch_webgpu: ${e && e.stack || e}\n`);
}
process.exit(code);
