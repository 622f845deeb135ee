"""Ops that return views (no data moves): view, reshape, permute, transpose, expand, squeeze,
unsqueeze, flatten, unflatten, narrow, select, chunk, split, unbind, movedim, as_strided."""
from __future__ import annotations

import builtins
import math

from .. import autograd
from ..autograd.graph import check_leaf_write
from ..tensor import Tensor, _wrap_dim
from ._registry import OpDef, api, methods, register

__all__ = ["reshape", "permute", "transpose", "squeeze", "unsqueeze", "flatten", "unflatten", "narrow", "select",
           "chunk", "split", "unbind", "movedim", "t", "swapaxes", "swapdims", "as_strided", "view_as_shape",
           "make_view", "infer_size"]


for _n in ("view", "reshape", "view_as", "flatten", "unflatten", "squeeze", "unsqueeze", "permute", "transpose", "t",
           "T", "mT", "expand", "expand_as", "narrow", "select", "chunk", "split", "unbind"):
    register(OpDef(_n, "view", None, None, tol=(0, 0), doc="view: new shape and strides over the same storage"))


def make_view(x: Tensor, shape, stride, offset: int) -> Tensor:
    """A tensor over x's storage with the given geometry (no autograd)."""
    v = Tensor._make(x._storage, shape, x.dtype, x._device, stride, offset)
    v._base = x._base if x._base is not None else x
    v._ver = x._ver
    return v


def _record_view(name: str, x: Tensor, out: Tensor, backward) -> Tensor:
    node = autograd.record(name, [x], [out], backward)
    if node is not None:
        out._view_src_fn = out._base.grad_fn
        out._view_fn = None
    return out


def infer_size(op: str, shape, numel: int) -> tuple[int, ...]:
    shape = list(shape)
    neg = [i for i, s in enumerate(shape) if s == -1]
    if len(neg) > 1:
        raise RuntimeError("only one dimension can be inferred")
    for s in shape:
        if s < -1:
            raise RuntimeError(f"invalid shape dimension {s}")
    known = math.prod(s for s in shape if s != -1)
    if neg:
        if known == 0 or numel % known:
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape[neg[0]] = numel // known
    elif known != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return tuple(shape)


def _shape_args(args) -> tuple:
    if len(args) == 1 and isinstance(args[0], (tuple, list)):
        args = tuple(args[0])
    return tuple(builtins.int(a) for a in args)


