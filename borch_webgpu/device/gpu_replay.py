"""The runtime's half of capture and replay (device/capture.py holds the capture and the graph):
registering a capture as a graph, pinning and parking its buffers, replaying it with one JS call.
:class:`~borch_webgpu.device.webgpu.Runtime` inherits these methods."""
from __future__ import annotations

import json

import numpy as np

from . import _ffi, capture, trace_fusion
from .capture import SLOT_WORDS
from .gpu_errors import stale_tensor_error


class GraphRuntime:
    """Capture and replay methods of the WebGPU runtime (state: pins, parked, graph_bytes, next_graph)."""

    def capture(self, *, execute: bool, fullgraph: bool, label: str) -> capture.Capture:
        """A capture to use as ``with rt.capture(...) as cap:``, then :meth:`finish_capture`."""
        return capture.Capture(self, execute=execute, fullgraph=fullgraph, label=label)

    def finish_capture(self, cap: capture.Capture, extra_pins=()) -> capture.Graph | None:
        """Register a finished capture as a graph (None, and its buffers freed, when it broke)."""
        if cap.broken is not None or not cap.records:
            self._release_capture(cap, pinned=False)
            return None
        trace_fusion.fuse(self, cap)  # e.g. a conv and the eval batch norm of its output: one dispatch
        for b in cap.plan():  # temporaries packed by their lifetimes in the trace: these went unused
            size = cap.owned.pop(b)
            cap.pool[size].remove(b)
            self._to_pool(b, size)
        gid = self.next_graph
        self.next_graph += 1
        recs: list[int] = []
        u = np.zeros((len(cap.records), SLOT_WORDS), dtype=np.uint32)
        for i, (pid, lid, bufs, words, gx, gy) in enumerate(cap.records):
            recs += (pid, lid, gx, gy, len(bufs), *bufs)
            u[i, :len(words)] = words
        self.flush()
        self._call("registerGraph", gid, np.asarray(recs, dtype=np.int32), u, len(cap.records))
        g = capture.Graph(self, cap, gid, extra_pins)
        for b in g.bids:
            self.pins[b] = self.pins.get(b, 0) + 1
        self._release_capture(cap, pinned=True)
        return g

    def _release_capture(self, cap: capture.Capture, pinned: bool) -> None:
        # the capture's free temporaries: the graph's own (parked) if it lives, else back to the pool
        for size, ids in cap.pool.items():
            for b in ids:
                if pinned:
                    self.parked[b] = size
                    self.graph_bytes += size
                    self.live_bytes += size
                else:
                    self._to_pool(b, size)
        cap.pool.clear()
        if not pinned:
            for b in [b for b in self.parked if b not in self.pins]:
                self._unpark(b)
        self.peak_bytes = max(self.peak_bytes, self.live_bytes)

    def _unpark(self, b: int) -> None:
        size = self.parked.pop(b)
        self.graph_bytes -= size
        self.live_bytes -= size
        self._to_pool(b, size)

    def drop_graph(self, g: capture.Graph) -> None:
        for b in g.bids:
            n = self.pins.get(b, 0) - 1
            if n > 0:
                self.pins[b] = n
            else:
                self.pins.pop(b, None)
                if b in self.parked:
                    self._unpark(b)
        self.flush()
        self._call("dropGraph", g.gid)

    def replay(self, g: capture.Graph, pre_copies=(), post_copies=()) -> None:
        """Submit pending eager work, pre_copies, the graph, post_copies in one JS call (js/gpu.mjs
        submits the graph in chunks as it encodes them). Copies are flat (src, src_offset, dst,
        dst_offset, nbytes) lists of buffer ids and bytes."""
        if g.rt is not self:
            raise stale_tensor_error(f"replaying graph '{g.label}'")
        if capture._active is not None:
            capture._active.cannot(f"replaying graph '{g.label}'")
        if self.i64_records:   # int64 results past int32 that the graph may read (gpu_int64_promote.py)
            self.i64_note_buffers(list(g.bids) + list(pre_copies[0::5]) + list(pre_copies[2::5]))
        patches = g.patch_words()
        u, n = self.pending_uniforms()
        self._call("replay", g.gid, np.asarray(self.cmds, dtype=np.int32) if self.cmds else None,
                   u, n, np.asarray(pre_copies, dtype=np.int32) if pre_copies else None,
                   np.asarray(patches, dtype=np.uint32) if patches else None,
                   np.asarray(post_copies, dtype=np.int32) if post_copies else None)
        self.cmds = []
        self.slots = []
        self.dirty.clear()
        if g.fallible:
            self.replayed_fallible(g.label)

    def profile(self, g: capture.Graph) -> list[int] | None:
        """Per-dispatch GPU nanoseconds of one more run of g's dispatches (js/gpu.mjs profileGraph); None
        without timestamp-query. Replay hooks do not run: per-replay values keep the last replay's."""
        if capture._active is not None:
            capture._active.cannot(f"profiling graph '{g.label}'")
        self.flush()
        return json.loads(str(_ffi.wait(self._call("profileGraph", g.gid), f"profiling graph '{g.label}'")))
