"""int64 results past int32 on WebGPU: "promote at first read" (the runtime's half; device/int64_range.py
has the design).

A GPU kernel holds int64 as int32 words, but the kernels that can leave int32 (int64 add, sub, mul, neg,
abs, square, pow, sum, prod, cumsum, cumprod, matmul) compute the exact 64-bit value. Whether it fits is
only known after a GPU -> host wait, so instead of raising, such a dispatch (a fresh result, outside a
capture) gets a *slot*: uniform word 62 names 16 bytes of the error buffer after its 16-byte header, where
the kernel records its first element past int32 (the error code and two words, as the header does). The
slots come back with the header at every read, so nothing waits more than before. The runtime keeps, per
slot, the result storage (weakly), the operands (a snapshot of their views, held until the next read) and
how to compute the result on the host (the cpu kernel). Until that read it watches every dispatch:

- a later dispatch that binds the result (or a graph replay over its buffer) has consumed the wrapped
  value: if the slot overflowed, the read raises ``OverflowError`` naming the op, the value and the user's
  line (never a wrong number), and a result that read it does not move either;
- a later dispatch that writes an operand (or a host upload into one) leaves nothing to recompute from:
  the same;
- a result that something other than tensors holds at the read (an op's local variable, when an op reads
  in its middle) cannot be moved: the same (the check counts its references);
- otherwise an overflowed result is *promoted*: its values are computed on the host (exact int64, numpy)
  and every tensor over its storage moves to a host-held storage (``CPUStorage.held``, as a tensor whose
  values entered past int32), so ``.item()``, ``print``, ``tolist`` and further ops give PyTorch's values.
  The read that found it is redone from the host when it read that storage. With launch blocking the op
  waits right after its dispatch and returns the host storage itself.

A result dropped before the read and never consumed is forgotten. Past ``SLOTS`` such dispatches between
two reads, and inside a capture (a graph has no host syncs), a dispatch gets slot 0, the header: a result
past int32 raises as before. With no overflow nothing is uploaded, read or dispatched in addition; the
watch costs Python a dictionary look-up per buffer of the dispatches recorded until the next read.
"""
from __future__ import annotations

import gc
import sys
import weakref

import numpy as np

from . import capture
from .cpu import BACKEND as CPU, CPUStorage
from .int64_range import HIDDEN_TAIL, TAIL, USED_TAIL

__all__ = ["SLOTS", "Promoted", "Operand", "Int64Promotion"]

SLOTS = 255   # slots of the error buffer after its header (16 bytes each): 4 KiB in all


class Promoted(Exception):
    """Internal: the storage a read was reading moved to the host while the read finished; read it again."""


class Operand:
    """A snapshot of an operand's view (what the cpu kernels read), kept until the next read."""

    __slots__ = ("_storage", "_shape", "_stride", "_offset", "dtype")

    def __init__(self, t):
        self._storage, self._shape, self._stride, self._offset, self.dtype = \
            t._storage, tuple(t._shape), tuple(t._stride), t._offset, t.dtype


def operands(xs) -> list:
    return [x if isinstance(x, (bool, int, float)) else Operand(x) for x in xs]


class _Pending:
    __slots__ = ("slot", "ref", "bid", "dtype", "recompute", "inputs", "consumed", "released")

    def __init__(self, slot, storage, dtype, inputs, recompute):
        # recompute holds the operands' snapshots (their storages stay alive until the read); inputs:
        # their buffers
        self.slot, self.ref, self.bid, self.dtype, self.recompute = \
            slot, weakref.ref(storage), storage.bid, dtype, recompute
        self.inputs = inputs
        self.consumed = self.released = False