def _view_strides(old_shape, old_stride, new_shape):
    """PyTorch's computeStride: strides for viewing without a copy, or None when impossible."""
    if math.prod(old_shape) == 0 or not old_shape:
        st, acc = [], 1
        for s in reversed(new_shape):
            st.append(acc)
            acc *= max(s, 1)
        return tuple(reversed(st))
    new_stride = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = old_stride[-1] if old_stride else 1
    tensor_numel, view_numel = 1, 1
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        if tensor_d == 0 or (old_shape[tensor_d - 1] != 1 and
                             old_stride[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_stride[view_d] = view_numel * chunk_base_stride
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = old_stride[tensor_d - 1]
                tensor_numel, view_numel = 1, 1
    if view_d != -1:
        return None
    return tuple(new_stride)


def view(x: Tensor, *shape) -> Tensor:
    """A view of ``x`` with a new shape (one size may be -1); raises when the strides do not allow a
    view (``reshape`` copies instead).

    Example::

        >>> torch.arange(6).view(2, -1)
        tensor([[0, 1, 2],
                [3, 4, 5]])
    """
    if len(shape) == 1 and not isinstance(shape[0], (tuple, list, builtins.int)) and hasattr(shape[0], "is_floating_point"):
        raise TypeError("view(dtype) is not supported")
    shape = infer_size("view", _shape_args(shape), x.numel())
    st = _view_strides(x._shape, x._stride, shape)
    if st is None:
        raise RuntimeError("view size is not compatible with input tensor's size and stride (at least one dimension "
                           "spans across two contiguous subspaces). Use .reshape(...) instead.")
    out = make_view(x, shape, st, x._offset)
    in_shape = x._shape
    return _record_view("ViewBackward0", x, out, lambda g: (g.reshape(in_shape),))


def reshape(input: Tensor, *shape) -> Tensor:
    """``input`` with a new shape: a view when the strides allow, else a copy."""
    shape = infer_size("reshape", _shape_args(shape), input.numel())
    st = _view_strides(input._shape, input._stride, shape)
    if st is not None:
        out = make_view(input, shape, st, input._offset)
        in_shape = input._shape
        return _record_view("ViewBackward0", input, out, lambda g: (g.reshape(in_shape),))
    return view(input.contiguous(), shape)


def view_as_shape(x: Tensor, other: Tensor) -> Tensor:
    """``x.view(other.shape)``."""
    return view(x, other._shape)


def permute(input: Tensor, *dims) -> Tensor:
    """A view with the dims reordered: dim ``i`` of the result is dim ``dims[i]`` of ``input``.

    Example::

        >>> torch.permute(torch.zeros(2, 3, 4), (2, 0, 1)).shape
        torch.Size([4, 2, 3])
    """
    dims = _shape_args(dims)
    n = input.dim()
    if len(dims) != n:
        raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not match the length "
                           f"of the desired ordering of dimensions i.e. input.dim() = {n} is not equal to "
                           f"len(dims) = {len(dims)}")
    d = [_wrap_dim(i, n, "permute") for i in dims]
    if len(set(d)) != n:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    out = make_view(input, [input._shape[i] for i in d], [input._stride[i] for i in d], input._offset)
    inv = [0] * n
    for i, j in enumerate(d):
        inv[j] = i
    return _record_view("PermuteBackward0", input, out, lambda g: (g.permute(inv),))


def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    """A view with ``dim0`` and ``dim1`` swapped (also ``swapaxes`` / ``swapdims``).

    Example::

        >>> torch.transpose(torch.zeros(2, 3, 4), 0, 2).shape
        torch.Size([4, 3, 2])
    """
    n = input.dim()
    a, b = _wrap_dim(dim0, n, "transpose"), _wrap_dim(dim1, n, "transpose")
    shape, stride = list(input._shape), list(input._stride)
    if n:
        shape[a], shape[b] = shape[b], shape[a]
        stride[a], stride[b] = stride[b], stride[a]
    out = make_view(input, shape, stride, input._offset)
    return _record_view("TransposeBackward0", input, out, lambda g: (g.transpose(a, b),))


swapaxes = swapdims = transpose


def t(input: Tensor) -> Tensor:
    """The transpose of a matrix (0-D and 1-D tensors come back as they are).

    Example::

        >>> torch.tensor([[1, 2, 3]]).t()
        tensor([[1],
                [2],
                [3]])
    """
    if input.dim() > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {input.dim()}D")
    if input.dim() < 2:
        return _alias(input)
    out = make_view(input, input._shape[::-1], input._stride[::-1], input._offset)
    return _record_view("TBackward0", input, out, lambda g: (g.t(),))


def _alias(x: Tensor) -> Tensor:
    out = make_view(x, x._shape, x._stride, x._offset)
    return _record_view("AliasBackward0", x, out, lambda g: (g,))


def expand(input: Tensor, *sizes) -> Tensor:
    """A view where size-1 dims are repeated to ``sizes`` (-1 keeps a size) without copying; new dims
    may be added in front.

    Example::

        >>> torch.tensor([[1], [2]]).expand(2, 3)
        tensor([[1, 1, 1],
                [2, 2, 2]])
    """
    sizes = _shape_args(sizes)
    n, m = input.dim(), len(sizes)
    if m < n:
        raise RuntimeError(f"expand({input.type()}{{{list(input._shape)}}}, size={list(sizes)}): the number of sizes "
                           f"provided ({m}) must be greater or equal to the number of dimensions in the tensor ({n})")
    shape, stride = [], []
    for i, s in enumerate(sizes):
        j = i - (m - n)
        if j < 0:
            if s < 0:
                raise RuntimeError(f"The expanded size of the tensor ({s}) isn't allowed in a leading, "
                                   f"non-existing dimension {i}")
            shape.append(s)
            stride.append(0)
            continue
        cur = input._shape[j]
        if s == -1:
            s = cur
        if cur == s:
            shape.append(s)
            stride.append(input._stride[j])
        elif cur == 1:
            shape.append(s)
            stride.append(0)
        else:
            raise RuntimeError(f"The expanded size of the tensor ({s}) must match the existing size ({cur}) at "
                               f"non-singleton dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                               f"{list(input._shape)}")
    out = make_view(input, shape, stride, input._offset)
    in_shape = input._shape
    return _record_view("ExpandBackward0", input, out, lambda g: (g.sum_to_size(in_shape),))


def squeeze(input: Tensor, dim=None) -> Tensor:
    """A view without the size-1 dims (all of them, or those of ``dim``: an int or a tuple).

    Example::

        >>> torch.squeeze(torch.zeros(2, 1, 3, 1)).shape
        torch.Size([2, 3])
    """
    n = input.dim()
    if dim is None:
        dims = [i for i, s in enumerate(input._shape) if s == 1]
    else:
        dl = (dim,) if isinstance(dim, builtins.int) else tuple(dim)
        dims = [_wrap_dim(d, n, "squeeze") for d in dl] if n else []
        dims = [d for d in dims if input._shape[d] == 1]
    shape = [s for i, s in enumerate(input._shape) if i not in dims]
    stride = [s for i, s in enumerate(input._stride) if i not in dims]
    out = make_view(input, shape, stride, input._offset)
    in_shape = input._shape
    return _record_view("SqueezeBackward0", input, out, lambda g: (g.reshape(in_shape),))


def unsqueeze(input: Tensor, dim: int) -> Tensor:
    """A view with a new size-1 dim at position ``dim``.

    Example::

        >>> torch.unsqueeze(torch.zeros(2, 3), 1).shape
        torch.Size([2, 1, 3])
    """
    n = input.dim()
    d = _wrap_dim(dim, n + 1, "unsqueeze")
    shape, stride = list(input._shape), list(input._stride)
    new_stride = shape[d] * stride[d] if d < n else 1
    shape.insert(d, 1)
    stride.insert(d, new_stride)
    out = make_view(input, shape, stride, input._offset)
    return _record_view("UnsqueezeBackward0", input, out, lambda g: (g.squeeze(d),))


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    """Dims ``start_dim`` to ``end_dim`` merged into one (a view when the strides allow).

    Example::

        >>> torch.flatten(torch.zeros(2, 3, 4), 1).shape
        torch.Size([2, 12])
    """
    n = input.dim()
    if n == 0:
        _wrap_dim(start_dim, 1, "flatten")
        _wrap_dim(end_dim, 1, "flatten")
        return reshape(input, 1)
    s, e = _wrap_dim(start_dim, n, "flatten"), _wrap_dim(end_dim, n, "flatten")
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    shape = list(input._shape[:s]) + [math.prod(input._shape[s:e + 1])] + list(input._shape[e + 1:])
    return reshape(input, shape)


def unflatten(input: Tensor, dim: int, sizes) -> Tensor:
    """Dim ``dim`` split into ``sizes`` (one may be -1); the inverse of ``flatten``.

    Example::

        >>> torch.unflatten(torch.zeros(2, 12), 1, (3, -1)).shape
        torch.Size([2, 3, 4])
    """
    n = input.dim()
    d = _wrap_dim(dim, n, "unflatten")
    sizes = list(sizes)
    if not sizes:
        raise RuntimeError("unflatten: sizes must be non-empty")
    if -1 not in sizes and math.prod(sizes) != input._shape[d]:
        raise RuntimeError(f"unflatten: Provided sizes {sizes} don't multiply up to the size of dim {dim} "
                           f"({input._shape[d]}) in the input tensor")
    sizes = list(infer_size("unflatten", sizes, input._shape[d]))
    return view(input, list(input._shape[:d]) + sizes + list(input._shape[d + 1:]))


def narrow(input: Tensor, dim: int, start, length: int) -> Tensor:
    """A view of ``length`` elements along ``dim`` from ``start``.

    Example::

        >>> torch.narrow(torch.arange(6), 0, 2, 3)
        tensor([2, 3, 4])
    """
    n = input.dim()
    if n == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, n, "narrow")
    size = input._shape[d]
    start = builtins.int(start)
    if not -size <= start <= size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], but got {start})")
    if start < 0:
        start += size
    if length < 0 or start + length > size:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({size}).")
    return slice_dim(input, d, start, start + length, 1)


