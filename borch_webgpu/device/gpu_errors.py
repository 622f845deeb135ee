"""Errors that WebGPU kernels find, raised with the op and the user's line (the runtime's half).

A kernel cannot raise. The kernels that can fail (the index kernels of wgsl/index.wgsl: an index
outside its dim; the int64 kernels of wgsl/ops_int64.wgsl: a result past int32; the integer divisions:
a zero divisor, device/int64_range.py)
record the first failure in the 16-byte header of the error buffer (code, two words: the bad value and
the size, or the values that overflowed) and skip the element. (A fresh int64 result past int32 records
in its own 16-byte slot after the header instead, and moves to the host at the next read when no later
kernel used it: device/gpu_int64_promote.py.) The code names a *site*, interned here when the dispatch is recorded: the
exception type and PyTorch's message for that failure, the op, the user's file and line (the
innermost frame outside borch_webgpu) and, inside a capture, the graph's label. A loop body makes
a handful of sites, whatever the number of steps.

When the failure is raised, as the exception PyTorch raises for the same op on the cpu device:

- at every read of a value (``.item()``, ``print(t)``, ``.numpy()``) and at
  ``torch.webgpu.synchronize()``: the error buffer comes back with the data, at no extra cost;
- at the end of the enclosing ``torch.scope()`` at the latest: when a dispatch that can fail was
  recorded since the last read, the scope's end reads the error buffer (it waits for the GPU);
- right after the op with launch blocking on (``BORCH_WEBGPU_LAUNCH_BLOCKING=1``, our
  ``CUDA_LAUNCH_BLOCKING=1``, or ``torch.webgpu.set_launch_blocking(True)``): each op that can
  fail waits for the GPU and raises at its own line. Inside a capture nothing waits (a graph
  has no host syncs); each replay of a graph that holds such ops is checked instead.

The scope's and launch blocking's waits need Python that can block (code started with
``runPythonAsync``: the runner, the playground and the lessons); elsewhere they are skipped and
the error waits for the next read.
"""
from __future__ import annotations

import os
import sys
import warnings

import numpy as np

from . import _ffi, capture
from .gpu_int64_promote import Promoted

__all__ = ["KernelErrors", "user_line", "entry_function", "launch_blocking_from_env", "SYNC_DEBUG_MODES",
           "stale_tensor_error"]

MAX_SITES = 1 << 16   # past this many (file, line) sites, new ones are recorded without their line
SYNC_DEBUG_MODES = {"default": 0, "warn": 1, "error": 2}
ENV_LAUNCH_BLOCKING = "BORCH_WEBGPU_LAUNCH_BLOCKING"

_HERE = os.path.dirname(os.path.dirname(__file__))
_PKG = tuple({os.path.join(_HERE, ""), os.path.join(os.path.abspath(_HERE), "")}) + ("<frozen",)
_inside: dict[str, bool] = {}  # file name -> part of borch_webgpu (or the import machinery)


def user_line() -> tuple[str, int]:
    """(file, line) of the innermost frame outside borch_webgpu: where the user's code called us."""
    f = sys._getframe(1)
    while f is not None:
        name = f.f_code.co_filename
        inside = _inside.get(name)
        if inside is None:
            inside = _inside[name] = name.startswith(_PKG)
        if not inside:
            return name, f.f_lineno
        f = f.f_back
    return "?", 0


def entry_function() -> str:
    """The name of the outermost borch_webgpu function on the stack: the op the user called (named for
    errors when a caller gives no op name)."""
    f, name = sys._getframe(1), "?"
    while f is not None:
        if not f.f_code.co_filename.startswith(_PKG):
            break
        name = f.f_code.co_name
        f = f.f_back
    return name


def launch_blocking_from_env(environ=None) -> bool:
    """True when BORCH_WEBGPU_LAUNCH_BLOCKING is "1" (read once, when the device starts)."""
    return (os.environ if environ is None else environ).get(ENV_LAUNCH_BLOCKING, "") == "1"


class GPUError(RuntimeError):
    pass


def _mib(n: int) -> str:
    return f"{n / (1 << 20):.2f} MiB"


def stale_tensor_error(what: str) -> RuntimeError:
    """The error for a tensor (or captured graph) of a WebGPU device that ``torch.webgpu.reset()`` replaced."""
    return RuntimeError(f"{what}: this tensor was on a WebGPU device that torch.webgpu.reset() replaced (or that was "
                        "lost); its values are gone. Make it again (or load it from a file) on the new device.")


class OutOfMemoryError(RuntimeError):
    """PyTorch's ``torch.OutOfMemoryError`` (``torch.cuda.OutOfMemoryError``): the adapter cannot hold a
    buffer of the size asked for, or the GPU ran out of memory creating one. The message names the request
    and the adapter's limits.

    Example::

        >>> issubclass(torch.OutOfMemoryError, RuntimeError)
        True
    """


