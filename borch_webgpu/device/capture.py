"""Capture and replay: a step recorded once as a fixed list of dispatches over fixed buffers.

While a :class:`Capture` is active, :meth:`Runtime.dispatch <borch_webgpu.device.webgpu.Runtime.dispatch>`
appends each dispatch (pipeline, layout, buffer ids, uniform words, grid) to it. Ending the capture
turns the list into a :class:`Graph`: js/gpu.mjs creates the graph's own uniform buffer and bind
groups once (``registerGraph``), and :meth:`Graph.replay` re-submits every dispatch with one
JavaScript call (``replay``), together with whatever eager work is pending, input copies before
it and output copies after it.

What makes the buffers fixed: every buffer the graph touches is *pinned*. A pinned buffer that its
tensor drops is parked, never handed to eager code, until the graph is destroyed (CUDA graphs'
private memory pool). Buffers freed during the capture go to the capture's own pool, so
temporaries are reused within the step exactly as eagerly.

What may change between replays without a new capture: values that Python computes per step and
that enter uniform words (a learning rate a scheduler changes, Adam's bias corrections, the random
stream's offset). They reach the kernels as :class:`Dyn` floats or :class:`DynWord` ints, which
remember how to recompute themselves; the graph patches those words before each replay. Python side
effects that must happen per step (Adam's step counter, the generator's offset) register a hook with
:func:`on_replay`; hooks run, in capture order, before the patches are computed.

What cannot be captured: reading a value on the host (``.item()``, ``print(t)``, ``.tolist()``), work
on the ``cpu`` device, and writing host data into a buffer made before the capture. Each ends the
capture: with ``fullgraph=True`` (and always for ``torch.cuda.graph``) it raises at that call;
otherwise the capture is dropped (a *graph break*) and the caller runs eagerly.
"""
from __future__ import annotations

import math
import operator
import struct
import sys
import traceback
from collections.abc import Callable

__all__ = ["Dyn", "DynWord", "Capture", "Graph", "GraphBreakError", "active", "on_replay", "host_side",
           "user_frame"]

SLOT_WORDS = 64  # 32-bit words per dispatch's uniform block (256 bytes); word 63 is never written
_active: "Capture | None" = None


def active() -> "Capture | None":
    """The capture in progress, or None."""
    return _active


class GraphBreakError(RuntimeError):
    """A call that cannot be captured happened inside a ``fullgraph=True`` region or a CUDA graph."""


# ---- values that are recomputed at every replay ----------------------------------------------------
class Dyn(float):
    """A float that knows how to recompute itself: arithmetic with it stays a Dyn.

    Outside a capture it is an ordinary float; inside one, a kernel that takes it as a scalar
    records a patch of the uniform word it lands in."""

    __slots__ = ("fn",)

    def __new__(cls, value: float, fn: Callable[[], float]):
        self = float.__new__(cls, value)
        self.fn = fn
        return self

    def _bin(self, other, f, swap=False):
        if isinstance(other, Dyn):
            a, b = (other, self) if swap else (self, other)
            return Dyn(f(float(a), float(b)), lambda: f(a.fn(), b.fn()))
        if not isinstance(other, (int, float)):
            return NotImplemented
        if swap:
            return Dyn(f(other, float(self)), lambda: f(other, self.fn()))
        return Dyn(f(float(self), other), lambda: f(self.fn(), other))

    def __add__(self, o): return self._bin(o, operator.add)
    def __radd__(self, o): return self._bin(o, operator.add, True)
    def __sub__(self, o): return self._bin(o, operator.sub)
    def __rsub__(self, o): return self._bin(o, operator.sub, True)
    def __mul__(self, o): return self._bin(o, operator.mul)
    def __rmul__(self, o): return self._bin(o, operator.mul, True)
    def __truediv__(self, o): return self._bin(o, operator.truediv)
    def __rtruediv__(self, o): return self._bin(o, operator.truediv, True)
    def __pow__(self, o): return self._bin(o, operator.pow)
    def __rpow__(self, o): return self._bin(o, operator.pow, True)
    def __neg__(self): return Dyn(-float(self), lambda: -self.fn())
    def __pos__(self): return self
    def __abs__(self): return Dyn(abs(float(self)), lambda: abs(self.fn()))

    def sqrt(self) -> "Dyn":
        return Dyn(math.sqrt(float(self)), lambda: math.sqrt(self.fn()))

    def __repr__(self) -> str:
        return float.__repr__(self)


