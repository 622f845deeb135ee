// Boots Pyodide with numpy and borch_webgpu and starts the WebGPU device. Used by every page
// (landing, runner, playground worker, lessons) and by the Node runner; everything comes from
// URLs on our own origin (or local paths under Node).

const RUN_MAIN = `
import sys, runpy, traceback

def _borch_run_main(path, argv):
    import os
    from borch_webgpu import _torch_alias
    _torch_alias.begin_run()   # the 'import torch' note: once per run, when the script imports torch
    sys.argv = [path] + list(argv)
    sys.path.insert(0, os.path.dirname(path))
    code = 0
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as e:
        if e.code is None:
            code = 0
        elif isinstance(e.code, int):
            code = e.code
        else:
            print(e.code, file=sys.stderr)
            code = 1
    except BaseException as e:
        tb = e.__traceback__
        # drop the frames of this wrapper and runpy: the user sees their own file first
        while tb is not None and tb.tb_frame.f_code.co_filename != path:
            tb = tb.tb_next
        traceback.print_exception(type(e), e, tb if tb is not None else e.__traceback__)
        code = 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
    return code


_borch_namespaces = {}

def _borch_run_cell(source, name, ns_key):
    """Run one code cell in the namespace ns_key (cells of one page share it, like a notebook);
    a traceback shows the cell's own lines. Returns 0, or 1 after printing the traceback."""
    ns = _borch_namespaces.setdefault(ns_key, {"__name__": "__main__"})
    try:
        code_obj = compile(source, name, "exec")
        exec(code_obj, ns)
        return 0
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except BaseException as e:
        tb = e.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != name:
            tb = tb.tb_next
        if isinstance(e, SyntaxError):
            tb = None
        traceback.print_exception(type(e), e, tb)
        return 1
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
`;

function streamWriter(cb) {
  const dec = new TextDecoder();
  return {
    write: (buf) => { cb(dec.decode(buf, { stream: true })); return buf.length; },
  };
}

// Which boot stage a downloaded file belongs to (onProgress reports bytes per stage).
export const STAGES = ["python", "numpy", "borch_webgpu", "device"];
function stageOf(url) {
  const name = String(url).split("?")[0].split("/").pop();
  if (name.startsWith("numpy-")) return "numpy";
  if (name.startsWith("borch_webgpu-")) return "borch_webgpu";
  return "python";   // pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json
}

// While `body` runs, every fetch's bytes are counted as they stream in: onProgress({stage, loaded,
// total, done}) per stage (total from Content-Length; a revalidated, cached file counts as well).
async function countingFetches(onProgress, body) {
  const orig = globalThis.fetch;
  const stages = {};
  const report = (stage) => onProgress({ stage, ...stages[stage] });
  globalThis.fetch = async (input, init) => {
    const resp = await orig(input, init);
    const stage = stageOf(input instanceof Request ? input.url : String(input));   // a string or a URL
    const st = (stages[stage] ||= { loaded: 0, total: 0, done: false });
    if (!resp.ok || !resp.body) return resp;
    st.total += Number(resp.headers.get("Content-Length")) || 0;
    report(stage);
    const counter = new TransformStream({
      transform(chunk, ctl) { st.loaded += chunk.byteLength; report(stage); ctl.enqueue(chunk); },
    });
    const out = new Response(resp.body.pipeThrough(counter),
                             { status: resp.status, statusText: resp.statusText, headers: resp.headers });
    Object.defineProperty(out, "url", { value: resp.url });
    return out;
  };
  try {
    return await body((stage, finished = true) => {   // a stage starts (finished false) or ends
      const st = (stages[stage] ||= { loaded: 0, total: 0, done: false });
      st.done = finished;
      report(stage);
    });
  } finally {
    globalThis.fetch = orig;
  }
}

// opts: { indexURL, wheelURL, onStdout(text), onStderr(text), and optionally loadPyodide,
//         onProgress({stage, loaded, total, done}) (stage: one of STAGES; the browser pages show it),
//         packages (default: numpy and the wheel), beforePackages(pyodide), dataURL (default: the
//         data/ folder next to pyodide/), dataPath (a folder in Pyodide's file system instead),
//         env (variables set in Python's os.environ before the device starts, e.g.
//         { BORCH_WEBGPU_LAUNCH_BLOCKING: "1" }), torchAlias (default "": `import torch` runs
//         borch_webgpu, see borch_webgpu/_torch_alias.py; a string ends its note line, e.g. how to
//         turn it off; false: off, `import torch` raises ModuleNotFoundError) }
export async function boot(opts) {
  if (!opts.onProgress) return bootInner(opts, () => {});
  opts.onProgress({ stage: "python", loaded: 0, total: 0, done: false });
  return countingFetches(opts.onProgress, (done) => bootInner(opts, done));
}

