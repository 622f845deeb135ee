"""Graph nodes. An op that ran with grad enabled and an input that requires grad calls
:func:`record`, which makes a :class:`Node` holding the op's backward closure and the edges to
its inputs' nodes, and sets it as the outputs' ``grad_fn``."""
from __future__ import annotations

from typing import Callable

from .grad_mode import STATE
from ..ops._registry import api
from ..tensor import Tensor

_SECOND_BACKWARD = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or if "
    "you need to access saved tensors after calling backward.")


class Node:
    """A backward function in the graph (``tensor.grad_fn``). ``Node(name, ...)`` makes an instance of
    a subclass called ``name`` (one per name, made once), so ``type(t.grad_fn).__name__`` is PyTorch's
    class name (``MulBackward0``, ``AddmmBackward0`` ...) as ``grad_fn.name()`` is."""

    __slots__ = ("_name", "next_functions", "_backward", "_saved", "_versions", "_had_saved", "_out_meta",
                 "_pre_hooks", "_seq", "_ran", "__weakref__")
    _counter = 0
    _classes: dict[str, type] = {}

    def __new__(cls, name: str = "", *args, **kwargs):
        if cls is Node:
            sub = Node._classes.get(name)
            if sub is None:
                sub = Node._classes[name] = type(name, (Node,), {"__slots__": (), "__module__": "builtins",
                                                                  "__doc__": f"The backward function {name}."})
            cls = sub
        return object.__new__(cls)

    def __init__(self, name: str, edges, backward: Callable | None, saved=(), out_meta=()):
        self._name = name
        self.next_functions = tuple(edges)
        self._backward = backward
        self._saved = tuple(saved)
        self._versions = tuple(t._ver[0] for t in self._saved)
        self._had_saved = bool(self._saved)
        self._ran = False  # backward went through this node (torch.compile asks: backward inside or out?)
        self._out_meta = tuple(out_meta)
        self._pre_hooks = None
        Node._counter += 1
        self._seq = Node._counter

    def name(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return f"<{self._name} object at {hex(id(self))}>"

    def register_prehook(self, output_nr: int, hook) -> "_Handle":
        if self._pre_hooks is None:
            self._pre_hooks = {}
        lst = self._pre_hooks.setdefault(output_nr, [])
        lst.append(hook)
        return _Handle(lst, hook)

    def check_saved(self) -> None:
        if self._backward is None:
            raise RuntimeError(_SECOND_BACKWARD)
        for t, v in zip(self._saved, self._versions):
            now = t._ver[0]
            if now != v:
                fn = t.grad_fn.name() if t.grad_fn is not None else None
                where = f", which is output {t._output_nr} of {fn}," if fn else ""
                raise RuntimeError(
                    "one of the variables needed for gradient computation has been modified by an inplace "
                    f"operation: [{t.type()} {list(t._shape)}]{where} is at version {now}; expected version {v} "
                    "instead. Hint: the backtrace further above can point to the operation that failed to "
                    "compute its gradient.")

    def apply(self, grads: list):
        self.check_saved()
        self._ran = True
        return self._backward(*grads)

    def release(self) -> None:
        if self._had_saved:
            self._backward = None
            self._saved = ()


class AccumulateGrad(Node):
    """The node at a leaf that requires grad: adds incoming gradients into ``leaf.grad``."""

    __slots__ = ("variable",)

    def __init__(self, variable):
        super().__init__("AccumulateGrad", (), None)
        self.variable = variable

    def release(self) -> None:
        pass


class _Handle:
    """What ``register_hook`` returns: ``handle.remove()`` takes the hook out."""

    def __init__(self, lst: list, hook):
        self._lst, self._hook = lst, hook

    def remove(self) -> None:
        if self._hook in self._lst:
            self._lst.remove(self._hook)


def accumulator(leaf) -> AccumulateGrad:
    acc = leaf._accumulator
    if acc is None:
        acc = leaf._accumulator = AccumulateGrad(leaf)
    return acc


def edge_of(t):
    b = t._base
    if b is not None and b.grad_fn is not t._view_src_fn and b.grad_fn is not None:
        # the base was changed in place after this view was made: take the view's slice of its new history
        # (ops/memory.py's view_of_base; a Tensor method, since the ops sit above the graph)
        t._view_of_base(b, b._shape)
    if t.grad_fn is not None:
        return (t.grad_fn, t._output_nr)
    if t._requires_grad:
        return (accumulator(t), 0)
    return None


def needs_grad(*inputs) -> bool:
    if not STATE.grad_enabled:
        return False
    for x in inputs:
        if isinstance(x, Tensor) and (x._requires_grad or x.grad_fn is not None):
            return True
    return False


def record(name: str, inputs, outputs, backward: Callable, saved=()) -> Node | None:
    """Attach a node to ``outputs`` when grad is enabled and an input requires grad.

    ``backward(*grad_outputs)`` returns one gradient (or None) per entry of ``inputs``; it must be
    written with differentiable ops. ``saved`` lists the tensors it uses, so that an in-place change
    of one raises PyTorch's error instead of giving a wrong gradient.
    """
    if not needs_grad(*inputs):
        return None
    edges = [edge_of(x) if isinstance(x, Tensor) else None for x in inputs]
    node = Node(name, edges, backward, saved, [(o._shape, o.dtype, o._device) for o in outputs])
    for i, o in enumerate(outputs):
        o.grad_fn = node
        o._output_nr = i
    return node


def _register_hook(self, hook):
    """Call ``hook(grad)`` when this tensor's gradient is computed; a returned tensor replaces it."""
    if not self.requires_grad:
        raise RuntimeError("cannot register a hook on a tensor that doesn't require gradient")
    if self.grad_fn is not None:
        return self.grad_fn.register_prehook(self._output_nr, hook)
    if self._hooks is None:
        self._hooks = []
    self._hooks.append(hook)
    return _Handle(self._hooks, hook)


api("register_hook", method=_register_hook)


def check_leaf_write(op: str, self: Tensor) -> None:
    """PyTorch's refusal to write in place into a leaf that requires grad, or a view of one, while grad
    mode is on (inside ``torch.no_grad()``, as in optimizers and nn.init, the write is allowed)."""
    if STATE.grad_enabled:
        _check_leaf(op, self)


def _check_leaf(op: str, self: Tensor) -> None:
    if self.grad_fn is None and self._requires_grad:
        raise RuntimeError(f"{op}: a leaf Variable that requires grad is being used in an in-place operation.")
    b = self._base
    if b is not None and b.grad_fn is None and b._requires_grad:
        raise RuntimeError(f"{op}: a view of a leaf Variable that requires grad is being used in an in-place "
                           "operation.")