class DynWord(int):
    """A 32-bit uniform word that is recomputed (``fn() -> int``) before each replay."""

    def __new__(cls, value: int, fn: Callable[[], int]):
        self = int.__new__(cls, int(value) & 0xFFFFFFFF)
        self.fn = fn
        return self


def f32_word(x) -> int:
    """float32 bits of x; a :class:`Dyn` gives a :class:`DynWord` that recomputes them."""
    bits = struct.unpack("<I", struct.pack("<f", float(x)))[0]
    if isinstance(x, Dyn):
        return DynWord(bits, lambda: struct.unpack("<I", struct.pack("<f", float(x.fn())))[0])
    return bits


def u32_word(x) -> int:
    """x & 0xFFFFFFFF, keeping a :class:`DynWord` (or an int :class:`Dyn`) recomputable."""
    if isinstance(x, DynWord):
        return x
    if isinstance(x, Dyn):
        return DynWord(int(x), lambda: int(x.fn()) & 0xFFFFFFFF)
    return int(x) & 0xFFFFFFFF


def on_replay(hook: Callable[[], None]) -> None:
    """Run ``hook()`` before every replay of the graph being captured (nothing outside a capture)."""
    if _active is not None:
        _active.hooks.append(hook)


class host_side:
    """A block whose host (cpu-device) work is accounted for by an :func:`on_replay` hook."""

    def __enter__(self):
        if _active is not None:
            _active.host_ok += 1
        return self

    def __exit__(self, *exc):
        if _active is not None:
            _active.host_ok -= 1
        return False


def user_frame() -> str:
    """'file:line' of the innermost frame outside borch_webgpu (where the user's code called us)."""
    pkg = __name__.split(".")[0]
    for fr in reversed(traceback.extract_stack()[:-1]):
        if f"/{pkg}/" not in fr.filename.replace("\\", "/") and "<frozen" not in fr.filename:
            return f"{fr.filename}:{fr.lineno}"
    return "?"


