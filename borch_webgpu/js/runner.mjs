// Driven by `python -m borch_webgpu.run`: boots, then waits for window.borchRun(...).
import { boot, runScript, describeAdapter } from "./runtime.mjs";
const RUNNER_HINT = "; --no-torch-alias turns it off";   // ends the 'import torch' note line
const relay = (name) => (text) => {
  if (window[name]) window[name](text); else console.log(text);
};
window.borchBoot = (async () => {
  const params = new URLSearchParams(location.search);
  const rt = await boot({
    indexURL: new URL("../pyodide/", location.href).href,
    wheelURL: new URL("../wheels/" + params.get("wheel"), location.href).href,
    onStdout: relay("borchStdout"),
    onStderr: relay("borchStderr"),
    env: JSON.parse(params.get("env") || "{}"),  // the variables run.py passes in (GUEST_ENV)
    torchAlias: params.get("torch_alias") === "0" ? false : RUNNER_HINT,  // run.py --no-torch-alias
  });
  window.borchPyodide = rt.pyodide;  // for tests that need the synchronous API
  window.borchRun = (source, path, argv) => runScript(rt.pyodide, source, path, argv);
  // copies host files the runner serves (--mount) into Pyodide's file system
  window.borchMount = async (manifestURL) => {
    const list = await (await fetch(manifestURL)).json();
    await Promise.all(list.map(async ([guest, url]) => {
      const bytes = new Uint8Array(await (await fetch(url)).arrayBuffer());
      rt.pyodide.FS.mkdirTree(guest.substring(0, guest.lastIndexOf("/")) || "/");
      rt.pyodide.FS.writeFile(guest, bytes);
    }));
    return list.length;
  };
  return { gpu: rt.gpu, timings: rt.timings, adapter: describeAdapter(rt.gpu) };
})();
