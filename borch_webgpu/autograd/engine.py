"""The backward engine: ``Tensor.backward`` and ``autograd.grad``."""
from __future__ import annotations

from .graph import AccumulateGrad, Node, edge_of
from . import profiler as _profiler
from .grad_mode import set_grad_enabled
from ..ops._registry import api
from ..tensor import Tensor

__all__ = ["backward", "grad"]


def _as_list(x):
    if x is None:
        return None
    return [x] if isinstance(x, Tensor) else list(x)


def _initial_grads(outputs, grad_outputs, op: str):
    grads = []
    for i, out in enumerate(outputs):
        g = grad_outputs[i] if grad_outputs is not None else None
        if not (out._requires_grad or out.grad_fn is not None):
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        if g is None:
            if out.numel() != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if not out.dtype.is_floating_point:
                raise RuntimeError(f"grad can be implicitly created only for real scalar outputs but got {out.dtype}")
            g = out.new_ones(out._shape)
        elif not isinstance(g, Tensor):
            g = out.new_tensor(g)
        elif tuple(g._shape) != tuple(out._shape):
            raise RuntimeError(f"{op}: Mismatch in shape: grad_output[{i}] has a shape of {tuple(g._shape)} and "
                               f"output[{i}] has a shape of {tuple(out._shape)}.")
        grads.append(g)
    return grads


