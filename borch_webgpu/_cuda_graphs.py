"""``torch.cuda.CUDAGraph``, ``torch.cuda.graph`` and ``make_graphed_callables`` over WebGPU captures.

As in CUDA, capturing records work without running it; ``replay()`` runs it on the same buffers.
Refresh inputs in place (``static_x.copy_(batch)``) and read outputs from the tensors made during
capture, which every replay overwrites. Streams exist so that PyTorch's examples run unchanged:
WebGPU has one queue, so a side stream is the same queue (``wait_stream`` is a no-op).
"""
from __future__ import annotations

import gc

from .autograd.function import Function
from .autograd.grad_mode import no_grad
from .device import capture as _capture
from .device import webgpu as _rt
from .tensor import Tensor

__all__ = ["CUDAGraph", "graph", "make_graphed_callables", "Stream", "stream", "current_stream",
           "default_stream", "graph_pool_handle"]


class Stream:
    """``torch.cuda.Stream``: WebGPU has one queue, so every stream is that queue."""

    def __init__(self, device=None, priority: int = 0, **kwargs):
        self.device = device
        self.priority = priority

    def wait_stream(self, stream: "Stream") -> None:
        """Nothing to wait for: work on every stream is ordered on the one queue."""

    def wait_event(self, event) -> None:
        """Nothing to wait for (one queue)."""

    def synchronize(self) -> None:
        from .webgpu import synchronize
        synchronize()

    def query(self) -> bool:
        return True

    def __enter__(self) -> "Stream":
        return self

    def __exit__(self, *exc) -> bool:
        return False


_default_stream = Stream()


def current_stream(device=None) -> Stream:
    """The one queue, as a stream."""
    return _default_stream


def default_stream(device=None) -> Stream:
    """The one queue, as a stream (the same object as :func:`current_stream`)."""
    return _default_stream


class stream:
    """``with torch.cuda.stream(s):`` (work goes to the one queue)."""

    def __init__(self, stream: Stream | None):
        self.stream = stream

    def __enter__(self):
        return self.stream

    def __exit__(self, *exc) -> bool:
        return False


def graph_pool_handle() -> object:
    """An opaque token (each graph keeps its own buffers here)."""
    return object()


class CUDAGraph:
    """A recorded sequence of GPU work, replayed with ``replay()`` (``torch.cuda.CUDAGraph``).

    Example::

        >>> import borch_webgpu as torch
        >>> if torch.cuda.is_available():
        ...     x = torch.zeros(4, device="cuda")
        ...     g = torch.cuda.CUDAGraph()
        ...     with torch.cuda.graph(g):
        ...         y = x * 2 + 1
        ...     x.copy_(torch.arange(4.0, device="cuda"))
        ...     g.replay()
        ...     y.tolist()
        ...     # [1.0, 3.0, 5.0, 7.0]
    """

    def __init__(self, keep_graph: bool = False):
        self._cap: _capture.Capture | None = None
        self._graph: _capture.Graph | None = None
        self._empty = False

    def capture_begin(self, pool=None, capture_error_mode: str = "global") -> None:
        if self._cap is not None or self._graph is not None:
            raise RuntimeError("This CUDAGraph instance already owns a captured graph. To capture a new graph, "
                               "create a new instance or call reset() first")
        rt = _rt.runtime()
        self._cap = rt.capture(execute=False, fullgraph=True, label="torch.cuda.graph")
        self._cap.__enter__()

    def capture_end(self) -> None:
        cap, self._cap = self._cap, None
        if cap is None:
            raise RuntimeError("capture_end() without capture_begin()")
        cap.__exit__(None, None, None)
        self._graph = _rt.runtime().finish_capture(cap)
        self._empty = self._graph is None

    def replay(self) -> None:
        """Run the captured work again, on the same buffers."""
        if self._graph is None:
            if self._empty:
                return
            raise RuntimeError("replay() of a CUDAGraph that has not captured anything")
        self._graph.replay()

    def reset(self) -> None:
        """Release the graph and the buffers it kept."""
        if self._graph is not None:
            self._graph.destroy()
        self._graph = None
        self._empty = False

    def pool(self) -> object:
        return graph_pool_handle()

    def enable_debug_mode(self) -> None:
        pass

    def debug_dump(self, debug_path: str) -> None:
        raise RuntimeError("debug_dump: there is no CUDA graph to dump on WebGPU")


class graph:
    """``with torch.cuda.graph(g):`` records the block into ``g`` without running it."""

    def __init__(self, cuda_graph: CUDAGraph, pool=None, stream=None, capture_error_mode: str = "global"):
        self.cuda_graph = cuda_graph

    def __enter__(self):
        _rt.runtime().flush()
        gc.collect()
        self.cuda_graph.capture_begin()
        return self

    def __exit__(self, exc_type, exc, tb) -> bool:
        if exc_type is not None and self.cuda_graph._cap is not None:
            cap, self.cuda_graph._cap = self.cuda_graph._cap, None
            cap.__exit__(None, None, None)
            cap.broken = cap.broken or ("an exception", "")
            _rt.runtime().finish_capture(cap)
            return False
        self.cuda_graph.capture_end()
        return False


