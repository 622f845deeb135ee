// The benchmark page's peers: TensorFlow.js 4.22 (layers API, WebGPU backend) and ONNX Runtime Web
// 1.30 (WebGPU execution provider), each running shared/bench's workload (CIFAR ResNet-18: training
// step with SGD lr 0.05 momentum 0.9 and cross-entropy, loss read back every step; inference in eval
// mode, output read back every run) on the weights our side sent, after a parity gate: a runtime is
// timed only if it reproduces our logits on the shared sample within PARITY_TOL.
//
// Nothing here touches the page: each function takes the library (`tf` with its layers API, `ort`)
// and plain data, so the same code runs under Node with Dawn standing in for navigator.gpu.
//
//   weights: Map(name -> {shape, data: Float32Array})   a state dict of vision.models.resnet18_cifar
//   sample:  {x: {shape, data}, logits: {shape, data}}  NCHW input and our eval-mode logits
//   cfg:     {width, hw, train_batch, infer_batches, steps, runs}
export const PARITY_TOL = 1e-3;
const TRAIN_WARMUP = 2, INFER_WARMUP = 3;   // as shared/bench/README.md
const now = () => performance.now();

export function timeStats(ms) {
  const s = [...ms].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  const r = (v) => Math.round(v * 1000) / 1000;
  return { min: r(s[0]), median: r(median), mean: r(s.reduce((a, b) => a + b, 0) / s.length), max: r(s.at(-1)),
           n: s.length };
}

function maxAbsDiff(a, b) {
  if (a.length !== b.length) return Infinity;
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));   // NaN fails the gate below
  return Number.isNaN(m) ? Infinity : m;
}

function gate(got, want) {
  const diff = maxAbsDiff(got, want);
  return { max_abs_diff: diff, tolerance: PARITY_TOL, passed: diff <= PARITY_TOL };
}

async function timeRuns(n, warm, fn) {
  for (let i = 0; i < warm; i++) await fn();
  const ms = [];
  for (let i = 0; i < n; i++) {
    const t = now();
    await fn();
    ms.push(now() - t);
  }
  return timeStats(ms);
}

// ---- TensorFlow.js ------------------------------------------------------------------------------
const tfName = (torchName) => torchName.replaceAll(".", "_");   // torch's module paths have no "_"
const torchName = (tfLayerName) => tfLayerName.replaceAll("_", ".");

/** resnet18_cifar in TF.js layers (NHWC), layer names = our module paths with "_" for ".". */
export function tfjsResnet18(tf, width, hw) {
  const L = tf.layers;
  const convBn = (x, f, k, s, conv, bn) => {
    // torch's padding=1: TF's "same" pads a stride-2 3x3 conv on one side only, so pad explicitly there
    if (k === 3 && s !== 1) x = L.zeroPadding2d({ padding: 1 }).apply(x);
    x = L.conv2d({ filters: f, kernelSize: k, strides: s, padding: k === 3 && s === 1 ? "same" : "valid",
                   useBias: false, name: tfName(conv) }).apply(x);
    return L.batchNormalization({ momentum: 0.9, epsilon: 1e-5, name: tfName(bn) }).apply(x);
  };
  const relu = (x) => L.activation({ activation: "relu" }).apply(x);
  const inp = tf.input({ shape: [hw, hw, 3] });
  let x = relu(convBn(inp, width, 3, 1, "conv1", "bn1"));
  let cin = width;
  for (let li = 1; li <= 4; li++) {
    const f = width << (li - 1);
    for (let j = 0; j < 2; j++) {
      const p = `layer${li}.${j}`, s = j === 0 && li > 1 ? 2 : 1;
      let y = relu(convBn(x, f, 3, s, `${p}.conv1`, `${p}.bn1`));
      y = convBn(y, f, 3, 1, `${p}.conv2`, `${p}.bn2`);
      const sc = s !== 1 || cin !== f ? convBn(x, f, 1, s, `${p}.downsample.0`, `${p}.downsample.1`) : x;
      x = relu(L.add().apply([y, sc]));
      cin = f;
    }
  }
  x = L.globalAveragePooling2d({}).apply(x);
  x = L.dense({ units: 10, name: "fc" }).apply(x);
  return tf.model({ inputs: inp, outputs: x });
}