# ---- the capture -----------------------------------------------------------------------------------
class Capture:
    """The dispatches of a region, recorded over the buffers they use.

    execute: also run them now (torch.compile's capturing call returns real results); False for
    ``torch.cuda.graph``, which records only, as CUDA does. fullgraph: a call that cannot be captured
    raises :class:`GraphBreakError` instead of ending the capture quietly."""

    def __init__(self, rt, *, execute: bool, fullgraph: bool, label: str):
        self.rt = rt
        self.execute = execute
        self.fullgraph = fullgraph
        self.label = label
        self.records: list[tuple] = []          # (pid, lid, buffers, words, gx, gy)
        self.patches: list[tuple[int, int, DynWord]] = []
        self.hooks: list[Callable[[], None]] = []
        self.owned: dict[int, int] = {}          # bid -> size: allocated during the capture
        self.pool: dict[int, list[int]] = {}     # size -> freed owned bids, reusable within the capture
        self.constants: set[int] = set()         # host data uploaded during the capture: never reused
        self.external: dict[int, None] = {}      # older buffers the records use
        self.broken: tuple[str, str] | None = None   # (what, where) of the first call that ended it
        self.host_ok = 0
        self.fallible = False  # holds a dispatch that can fail (a bad index): replays are checked for it
        # each allocation of an owned buffer during the capture is a version: [bid, first use, last use,
        # freed]; records name the version each owned buffer held, so plan() can move temporaries
        self.versions: list[list] = []
        self.current: dict[int, int] = {}
        self.rec_versions: list[tuple[int, ...] | None] = []

    def __enter__(self) -> "Capture":
        global _active
        if _active is not None:
            raise RuntimeError(f"{self.label}: a capture is already in progress ({_active.label}); captures do not nest")
        self.rt.flush()  # work recorded before the region is not part of it
        _active = self
        return self

    def __exit__(self, *exc) -> bool:
        global _active
        _active = None
        return False

    # called by the runtime
    def on_alloc(self, bid: int) -> None:
        self.current[bid] = len(self.versions)
        self.versions.append([bid, -1, -1, False])

    def on_free(self, bid: int) -> None:
        v = self.current.pop(bid, None)
        if v is not None:
            self.versions[v][3] = True

    def record(self, pid: int, lid: int, buffers: tuple[int, ...], words, gx: int, gy: int) -> None:
        i = len(self.records)
        self.records.append((pid, lid, buffers, list(words), gx, gy))
        for j, w in enumerate(words):
            if type(w) is not int and isinstance(w, DynWord):
                self.patches.append((i, j, w))
        vs = []
        for b in buffers:
            v = self.current.get(b, -1)
            vs.append(v)
            if v < 0:
                if b not in self.owned:
                    self.external[b] = None
                continue
            ver = self.versions[v]
            if ver[1] < 0:
                ver[1] = i
            ver[2] = i
        self.rec_versions.append(tuple(vs) if any(v >= 0 for v in vs) else None)

    def plan(self) -> list[int]:
        """Reassign the step's temporaries (owned buffers freed during the capture) to as few buffers as
        their lifetimes in the trace allow (first to last dispatch that uses them; Python often drops
        a tensor much later than its last use), rewrite the records, and return the owned buffers
        that no longer hold anything (the caller gives them back to the pool)."""
        size_of = self.owned
        # a buffer alive at the end (or holding a constant) is blocked from its last version's first use
        blocked: dict[int, int] = {}
        temps = []
        for v, (bid, first, last, freed) in enumerate(self.versions):
            if not freed:  # alive at the end (only a buffer's last version can be): fixed from its first use
                blocked[bid] = first if first >= 0 else len(self.records)
            elif first >= 0:
                temps.append((first, last, v))
        for bid in self.constants:
            blocked[bid] = -1  # never shared: its bytes were uploaded once
        busy: dict[int, int] = {}      # physical bid -> last dispatch of what it holds
        by_size: dict[int, list[int]] = {}
        for bid, size in size_of.items():
            by_size.setdefault(size, []).append(bid)
        where: dict[int, int] = {}
        for first, last, v in sorted(temps):
            own = self.versions[v][0]
            for bid in by_size[size_of[own]]:
                if busy.get(bid, -1) < first and last < blocked.get(bid, 1 << 62):
                    where[v] = bid
                    busy[bid] = last
                    break
            else:
                # the greedy packing can leave no fit: an earlier temporary may have taken the very
                # buffer this one held during the capture (LayerNorm written out did). Falling back on
                # that buffer would bind one buffer as a dispatch's input and output: a new one instead
                bid = self._extra_buffer(size_of[own])
                by_size[size_of[own]].append(bid)
                where[v] = bid
                busy[bid] = last
        for i, vs in enumerate(self.rec_versions):
            if vs is None:
                continue
            pid, lid, bufs, words, gx, gy = self.records[i]
            bufs = tuple(where.get(v, b) if v >= 0 else b for b, v in zip(bufs, vs))
            self.records[i] = (pid, lid, bufs, words, gx, gy)
        used = set(busy) | set(blocked)
        return [b for b in size_of if b not in used]

    def _extra_buffer(self, size: int) -> int:
        """One more temporary of the graph (owned and parked with the others at finish_capture)."""
        bid, _ = self.rt.alloc(size)
        self.rt.live_bytes -= size   # counted once, when the graph parks its temporaries
        self.owned[bid] = size
        self.pool.setdefault(size, []).append(bid)
        return bid

    def cannot(self, what: str) -> None:
        """A call that cannot be part of the graph: raise (fullgraph) or mark the capture broken."""
        if self.broken is None:
            self.broken = (what, user_frame())
        if self.fullgraph or not self.execute:
            where = self.broken[1]
            kind = "torch.cuda.graph" if not self.execute else "torch.compile(fullgraph=True)"
            raise GraphBreakError(f"{kind}: {what} at {where} cannot be captured in '{self.label}': it needs the "
                                  "GPU's result on the host while the step is being recorded. Move it out of the "
                                  "captured region (read the returned tensor after the call), or compile without "
                                  "fullgraph=True to let the region run eagerly")

    def host_op(self, what: str) -> None:
        if self.host_ok == 0:
            self.cannot(what)


