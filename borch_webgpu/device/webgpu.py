"""The WebGPU device, Python side: buffers, pipelines, bind groups, the command stream, readback.

Everything here is plain data (integer ids and lists of words) so that a recorded stream can be
replayed: Python decides every id; js/gpu.mjs executes streams. Per dispatch nothing crosses to
JavaScript: the dispatch, its bind group (when new) and its uniform block are appended to the
pending stream, which one ``flush`` call submits as a single compute pass.

Buffers come from a size-bucketed pool and return to it as soon as their tensor is dropped: a
kernel may write a buffer that earlier dispatches of the same pass still read, because WebGPU
orders dispatches within a pass. A host upload (queue.writeBuffer) is not ordered with recorded
work, so writing into a buffer released since the last flush flushes first. Buffers are
destroyed only after the queue has finished the work that used them (js/gpu.mjs waits on
onSubmittedWorkDone). Eager work is submitted every EAGER_FLUSH dispatches and at every read.

A region can be captured instead (device/capture.py, device/gpu_replay.py): its dispatches become
a graph over pinned buffers, replayed later with one JS call.

Kernels that can fail (a bad index, an int64 result past int32) record the failure in an error buffer that comes back with every
read; device/gpu_errors.py turns it into PyTorch's exception, naming the op and the user's line.
"""
from __future__ import annotations

import json
import os
from collections import OrderedDict

import numpy as np

from . import _ffi, capture, kernels
from .gpu_errors import GPUError, KernelErrors, OutOfMemoryError, _mib, entry_function, stale_tensor_error
from .gpu_int64_promote import SLOTS, Int64Promotion
from .gpu_replay import GraphRuntime

CMD_BINDGROUP, CMD_DISPATCH, CMD_FREE_BINDGROUP = 1, 2, 3
SLOT_WORDS = capture.SLOT_WORDS  # 256-byte uniform block per dispatch; word 63 is never written (WGSL reads it as 0)
UNIFORM_SLOTS = 4096       # dispatches per flush at most
POISON_WORD = 0x7F7F7F7F  # Runtime.poison fills with this: 3.4e38 as float32, 2139062143 as int32
EAGER_FLUSH = 192          # eager work is submitted every this many dispatches, so the GPU starts early
MAX_BINDGROUPS = 16384
WG = 256                   # threads per workgroup in every 1-D kernel


def bucket(nbytes: int) -> int:
    """Pool size class: at least 256 bytes, at most 1/8 above the request."""
    n = max(256, (nbytes + 3) & ~3)
    step = 1 << max(8, n.bit_length() - 4)
    return (n + step - 1) // step * step


