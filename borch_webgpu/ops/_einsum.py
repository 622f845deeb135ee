"""``einsum``: the equation becomes diagonals (repeated labels), sums (labels nobody needs),
permutes and reshapes, and batched products through linalg's differentiable core, operands
combined left to right as PyTorch does without opt_einsum."""
from __future__ import annotations

import math

import numpy as np

from .. import autograd
from ..device.gpu_backend import contiguous_strides
from ..tensor import Tensor
from ._registry import api
from .linalg import _gemm, _same_dtype, _tensors, to_scalar

__all__ = ["einsum"]

_ELL = 0x100  # labels of ellipsis dims: chr(_ELL + i), sorted before every letter


def _parse_term(term: str, where: str) -> list[str]:
    out, i = [], 0
    while i < len(term):
        if term.startswith("...", i):
            if "..." in out:
                raise RuntimeError(f"einsum(): found '.' for {where} that is not part of any ellipsis")
            out.append("...")
            i += 3
            continue
        ch = term[i]
        if not ("a" <= ch <= "z" or "A" <= ch <= "Z"):
            if ch == ".":
                raise RuntimeError(f"einsum(): found '.' for {where} that is not part of any ellipsis")
            raise RuntimeError(f"einsum(): invalid subscript given at index {i} in the equation string, "
                               "subscripts must be in [a-zA-Z]")
        out.append(ch)
        i += 1
    return out


def _sublist(args) -> tuple[str, list]:
    """einsum(op0, sublist0, op1, sublist1, ..., [sublist_out]) as an equation string."""
    def letters(sub):
        s = ""
        for v in sub:
            if v is Ellipsis:
                s += "..."
            elif isinstance(v, int) and 0 <= v < 52:
                s += chr(ord("A") + v) if v < 26 else chr(ord("a") + v - 26)
            else:
                raise ValueError(f"einsum(): subscript in subscript list is not within the valid range [0, 52), "
                                 f"got {v}")
        return s
    n = len(args) // 2
    ops, terms = list(args[0:2 * n:2]), [letters(s) for s in args[1:2 * n:2]]
    eq = ",".join(terms)
    return (eq + "->" + letters(args[-1]) if len(args) % 2 else eq), ops


def einsum(*args) -> Tensor:
    """Einstein summation: ``einsum("bij,bjk->bik", a, b)``; implicit output (``"ij,jk"``), ellipsis,
    repeated labels (``"ii->i"``), operands as a list, and the sublist form are accepted.

    Example::

        >>> import borch_webgpu as torch
        >>> torch.einsum("i,i->", torch.ones(3), torch.ones(3)).item()
        3.0
    """
    if not args:
        raise TypeError("einsum(): must specify the equation string and at least one operand, or at least one "
                        "operand and its subscripts list")
    if isinstance(args[0], str):
        eq, ops = args[0], list(args[1:])
        if len(ops) == 1 and isinstance(ops[0], (list, tuple)):
            ops = list(ops[0])
    else:
        eq, ops = _sublist(args)
    for i, t in enumerate(ops):
        if not isinstance(t, Tensor):
            raise TypeError(f"einsum(): argument 'operands' must be tuple of Tensors, but found element of type "
                            f"{type(t).__name__} at pos {i}")
    eq = eq.replace(" ", "")
    lhs, arrow, rhs = eq.partition("->")
    terms = [_parse_term(t, "operand " + str(i)) for i, t in enumerate(lhs.split(","))]
    if len(ops) < len(terms):
        raise RuntimeError("einsum(): fewer operands were provided than specified in the equation")
    if len(ops) > len(terms):
        raise RuntimeError("einsum(): more operands were provided than specified in the equation")
    _tensors("einsum", *[("operands", t) for t in ops])
    if len(ops) > 1:
        _same_dtype("bmm", *ops)

    # labels per operand, with ellipsis dims expanded right-aligned over the widest ellipsis
    n_ell = 0
    for i, (term, t) in enumerate(zip(terms, ops)):
        named = len(term) - ("..." in term)
        if "..." not in term and named != t.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({named}) does not match the "
                               f"number of dimensions ({t.dim()}) for operand {i} and no ellipsis was given")
        if named > t.dim():
            raise RuntimeError(f"einsum(): the number of subscripts in the equation ({named}) is more than the "
                               f"number of dimensions ({t.dim()}) for operand {i}")
        n_ell = max(n_ell, t.dim() - named)
    labels = []
    for term, t in zip(terms, ops):
        k = t.dim() - (len(term) - ("..." in term))
        ell = [chr(_ELL + n_ell - k + j) for j in range(k)]
        labels.append([x for lab in term for x in (ell if lab == "..." else [lab])])
    all_ell = [chr(_ELL + j) for j in range(n_ell)]
    if arrow:
        out_terms = _parse_term(rhs, "the output")
        out = [x for lab in out_terms for x in (all_ell if lab == "..." else [lab])]
        seen = set()
        for lab in out:
            if lab in seen:
                raise RuntimeError(f"einsum(): output subscript {lab} appears more than once in the output")
            if not any(lab in ls for ls in labels):
                raise RuntimeError(f"einsum(): output subscript {lab} does not appear in the equation for any input "
                                   "operand")
            seen.add(lab)
    else:
        counts = {}
        for ls in labels:
            for lab in ls:
                counts[lab] = counts.get(lab, 0) + 1
        out = all_ell + sorted(lab for lab, n in counts.items() if n == 1 and lab not in all_ell)

    # sizes: equal, or 1 (broadcast)
    size: dict[str, int] = {}
    for i, (ls, t) in enumerate(zip(labels, ops)):
        own: dict[str, int] = {}
        for lab, s in zip(ls, t._shape):
            if own.setdefault(lab, s) != s:
                raise RuntimeError(f"einsum(): subscript {lab} is repeated for operand {i} but the sizes don't match, "
                                   f"{own[lab]} != {s}")
            prev = size.get(lab, 1)
            if prev == 1:
                size[lab] = s
            elif s not in (1, prev):
                shapes = " ".join(f"{list(x._shape)}->{list(x._shape)}" for x in ops)
                raise RuntimeError(f"einsum(): operands do not broadcast with remapped shapes (original->remapped): "
                                   f"{shapes}")

    items = [_diagonals(t, ls) for t, ls in zip(ops, labels)]
    for idx in range(len(items)):  # sum out the labels that only this operand has and the output lacks
        t, ls = items[idx]
        others = set(out).union(*[set(items[j][1]) for j in range(len(items)) if j != idx])
        items[idx] = _sum_out(t, ls, others)
    t, ls = items[0]
    for j in range(1, len(items)):
        keep = set(out).union(*[set(items[k][1]) for k in range(j + 1, len(items))])
        t, ls = _pair(t, ls, *items[j], keep)
    t, ls = _sum_out(t, ls, set(out))
    return t.permute([ls.index(lab) for lab in out])