class Graph:
    """A registered capture: replayed with one JavaScript call."""

    def __init__(self, rt, cap: Capture, gid: int, extra_pins=()):
        self.rt = rt
        self.gid = gid
        self.label = cap.label
        self.n_dispatches = len(cap.records)
        self.patches = cap.patches
        self.hooks = cap.hooks
        self.last = {}  # (record, word) -> last value sent
        for i, j, w in self.patches:
            self.last[(i, j)] = int(w)
        bids = set(cap.owned) | set(cap.external) | set(extra_pins)
        self.bids = frozenset(bids)
        self.records = cap.records  # the op trace, kept as data (fusion works on it)
        self.fallible = cap.fallible
        self.alive = True

    def trace(self) -> list[dict]:
        """The recorded dispatches in order: kernel key, buffer ids (after planning), grid, uniform words
        (as captured; patched words are marked in ``patched``)."""
        keys = {pid: key for key, (pid, _) in self.rt.pipelines.items()}
        patched: dict[int, list[int]] = {}
        for i, j, _ in self.patches:
            patched.setdefault(i, []).append(j)
        return [{"kernel": keys.get(pid), "buffers": bufs, "grid": (gx, gy), "words": words,
                 "patched": patched.get(i, [])}
                for i, (pid, lid, bufs, words, gx, gy) in enumerate(self.records)]

    def patch_words(self) -> list[int]:
        """Run the replay hooks, then recompute every patched word; (index, value) pairs that changed."""
        for h in self.hooks:
            h()
        out: list[int] = []
        for i, j, w in self.patches:
            v = int(w.fn()) & 0xFFFFFFFF
            if self.last[(i, j)] != v:
                self.last[(i, j)] = v
                out += (i * SLOT_WORDS + j, v)
        return out

    def profile(self) -> list[dict] | None:
        """Run the graph's dispatches once more (one more step of the work it holds; replay hooks do not
        run) with every dispatch timed on its own (timestamp-query): the :meth:`trace` entries with
        ``ns``, the dispatch's GPU nanoseconds (-1 when the adapter gave none). None on an adapter
        without ``timestamp-query``."""
        if not self.alive:
            raise RuntimeError(f"profile of '{self.label}': this graph was reset")
        ns = self.rt.profile(self)
        if ns is None:
            return None
        return [dict(d, ns=t) for d, t in zip(self.trace(), ns)]

    def replay(self, pre_copies=(), post_copies=()) -> None:
        if not self.alive:
            raise RuntimeError(f"replay of '{self.label}': this graph was reset")
        self.rt.replay(self, pre_copies, post_copies)

    def destroy(self) -> None:
        if self.alive:
            self.alive = False
            self.rt.drop_graph(self)

    def __del__(self):
        try:
            if self.alive and not sys.is_finalizing():
                self.destroy()
        except Exception:
            pass
