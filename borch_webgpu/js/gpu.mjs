// The JavaScript half of borch_webgpu's WebGPU device: createBackend() returns the backend object
// below. runtime.mjs imports this module and hands createBackend to Python (borch_webgpu/device/_ffi.py),
// so nothing is evaluated from a string (the site's Content-Security-Policy forbids eval). Python owns every
// decision (which buffer, which pipeline, which bind group); this side only turns integer
// command streams into WebGPU calls, so that one Python->JS crossing carries many dispatches.
export function createBackend() {
  const CMD_BINDGROUP = 1;      // id, layoutId, nBuffers, bufferIds...
  const CMD_DISPATCH = 2;       // pipelineId, bindGroupId, uniformSlot, x, y, z
  const CMD_FREE_BINDGROUP = 3; // id
  const SLOT_BYTES = 256;       // one dispatch's uniform block (= minUniformBufferOffsetAlignment)

  const S = {
    adapter: null, device: null, info: null, features: [], limits: {},
    buffers: [], bindGroups: [], pipelines: [], layouts: [],
    uniform: null, uniformSlots: 0,
    errors: [], lost: null,
    staging: [],
    graphs: [], pendingTimed: [], replayChunk: 128, offsetsData: true,
    toDestroy: [],
    stats: { flushes: 0, dispatches: 0, bindGroupsCreated: 0, submits: 0, buffersCreated: 0, pipelinesCreated: 0,
             replays: 0, graphsRegistered: 0 },
    // opt-in GPU timing (enableTiming): a pair of timestamps per flushed compute pass
    timing: { enabled: false, querySet: null, resolve: null, free: [], readbacks: [], totalNs: 0, passes: 0, skipped: 0 },
  };
  const TIMING_PAIRS = 512;     // passes whose timestamps may be in flight at once; more are not timed

  const usageStorage = () => GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;

  async function init(uniformSlots) {
    const gpu = globalThis.navigator && globalThis.navigator.gpu;
    if (!gpu) {
      return JSON.stringify({ ok: false, reason: "navigator.gpu is missing: this browser has no WebGPU, or it is switched off" });
    }
    let adapter = null;
    try {
      adapter = await gpu.requestAdapter({ powerPreference: "high-performance" });
    } catch (e) {
      return JSON.stringify({ ok: false, reason: "requestAdapter failed: " + e });
    }
    if (!adapter) {
      return JSON.stringify({ ok: false, reason: "navigator.gpu.requestAdapter() returned null: no usable GPU adapter" });
    }
    let info = adapter.info;
    if (!info && adapter.requestAdapterInfo) info = await adapter.requestAdapterInfo();
    info = info || {};
    const features = [];
    for (const f of ["shader-f16", "timestamp-query", "subgroups"]) if (adapter.features.has(f)) features.push(f);
    const L = adapter.limits;
    const requiredLimits = {
      maxStorageBufferBindingSize: L.maxStorageBufferBindingSize,
      maxBufferSize: L.maxBufferSize,
      maxStorageBuffersPerShaderStage: L.maxStorageBuffersPerShaderStage,
      maxComputeWorkgroupStorageSize: L.maxComputeWorkgroupStorageSize,
      maxComputeInvocationsPerWorkgroup: L.maxComputeInvocationsPerWorkgroup,
      maxComputeWorkgroupSizeX: L.maxComputeWorkgroupSizeX,
      maxComputeWorkgroupSizeY: L.maxComputeWorkgroupSizeY,
    };
    let device;
    try {
      device = await adapter.requestDevice({ requiredFeatures: features, requiredLimits });
    } catch (e) {
      return JSON.stringify({ ok: false, reason: "requestDevice failed: " + e });
    }
    device.addEventListener("uncapturederror", (ev) => { S.errors.push(String(ev.error && ev.error.message || ev.error)); });
    device.lost.then((i) => { S.lost = `${i.reason}: ${i.message}`; });
    S.adapter = adapter;
    S.device = device;
    S.features = features;
    S.uniformSlots = uniformSlots;
    S.uniform = device.createBuffer({ size: uniformSlots * SLOT_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    const DL = device.limits;
    S.limits = {
      maxStorageBufferBindingSize: DL.maxStorageBufferBindingSize,
      maxBufferSize: DL.maxBufferSize,
      maxComputeWorkgroupsPerDimension: DL.maxComputeWorkgroupsPerDimension,
      maxComputeWorkgroupStorageSize: DL.maxComputeWorkgroupStorageSize,
      maxComputeInvocationsPerWorkgroup: DL.maxComputeInvocationsPerWorkgroup,
      maxStorageBuffersPerShaderStage: DL.maxStorageBuffersPerShaderStage,
    };
    S.info = {
      vendor: info.vendor || "", architecture: info.architecture || "", device: info.device || "",
      description: info.description || "",
    };
    return JSON.stringify({ ok: true, info: S.info, features, limits: S.limits });
  }

  function createLayout(id, mask) {
    // mask: one character per storage binding after the uniform: 'r' read-only, 'w' read-write
    const entries = [{ binding: 0, visibility: GPUShaderStage.COMPUTE, buffer: { type: "uniform", hasDynamicOffset: true, minBindingSize: SLOT_BYTES } }];
    for (let i = 0; i < mask.length; i++) {
      entries.push({ binding: i + 1, visibility: GPUShaderStage.COMPUTE,
        buffer: { type: mask[i] === "r" ? "read-only-storage" : "storage" } });
    }
    const bgl = S.device.createBindGroupLayout({ entries });
    S.layouts[id] = { bgl, pl: S.device.createPipelineLayout({ bindGroupLayouts: [bgl] }) };
  }

  // Returns a promise of "" or the compiler's messages; Python waits on it when it can block.
  function createPipeline(id, code, layoutId) {
    const dev = S.device;
    dev.pushErrorScope("validation");
    const module = dev.createShaderModule({ code });
    S.pipelines[id] = dev.createComputePipeline({ layout: S.layouts[layoutId].pl, compute: { module, entryPoint: "main" } });
    S.stats.pipelinesCreated++;
    return dev.popErrorScope().then(async (err) => {
      if (!err) return "";
      let msgs = "";
      try {
        const ci = await module.getCompilationInfo();
        msgs = ci.messages.map((m) => `${m.type} at line ${m.lineNum}:${m.linePos}: ${m.message}`).join("\n");
      } catch (e) { /* older implementations */ }
      return String(err.message) + (msgs ? "\n" + msgs : "");
    });
  }

  function createBuffer(id, size) {
    S.device.pushErrorScope("out-of-memory");
    S.buffers[id] = S.device.createBuffer({ size, usage: usageStorage() });
    S.stats.buffersCreated++;
    S.device.popErrorScope().then((e) => { if (e) S.errors.push("out of GPU memory creating a buffer of " + size + " bytes"); });
  }

  function destroyBuffer(id) {
    // Destroyed only once the queue has finished the work submitted so far, which may use it.
    const b = S.buffers[id];
    S.buffers[id] = undefined;
    if (!b) return;
    S.toDestroy.push(b);
    if (S.toDestroy.length === 1) {
      S.device.queue.onSubmittedWorkDone().then(() => { const l = S.toDestroy; S.toDestroy = []; for (const x of l) x.destroy(); });
    }
  }

  function withBytes(proxy, fn) {
    // proxy: a Python buffer (numpy array, bytes, memoryview) seen through Pyodide's PyProxy
    const pb = proxy.getBuffer("u8");
    try { return fn(pb.data); } finally { pb.release(); }
  }

  function write(id, byteOffset, proxy) {
    withBytes(proxy, (u8) => S.device.queue.writeBuffer(S.buffers[id], byteOffset, u8.buffer, u8.byteOffset, u8.byteLength));
  }

  // Encodes a command stream into enc (one compute pass for its dispatches); returns the dispatch count.
  function encodeStream(enc, cmdProxy, uniformProxy, nSlots) {
    const dev = S.device;
    if (nSlots > 0) {
      withBytes(uniformProxy, (u8) => dev.queue.writeBuffer(S.uniform, 0, u8.buffer, u8.byteOffset, nSlots * SLOT_BYTES));
    }
    const pb = cmdProxy.getBuffer("i32");
    const c = pb.data;
    let pass = null, dispatches = 0, slot = -1;
    try {
      for (let i = 0; i < c.length;) {
        const op = c[i];
        if (op === CMD_DISPATCH) {
          if (!pass) { slot = timingSlot(); pass = enc.beginComputePass(passTimestamps(slot)); }
          pass.setPipeline(S.pipelines[c[i + 1]]);
          pass.setBindGroup(0, S.bindGroups[c[i + 2]], [c[i + 3] * SLOT_BYTES]);
          pass.dispatchWorkgroups(c[i + 4], c[i + 5], c[i + 6]);
          dispatches++;
          i += 7;
        } else if (op === CMD_BINDGROUP) {
          const id = c[i + 1], layout = S.layouts[c[i + 2]], n = c[i + 3];
          const entries = [{ binding: 0, resource: { buffer: S.uniform, offset: 0, size: SLOT_BYTES } }];
          for (let k = 0; k < n; k++) entries.push({ binding: k + 1, resource: { buffer: S.buffers[c[i + 4 + k]] } });
          S.bindGroups[id] = dev.createBindGroup({ layout: layout.bgl, entries });
          S.stats.bindGroupsCreated++;
          i += 4 + n;
        } else if (op === CMD_FREE_BINDGROUP) {
          S.bindGroups[c[i + 1]] = undefined;
          i += 2;
        } else {
          throw new Error("borch_webgpu: bad command " + op + " at " + i);
        }
      }
    } catch (e) {
      if (slot >= 0) S.timing.free.push(slot);
      throw e;
    } finally {
      pb.release();
    }
    if (pass) pass.end();
    if (slot >= 0) { resolveTimestamps(enc, slot); S.pendingTimed.push(slot); }
    return dispatches;
  }

  function submit(enc) {
    S.device.queue.submit([enc.finish()]);
    S.stats.submits++;
    for (const slot of S.pendingTimed) readTimestamps(slot);
    S.pendingTimed = [];
  }

  function flush(cmdProxy, uniformProxy, nSlots) {
    const enc = S.device.createCommandEncoder();
    const n = encodeStream(enc, cmdProxy, uniformProxy, nSlots);
    if (n > 0) submit(enc);
    S.stats.flushes++;
    S.stats.dispatches += n;
  }

  // ---- captured graphs (device/capture.py): registered once, replayed with one call ----------
  // records: per dispatch pipelineId, layoutId, x, y, nBuffers, bufferIds...; uniforms: 64 words each.
  // The graph gets its own uniform buffer (one 256-byte block per dispatch) and its own bind groups,
  // made here once, so a replay creates nothing.
  function registerGraph(id, recProxy, uniformProxy, n) {
    const dev = S.device;
    const G = { list: [], uniform: null, mirror: null, bindGroups: 0, offsets: new Uint32Array(Math.max(1, n)) };
    G.uniform = dev.createBuffer({ size: Math.max(1, n) * SLOT_BYTES, usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST });
    withBytes(uniformProxy, (u8) => {
      G.mirror = new Uint32Array(u8.slice().buffer);
      dev.queue.writeBuffer(G.uniform, 0, G.mirror.buffer, 0, n * SLOT_BYTES);
    });
    const pb = recProxy.getBuffer("i32");
    const c = pb.data, groups = new Map();
    try {
      for (let i = 0, d = 0; i < c.length; d++) {
        const pid = c[i], lid = c[i + 1], x = c[i + 2], y = c[i + 3], nb = c[i + 4];
        const bufs = Array.from(c.subarray(i + 5, i + 5 + nb));
        const key = lid + ":" + bufs.join(",");
        let bg = groups.get(key);
        if (!bg) {
          const entries = [{ binding: 0, resource: { buffer: G.uniform, offset: 0, size: SLOT_BYTES } }];
          for (let k = 0; k < nb; k++) entries.push({ binding: k + 1, resource: { buffer: S.buffers[bufs[k]] } });
          bg = dev.createBindGroup({ layout: S.layouts[lid].bgl, entries });
          groups.set(key, bg);
          S.stats.bindGroupsCreated++;
          G.bindGroups++;
        }
        G.offsets[d] = d * SLOT_BYTES;
        G.list.push([S.pipelines[pid], bg, d * SLOT_BYTES, x, y]);
        i += 5 + nb;
      }
    } finally {
      pb.release();
    }
    S.graphs[id] = G;
    S.stats.graphsRegistered++;
    return G.bindGroups;
  }

  function copies(enc, proxy) {
    if (!proxy) return;
    const pb = proxy.getBuffer("i32");
    try {
      const c = pb.data;
      for (let i = 0; i + 4 < c.length; i += 5) {
        if (c[i + 4] > 0) enc.copyBufferToBuffer(S.buffers[c[i]], c[i + 1], S.buffers[c[i + 2]], c[i + 3], c[i + 4]);
      }
    } finally {
      pb.release();
    }
  }

  // One call per step: pending eager work, copies into the graph's inputs, the graph, copies out.
  function replay(id, cmdProxy, uniformProxy, nSlots, preProxy, patchProxy, postProxy) {
    const dev = S.device, G = S.graphs[id];
    if (!G) throw new Error("borch_webgpu: replay of an unknown graph " + id);
    if (patchProxy) {
      const pb = patchProxy.getBuffer("u32");
      let lo = Infinity, hi = -1;
      try {
        const p = pb.data;
        for (let i = 0; i + 1 < p.length; i += 2) { G.mirror[p[i]] = p[i + 1]; lo = Math.min(lo, p[i]); hi = Math.max(hi, p[i]); }
      } finally {
        pb.release();
      }
      if (hi >= 0) dev.queue.writeBuffer(G.uniform, lo * 4, G.mirror.buffer, lo * 4, (hi - lo + 1) * 4);
    }
    // The graph goes in chunks, each submitted as soon as it is encoded, so that the GPU starts on
    // the first dispatches while the rest are still being encoded (encoding costs microseconds per
    // dispatch; a step is a thousand of them).
    let enc = dev.createCommandEncoder();
    let n = 0;
    if (cmdProxy) n += encodeStream(enc, cmdProxy, uniformProxy, nSlots);
    copies(enc, preProxy);
    const list = G.list, chunk = S.replayChunk;
    for (let start = 0; start < list.length; start += chunk) {
      const slot = timingSlot();
      const pass = enc.beginComputePass(passTimestamps(slot));
      let last = null;
      const offs = G.offsets;
      for (let i = start, end = Math.min(list.length, start + chunk); i < end; i++) {
        const d = list[i];
        if (d[0] !== last) { pass.setPipeline(d[0]); last = d[0]; }
        // the dynamic offset from the graph's own Uint32Array (no array made per dispatch)
        if (S.offsetsData) pass.setBindGroup(0, d[1], offs, i, 1); else pass.setBindGroup(0, d[1], [d[2]]);
        pass.dispatchWorkgroups(d[3], d[4], 1);
      }
      pass.end();
      if (slot >= 0) { resolveTimestamps(enc, slot); S.pendingTimed.push(slot); }
      if (start + chunk < list.length) { submit(enc); enc = dev.createCommandEncoder(); }
    }
    copies(enc, postProxy);
    submit(enc);
    S.stats.replays++;
    S.stats.dispatches += n + G.list.length;
  }

  // Replays graph id once with every dispatch in its own timed compute pass (one more step of the
  // work it holds); resolves to a JSON list of each dispatch's GPU nanoseconds (timestamp-query).
  async function profileGraph(id) {
    const dev = S.device, G = S.graphs[id];
    if (!G) throw new Error("borch_webgpu: profile of an unknown graph " + id);
    if (!S.features.includes("timestamp-query")) return "null";
    const out = [];
    for (let start = 0; start < G.list.length; start += 2048) {
      const n = Math.min(2048, G.list.length - start);
      const qs = dev.createQuerySet({ type: "timestamp", count: 2 * n });
      const res = dev.createBuffer({ size: 16 * n, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
      const rb = dev.createBuffer({ size: 16 * n, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
      const enc = dev.createCommandEncoder();
      for (let i = 0; i < n; i++) {
        const d = G.list[start + i];
        const pass = enc.beginComputePass({ timestampWrites: { querySet: qs, beginningOfPassWriteIndex: 2 * i, endOfPassWriteIndex: 2 * i + 1 } });
        pass.setPipeline(d[0]);
        pass.setBindGroup(0, d[1], [d[2]]);
        pass.dispatchWorkgroups(d[3], d[4], 1);
        pass.end();
      }
      enc.resolveQuerySet(qs, 0, 2 * n, res, 0);
      enc.copyBufferToBuffer(res, 0, rb, 0, 16 * n);
      dev.queue.submit([enc.finish()]);
      S.stats.submits++;
      await rb.mapAsync(GPUMapMode.READ);
      const t = new BigUint64Array(rb.getMappedRange());
      for (let i = 0; i < n; i++) out.push(t[2 * i + 1] >= t[2 * i] ? Number(t[2 * i + 1] - t[2 * i]) : -1);
      rb.unmap(); rb.destroy(); res.destroy(); qs.destroy();
    }
    S.stats.dispatches += G.list.length;
    return JSON.stringify(out);
  }

  function dropGraph(id) {
    const G = S.graphs[id];
    if (!G) return;
    S.graphs[id] = undefined;
    S.toDestroy.push(G.uniform);
    if (S.toDestroy.length === 1) {
      S.device.queue.onSubmittedWorkDone().then(() => { const l = S.toDestroy; S.toDestroy = []; for (const x of l) x.destroy(); });
    }
  }

  // ---- GPU timing (opt-in; needs the adapter feature "timestamp-query") ----------------------
  // Each flushed compute pass writes its begin and end time into a pair of a query set; the same
  // submit resolves the pair and copies it into a small mappable buffer, which is read back
  // asynchronously: nothing waits on it, and the durations add up in S.timing.totalNs.
  function enableTiming(on) {
    const T = S.timing;
    if (!S.features.includes("timestamp-query")) return false;
    if (on && !T.querySet) {
      T.querySet = S.device.createQuerySet({ type: "timestamp", count: 2 * TIMING_PAIRS });
      // resolveQuerySet's destination offset must be a multiple of 256: one 256-byte row per pair
      T.resolve = S.device.createBuffer({ size: 256 * TIMING_PAIRS, usage: GPUBufferUsage.QUERY_RESOLVE | GPUBufferUsage.COPY_SRC });
      T.free = [];
      for (let i = TIMING_PAIRS - 1; i >= 0; i--) T.free.push(i);
    }
    T.enabled = !!on;
    return true;
  }

  function timingSlot() {
    const T = S.timing;
    if (!T.enabled) return -1;
    if (!T.free.length) { T.skipped++; return -1; }
    return T.free.pop();
  }

  function passTimestamps(slot) {
    if (slot < 0) return undefined;
    return { timestampWrites: { querySet: S.timing.querySet, beginningOfPassWriteIndex: 2 * slot, endOfPassWriteIndex: 2 * slot + 1 } };
  }

  function resolveTimestamps(enc, slot) {
    const T = S.timing;
    if (!T.readbacks[slot]) T.readbacks[slot] = S.device.createBuffer({ size: 16, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
    enc.resolveQuerySet(T.querySet, 2 * slot, 2, T.resolve, 256 * slot);
    enc.copyBufferToBuffer(T.resolve, 256 * slot, T.readbacks[slot], 0, 16);
  }

  function readTimestamps(slot) {
    const T = S.timing, rb = T.readbacks[slot];
    rb.mapAsync(GPUMapMode.READ).then(() => {
      const t = new BigUint64Array(rb.getMappedRange(0, 16));
      if (t[1] >= t[0] && t[0] > 0n) { T.totalNs += Number(t[1] - t[0]); T.passes++; }
      rb.unmap();
      T.free.push(slot);
    }, () => { T.free.push(slot); });
  }

  // {supported, enabled, ms: total GPU time of the passes read back so far, passes, skipped}
  function gpuTime() {
    const T = S.timing;
    return JSON.stringify({ supported: S.features.includes("timestamp-query"), enabled: T.enabled,
                            ms: T.totalNs / 1e6, passes: T.passes, skipped: T.skipped });
  }

  function stagingBuffer(size) {
    for (let i = 0; i < S.staging.length; i++) {
      if (S.staging[i].size >= size) return S.staging.splice(i, 1)[0];
    }
    return S.device.createBuffer({ size, usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST });
  }

  // Copies nbytes from a storage buffer into a fresh Uint8Array (after everything flushed so far),
  // followed by the first errBytes bytes of the error buffer errId (kernels record bad indices there, and
  // int64 results past int32 in the slots after its 16-byte header) and a uint32 count of the device
  // errors pending in takeErrors().
  async function read(id, byteOffset, nbytes, errId, errBytes = 16) {
    const dev = S.device;
    const start = byteOffset & ~3, end = (byteOffset + nbytes + 3) & ~3, size = Math.max(4, end - start);
    const st = stagingBuffer(size + errBytes);
    const enc = dev.createCommandEncoder();
    if (nbytes > 0) enc.copyBufferToBuffer(S.buffers[id], start, st, 0, size);
    enc.copyBufferToBuffer(S.buffers[errId], 0, st, size, errBytes);
    dev.queue.submit([enc.finish()]);
    S.stats.submits++;
    await st.mapAsync(GPUMapMode.READ, 0, size + errBytes);
    const mapped = st.getMappedRange(0, size + errBytes);
    const out = new Uint8Array(nbytes + errBytes + 4);
    out.set(new Uint8Array(mapped, byteOffset - start, nbytes), 0);
    out.set(new Uint8Array(mapped, size, errBytes), nbytes);
    // then how many device errors wait in takeErrors(): Python asks for them only when there are some
    new DataView(out.buffer).setUint32(nbytes + errBytes, S.errors.length + (S.lost ? 1 : 0), true);
    st.unmap();
    if (S.staging.length < 8 && size <= (64 << 20)) S.staging.push(st); else st.destroy();
    return out;
  }

  async function sync() {
    await S.device.queue.onSubmittedWorkDone();
  }

  function takeErrors() {
    const e = S.errors;
    S.errors = [];
    if (S.lost) e.push("GPU device lost: " + S.lost);
    return e.join("\n");
  }

  function stats() { return JSON.stringify(S.stats); }

  return { init, createLayout, createPipeline, createBuffer, destroyBuffer, write, flush, read, sync, takeErrors, stats,
           registerGraph, replay, dropGraph, profileGraph,
           enableTiming, gpuTime, state: S };
}