def _copy_into(dst: Tensor, src: Tensor) -> None:
    if dst is not src:
        with no_grad():
            dst.copy_(src)


def make_graphed_callables(callables, sample_args, num_warmup_iters: int = 3, allow_unused_input: bool = False,
                           pool=None):
    """Graph each callable's forward and backward (``torch.cuda.make_graphed_callables``).

    Returns callables (modules keep their parameters; their ``forward`` is replaced) whose forward
    copies the inputs into static ones and replays the forward graph, and whose backward replays
    the backward graph; parameter gradients accumulate into ``.grad`` as eagerly."""
    from .autograd import grad as autograd_grad
    from .nn.modules.module import Module
    from .ops.creation import ones_like

    single = not isinstance(callables, tuple)
    if single:
        callables, sample_args = (callables,), (sample_args,)
    outs = []
    for fn, args in zip(callables, sample_args):
        args = args if isinstance(args, tuple) else (args,)
        params = tuple(p for p in fn.parameters() if p.requires_grad) if isinstance(fn, Module) else ()
        static_in = tuple(a.detach().clone().requires_grad_(a.requires_grad) for a in args)
        diff_in = tuple(a for a in static_in if a.requires_grad) + params
        for _ in range(num_warmup_iters):
            o = fn(*static_in)
            o_t = o if isinstance(o, tuple) else (o,)
            need = tuple(x for x in o_t if x.requires_grad)
            if need and diff_in:
                autograd_grad(need, diff_in, grad_outputs=tuple(ones_like(x) for x in need),
                              allow_unused=allow_unused_input)
            del o, o_t, need
        run, _ = graph_forward_backward(fn, static_in, params, allow_unused_input)
        if isinstance(fn, Module):
            fn.forward = run
            run = fn
        outs.append(run)
    return outs[0] if single else tuple(outs)


def graph_forward_backward(fn, static_in: tuple, params: tuple, allow_unused: bool = True, label: str = ""):
    """Capture ``fn(*static_in)`` and its backward (to the inputs that require grad and to ``params``)
    as two graphs; returns ``(run, graphs)``: ``run(*inputs)`` replays the forward inside an
    autograd Function whose backward replays the backward graph, and graphs to ``reset()``."""
    from .autograd import grad as autograd_grad
    from .ops.creation import zeros_like

    diff_in = tuple(a for a in static_in if isinstance(a, Tensor) and a.requires_grad) + params
    fwd = CUDAGraph()
    with graph(fwd):
        static_out = fn(*static_in)
    tuple_out = isinstance(static_out, tuple)
    static_outs = static_out if tuple_out else (static_out,)
    if not all(isinstance(x, Tensor) for x in static_outs):
        fwd.reset()
        raise TypeError(f"{label or 'graphed callable'}: outputs must be a tensor or a tuple of tensors to be "
                        "graphed with their backward")
    static_grad_outs = tuple(zeros_like(x.detach()) if x.requires_grad else None for x in static_outs)
    bwd = CUDAGraph()
    with graph(bwd):
        need = [(x, g) for x, g in zip(static_outs, static_grad_outs) if g is not None]
        grads = autograd_grad(tuple(x for x, _ in need), diff_in, grad_outputs=tuple(g for _, g in need),
                              allow_unused=allow_unused) if need and diff_in else ()
    static_grads = tuple(grads)
    detached = tuple(x.detach() for x in static_outs)
    return _graphed(fwd, bwd, static_in, detached, static_grad_outs, static_grads, params, tuple_out,
                    label), (fwd, bwd)


def _graphed(fwd, bwd, static_in, static_outs, static_grad_outs, static_grads, params, tuple_out, label):
    calls = [0]  # forward replays so far: a backward must belong to the latest one

    class Graphed(Function):
        @staticmethod
        def forward(ctx, *inputs):
            for s, x in zip(static_in, inputs[:len(static_in)]):
                if isinstance(s, Tensor):
                    _copy_into(s, x)
            fwd.replay()
            calls[0] += 1
            ctx.call = calls[0]
            return tuple(o.clone() for o in static_outs)

        @staticmethod
        def backward(ctx, *grad_outs):
            if ctx.call != calls[0]:
                raise RuntimeError(f"{label or 'graphed callable'}: backward of an earlier call after a newer "
                                   "forward: a graphed forward keeps what its backward needs in fixed buffers, "
                                   "which the newer call overwrote. Run backward before calling it again (or "
                                   "do not compile this module)")
            for s, g in zip(static_grad_outs, grad_outs):
                if s is not None and g is not None:
                    _copy_into(s, g)
            bwd.replay()
            gi = iter(g.clone() if g is not None else None for g in static_grads)
            res = []
            for a in static_in:
                res.append(next(gi) if isinstance(a, Tensor) and a.requires_grad else None)
            res += [next(gi) for _ in params]
            return tuple(res)

    def run(*inputs):
        out = Graphed.apply(*inputs, *params)
        return out if tuple_out else out[0]
    return run