class Runtime(GraphRuntime, KernelErrors, Int64Promotion):
    def __init__(self, js, info: dict, first_buffer: int = 0):
        self.js = js
        self.adapter = info["info"]
        self.features = set(info["features"])
        self.limits = info["limits"]
        self.max_groups = int(self.limits["maxComputeWorkgroupsPerDimension"])
        self.max_binding = int(self.limits["maxStorageBufferBindingSize"])
        self.max_buffer = int(self.limits["maxBufferSize"])
        self.cmds: list[int] = []
        self.slots: list[list[int]] = []
        self.uniform_host = np.zeros((UNIFORM_SLOTS, SLOT_WORDS), dtype=np.uint32)
        # buffer ids go on from a reset device's (reset()): a tensor of the old device is found out
        self.first_buffer = self.next_buffer = first_buffer
        self.pool: dict[int, list[int]] = {}
        self.dirty: set[int] = set()  # released since the last flush: recorded work may still use them
        self.live_bytes = 0
        self.peak_bytes = 0
        self.pooled_bytes = 0
        self.layouts: dict[str, int] = {}
        self.pipelines: dict[tuple, tuple[int, int]] = {}
        self.pipeline_sources: dict[tuple, tuple[str, str]] = {}   # kept while poison is on
        self.bindgroups: OrderedDict[tuple, int] = OrderedDict()
        self.buffer_bindgroups: dict[int, list[tuple]] = {}
        self.free_bg_ids: list[int] = []
        self.next_bg = 0
        self.dispatches = 0
        self.poison = False  # debug: every buffer handed out is filled with POISON_WORD first
        # the last dispatch, when it can still take an epilogue (offer_epilogue / take_epilogue)
        self.epilogue: tuple | None = None
        self.last_recorded = -1
        # capture and replay (device/capture.py): buffers a graph uses are pinned; dropped, they park
        self.pins: dict[int, int] = {}
        self.parked: dict[int, int] = {}
        self.graph_bytes = 0
        self.next_graph = 0
        # kernels that take indices record the first bad one here; read back with every read
        # and int64 results past int32 in their slots after the header (device/gpu_int64_promote.py)
        self._init_promotion()
        self.err_buffer, _ = self.alloc(16 * (1 + SLOTS))
        self.write(self.err_buffer, 0, np.zeros(4 * (1 + SLOTS), np.uint32))
        self.live_bytes = self.peak_bytes = 0
        self._init_errors()

    # ---- JS calls (each one is a Python->JS crossing, counted) ---------------------------
    def _call(self, name: str, *args):
        _ffi.calls += 1
        return getattr(self.js, name)(*args)

    # ---- buffers ----------------------------------------------------------------------------
    def alloc(self, nbytes: int, fresh: bool = False) -> tuple[int, int]:
        """A buffer of at least nbytes. fresh: not one that the capture in progress used already (host
        data written into it stays a constant of the graph)."""
        size = bucket(nbytes)
        if size > self.max_buffer:
            raise OutOfMemoryError(f"WebGPU out of memory: tried to allocate {_mib(nbytes)} ({nbytes} bytes); a buffer "
                                   f"of this adapter holds at most {_mib(self.max_buffer)} (maxBufferSize), "
                                   f"{_mib(self.live_bytes)} are allocated now")
        cap = capture._active
        if cap is not None and not fresh:
            own = cap.pool.get(size)
            if own:
                bid = own.pop()
                cap.on_alloc(bid)
                self.live_bytes += size
                self.peak_bytes = max(self.peak_bytes, self.live_bytes)
                return bid, size
        free = self.pool.get(size)
        if free:
            bid = free.pop()
            self.pooled_bytes -= size
        else:
            bid = self.next_buffer
            self.next_buffer += 1
            self._call("createBuffer", bid, size)
        if cap is not None:
            cap.owned[bid] = size
            cap.on_alloc(bid)
        self.live_bytes += size
        self.peak_bytes = max(self.peak_bytes, self.live_bytes)
        if self.poison and cap is None:
            self.write(bid, 0, np.full(size // 4, POISON_WORD, np.uint32))
        return bid, size

    def release(self, bid: int, size: int) -> None:
        if self.i64_results:
            self.i64_note_release(bid)
        cap = capture._active
        if cap is not None and bid in cap.owned and bid not in cap.constants:
            self.live_bytes -= size
            cap.pool.setdefault(size, []).append(bid)  # a temporary of the step: reused within it
            cap.on_free(bid)
            self.dirty.add(bid)
            return
        if bid in self.pins or (cap is not None and (bid in cap.external or bid in cap.owned)):
            # a graph may still read or write it: kept (and counted as allocated) until the graph goes
            self.parked[bid] = size
            self.graph_bytes += size
            return
        self.live_bytes -= size
        self._to_pool(bid, size)

    def _to_pool(self, bid: int, size: int) -> None:
        self.pool.setdefault(size, []).append(bid)
        self.pooled_bytes += size
        self.dirty.add(bid)

    def tidy_pool(self) -> None:
        """Put each size class's free buffers in one order (lowest id handed out first). The collector
        frees a step's leftovers in no fixed order; tidied, the next step gets the same buffers as the
        last one, so its bind groups are found in the cache instead of made again."""
        for ids in self.pool.values():
            ids.sort(reverse=True)

    def empty_cache(self) -> None:
        """Destroy every pooled buffer (PyTorch's torch.cuda.empty_cache)."""
        self.flush()
        for size, ids in self.pool.items():
            for bid in ids:
                self._drop_bindgroups(bid)
                self._call("destroyBuffer", bid)
            self.pooled_bytes -= size * len(ids)
        self.pool.clear()

    def write(self, bid: int, byte_offset: int, data: np.ndarray) -> None:
        """Upload host data; recorded work that uses this buffer is submitted first."""
        if self.i64_records:
            self.i64_note_write(bid)
        if bid < self.first_buffer:
            raise stale_tensor_error(entry_function())
        cap = capture._active
        if cap is not None:
            if bid in cap.owned:
                cap.constants.add(bid)  # a constant of the graph: it must keep these bytes
            else:
                cap.cannot("writing host data into a tensor made before the captured region")
        if bid in self.dirty:
            # an upload runs before anything not yet submitted: submit first, so it lands after
            self.flush()
        raw = np.ascontiguousarray(data).view(np.uint8).reshape(-1)
        if raw.nbytes % 4:
            raw = np.concatenate([raw, np.zeros(4 - raw.nbytes % 4, np.uint8)])
        if raw.nbytes:
            self._call("write", bid, byte_offset, raw)

    def read(self, bid: int, byte_offset: int, nbytes: int, what: str) -> bytes:
        """Read nbytes back after the work recorded so far (blocks until the GPU is there)."""
        return self.read_later(bid, byte_offset, nbytes, what)()

    def read_later(self, bid: int, byte_offset: int, nbytes: int, what: str, sync: bool = True):
        """Start a read now (after the work submitted so far); returns a function that waits for it.
        sync: a synchronizing operation for the sync debug mode (internal checks pass False)."""
        if bid < self.first_buffer:
            raise stale_tensor_error(what)
        if capture._active is not None:
            capture._active.cannot(what)
        if sync and self.sync_debug_mode:
            self.note_sync(what)
        self.flush()
        serial, nslots = self.fallible, self.i64_next - 1
        promise = self._call("read", bid, byte_offset, nbytes, self.err_buffer, 16 * (1 + nslots))

        def finish() -> bytes:
            try:
                data = _ffi.wait(promise, what)
            except _ffi.BlockingNotAvailable:
                raise
            except Exception as err:
                if _ffi.is_js_error(err):
                    raise (self.lost_error(what) or GPUError(f"{what}: reading back from the GPU failed: {err}")) from None
                raise
            return self._finish_read(_ffi.as_py_bytes(data), nbytes, what, serial, nslots, bid)
        return finish

    async def read_async(self, bid: int, byte_offset: int, nbytes: int, what: str) -> bytes:
        if bid < self.first_buffer:
            raise stale_tensor_error(what)
        if capture._active is not None:
            capture._active.cannot(what)
        if self.sync_debug_mode:
            self.note_sync(what)
        self.flush()
        serial, nslots = self.fallible, self.i64_next - 1
        data = await self._call("read", bid, byte_offset, nbytes, self.err_buffer, 16 * (1 + nslots))
        return self._finish_read(_ffi.as_py_bytes(data), nbytes, what, serial, nslots, bid)

    # ---- pipelines ------------------------------------------------------------------------------
    def layout(self, mask: str) -> int:
        lid = self.layouts.get(mask)
        if lid is None:
            lid = self.layouts[mask] = len(self.layouts)
            self.lid_masks[lid] = mask
            self._call("createLayout", lid, mask)
        return lid

    def pipeline(self, key: tuple, source_fn, mask: str) -> tuple[int, int]:
        """(pipeline id, layout id) for a kernel key; the WGSL is built on first use only."""
        hit = self.pipelines.get(key)
        if hit is not None:
            if self.poison and key in self.pipeline_sources:
                code, m0 = self.pipeline_sources[key]
                if code != source_fn() or m0 != mask:
                    raise AssertionError(f"pipeline key {key} names two kernels")
            return hit
        lid = self.layout(mask)
        pid = len(self.pipelines)
        code = source_fn()
        if any(part == "f16" or (isinstance(part, tuple) and "f16" in part) for part in key):
            if "shader-f16" not in self.features:
                raise TypeError("float16 on WebGPU needs the adapter feature 'shader-f16', which this adapter "
                                f"({self.adapter.get('vendor')} / {self.adapter.get('architecture')}) does not "
                                "have; use float32")
            code = "enable f16;\n" + code
        promise = self._call("createPipeline", pid, code, lid)
        if _ffi.can_block():
            err = str(_ffi.wait(promise, "compiling a WGSL kernel"))
            if err:
                raise GPUError(f"WGSL kernel {key} failed to compile:\n{err}\n--- source ---\n{code}")
        self.pipelines[key] = (pid, lid)
        if self.poison:
            self.pipeline_sources[key] = (code, mask)
        return pid, lid

    # ---- bind groups ----------------------------------------------------------------------------
    def bindgroup(self, lid: int, buffers: tuple[int, ...]) -> int:
        key = (lid, buffers)
        bg = self.bindgroups.get(key)
        if bg is not None:
            self.bindgroups.move_to_end(key)
            return bg
        if min(buffers) < self.first_buffer:
            raise stale_tensor_error(entry_function())
        if len(self.bindgroups) >= MAX_BINDGROUPS:
            old_key, old = self.bindgroups.popitem(last=False)
            self.cmds += (CMD_FREE_BINDGROUP, old)
            self.free_bg_ids.append(old)
            for b in old_key[1]:
                lst = self.buffer_bindgroups.get(b)
                if lst is not None and old_key in lst:
                    lst.remove(old_key)
        if self.free_bg_ids:
            bg = self.free_bg_ids.pop()
        else:
            bg = self.next_bg
            self.next_bg += 1
        self.bindgroups[key] = bg
        for b in set(buffers):
            self.buffer_bindgroups.setdefault(b, []).append(key)
        self.cmds += (CMD_BINDGROUP, bg, lid, len(buffers), *buffers)
        return bg

    def _drop_bindgroups(self, bid: int) -> None:
        for key in self.buffer_bindgroups.pop(bid, ()):
            bg = self.bindgroups.pop(key, None)
            if bg is not None:
                self.cmds += (CMD_FREE_BINDGROUP, bg)
                self.free_bg_ids.append(bg)

    # ---- dispatch -------------------------------------------------------------------------------
    def dispatch(self, pipe: tuple[int, int], buffers: tuple[int, ...], params: list[int], groups: int) -> None:
        """Record one dispatch of `groups` workgroups (spread over x and y past the per-dim limit)."""
        self.epilogue = None
        if groups <= 0:
            return
        assert len(params) < SLOT_WORDS, "uniform word 63 must stay 0"
        if len(self.slots) >= EAGER_FLUSH:
            # the GPU works on what is recorded while Python records the rest (a training step is a
            # thousand dispatches; waiting for the first read would leave the GPU idle until then)
            self.flush()
        pid, lid = pipe
        gx = groups if groups <= self.max_groups else self.max_groups
        gy = (groups + gx - 1) // gx
        if self.i64_records:
            self.i64_note_dispatch(lid, buffers)
        cap = capture._active
        self.last_recorded = self.dispatches + 1   # offer_epilogue applies to this dispatch only
        if cap is not None:
            cap.record(pid, lid, buffers, params, gx, gy)
            if not cap.execute:
                self.dispatches += 1
                return
        bg = self.bindgroup(lid, buffers)
        self.cmds += (CMD_DISPATCH, pid, bg, len(self.slots), gx, gy, 1)
        self.slots.append(params)
        self.dispatches += 1

    def pending_uniforms(self) -> tuple[np.ndarray, int]:
        """The recorded dispatches' uniform blocks packed for js/gpu.mjs, and how many there are."""
        n = len(self.slots)
        u = self.uniform_host
        for i, words in enumerate(self.slots):
            u[i, :len(words)] = words
        return u[:max(n, 1)], n

    # ---- epilogue fusion at record time ------------------------------------------------------------
    def offer_epilogue(self, name: str, out_bid: int, numel: int, make_pipe) -> None:
        """Called right after a dispatch that can also apply epilogue ``name`` (e.g. a relu) to its
        output buffer: ``make_pipe()`` gives the pipeline of that variant (same layout and words). The
        offer lasts until the next dispatch or flush."""
        if self.last_recorded != self.dispatches:
            return   # the dispatch recorded nothing (no workgroups): there is nothing to take the op
        cap = capture._active
        cmd_at = len(self.cmds) - 7 if cap is None or cap.execute else None
        self.epilogue = (name, out_bid, numel, make_pipe, cmd_at, len(cap.records) - 1 if cap is not None else None)

    def take_epilogue(self, name: str, out_bid: int, numel: int) -> bool:
        """Fold ``name`` into the last dispatch when it offered it for exactly this output (buffer and
        element count): its pipeline becomes the variant's, and no dispatch is needed for the op."""
        e = self.epilogue
        if e is None or e[0] != name or e[1] != out_bid or e[2] != numel:
            return False
        pid, _ = e[3]()
        if e[4] is not None:
            self.cmds[e[4] + 1] = pid
        if e[5] is not None:
            recs = capture._active.records
            recs[e[5]] = (pid,) + tuple(recs[e[5]][1:])
        self.epilogue = None
        return True

    def flush(self) -> None:
        self.epilogue = None
        if self.cmds:
            u, n = self.pending_uniforms()
            self._call("flush", np.asarray(self.cmds, dtype=np.int32), u, n)
            self.cmds = []
            self.slots = []
        self.dirty.clear()

    # ---- GPU timing (opt-in, timestamp-query) -----------------------------------------------------
    def enable_timing(self, enabled: bool) -> bool:
        """Time every flushed compute pass from now on (False: the adapter has no timestamp-query)."""
        return "timestamp-query" in self.features and bool(self._call("enableTiming", bool(enabled)))

    def gpu_time(self) -> dict:
        """{supported, enabled, ms, passes, skipped}: the timed passes read back so far (asynchronously)."""
        return json.loads(str(self._call("gpuTime")))

    def stats(self) -> dict:
        out = json.loads(str(self._call("stats")))
        out.update(pipelines=len(self.pipelines), live_bytes=self.live_bytes, peak_bytes=self.peak_bytes,
                   pooled_bytes=self.pooled_bytes, graph_bytes=self.graph_bytes, js_calls=_ffi.calls, dispatches_recorded=self.dispatches,
                   error_sites=len(self.error_sites), fallible_dispatches=self.fallible,
                   promotions=self.promotions)
        return out


_runtime: Runtime | None = None
_unavailable: str | None = None


def hidden_by_env(environ=None) -> str | None:
    """Why the GPU is hidden, when ``CUDA_VISIBLE_DEVICES`` is ``""`` or ``"-1"`` (PyTorch's way to hide
    every GPU; the playground's "cpu device" switch sets it): then tensors live on the cpu device."""
    v = (os.environ if environ is None else environ).get("CUDA_VISIBLE_DEVICES")
    if v is not None and v.strip() in ("", "-1"):
        return f"hidden by CUDA_VISIBLE_DEVICES={v!r}: tensors run on the cpu device (numpy)"
    return None


async def init_async() -> Runtime | None:
    """Start the WebGPU device (async: call it from JS boot code or with ``await``)."""
    global _runtime, _unavailable
    if _runtime is not None or _unavailable is not None:
        return _runtime
    _unavailable = hidden_by_env()
    if _unavailable is not None:
        return None
    js = _ffi.load_backend()
    info = json.loads(str(await js.init(UNIFORM_SLOTS)))
    if not info["ok"]:
        _unavailable = info["reason"]
        return None
    _runtime = Runtime(js, info)
    return _runtime


def runtime() -> Runtime:
    """The started runtime; starts it by blocking when it was not started by the boot code."""
    global _runtime, _unavailable
    if _runtime is not None:
        return _runtime
    if _unavailable is None:
        if not _ffi.IN_BROWSER:
            _unavailable = "not running in a browser (Pyodide); use device='cpu'"
        elif hidden_by_env() is not None:
            _unavailable = hidden_by_env()
        else:
            js = _ffi.load_backend()
            info = json.loads(str(_ffi.wait(js.init(UNIFORM_SLOTS), "starting WebGPU")))
            if info["ok"]:
                _runtime = Runtime(js, info)
                return _runtime
            _unavailable = info["reason"]
    raise RuntimeError(f"WebGPU is not available: {_unavailable}")


def reset() -> Runtime:
    """Start a new WebGPU device in place of the current one (after a device loss, or to free everything):
    the old device is destroyed when it still lives, and its tensors, captured graphs and compiled steps
    raise a clear RuntimeError when used. Blocks while the new device starts (runPythonAsync code)."""
    global _runtime, _unavailable
    old = _runtime
    start = 0
    if old is not None:
        start = old.next_buffer
        old.cmds, old.slots = [], []
        if not old.js.state.lost:
            try:
                old.js.state.device.destroy()
            except Exception:  # noqa: BLE001 - a device that cannot be destroyed is gone already
                pass
    _runtime, _unavailable = None, None
    if not _ffi.IN_BROWSER or hidden_by_env() is not None:
        return runtime()   # raises, saying why there is no device
    js = _ffi.load_backend()
    info = json.loads(str(_ffi.wait(js.init(UNIFORM_SLOTS), "starting WebGPU")))
    if not info["ok"]:
        _unavailable = info["reason"]
        raise RuntimeError(f"torch.webgpu.reset(): WebGPU is not available: {_unavailable}")
    _runtime = Runtime(js, info, first_buffer=start)   # gpu_backend.backend() follows it
    return _runtime


def available() -> bool:
    if _runtime is not None:
        return True
    if not _ffi.IN_BROWSER or _unavailable is not None:
        return False
    try:
        runtime()
        return True
    except RuntimeError:
        return False


def unavailable_reason() -> str | None:
    return _unavailable


def groups_for(n: int, per_group: int = WG) -> int:
    return (n + per_group - 1) // per_group


__all__ = ["Runtime", "runtime", "init_async", "available", "reset", "kernels", "GPUError"]


def is_software(info: dict) -> bool:
    """True for software adapters (SwiftShader, llvmpipe): they run on the CPU and are not GPUs."""
    text = " ".join(str(info.get(k, "")) for k in ("vendor", "architecture", "device", "description")).lower()
    return "swiftshader" in text or "llvmpipe" in text or "software" in text