def slice_dim(input: Tensor, d: int, start: int, stop: int, step: int) -> Tensor:
    """``input`` restricted to start:stop:step along dim d (already normalised)."""
    shape, stride = list(input._shape), list(input._stride)
    length = max(0, (stop - start + step - 1) // step)
    shape[d] = length
    offset = input._offset + (start * stride[d] if length else 0)
    stride[d] = stride[d] * step
    out = make_view(input, shape, stride, offset)
    in_shape = input._shape

    def back(g):  # ops/indexing.py's slice_backward, through Tensor: the views sit below the indexing ops
        return (g._slice_backward(in_shape, d, start, stop, step),)
    return _record_view("SliceBackward0", input, out, back)


def select(input: Tensor, dim: int, index) -> Tensor:
    """The slice at ``index`` along ``dim``, that dim removed (``x[:, i]`` is ``x.select(1, i)``).

    Example::

        >>> torch.select(torch.tensor([[1, 2], [3, 4]]), 1, 0)
        tensor([1, 3])
    """
    n = input.dim()
    if n == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, n, "select")
    size = input._shape[d]
    index = builtins.int(index)
    if not -size <= index < size:
        raise IndexError(f"select(): index {index} out of range for tensor of size {list(input._shape)} at "
                         f"dimension {d}")
    if index < 0:
        index += size
    shape = list(input._shape[:d]) + list(input._shape[d + 1:])
    stride = list(input._stride[:d]) + list(input._stride[d + 1:])
    out = make_view(input, shape, stride, input._offset + index * input._stride[d])
    in_shape = input._shape

    def back(g):  # ops/indexing.py's select_backward, through Tensor
        return (g._select_backward(in_shape, d, index),)
    return _record_view("SelectBackward0", input, out, back)


