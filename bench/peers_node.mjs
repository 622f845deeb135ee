// The benchmark page's peers (web/bench/peers.mjs, the same code) under Node 20 with Dawn standing in
// for navigator.gpu, on the inputs bench/peer_inputs.py wrote: TF.js 4.22 and ORT Web 1.30, each
// through the parity gate on our weights, then timed. Prints one line: JSON {tfjs, ort}.
//
//   DAWN_NODE=.../dawn.node TFJS_MODULES=<node_modules with @tensorflow/*> \
//   ORT_DIST=<onnxruntime-web>/dist node bench/peers_node.mjs INPUT_DIR
import { readFileSync } from "fs";
import { createRequire } from "module";
import { runOrt, runTfjs } from "../web/bench/peers.mjs";

const dir = process.argv[2];
const require = createRequire(import.meta.url);
const { create, globals } = require(process.env.DAWN_NODE);
Object.assign(globalThis, globals);
globalThis.navigator = { gpu: create([]), userAgent: `node ${process.version} + dawn.node`, hardwareConcurrency: 1 };
// dawn.node refuses views of shared memory in writeBuffer (ORT's wasm heap); copy them, as a browser would accept them
const wb = GPUQueue.prototype.writeBuffer;
GPUQueue.prototype.writeBuffer = function (buf, off, data, dOff, size) {
  if (data && typeof SharedArrayBuffer !== "undefined" && data.buffer instanceof SharedArrayBuffer) {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    const el = data.BYTES_PER_ELEMENT || 1;
    const start = (dOff || 0) * el, len = size === undefined ? bytes.length - start : size * el;
    return wb.call(this, buf, off, bytes.slice(start, start + len));
  }
  return wb.call(this, buf, off, data, dOff, size);
};

const meta = JSON.parse(readFileSync(`${dir}/inputs.json`, "utf8"));
const wbytes = readFileSync(`${dir}/weights.bin`);
const weights = new Map();
for (const e of meta.weights) {
  const n = e.shape.reduce((a, b) => a * b, 1);
  weights.set(e.name, { shape: e.shape, data: new Float32Array(wbytes.buffer.slice(wbytes.byteOffset + e.offset,
                                                                                   wbytes.byteOffset + e.offset + 4 * n)) });
}
const s = readFileSync(`${dir}/sample.bin`);
const all = new Float32Array(s.buffer.slice(s.byteOffset, s.byteOffset + s.byteLength));
const nx = meta.x_shape.reduce((a, b) => a * b, 1);
const sample = { x: { shape: meta.x_shape, data: all.subarray(0, nx) }, logits: { shape: meta.logits_shape, data: all.subarray(nx) } };
const log = (t) => process.stderr.write(t + "\n");
const cfg = meta.config;
const out = { config: cfg, runtime: navigator.userAgent };

const treq = createRequire(`${process.env.TFJS_MODULES}/`);
const tf = { ...treq("@tensorflow/tfjs-core"), ...treq("@tensorflow/tfjs-layers") };
treq("@tensorflow/tfjs-backend-webgpu");
try { out.tfjs = await runTfjs(tf, weights, sample, cfg, log); } catch (e) { out.tfjs = { error: String(e && e.stack || e) }; }

const dist = process.env.ORT_DIST;
const ort = await import(`${dist}/ort.webgpu.min.mjs`);
ort.env.wasm.wasmPaths = `${dist}/`;
ort.env.wasm.numThreads = 1;
ort.env.wasm.proxy = false;
try { out.ort = await runOrt(ort, readFileSync(`${dir}/model.onnx`), sample, cfg, log); } catch (e) { out.ort = { error: String(e && e.stack || e) }; }
console.log("JSON " + JSON.stringify(out));
process.exit(0);