async function bootInner(opts, done) {
  const t0 = performance.now();
  let loadPyodide = opts.loadPyodide;
  if (!loadPyodide) ({ loadPyodide } = await import(opts.indexURL + "pyodide.mjs"));
  const pyodide = await loadPyodide({ indexURL: opts.indexURL, fullStdLib: false });
  // the WebGPU backend as a module (device/_ffi.py calls it): no eval, which the site's CSP refuses
  globalThis.borchCreateBackend = (await import("./gpu.mjs")).createBackend;
  // Python's way to load a JS module from the site (`await js.borchImport("/ort/ort.webgpu.min.mjs")`):
  // pyodide.code.run_js evaluates a string, which the site's CSP refuses
  globalThis.borchImport = (url) => import(url);
  const tPyodide = performance.now();
  done("python");
  if (opts.onStdout) pyodide.setStdout(streamWriter(opts.onStdout));
  if (opts.onStderr) pyodide.setStderr(streamWriter(opts.onStderr));
  if (opts.env && Object.keys(opts.env).length) {
    pyodide.globals.set("_borch_env", pyodide.toPy(opts.env));
    pyodide.runPython("import os; os.environ.update(_borch_env); del _borch_env");
  }
  if (opts.beforePackages) await opts.beforePackages(pyodide);
  await pyodide.loadPackage(opts.packages || ["numpy", opts.wheelURL], { messageCallback: () => {}, errorCallback: (m) => opts.onStderr && opts.onStderr(m + "\n") });
  const tPackages = performance.now();
  done("numpy");
  done("borch_webgpu");
  // data sets come from our own origin (the site's data/ folder), or a folder mounted under Node
  const dataURL = opts.dataPath ? null : (opts.dataURL || new URL("../data/", opts.indexURL).href);
  pyodide.globals.set("_borch_data", pyodide.toPy({ url: dataURL, path: opts.dataPath || null }));
  done("device", false);   // the WebGPU probe starts: "no adapter" can be said only after it ends
  pyodide.runPython("import borch_webgpu._data as _d; _d.configure(**_borch_data); del _borch_data");
  const gpuJSON = await pyodide.runPythonAsync(`
import json, borch_webgpu
from borch_webgpu import webgpu as _w
json.dumps({"available": await _w.init_async(),
            "adapter": _w.adapter_info() if _w.is_available() else None,
            "reason": None if _w.is_available() else __import__("borch_webgpu.device.webgpu", fromlist=["x"]).unavailable_reason(),
            "version": borch_webgpu.__version__})
`);
  pyodide.runPython(RUN_MAIN);
  setTorchAlias(pyodide, opts.torchAlias === undefined ? "" : opts.torchAlias);
  done("device");
  const tDone = performance.now();
  const gpu = JSON.parse(gpuJSON);
  return {
    pyodide, gpu,
    timings: { pyodideMs: tPyodide - t0, packagesMs: tPackages - tPyodide, gpuMs: tDone - tPackages, totalMs: tDone - t0 },
  };
}

// `import torch` on (a string: the end of its note line) or off (false), from now on.
export function setTorchAlias(pyodide, alias) {
  pyodide.globals.set("_borch_alias", pyodide.toPy([alias !== false, alias === false ? "" : String(alias)]));
  pyodide.runPython("import borch_webgpu._torch_alias as _a; _a.configure(*_borch_alias); del _a, _borch_alias");
}

// Runs a script file's text as __main__; returns its exit code (tracebacks go to stderr).
// opts.torchAlias, when given, switches `import torch` first (see setTorchAlias).
export async function runScript(pyodide, source, path, argv, opts = {}) {
  if (opts.torchAlias !== undefined) setTorchAlias(pyodide, opts.torchAlias);
  const dir = path.substring(0, path.lastIndexOf("/")) || "/";
  pyodide.FS.mkdirTree(dir);
  pyodide.FS.writeFile(path, source);
  pyodide.globals.set("_borch_path", path);
  pyodide.globals.set("_borch_argv", pyodide.toPy(argv || []));
  // runPythonAsync runs on a stack that can block (run_sync), so .item() and print(t) work
  return await pyodide.runPythonAsync("_borch_run_main(_borch_path, _borch_argv)");
}

// Runs a code cell in a namespace shared by the cells of one page (lessons); returns the exit code.
export async function runCell(pyodide, source, name, nsKey) {
  pyodide.globals.set("_borch_cell", pyodide.toPy([source, name, nsKey]));
  return await pyodide.runPythonAsync("_borch_run_cell(*_borch_cell)");
}

export function describeAdapter(gpu) {
  if (!gpu.available) return `no WebGPU (${gpu.reason}); tensors run on the cpu device (numpy)`;
  const a = gpu.adapter;
  const name = [a.vendor, a.architecture, a.device, a.description].filter(Boolean).join(" / ");
  return a.is_software ? `${name} - software renderer (SwiftShader, runs on the CPU)` : name;
}