class Int64Promotion:
    """Mixed into :class:`~borch_webgpu.device.webgpu.Runtime` (which owns ``err_buffer``, ``dispatch``,
    ``write`` and ``release`` and calls the hooks below)."""

    def _init_promotion(self) -> None:
        self.i64_records: list[_Pending] = []
        self.i64_results: dict[int, _Pending] = {}     # result buffer -> its record (until consumed)
        self.i64_inputs: dict[int, list[_Pending]] = {}  # operand buffer -> the records that read it
        self.i64_next = 1
        self.lid_masks: dict[int, str] = {}
        self.promotions = 0
        self.i64_taking = None   # launch blocking: the result of the op being checked, and its host storage
        self.i64_taken = None

    def err_bytes(self) -> int:
        """How many bytes of the error buffer a read brings back: the header and the slots in use."""
        return 16 * self.i64_next

    # ---- recording ------------------------------------------------------------------------------
    def i64_reserve(self) -> int:
        """The slot (uniform word 62) of a dispatch about to write a fresh int64 result that may leave
        int32; 0 (raise at the read, as before) inside a capture or when the slots are used up."""
        if capture._active is not None or self.i64_next > SLOTS:
            return 0
        slot = self.i64_next
        self.i64_next += 1
        return slot

    def i64_arm(self, slot: int, storage, dtype, inputs, recompute) -> None:
        """After the dispatch (or dispatches) of slot: watch its result storage and its operands.
        recompute(): the exact int64 values of the result (contiguous), computed on the host."""
        if not slot:
            return
        rec = _Pending(slot, storage, dtype, [x._storage.bid for x in inputs if isinstance(x, Operand)], recompute)
        self.i64_records.append(rec)
        self.i64_results[storage.bid] = rec
        for b in rec.inputs:
            self.i64_inputs.setdefault(b, []).append(rec)

    def i64_note_dispatch(self, lid: int, buffers) -> None:
        """A dispatch recorded while results are watched: binding a result consumes it; writing an
        operand leaves nothing to recompute from."""
        mask = self.lid_masks.get(lid, "")
        for j, b in enumerate(buffers):
            rec = self.i64_results.pop(b, None)
            if rec is not None:
                rec.consumed = True
            if j < len(mask) and mask[j] == "w":
                for r in self.i64_inputs.get(b, ()):
                    r.recompute = None

    def i64_note_buffers(self, bids) -> None:
        """Work that reaches buffers outside a dispatch (a graph's replay, its input copies): each may be
        read and written."""
        for b in bids:
            self.i64_note_write(b)

    def i64_note_write(self, bid: int) -> None:
        rec = self.i64_results.pop(bid, None)
        if rec is not None:
            rec.consumed = True
        for r in self.i64_inputs.get(bid, ()):
            r.recompute = None

    def i64_note_release(self, bid: int) -> None:
        rec = self.i64_results.pop(bid, None)
        if rec is not None:
            rec.released = True

    # ---- at a read ------------------------------------------------------------------------------
    def i64_settle(self, slots: bytes, nslots: int, what: str, read_bid: int | None) -> None:
        """The slots 1..nslots came back (16 bytes each): promote the results that overflowed and were
        not consumed, raise for one that was. read_bid: the buffer the read was reading (Promoted is
        raised when it moved, so that the caller reads again)."""
        if not nslots:
            return
        done = [r for r in self.i64_records if r.slot <= nslots]
        self.i64_records = [r for r in self.i64_records if r.slot > nslots]
        for r in done:
            if self.i64_results.get(r.bid) is r:
                del self.i64_results[r.bid]
            for b in r.inputs:
                lst = self.i64_inputs.get(b)
                if lst is not None:
                    lst.remove(r)
                    if not lst:
                        del self.i64_inputs[b]
        words = np.frombuffer(slots, dtype=np.uint32).reshape(-1, 4)
        flagged = [(r, words[r.slot - 1]) for r in done if words[r.slot - 1][0]]
        if words[:, 0].any():   # cleared for the dispatches that get these slots next
            self.write(self.err_buffer, 16, np.zeros(4 * nslots, np.uint32))
        if not self.i64_records:
            self.i64_next = 1
        failure, moved, bad = None, False, set()
        for r, (code, a, b, _) in flagged:
            st = r.ref()
            if r.consumed or (st is not None and r.recompute is None) or bad.intersection(r.inputs):
                bad.add(r.bid)   # a record that read its buffer read wrapped words: not moved either
                if failure is None:
                    err = self.kernel_error(int(code), int(np.int32(a)), int(b), what)
                    failure = type(err)(str(err).replace(TAIL, USED_TAIL))
                continue
            if st is None or r.released:
                continue   # dropped before anyone saw it
            if not self._promote(st, r):
                if failure is None:
                    err = self.kernel_error(int(code), int(np.int32(a)), int(b), what)
                    failure = type(err)(str(err).replace(TAIL, HIDDEN_TAIL))
                continue
            moved = moved or st.bid == read_bid
        if failure is not None:
            raise failure
        if moved:
            raise Promoted()

    def _promote(self, st, r: _Pending) -> bool:
        """Every tensor over GPU storage st now holds its exact int64 values on the host; False (nothing
        moved) when something other than tensors holds st (an op's local variable: it could not be
        moved, and would go on with the wrapped words)."""
        owners = [o for o in gc.get_referrers(st) if getattr(o, "_storage", None) is st]
        taking = st is self.i64_taking
        # the references: the owners', the caller's and this frame's `st`, getrefcount's argument; the op
        # being checked with launch blocking holds its own result (it returns the host storage instead)
        if not taking and sys.getrefcount(st) != len(owners) + 3:
            return False
        values = np.asarray(r.recompute(), dtype=np.int64).reshape(-1)
        full = np.zeros(max(st.nbytes // 4, values.size), np.int64)
        full[:values.size] = values
        held = CPU.from_numpy(full, r.dtype)
        held.held = True
        self.promotions += 1
        for owner in owners:
            owner._storage = held
        if taking:
            self.i64_taken = held
        return True

    def i64_blocking(self, storage):
        """Launch blocking, right after the dispatch of a fresh int64 result: wait for the GPU and raise
        here; the result, or its host storage when it left int32 (the op returns that one)."""
        self.i64_taking, self.i64_taken = storage, None
        try:
            self.after_fallible()
            return self.i64_taken if self.i64_taken is not None else storage
        finally:
            self.i64_taking = self.i64_taken = None


# ---- the exact values, on the host, of each kind of promotable dispatch ------------------------------
def elementwise_values(op, ops, C, R, shape, O, params, wgsl):
    return lambda: CPU.elementwise(op, ops, C, R, shape, O, params=params, wgsl=wgsl).array


def reduce_values(op, x, dims, out_shape, C, R, params, wgsl):
    return lambda: CPU.reduce(op, x, dims, out_shape, C, R, params=params, wgsl=wgsl).array


def scan_values(x, d: int, prod: bool, reverse: bool):
    def values():
        v = CPU.view(x).astype(np.int64)
        if reverse:
            v = np.flip(v, d)
        v = (np.cumprod if prod else np.cumsum)(v, axis=d, dtype=np.int64)
        if reverse:
            v = np.flip(v, d)
        return np.ascontiguousarray(v).reshape(-1)
    return values


def matmul_values(a, b):
    def values():
        with np.errstate(all="ignore"):
            return np.matmul(CPU.view(a).astype(np.int64), CPU.view(b).astype(np.int64)).reshape(-1)
    return values