def _add(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a + b


def _run(outputs, grads, retain_graph: bool, create_graph: bool, capture=None, accumulate: bool = True):
    """Propagate ``grads`` from ``outputs`` through the graph.

    capture: {(node, output_nr): slot} whose incoming gradients are returned instead of (or as well
    as) accumulated; with accumulate=False, AccumulateGrad nodes only capture.
    """
    roots = []
    buffers: dict[Node, dict[int, object]] = {}
    for out, g in zip(outputs, grads):
        e = edge_of(out)
        if e is None:
            continue
        node, nr = e
        roots.append(node)
        slot = buffers.setdefault(node, {})
        slot[nr] = _add(slot.get(nr), g)
    # dependency counts over the reachable graph
    deps: dict[Node, int] = {}
    seen = set()
    stack = list(dict.fromkeys(roots))
    seen.update(stack)
    while stack:
        n = stack.pop()
        for e in n.next_functions:
            if e is None:
                continue
            child = e[0]
            deps[child] = deps.get(child, 0) + 1
            if child not in seen:
                seen.add(child)
                stack.append(child)
    ready = [n for n in dict.fromkeys(roots) if deps.get(n, 0) == 0]
    captured = {}
    stored_grads: set[int] = set()
    with set_grad_enabled(create_graph):
        while ready:
            # newest first, like PyTorch's sequence numbers
            ready.sort(key=lambda n: n._seq)
            node = ready.pop()
            slot = buffers.pop(node, {})
            if node._pre_hooks:
                for nr, hooks in node._pre_hooks.items():
                    # retain_grad()'s hook runs after the user's, whenever it was registered (PyTorch 2.x)
                    for h in sorted(hooks, key=lambda h: getattr(h, "retains_grad", False)):
                        if nr in slot and slot[nr] is not None:
                            r = h(slot[nr])
                            if r is not None:
                                slot[nr] = r
            if capture:
                for nr, g in slot.items():
                    key = (node, nr)
                    if key in capture:
                        captured[capture[key]] = g
            rec = _profiler._active   # a profile records: each node is PyTorch's evaluate_function range
            if isinstance(node, AccumulateGrad):
                g = slot.get(0)
                if accumulate and g is not None:
                    evts = rec and rec.begin_node("torch::autograd::AccumulateGrad")
                    _accumulate(node.variable, g, create_graph, stored_grads)
                    if evts is not None:
                        rec.end(evts)
                continue
            evts = rec and rec.begin_node(node._name)
            n_out = len(node._out_meta)
            args = []
            for i in range(max(n_out, 1)):
                g = slot.get(i)
                if g is None and i < n_out:
                    shape, dtype, device = node._out_meta[i]
                    g = Tensor._zeros(shape, dtype, device)
                args.append(g)
            in_grads = node.apply(args)
            if evts is not None:
                rec.end(evts.cpu_children[-1])   # the node's own range; its evaluate_function range ends below
            if not isinstance(in_grads, (tuple, list)):
                in_grads = (in_grads,)
            if not retain_graph:
                node.release()
            for e, g in zip(node.next_functions, in_grads):
                if e is None:
                    continue
                child, nr = e
                if g is not None:
                    g = _as_input_dtype(g, child, nr)
                    cslot = buffers.setdefault(child, {})
                    cslot[nr] = _add(cslot.get(nr), g)
                deps[child] -= 1
                if deps[child] == 0:
                    ready.append(child)
            if evts is not None:
                rec.end(evts)
    return captured


def _as_input_dtype(g, child, nr: int):
    """A gradient in the dtype of the tensor it is for, as PyTorch's engine casts it (validate_outputs): a
    bfloat16 parameter gets a bfloat16 gradient also when its loss was scaled by a float32 0-d tensor."""
    want = child.variable.dtype if isinstance(child, AccumulateGrad) else (
        child._out_meta[nr][1] if nr < len(child._out_meta) else None)
    if want is not None and want is not g.dtype and want.is_floating_point and g.dtype.is_floating_point:
        return g.to(want)
    return g


def _accumulate(leaf, g, create_graph: bool, stored: set[int]) -> None:
    if leaf._hooks:
        for h in list(leaf._hooks):
            r = h(g)
            if r is not None:
                g = r
    if tuple(g._shape) != tuple(leaf._shape):
        raise RuntimeError(f"Function AccumulateGrad returned an invalid gradient - got {list(g._shape)} "
                           f"but expected shape compatible with {list(leaf._shape)}")
    if not create_graph:
        g = g.detach()
    if leaf.grad is None:
        # a gradient whose memory already went to another leaf (or is a view of other memory) is
        # copied, so in-place changes of one .grad (zero_(), an optimizer's step) never reach another
        if id(g._storage) in stored or g._base is not None or not g.is_contiguous():
            g = g.clone()
        stored.add(id(g._storage))
        leaf.grad = g
    else:
        leaf.grad = leaf.grad + g if create_graph else (leaf.grad + g).detach()
    post = POST_ACCUMULATE.get(id(leaf))
    if post:
        for h in list(post):
            h(leaf)


# Tensor.register_post_accumulate_grad_hook's hooks by id(leaf) (ops/tensor_meta.py drops an entry when its
# tensor dies), called once .grad holds the sum
POST_ACCUMULATE: dict[int, list] = {}


def backward(tensors, grad_tensors=None, retain_graph=None, create_graph: bool = False, inputs=None) -> None:
    """Compute the gradients of ``tensors`` and add them into the ``.grad`` of the leaves."""
    outputs = _as_list(tensors)
    gouts = _as_list(grad_tensors)
    grads = _initial_grads(outputs, gouts, "backward")
    if retain_graph is None:
        retain_graph = create_graph
    if inputs is not None:
        inputs = _as_list(inputs)
        capture = {}
        for i, t in enumerate(inputs):
            e = edge_of(t)
            if e is not None:
                capture[e] = i
        got = _run(outputs, grads, retain_graph, create_graph, capture, accumulate=False)
        stored: set[int] = set()
        for i, t in enumerate(inputs):
            if i in got and got[i] is not None:
                _accumulate(t, got[i], create_graph, stored)
        return
    _run(outputs, grads, retain_graph, create_graph)


def grad(outputs, inputs, grad_outputs=None, retain_graph=None, create_graph: bool = False,
         only_inputs: bool = True, allow_unused: bool | None = None, is_grads_batched: bool = False,
         materialize_grads: bool = False):
    """The gradients of ``outputs`` with respect to ``inputs`` (returned, not accumulated)."""
    outputs = _as_list(outputs)
    inputs = _as_list(inputs)
    for i, t in enumerate(inputs):
        if not (t._requires_grad or t.grad_fn is not None):
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    grads = _initial_grads(outputs, _as_list(grad_outputs), "grad")
    if retain_graph is None:
        retain_graph = create_graph
    capture = {}
    for i, t in enumerate(inputs):
        capture[edge_of(t)] = i
    got = _run(outputs, grads, retain_graph, create_graph, capture, accumulate=False)
    result = []
    for i, t in enumerate(inputs):
        g = got.get(i)
        if g is None:
            if materialize_grads:
                g = t.new_zeros(t._shape)
            elif not allow_unused:
                raise RuntimeError("One of the differentiated Tensors appears to not have been used in the graph. "
                                   "Set allow_unused=True if this is the desired behavior.")
        elif not create_graph:
            g = g.detach()
        result.append(g)
    return tuple(result)


def _tensor_backward(self, gradient=None, retain_graph=None, create_graph: bool = False, inputs=None) -> None:
    """Compute gradients of this tensor w.r.t. graph leaves and add them into their ``.grad``."""
    backward(self, gradient, retain_graph, create_graph, inputs)


api("backward", method=_tensor_backward)