def _diagonals(t: Tensor, ls: list[str]):
    """Repeated labels of one operand become one dim (the diagonal, a view)."""
    while len(set(ls)) != len(ls):
        d1 = next(i for i, lab in enumerate(ls) if ls.index(lab) != i)
        d0 = ls.index(ls[d1])
        t = _diagonal(t, d0, d1)
        ls = ls[:d1] + ls[d1 + 1:]
    return t, ls


def _diagonal(x: Tensor, d0: int, d1: int) -> Tensor:
    """x[..., i, ..., i, ...] along dims d0 < d1 (kept at d0): a view, differentiable."""
    from .memory import strided_put
    from .views import make_view

    def geom(strides, offset):
        st = list(strides)
        st[d0] += st[d1]
        shape = list(x._shape)
        del shape[d1], st[d1]
        return shape, st, offset
    shape, st, off = geom(x._stride, x._offset)
    out = make_view(x.detach(), shape, st, off)
    base_shape, g_geom = x._shape, geom(contiguous_strides(x._shape), 0)
    autograd.record("DiagonalBackward0", [x], [out], lambda g: (strided_put(g.contiguous(), base_shape, g_geom),))
    return out


def _sum_out(t: Tensor, ls: list[str], keep: set):
    dims = [i for i, lab in enumerate(ls) if lab not in keep]
    if not dims:
        return t, ls
    return t.sum(dim=dims), [lab for lab in ls if lab in keep]


def _pair(a: Tensor, la: list[str], b: Tensor, lb: list[str], keep: set):
    """a (labels la) times b (labels lb), summing the shared labels that are not kept."""
    a, la = _sum_out(a, la, keep | set(lb))
    b, lb = _sum_out(b, lb, keep | set(la))
    batch = [lab for lab in la if lab in lb and lab in keep]
    contract = [lab for lab in la if lab in lb and lab not in keep]
    a_only = [lab for lab in la if lab not in lb]
    b_only = [lab for lab in lb if lab not in la]
    sa = dict(zip(la, a._shape))
    sb = dict(zip(lb, b._shape))
    if not contract:
        # no sum: a broadcast multiply (each result is one product, as in a K = 1 product)
        from .elementwise import mul
        order = batch + a_only + b_only
        ax = _arrange(a, la, order)
        bx = _arrange(b, lb, order)
        return mul(ax, bx), order
    ksz = [max(sa[lab], sb[lab]) for lab in contract]
    a2 = a.permute([la.index(lab) for lab in batch + a_only + contract])
    a2 = a2.expand(list(a2._shape[:len(batch) + len(a_only)]) + ksz)
    a2 = a2.reshape([sa[lab] for lab in batch] + [math.prod(sa[lab] for lab in a_only), math.prod(ksz)])
    b2 = b.permute([lb.index(lab) for lab in batch + contract + b_only])
    b2 = b2.expand(list(b2._shape[:len(batch)]) + ksz + list(b2._shape[len(batch) + len(contract):]))
    b2 = b2.reshape([sb[lab] for lab in batch] + [math.prod(ksz), math.prod(sb[lab] for lab in b_only)])
    r = _gemm(a2, b2, name="BmmBackward0")
    bsz = list(np.broadcast_shapes(tuple(sa[lab] for lab in batch), tuple(sb[lab] for lab in batch)))
    shape = bsz + [sa[lab] for lab in a_only] + [sb[lab] for lab in b_only]
    r = r.reshape(shape) if shape else to_scalar(r)
    return r, batch + a_only + b_only


def _arrange(t: Tensor, ls: list[str], order: list[str]) -> Tensor:
    """t permuted to ``order``'s labels that it has, with size-1 dims for the ones it lacks."""
    have = [lab for lab in order if lab in ls]
    t = t.permute([ls.index(lab) for lab in have])
    shape = [t._shape[have.index(lab)] if lab in ls else 1 for lab in order]
    return t.reshape(shape)


api("einsum", einsum, tensor=False)