class KernelErrors:
    """Error sites, the check at reads, scope ends and (launch blocking) after each op; sync debug mode.
    Mixed into :class:`~borch_webgpu.device.webgpu.Runtime`, which owns ``err_buffer``."""

    def _init_errors(self) -> None:
        self.error_sites: list[tuple] = []
        self._site_codes: dict[tuple, int] = {}
        self.fallible = 0   # dispatches that can fail recorded so far (and replays of graphs holding them)
        self.checked = 0    # how many of them a read of the error buffer has covered
        self.launch_blocking = launch_blocking_from_env()
        self.sync_debug_mode = 0

    def error_code(self, exc: type, message, op: str, count: bool = True) -> int:
        """The code for a dispatch that can fail, about to be recorded: a failure is raised as
        exc(message) from ``op`` at the user's line. message: a str formatted with index= and size=, or
        a module-level function (index, size) -> str (sites are interned by it: never a new lambda per
        call). count=False: a second site of a dispatch already counted (a kernel that can fail in two
        ways). After recording the dispatch, call :meth:`after_fallible` when launch_blocking is on."""
        # user_line(), inlined: this runs for every such dispatch
        f = sys._getframe(1)
        while f is not None:
            name = f.f_code.co_filename
            inside = _inside.get(name)
            if inside is None:
                inside = _inside[name] = name.startswith(_PKG)
            if not inside:
                break
            f = f.f_back
        if f is None:
            name, line = "?", 0
        else:
            line = f.f_lineno
        cap = capture._active
        if cap is None:
            self.fallible += count
            key = (exc, message, op, name, line, None)
        else:  # inside a capture nothing is checked (no host syncs); the graph's replays are
            cap.fallible = True
            if cap.execute:
                self.fallible += count
            key = (exc, message, op, name, line, cap.label)
        code = self._site_codes.get(key)
        if code is None:
            if len(self.error_sites) >= MAX_SITES:
                key = (exc, message, op, "?", 0, key[5])
                code = self._site_codes.get(key)
            if code is None:
                self.error_sites.append(key)
                code = self._site_codes[key] = len(self.error_sites)
        return code

    def after_fallible(self) -> None:
        """Launch blocking: wait for the dispatch just recorded and raise its failure here."""
        if capture._active is None and _ffi.can_block():
            self.check_kernel_errors("the op itself (launch blocking is on)", sync=False)

    def replayed_fallible(self, label: str) -> None:
        self.fallible += 1
        if self.launch_blocking and _ffi.can_block():
            self.check_kernel_errors(f"the end of the replay of '{label}' (launch blocking is on)", sync=False)

    def check_kernel_errors(self, what: str, sync: bool = True) -> None:
        """Submit the recorded work, wait for the GPU, and raise the first failure a kernel recorded.
        sync: count it as a synchronizing operation (sync debug mode); the launch-blocking checks are not."""
        self.read_later(self.err_buffer, 0, 0, what, sync=sync)()

    def check_at_scope_end(self) -> None:
        """The end of a ``torch.scope()``: raise what the kernels found since the last read (waits only
        when a dispatch that can fail was recorded since then; never inside a capture)."""
        if self.fallible > self.checked and capture._active is None and _ffi.can_block():
            self.check_kernel_errors("the end of torch.scope()")

    def _finish_read(self, raw: bytes, nbytes: int, what: str, serial: int, nslots: int = 0,
                     bid: int | None = None) -> bytes:
        """The data of a read (js/gpu.mjs read: the bytes, the error buffer's header and nslots slots, the
        count of device errors); raises what the kernels submitted before it found, promotes the int64 results past int32 that slots 1..nslots hold (device/gpu_int64_promote.py:
        raises Promoted when buffer bid, the one read, moved to the host)."""
        end = nbytes + 16 * (1 + nslots)
        if raw[end:end + 4] != b"\0\0\0\0":  # device errors are waiting (js/gpu.mjs read)
            self.check_errors(what)
        self.checked = max(self.checked, serial)
        code, bad, size, _ = np.frombuffer(raw[nbytes:nbytes + 16], dtype=np.uint32)
        if code:
            self.write(self.err_buffer, 0, np.zeros(4, np.uint32))
        try:
            self.i64_settle(raw[nbytes + 16:end], nslots, what, bid)
        except Promoted:
            if not code:
                raise
        if code:
            raise self.kernel_error(int(code), int(np.int32(np.uint32(bad))), int(size), what)
        return raw[:nbytes]

    def kernel_error(self, code: int, bad: int, size: int, what: str) -> Exception:
        """The exception for a failure recorded under code, raised at `what`."""
        found = f"found by a WebGPU kernel, raised at {what}"
        if not 0 < code <= len(self.error_sites):
            return IndexError(f"index {bad} is out of range ({found})")
        exc, message, op, name, line, label = self.error_sites[code - 1]
        text = message(bad, size) if callable(message) else message.format(index=bad, size=size)
        where = f"{name}:{line}" if line else "an unrecorded line"
        graph = f", captured in '{label}'" if label is not None else ""
        return exc(f"{text} ({op} at {where}{graph}; {found})")

    def note_sync(self, what: str) -> None:
        """Sync debug mode (torch.cuda.set_sync_debug_mode's): warn or raise at a synchronizing call."""
        if self.sync_debug_mode == 1:
            name, line = user_line()
            warnings.warn_explicit(f"called a synchronizing WebGPU operation: {what}", UserWarning, name, line)
        elif self.sync_debug_mode == 2:
            raise RuntimeError(f"called a synchronizing WebGPU operation: {what}")

    def lost_error(self, what: str) -> "GPUError | None":
        """A clear RuntimeError to raise once the device is lost (js/gpu.mjs records GPUDevice.lost's reason)."""
        reason = self.js.state.lost
        if not reason:
            return None
        return GPUError(f"{what}: the WebGPU device was lost ({reason}); the tensors on it are gone. Call "
                        "torch.webgpu.reset() to start a new device (or reload the page, or run the script again).")

    def check_errors(self, what: str) -> None:
        errs = str(self._call("takeErrors"))
        if errs:
            lost = self.lost_error(what) if "GPU device lost: " in errs else None
            if lost is not None:
                raise lost
            if "out of GPU memory" in errs:   # js/gpu.mjs createBuffer's out-of-memory error scope
                raise OutOfMemoryError(f"{what}: WebGPU out of memory: {errs.splitlines()[0]}; "
                                       f"{_mib(self.live_bytes)} were allocated, the adapter's largest buffer is "
                                       f"{_mib(self.max_buffer)} (maxBufferSize)")
            raise GPUError(f"{what}: the GPU reported an error: {errs}")