/** Our state dict into the TF.js model: conv OIHW -> HWIO, linear (out, in) -> (in, out). */
export function tfjsLoad(tf, model, weights) {
  const used = new Set();
  const T = (n) => {
    const w = weights.get(n);
    if (!w) throw new Error(`TF.js: our state dict has no ${n}`);
    used.add(n);
    return tf.tensor(w.data, w.shape);
  };
  tf.tidy(() => {
    for (const layer of model.layers) {
      const n = torchName(layer.name), cls = layer.getClassName();
      if (cls === "Conv2D") layer.setWeights([tf.transpose(T(`${n}.weight`), [2, 3, 1, 0])]);
      else if (cls === "BatchNormalization") {
        layer.setWeights([T(`${n}.weight`), T(`${n}.bias`), T(`${n}.running_mean`), T(`${n}.running_var`)]);
      } else if (cls === "Dense") layer.setWeights([tf.transpose(T(`${n}.weight`)), T(`${n}.bias`)]);
    }
  });
  const unused = [...weights.keys()].filter((n) => !used.has(n));
  if (unused.length) throw new Error(`TF.js: no layer took ${unused.join(", ")}`);
}

export async function runTfjs(tf, weights, sample, cfg, log = () => {}) {
  if (!(await tf.setBackend("webgpu"))) throw new Error("TF.js: the WebGPU backend did not start");
  await tf.ready();
  const out = { lib: `tfjs-${tf.version_core || tf.version?.["tfjs-core"] || "?"}`, backend: tf.getBackend() };
  const model = tfjsResnet18(tf, cfg.width, cfg.hw);
  tfjsLoad(tf, model, weights);
  const xs = tf.tidy(() => tf.transpose(tf.tensor(sample.x.data, sample.x.shape), [0, 2, 3, 1]));
  const y0 = model.predict(xs);
  out.parity = gate(await y0.data(), sample.logits.data);
  tf.dispose([xs, y0]);
  log(`TF.js parity: max |diff| ${out.parity.max_abs_diff.toExponential(2)}`);
  if (!out.parity.passed) return out;

  const B = cfg.train_batch;
  const x = tf.randomNormal([B, cfg.hw, cfg.hw, 3]);
  const y = tf.oneHot(tf.randomUniform([B], 0, 10, "int32"), 10);
  const opt = tf.train.momentum(0.05, 0.9);
  let loss = NaN;
  const step = async () => {
    const l = opt.minimize(() => tf.losses.softmaxCrossEntropy(y, model.apply(x, { training: true })), true);
    loss = (await l.data())[0];
    l.dispose();
  };
  log(`TF.js: training step B${B}`);
  out.train = { [`b${B}`]: { ms: await timeRuns(cfg.steps, TRAIN_WARMUP, step), loss } };
  tf.dispose([x, y]);
  out.infer = {};
  for (const b of cfg.infer_batches) {
    log(`TF.js: inference B${b}`);
    const xi = tf.randomNormal([b, cfg.hw, cfg.hw, 3]);
    out.infer[`b${b}`] = { ms: await timeRuns(cfg.runs, INFER_WARMUP, async () => {
      const o = model.predict(xi);
      await o.data();
      o.dispose();
    }) };
    xi.dispose();
  }
  model.dispose();
  return out;
}

// ---- ONNX Runtime Web ---------------------------------------------------------------------------
export async function runOrt(ort, onnxBytes, sample, cfg, log = () => {}) {
  const out = { lib: `onnxruntime-web-${ort.env.versions?.web || "?"}`, ep_errors: [] };
  let session = null;
  for (const ep of ["webgpu", "wasm"]) {   // the wasm EP only if the WebGPU one cannot start
    try {
      session = await ort.InferenceSession.create(onnxBytes, { executionProviders: [ep] });
      out.ep = ep;
      break;
    } catch (e) {
      out.ep_errors.push(`${ep}: ${e && e.message || e}`);
    }
  }
  if (!session) return out;
  const [inName] = session.inputNames, [outName] = session.outputNames;
  const run = async (data, shape) => (await session.run({ [inName]: new ort.Tensor("float32", data, shape) }))[outName];
  const y0 = await run(sample.x.data, sample.x.shape);
  out.parity = gate(y0.data, sample.logits.data);
  log(`ORT Web (${out.ep} EP) parity: max |diff| ${out.parity.max_abs_diff.toExponential(2)}`);
  if (!out.parity.passed) return out;
  out.infer = {};
  for (const b of cfg.infer_batches) {
    log(`ORT Web: inference B${b}`);
    const data = Float32Array.from({ length: b * 3 * cfg.hw * cfg.hw }, (_, i) => Math.sin(i * 0.37));
    out.infer[`b${b}`] = { ms: await timeRuns(cfg.runs, INFER_WARMUP, async () => {
      const o = await run(data, [b, 3, cfg.hw, cfg.hw]);
      if (!(o.data.length > 0)) throw new Error("ORT returned no data");
    }) };
  }
  await session.release();
  return out;
}
