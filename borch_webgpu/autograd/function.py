"""``torch.autograd.Function``: user-defined ops with their own ``forward`` and ``backward``."""
from __future__ import annotations

import functools

from .graph import Node, edge_of, needs_grad
from .grad_mode import no_grad
from ..tensor import Tensor

__all__ = ["Function", "FunctionCtx", "once_differentiable"]


class FunctionCtx:
    """The ``ctx`` object: ``save_for_backward``, ``saved_tensors``, ``needs_input_grad``, and free attributes."""

    def __init__(self):
        self.to_save = ()
        self._node: Node | None = None
        self.needs_input_grad = ()
        self.non_differentiable: set[int] = set()
        self.materialize_grads = True
        self.dirty = ()

    def save_for_backward(self, *tensors) -> None:
        self.to_save = tensors

    @property
    def saved_tensors(self):
        if self._node is not None:
            self._node.check_saved()
        return tuple(self.to_save)

    def mark_non_differentiable(self, *tensors) -> None:
        self.non_differentiable |= {id(t) for t in tensors}

    def mark_dirty(self, *tensors) -> None:
        self.dirty = tensors

    def set_materialize_grads(self, value: bool) -> None:
        self.materialize_grads = value


class _FunctionMeta(type):
    pass


class Function(metaclass=_FunctionMeta):
    """Subclass with static ``forward(ctx, *args)`` and ``backward(ctx, *grad_outputs)``; call ``.apply``.

    Example::

        >>> import borch_webgpu as torch
        >>> class Square(torch.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x * x
        ...     @staticmethod
        ...     def backward(ctx, g):
        ...         (x,) = ctx.saved_tensors
        ...         return 2 * x * g
        >>> x = torch.tensor([3.0], requires_grad=True)
        >>> Square.apply(x).sum().backward()
        >>> x.grad
        tensor([6.])
    """

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise NotImplementedError("You must implement either the backward or vjp method for your custom "
                                  "autograd.Function to use it with backward mode AD.")

    @classmethod
    def apply(cls, *args, **kwargs):
        ctx = FunctionCtx()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and (a._requires_grad or a.grad_fn is not None)
                                     for a in args)
        record = needs_grad(*args)
        with no_grad():
            out = cls.forward(ctx, *args, **kwargs)
        single = not isinstance(out, tuple)
        outs = (out,) if single else out
        if not record:
            return out
        tensors_in = [a if isinstance(a, Tensor) else None for a in args]
        edges = [edge_of(a) if a is not None else None for a in tensors_in]
        out_tensors = [o for o in outs if isinstance(o, Tensor)]
        # outputs that alias inputs get their own tensor objects so their grad_fn can differ
        fixed = []
        for o in outs:
            if isinstance(o, Tensor) and any(o is a for a in args) and id(o) not in {id(d) for d in ctx.dirty}:
                o = o.view_as(o) if hasattr(o, "view_as") else o
            fixed.append(o)
        outs = tuple(fixed)
        out_tensors = [o for o in outs if isinstance(o, Tensor)]

        def run_backward(*grads):
            if not ctx.materialize_grads:
                pass
            res = cls.backward(ctx, *grads)
            if not isinstance(res, tuple):
                res = (res,)
            if len(res) < len(args):
                raise RuntimeError(f"function {cls.__name__}Backward returned an incorrect number of gradients "
                                   f"(expected {len(args)}, got {len(res)})")
            return tuple(res[: len(args)])

        node = Node(f"{cls.__name__}Backward", edges, run_backward, [t for t in ctx.to_save if isinstance(t, Tensor)],
                    [(o._shape, o.dtype, o._device) for o in out_tensors])
        ctx._node = node
        for i, o in enumerate(out_tensors):
            if id(o) in ctx.non_differentiable or not o.dtype.is_floating_point:
                continue
            o.grad_fn = node
            o._output_nr = i
        return outs[0] if single else outs


def once_differentiable(fn):
    """Decorate an ``autograd.Function.backward`` that is not itself differentiable: it runs under
    ``no_grad()``, so no graph is built for a double backward.
    """
    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with no_grad():
            return fn(ctx, *args)
    return wrapper