def split(tensor: Tensor, split_size_or_sections, dim: int = 0):
    """Views of equal pieces of ``split_size_or_sections`` (an int; the last may be smaller) or of the
    listed sizes along ``dim``.

    Example::

        >>> [p.tolist() for p in torch.split(torch.arange(5), 2)]
        [[0, 1], [2, 3], [4]]
    """
    n = tensor.dim()
    if n == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    d = _wrap_dim(dim, n, "split")
    size = tensor._shape[d]
    if isinstance(split_size_or_sections, builtins.int):
        s = split_size_or_sections
        if s < 0 or (s == 0 and size != 0):
            raise RuntimeError(f"split_size can only be 0 if dimension size is 0, but got dimension size of {size}")
        if size == 0:
            sections = [0]
        else:
            sections = [s] * (size // s) + ([size % s] if size % s else [])
    else:
        sections = [builtins.int(x) for x in split_size_or_sections]
        if builtins.sum(sections) != size:
            raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size at "
                               f"dimension {d}), but got split_sizes={sections}")
    out, start = [], 0
    for s in sections:
        out.append(narrow(tensor, d, start, s))
        start += s
    return tuple(out)


def chunk(input: Tensor, chunks: int, dim: int = 0):
    """At most ``chunks`` views of (nearly) equal size along ``dim``.

    Example::

        >>> [p.tolist() for p in torch.chunk(torch.arange(6), 3)]
        [[0, 1], [2, 3], [4, 5]]
    """
    if chunks <= 0:
        raise RuntimeError(f"chunk expects `chunks` to be greater than 0, got: {chunks}")
    n = input.dim()
    if n == 0:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    d = _wrap_dim(dim, n, "chunk")
    size = input._shape[d]
    each = -(-size // chunks) if size else 0
    if each == 0:
        return tuple(narrow(input, d, 0, 0) for _ in range(chunks)) if size == 0 else ()
    return split(input, each, d)


def unbind(input: Tensor, dim: int = 0):
    """A tuple of the slices along ``dim``, each without that dim.

    Example::

        >>> torch.unbind(torch.tensor([[1, 2], [3, 4]]))
        (tensor([1, 2]), tensor([3, 4]))
    """
    n = input.dim()
    if n == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    d = _wrap_dim(dim, n, "unbind")
    return tuple(select(input, d, i) for i in range(input._shape[d]))


def movedim(input: Tensor, source, destination) -> Tensor:
    """A view with dims ``source`` moved to positions ``destination`` (ints or sequences); the other dims
    keep their order (also ``moveaxis``).

    Example::

        >>> torch.movedim(torch.zeros(2, 3, 4), 0, -1).shape
        torch.Size([3, 4, 2])
    """
    n = input.dim()
    src = [source] if isinstance(source, builtins.int) else list(source)
    dst = [destination] if isinstance(destination, builtins.int) else list(destination)
    if len(src) != len(dst):
        raise RuntimeError(f"movedim: Invalid source or destination dims: source ({src} dims) should contain the same "
                           f"number of dims as destination ({dst} dims)")
    src = [_wrap_dim(s, n, "movedim") for s in src]
    dst = [_wrap_dim(s, n, "movedim") for s in dst]
    order = [None] * n
    for s, d2 in zip(src, dst):
        order[d2] = s
    rest = iter(i for i in range(n) if i not in src)
    order = [o if o is not None else next(rest) for o in order]
    return permute(input, order)


def as_strided(input: Tensor, size, stride, storage_offset=None) -> Tensor:
    """A view of ``input``'s storage with the given ``size``, ``stride`` and ``storage_offset`` (no
    checks, no gradient).

    Example::

        >>> torch.arange(4).as_strided((2, 2), (1, 1))
        tensor([[0, 1],
                [1, 2]])
    """
    off = input._offset if storage_offset is None else builtins.int(storage_offset)
    out = make_view(input, tuple(size), tuple(stride), off)
    if autograd.graph.needs_grad(input):
        raise NotImplementedError("as_strided: gradients are not implemented")
    return out


def _expand_as(x, other):
    """``x.expand(other.size())``."""
    return expand(x, other._shape)


def _T(x):
    """The tensor with all its dims reversed (``permute(n-1, ..., 0)``)."""
    return permute(x, list(range(x.dim() - 1, -1, -1)))


def _mT(x):
    """The last two dims transposed (a batch of matrices)."""
    if x.dim() < 2:
        raise RuntimeError(f"tensor.mT is only supported on matrices or batches of matrices. Got {x.dim()}-D tensor.")
    return transpose(x, -2, -1)


def _meta_inplace(name: str, fn):
    """squeeze_, unsqueeze_, t_, transpose_: self takes the view's shape and strides."""
    def method(self, *args, **kwargs):
        check_leaf_write(name, self)
        v = fn(self, *args, **kwargs)
        self._shape, self._stride, self._offset = v._shape, v._stride, v._offset
        if v.grad_fn is not None:
            self.grad_fn, self._output_nr = v.grad_fn, v._output_nr
        return self
    method.__name__ = name
    method.__doc__ = f"In-place version of ``{fn.__name__}``: this tensor takes the view's shape and strides."
    return method


# ---- the public names (bound by borch_webgpu/_bind.py) ------------------------------------------
for _n, _f in (("squeeze_", squeeze), ("unsqueeze_", unsqueeze), ("t_", t)):
    api(_n, method=_meta_inplace(_n, _f))
api("transpose_", method=_meta_inplace("transpose_", transpose), aliases=("swapaxes_", "swapdims_"))
api("view", method=view)
api("view_as", method=view_as_shape, aliases=("reshape_as",))
api("T", method=property(_T))
api("mT", method=property(_mT))
api("expand", method=expand)
api("expand_as", method=_expand_as)
api("as_strided", as_strided)
methods(("reshape", reshape), ("permute", permute), ("transpose", transpose), ("swapaxes", swapaxes),
        ("swapdims", swapdims), ("t", t), ("squeeze", squeeze), ("unsqueeze", unsqueeze), ("flatten", flatten),
        ("unflatten", unflatten), ("narrow", narrow), ("select", select), ("split", split), ("chunk", chunk),
        ("unbind", unbind))
api("movedim", movedim, aliases=("moveaxis",))
