"""Golden cases: reductions, scans, softmax, sorting (imported by cases.py)."""
from __future__ import annotations

import numpy as np

from cases import SPECIAL, Big, V, big_in, bools, case, distinct, golden, ints, strided, tr, uniform
from cases_binary import MODERATE
from golden_io import formula

SPECS = [((5,), None, False), ((3, 4), None, False), ((3, 4), 0, False), ((3, 4), 1, True), ((3, 4), -1, False),
         ((2, 3, 4), 1, False), ((2, 3, 4), -3, True), ((2, 3, 4), (0, 2), False), ((2, 3, 4), (0, 2), True),
         ((2, 3, 4), (-1, 0), False), ((2, 3, 4), (0, 1, 2), False), ((2, 3, 4, 5), (1, 3), False),
         ((2, 3, 4, 5), 2, True), ((), None, False), ((), 0, False), ((), -1, True), ((0,), None, False),
         ((3, 0), 1, False), ((3, 0), 0, False), ((1, 5), 0, False), ((7, 300), 1, False), ((300, 7), 0, False),
         ((2, 2000), 1, False), ((1000, 3), 0, True)]


def untied_seed(shape, dim, start, k=1):
    """A seed for Big(shape) whose k+1 largest and k+1 smallest values along ``dim`` (None: all) are distinct,
    so that indices (argmax, topk, ...) are unambiguous."""
    for seed in range(start, start + 200):
        a = formula(shape, "float32", seed)
        a = a.reshape(-1) if dim is None else np.moveaxis(a, dim, -1)
        s = np.sort(a, axis=-1)
        if (np.diff(s[..., -(k + 1):], axis=-1) > 0).all() and (np.diff(s[..., :k + 1], axis=-1) > 0).all():
            return seed
    raise ValueError("no untied seed")


def _kw(dim, keep):
    return {} if dim is None else {"dim": dim, "keepdim": keep}


def reduce_battery(fn, gen, *, tuple_dims=True, method=None, grad=True, dtypes=("int64", "int32", "bool"), kw=None,
                   specs=True, full=True, big=None, seed=900, int_gen=None, special=True, grad_gen=None,
                   empty_grad=True, special_vals=None):
    """Standard reduction cases: shapes and dims (int, tuple, negative, keepdim), dtypes, views, errors, grads,
    large. gen: shape -> float32 input; big: (shape, seed) -> Big-based input (None: raw Big)."""
    kw = dict(kw or {})
    big = big or (lambda shape, s: Big(shape, seed=s))
    gg = grad_gen or gen
    out = []

    def ok(dim):
        return (dim is not None or full) and (tuple_dims or not isinstance(dim, tuple))

    if specs:
        for shape, dim, keep in SPECS:
            if ok(dim):
                out.append(case(fn, gen(shape), id=f"{shape} dim={dim} keepdim={keep}", **_kw(dim, keep), **kw))
        if full:
            out.append(case(fn, gen((3, 4)), dim=None, keepdim=True, id="dim=None keepdim=True (probe)", **kw))
        for dt in dtypes:
            x = bools((4, 5)) if dt == "bool" else (int_gen or (lambda s, d: ints(s, -9, 9, d)))((4, 5), dt)
            if full:
                out.append(case(fn, x, id=f"{dt} all (dtype probe)", **kw))
            out.append(case(fn, x, dim=1, id=f"{dt} dim 1 (dtype probe)", **kw))
    if method:
        out.append(case(method, gen((3, 4)), id="method", **kw) if full else
                   case(method, gen((3, 4)), 0, id="method", **kw))
        out.append(case(method, gen((2, 3, 4)), 1, id="method positional dim", **kw))
        out.append(case(method, gen((2, 3, 4)), dim=-1, keepdim=True, id="method keepdim", **kw))
    if special:
        sv = SPECIAL if special_vals is None else special_vals
        sp = np.stack([sv, sv[::-1], np.roll(sv, 3)])
        out.append(case(fn, sp.copy(), dim=1, id="special values dim 1", **kw))
        out.append(case(fn, sp[:, 5:].copy(), dim=1, id="special values without nan dim 1", **kw))
        out.append(case(fn, sp.T.copy(), dim=0, id="special values dim 0", **kw))
    # views
    out.append(case(fn, tr(gen((5, 3))), dim=0, id="transposed dim 0", **kw))
    out.append(case(fn, tr(gen((5, 3))), dim=1, id="transposed dim 1", **kw))
    out.append(case(fn, strided(gen((3, 10))), dim=-1, id="strided dim -1", **kw))
    out.append(case(fn, V(gen((3, 1)), ("expand", 3, 4)), dim=1, id="expanded dim 1", **kw))
    out.append(case(fn, V(gen((2, 3, 4)), ("permute", 2, 0, 1)), dim=1, id="permuted dim 1", **kw))
    if tuple_dims:
        out.append(case(fn, V(gen((2, 3, 4)), ("permute", 2, 0, 1)), dim=(0, 2), id="permuted dims (0, 2)", **kw))
    if full:
        out.append(case(fn, tr(gen((6, 4))), id="transposed all", **kw))
    # errors
    out.append(case(fn, gen((3, 4)), dim=2, id="error: dim out of range", **kw))
    out.append(case(fn, gen((3, 4)), dim=-3, id="error: negative dim out of range", **kw))
    if tuple_dims:
        out.append(case(fn, gen((3, 4)), dim=(0, 0), id="error: repeated dim", **kw))
        out.append(case(fn, gen((3, 4)), dim=(1, -1), id="error: repeated dim negative", **kw))
    # gradients
    if grad:
        if full:
            out.append(case(fn, gg((3, 4)), id="grad all", grad=True, **kw))
            out.append(case(fn, gg(()), id="grad 0-d", grad=True, **kw))
        out.append(case(fn, gg((3, 4)), dim=1, id="grad dim 1", grad=True, **kw))
        out.append(case(fn, gg((3, 4)), dim=0, keepdim=True, id="grad dim 0 keepdim", grad=True, **kw))
        out.append(case(fn, gg((2, 3, 4)), dim=-2, id="grad 3-D dim -2", grad=True, **kw))
        if tuple_dims:
            out.append(case(fn, gg((2, 3, 4)), dim=(0, 2), keepdim=True, id="grad dims (0, 2) keepdim", grad=True,
                            **kw))
            out.append(case(fn, gg((2, 3, 4)), dim=(-1, 0), id="grad dims (-1, 0)", grad=True, **kw))
        out.append(case(fn, tr(gg((5, 3))), dim=0, id="grad transposed", grad=True, **kw))
        out.append(case(fn, strided(gg((3, 10))), dim=1, id="grad strided", grad=True, **kw))
        out.append(case(fn, V(gg((3, 1)), ("expand", 3, 4)), dim=1, id="grad expanded", grad=True, **kw))
        if empty_grad:
            out.append(case(fn, gg((0, 3)), dim=1, id="grad empty", grad=True, **kw))
    # large
    if full:
        out.append(case(fn, big((1 << 20,), seed), id="1M all", **kw))
    out.append(case(fn, big((1024, 1024), seed + 1), dim=0, id="1024x1024 dim 0", **kw))
    out.append(case(fn, big((1024, 1024), seed + 2), dim=1, id="1024x1024 dim 1", **kw))
    out.append(case(fn, big((4, 1 << 18), seed + 3), dim=1, id="4 rows of 256K", **kw))
    out.append(case(fn, big((1 << 18, 4), seed + 4), dim=-1, id="256K rows of 4", **kw))
    if tuple_dims:
        out.append(case(fn, big((64, 128, 128), seed + 5), dim=(0, 2), id="64x128x128 dims (0, 2)", **kw))
    if grad:
        out.append(case(fn, big((1024, 1024), seed + 6), dim=1, id="1M grad dim 1", grad=True, **kw))
    return out


def sum_extra():
    """sum beyond cases._sum: methods, views, errors, gradients."""
    out = reduce_battery("sum", lambda s: uniform(s), specs=False, method="Tensor.sum", seed=920)
    # cases._sum has these already
    out = [c for c in out if c["id"] not in ("1M all", "1024x1024 dim 0", "1024x1024 dim 1", "4 rows of 256K",
                                             "method")]
    out.append(case("sum", ints((3, 4)), dim=1, dtype="float32", id="int64 with dtype float32"))
    out.append(case("sum", bools((3, 4)), dim=0, keepdim=True, id="bool keepdim"))
    out.append(case("sum", uniform((2, 3, 4)), dim=[0, 1], id="dims as a list"))
    out.append(case("sum", uniform((2, 3, 4)), (0, 2), True, id="positional dims keepdim"))
    return out


golden("mean")(lambda: reduce_battery("mean", lambda s: uniform(s), method="Tensor.mean", seed=940) + [
    case("mean", ints((3, 4)), dim=1, dtype="float32", id="int64 with dtype float32"),
    case("mean", uniform((2, 3, 4)), dim=[0, 1], id="dims as a list")])


def _prod_gen(shape):
    """Magnitudes around 1 (no overflow or underflow in long products), random signs."""
    return np.asarray((np.exp(uniform(shape, -0.3, 0.3)) * np.where(bools(shape), 1, -1)), dtype=np.float32)


def _prod_big(shape, seed):
    """Big input for products along the last dim: values in 1 +- 1/sqrt(n), so products of n stay near 1."""
    n = shape[-1]
    if n <= 4:
        return big_in(shape, -2, 2, seed)
    h = 1.0 / np.sqrt(n)
    return big_in(shape, 1 - h, 1 + h, seed)


@golden("prod")
def _prod():
    out = reduce_battery("prod", _prod_gen, tuple_dims=False, method="Tensor.prod", seed=960,
                         int_gen=lambda s, d: ints(s, -2, 2, d),
                         big=_prod_big)
    # products of 256K or 1M float32 factors carry ~1e-5 rounding in PyTorch's own result: rows of <= 1024 only
    out = [c for c in out if c["id"] not in ("1M all", "4 rows of 256K")]
    out.append(case("prod", _prod_gen((2, 3, 4)), dim=(0, 1), id="error: tuple dim"))
    out.append(case("prod", ints((3, 4), -2, 2), dim=1, dtype="float32", id="int64 with dtype float32"))
    out.append(case("prod", ints((4, 8), -3, 3), dim=1, id="int64 rows"))
    z1 = _prod_gen((3, 4))
    z1[0, 1] = 0.0
    z2 = _prod_gen((3, 4))
    z2[1, 0] = z2[1, 3] = 0.0
    z2[2, 2] = -0.0
    out.append(case("prod", z1, dim=1, id="grad one zero in a row", grad=True))
    out.append(case("prod", z2, dim=1, id="grad two zeros in a row", grad=True))
    out.append(case("prod", z1, id="grad all with one zero", grad=True))
    out.append(case("prod", z2, id="grad all with zeros", grad=True))
    return out


def _maxmin(fn):
    def gen():
        d = lambda s: distinct(s)  # noqa: E731
        out = []
        for shape, dim, keep in SPECS:
            if isinstance(dim, tuple):
                continue
            out.append(case(fn, d(shape), id=f"{shape} dim={dim} keepdim={keep}", **_kw(dim, keep)))
        out.append(case(fn, d((3, 4)), 1, id="positional dim"))
        out.append(case(fn, d((3, 4)), 1, True, id="positional dim keepdim"))
        out.append(case(f"Tensor.{fn}", d((3, 4)), id="method all"))
        out.append(case(f"Tensor.{fn}", d((3, 4)), dim=0, id="method dim"))
        out.append(case(fn, d((2, 3, 4)), dim=(0, 1), id="error: tuple dim"))
        out.append(case(fn, d((3, 4)), dim=2, id="error: dim out of range"))
        out.append(case(fn, d((0, 3)), id="error: empty all"))
        out.append(case(fn, d((0, 3)), dim=0, id="error: reduce over an empty dim"))
        out.append(case(fn, d((0, 3)), dim=1, id="empty kept dim"))
        for dt in ("int64", "int32"):
            out.append(case(fn, distinct((4, 5), dtype=dt), id=f"{dt} all"))
            out.append(case(fn, distinct((4, 5), dtype=dt), dim=1, id=f"{dt} dim 1"))
        out.append(case(fn, np.array([[True, False], [False, True]]), dim=1, id="bool dim 1"))
        nan = np.array([[1.0, np.nan, 3.0, -1.0], [2.0, 5.0, -np.inf, np.inf], [np.nan, 0.5, 0.25, -7.0]], np.float32)
        out.append(case(fn, nan, dim=1, id="nan wins"))
        out.append(case(fn, nan, id="nan wins all"))
        out.append(case(fn, nan[1:2].copy(), dim=1, id="infinities"))
        out.append(case(fn, d((3, 4)), d((3, 4)), id="binary form"))
        out.append(case(fn, d((3, 4)), d((4,)), id="binary form broadcast"))
        out.append(case(fn, tr(d((5, 3))), dim=0, id="transposed dim 0"))
        out.append(case(fn, tr(d((5, 3))), dim=1, id="transposed dim 1"))
        out.append(case(fn, strided(d((3, 10))), dim=1, id="strided dim 1"))
        out.append(case(fn, tr(d((6, 4))), id="transposed all"))
        out.append(case(fn, d((3, 4)), id="grad all", grad=True))
        out.append(case(fn, d((3, 4)), dim=1, id="grad dim 1", grad=True))
        out.append(case(fn, d((2, 3, 4)), dim=0, keepdim=True, id="grad dim 0 keepdim", grad=True))
        out.append(case(fn, d(()), id="grad 0-d", grad=True))
        out.append(case(fn, tr(d((5, 3))), dim=0, id="grad transposed", grad=True))
        out.append(case(fn, d((3, 4)), d((3, 4)), id="grad binary form", grad=True))
        out.append(case(fn, np.array([1.0, 3.0, 3.0, -2.0], np.float32), id="grad all with ties (split evenly)",
                        grad=True))
        s = untied_seed((1 << 20,), None, 980)
        out.append(case(fn, Big((1 << 20,), seed=s), id="1M all"))
        s = untied_seed((1024, 1024), 0, s + 1)
        out.append(case(fn, Big((1024, 1024), seed=s), dim=0, id="1024x1024 dim 0"))
        s = untied_seed((1024, 1024), 1, s + 1)
        out.append(case(fn, Big((1024, 1024), seed=s), dim=1, id="1024x1024 dim 1", grad=True))
        s = untied_seed((4, 1 << 18), 1, s + 1)
        out.append(case(fn, Big((4, 1 << 18), seed=s), dim=1, keepdim=True, id="4 rows of 256K"))
        s = untied_seed((1 << 18, 4), 1, s + 1)
        out.append(case(fn, Big((1 << 18, 4), seed=s), dim=1, id="256K rows of 4"))
        return out
    golden(fn)(gen)


_maxmin("max")
_maxmin("min")


def _amaxmin(fn):
    def gen():
        d = lambda s: distinct(s)  # noqa: E731
        out = reduce_battery(fn, d, method=f"Tensor.{fn}", seed=1000 + len(fn),
                             int_gen=lambda s, dt: ints(s, -9, 9, dt), empty_grad=False)
        out.append(case(fn, np.array([[1.0, 3.0, 3.0], [2.0, 2.0, -1.0]], np.float32), dim=1,
                        id="grad ties (split evenly)", grad=True))
        out.append(case(fn, np.array([[1.0, 3.0, 3.0], [2.0, 2.0, -1.0]], np.float32), id="grad all with ties",
                        grad=True))
        out.append(case(fn, d((2, 3, 4)), dim=[0, 2], id="dims as a list"))
        return out
    golden(fn)(gen)


_amaxmin("amax")
_amaxmin("amin")


def _argmaxmin(fn):
    def gen():
        d = lambda s: distinct(s)  # noqa: E731
        out = []
        for shape, dim, keep in SPECS:
            if isinstance(dim, tuple):
                continue
            out.append(case(fn, d(shape), id=f"{shape} dim={dim} keepdim={keep}", **_kw(dim, keep)))
        out.append(case(fn, d((3, 4)), keepdim=True, id="no dim keepdim=True"))
        out.append(case(fn, d((3, 4)), 1, id="positional dim"))
        out.append(case(f"Tensor.{fn}", d((3, 4)), id="method"))
        out.append(case(f"Tensor.{fn}", d((2, 3, 4)), dim=-1, keepdim=True, id="method dim keepdim"))
        for dt in ("int64", "int32"):
            out.append(case(fn, distinct((4, 5), dtype=dt), id=f"{dt} all"))
            out.append(case(fn, distinct((4, 5), dtype=dt), dim=0, id=f"{dt} dim 0"))
        out.append(case(fn, bools((4, 5)), dim=1, id="bool (dtype probe)"))
        nan = np.array([[1.0, np.nan, 3.0, -1.0], [2.0, 5.0, -np.inf, np.inf], [np.nan, 0.5, 0.25, -7.0]], np.float32)
        out.append(case(fn, nan, dim=1, id="nan wins"))
        out.append(case(fn, nan, id="nan wins all"))
        out.append(case(fn, SPECIAL[5:].copy(), id="special values without nan"))
        out.append(case(fn, d((3, 4)), dim=2, id="error: dim out of range"))
        out.append(case(fn, d((0, 3)), id="error: empty"))
        out.append(case(fn, d((0, 3)), dim=0, id="error: reduce over an empty dim"))
        out.append(case(fn, d((0, 3)), dim=1, id="empty kept dim"))
        out.append(case(fn, tr(d((5, 3))), dim=0, id="transposed dim 0"))
        out.append(case(fn, tr(d((5, 3))), dim=1, id="transposed dim 1"))
        out.append(case(fn, tr(d((6, 4))), id="transposed all"))
        out.append(case(fn, strided(d((3, 10))), dim=1, id="strided"))
        s = untied_seed((1 << 20,), None, 1040)
        out.append(case(fn, Big((1 << 20,), seed=s), id="1M all"))
        s = untied_seed((1024, 1024), 0, s + 1)
        out.append(case(fn, Big((1024, 1024), seed=s), dim=0, id="1024x1024 dim 0"))
        s = untied_seed((1024, 1024), 1, s + 1)
        out.append(case(fn, Big((1024, 1024), seed=s), dim=1, id="1024x1024 dim 1"))
        s = untied_seed((1 << 18, 4), 1, s + 1)
        out.append(case(fn, Big((1 << 18, 4), seed=s), dim=1, id="256K rows of 4"))
        return out
    golden(fn)(gen)


_argmaxmin("argmax")
_argmaxmin("argmin")


def _varstd(fn):
    def gen():
        u = lambda s: uniform(s)  # noqa: E731
        # no 1e38-sized values: PyTorch's CPU kernel accumulates in double, float32 kernels overflow
        out = reduce_battery(fn, u, method=f"Tensor.{fn}", seed=1060 + len(fn), empty_grad=False,
                             special_vals=MODERATE)
        for c in (0, 1, 2):
            out.append(case(fn, u((3, 5)), correction=c, id=f"correction={c} all"))
            out.append(case(fn, u((3, 5)), dim=1, correction=c, id=f"correction={c} dim 1"))
            out.append(case(fn, u((2, 3, 4)), dim=(0, 2), correction=c, keepdim=True, id=f"correction={c} dims (0, 2)"))
            out.append(case(fn, u((3, 5)), dim=0, correction=c, id=f"grad correction={c}", grad=True))
        out.append(case(fn, u((3, 5)), correction=0.5, dim=1, id="fractional correction"))
        for ub in (True, False):
            out.append(case(fn, u((3, 5)), unbiased=ub, id=f"unbiased={ub} all"))
            out.append(case(fn, u((3, 5)), dim=1, unbiased=ub, id=f"unbiased={ub} dim 1"))
            out.append(case(fn, u((3, 5)), dim=1, unbiased=ub, keepdim=True, id=f"grad unbiased={ub}", grad=True))
        out.append(case(fn, u((3, 5)), 1, False, id="positional dim unbiased"))
        out.append(case(fn, u((3, 5)), 1, True, True, id="positional dim unbiased keepdim"))
        out.append(case(fn, u((3, 1)), dim=1, id="one element, correction 1 (nan)"))
        out.append(case(fn, u((3, 2)), dim=1, correction=2, id="correction equals n"))
        out.append(case(fn, u((3, 2)), dim=1, correction=3, id="correction above n"))
        out.append(case(fn, np.full((2, 5), 3.25, np.float32), dim=1, id="constant rows"))
        out.append(case(fn, (uniform((4, 100), -1, 1) + 1000).astype(np.float32), dim=1, id="large offset"))
        out.append(case(fn, V(Big((1024, 1024), seed=1070), ("add", 100.0)), dim=1, id="1M offset rows"))
        out.append(case(fn, Big((1024, 1024), seed=1071), correction=0, id="1M all correction=0"))
        if fn == "std":
            out.append(case(fn, np.full((2, 5), 1.5, np.float32), dim=1, id="grad constant rows (zero std)",
                            grad=True))
        return out
    golden(fn)(gen)


_varstd("var")
_varstd("std")


@golden("norm")
def _norm():
    out = []
    u = lambda s: uniform(s)  # noqa: E731
    inf = float("inf")
    for p in (2, 1, inf, -inf, 3, 0, 0.5, "fro"):
        out.append(case("norm", u((3, 4)), p=p, id=f"torch.norm p={p!r}"))
        if p != "fro":
            out.append(case("norm", u((7,)), p=p, id=f"torch.norm 1-D p={p!r}"))
        out.append(case("norm", u((3, 4)), p=p, dim=1, id=f"torch.norm p={p!r} dim 1"))
        out.append(case("norm", u((2, 3, 4)), p=p, dim=(0, 2), id=f"torch.norm p={p!r} dims (0, 2)"))
        out.append(case("norm", u((2, 3, 4)), p=p, dim=-1, keepdim=True, id=f"torch.norm p={p!r} dim -1 keepdim"))
    out.append(case("norm", u((3, 4)), id="torch.norm default"))
    out.append(case("norm", u(()), id="0-d"))
    out.append(case("norm", u((0, 3)), id="empty"))
    out.append(case("norm", u((0, 3)), dim=1, id="empty rows"))
    out.append(case("Tensor.norm", u((3, 4)), id="method"))
    out.append(case("Tensor.norm", u((3, 4)), 1, 1, id="method positional p dim"))
    out.append(case("norm", ints((3, 4)), id="error: int64"))
    out.append(case("norm", u((3, 4)), dim=2, id="error: dim out of range"))
    for ordv in (None, 2, 1, inf, -inf, 0, 3):
        out.append(case("linalg.vector_norm", u((3, 4)), ord=ordv if ordv is not None else 2,
                        id=f"vector_norm ord={ordv!r}"))
        out.append(case("linalg.vector_norm", u((3, 4)), ord=ordv if ordv is not None else 2, dim=1,
                        id=f"vector_norm ord={ordv!r} dim 1"))
    out.append(case("linalg.vector_norm", u((2, 3, 4)), dim=(0, 2), keepdim=True, id="vector_norm dims keepdim"))
    out.append(case("linalg.norm", u((3, 4)), id="linalg.norm default (fro)"))
    out.append(case("linalg.norm", u((7,)), id="linalg.norm 1-D"))
    out.append(case("linalg.norm", u((7,)), ord=inf, id="linalg.norm 1-D ord=inf"))
    out.append(case("linalg.norm", u((7,)), ord=1, id="linalg.norm 1-D ord=1"))
    out.append(case("linalg.norm", u((3, 4)), dim=1, id="linalg.norm dim 1"))
    out.append(case("linalg.norm", u((3, 4)), ord="fro", id="linalg.norm fro"))
    out.append(case("linalg.norm", u((3, 4)), ord=inf, id="linalg.norm matrix ord=inf (max row sum)"))
    out.append(case("linalg.norm", u((3, 4)), ord=1, id="linalg.norm matrix ord=1 (max column sum)"))
    out.append(case("linalg.norm", u((2, 3, 4)), ord="fro", dim=(1, 2), id="linalg.norm batched fro"))
    out.append(case("norm", SPECIAL.copy(), id="special values"))
    out.append(case("norm", SPECIAL.copy(), p=1, id="special values p=1"))
    out.append(case("norm", SPECIAL.copy(), p=inf, id="special values p=inf"))
    out.append(case("norm", np.array([3e20, 4e20], np.float32), id="squares overflow (inf)"))
    out.append(case("norm", np.array([3e-25, 4e-25], np.float32), id="squares underflow (0)"))
    out.append(case("norm", tr(u((5, 3))), dim=0, id="transposed dim 0"))
    out.append(case("norm", strided(u((3, 10))), p=1, dim=1, id="strided p=1"))
    for p in (2, 1, inf, "fro", 3):
        out.append(case("norm", u((3, 4)), p=p, id=f"grad p={p!r}", grad=True))
        out.append(case("norm", u((3, 4)), p=p, dim=1, id=f"grad p={p!r} dim 1", grad=True))
    out.append(case("norm", tr(u((5, 3))), dim=0, keepdim=True, id="grad transposed keepdim", grad=True))
    out.append(case("norm", u((2, 3, 4)), dim=(0, 2), id="grad dims (0, 2)", grad=True))
    out.append(case("linalg.vector_norm", u((3, 4)), ord=inf, dim=0, id="grad vector_norm inf", grad=True))
    out.append(case("linalg.norm", u((3, 4)), id="grad linalg.norm", grad=True))
    out.append(case("norm", np.zeros((2, 3), np.float32), dim=1, id="grad zero rows", grad=True))
    out.append(case("norm", Big((1 << 20,), seed=1080), id="1M"))
    out.append(case("norm", Big((1024, 1024), seed=1081), p=1, dim=0, id="1024x1024 p=1 dim 0"))
    out.append(case("norm", Big((1024, 1024), seed=1082), p=inf, dim=1, id="1024x1024 p=inf dim 1"))
    out.append(case("linalg.vector_norm", Big((1024, 1024), seed=1083), dim=1, id="1M grad dim 1", grad=True))
    return out


@golden("logsumexp")
def _logsumexp():
    u = lambda s: uniform(s, -5, 5)  # noqa: E731
    out = reduce_battery("logsumexp", u, full=False, method="Tensor.logsumexp", seed=1100, empty_grad=True,
                         big=lambda shape, s: big_in(shape, -10, 10, s))
    out.append(case("logsumexp", u((2, 3, 4)), dim=(0, 1, 2), id="all dims"))
    out.append(case("logsumexp", u((3, 4)), id="error: no dim (probe)"))
    out.append(case("logsumexp", (u((3, 4)) + 1000).astype(np.float32), dim=1, id="large values (stable)"))
    out.append(case("logsumexp", (u((3, 4)) - 1000).astype(np.float32), dim=1, id="very negative values"))
    m = u((3, 4))
    m[0, :] = -np.inf
    m[1, 1] = -np.inf
    m[2, 2] = np.inf
    out.append(case("logsumexp", m, dim=1, id="infinities"))
    out.append(case("logsumexp", m, dim=1, id="grad with -inf entries", grad=True))
    out.append(case("logsumexp", (u((3, 4)) + 500).astype(np.float32), dim=1, id="grad large values", grad=True))
    return out


def _scan(fn):
    def gen():
        if fn == "cumsum":
            g = lambda s: uniform(s)  # noqa: E731
            ig = lambda s, d: ints(s, -9, 9, d)  # noqa: E731
            big = lambda shape, s: big_in(shape, 0, 1, s) if len(shape) == 1 else Big(shape, seed=s)  # noqa: E731
        else:
            g = _prod_gen
            ig = lambda s, d: ints(s, -2, 2, d)  # noqa: E731
            big = _prod_big
        out = []
        for shape, dim in [((5,), 0), ((5,), -1), ((3, 4), 0), ((3, 4), 1), ((3, 4), -1), ((2, 3, 4), 1),
                           ((2, 3, 4), -3), ((2, 3, 4), 2), ((), 0), ((), -1), ((0,), 0), ((3, 0), 1), ((3, 0), 0),
                           ((1, 5), 0), ((7, 300), 1), ((300, 7), 0), ((2, 1000), 1), ((1000, 2), 0)]:
            out.append(case(fn, g(shape), dim, id=f"{shape} dim={dim}"))
        out.append(case(fn, g((3, 4)), dim=1, id="dim kwarg"))
        out.append(case(f"Tensor.{fn}", g((3, 4)), 0, id="method"))
        out.append(case(f"Tensor.{fn}", g((3, 4)), dim=-1, id="method dim kwarg"))
        out.append(case(f"Tensor.{fn}_", g((3, 4)), 1, id="in-place"))
        out.append(case(f"Tensor.{fn}_", ig((3, 4), "int64"), 0, id="in-place int64"))
        for dt in ("int64", "int32"):
            out.append(case(fn, ig((3, 5), dt), 1, id=f"{dt}"))
        out.append(case(fn, bools((3, 5)), 1, id="bool"))
        out.append(case(fn, ig((3, 5), "int64"), 1, dtype="float32", id="int64 with dtype float32"))
        out.append(case(fn, g((3, 5)), 1, dtype="int64", id="float with dtype int64 (probe)"))
        out.append(case(fn, g((3, 4)), 2, id="error: dim out of range"))
        out.append(case(fn, g((3, 4)), id="error: no dim"))
        sp = np.stack([SPECIAL, SPECIAL[::-1]])
        out.append(case(fn, sp.copy(), 1, id="special values"))
        out.append(case(fn, tr(g((5, 3))), 0, id="transposed dim 0"))
        out.append(case(fn, tr(g((5, 3))), 1, id="transposed dim 1"))
        out.append(case(fn, strided(g((3, 10))), 1, id="strided"))
        out.append(case(fn, V(g((2, 3, 4)), ("permute", 2, 0, 1)), 1, id="permuted"))
        out.append(case(fn, g((3, 4)), 1, id="grad", grad=True))
        out.append(case(fn, g((3, 4)), 0, id="grad dim 0", grad=True))
        out.append(case(fn, g((2, 3, 4)), -2, id="grad 3-D", grad=True))
        out.append(case(fn, g(()), 0, id="grad 0-d", grad=True))
        out.append(case(fn, tr(g((5, 3))), 1, id="grad transposed", grad=True))
        out.append(case(fn, strided(g((3, 10))), 1, id="grad strided", grad=True))
        out.append(case(f"Tensor.{fn}_", V(g((3, 4)), ("mul", 1.0)), 1, id="grad in-place", grad=True))
        if fn == "cumprod":
            z = g((3, 5))
            z[0, 2] = 0.0
            z[1, 1] = z[1, 3] = 0.0
            z[2, 4] = 0.0
            out.append(case(fn, z, 1, id="zeros"))
            out.append(case(fn, z, 1, id="grad with zeros", grad=True))
        out.append(case(fn, big((1 << 20,), 1110 + len(fn)), 0, id="1M"))
        out.append(case(fn, big((1024, 1024), 1120 + len(fn)), 1, id="1024x1024 dim 1"))
        out.append(case(fn, big((1024, 1024), 1130 + len(fn)), 0, id="1024x1024 dim 0"))
        out.append(case(fn, big((1024, 1024), 1140 + len(fn)), 1, id="1M grad", grad=True))
        if fn == "cumsum":
            out.append(case(fn, Big((1 << 20,), "int64", seed=1150), 0, id="1M int64"))
        return out
    golden(fn)(gen)


_scan("cumsum")
_scan("cumprod")


def _with_zeros(shape):
    a = uniform(shape, -2, 2)
    return np.asarray(np.where(np.abs(a) < 0.7, 0.0, a), dtype=np.float32)


def _allany(fn):
    def gen():
        out = reduce_battery(fn, _with_zeros, method=f"Tensor.{fn}", grad=False, seed=1160 + len(fn),
                             int_gen=lambda s, d: ints(s, -1, 1, d), special=True,
                             big=lambda shape, s: Big(shape, "bool", seed=s))
        out.append(case(fn, np.ones((3, 4), bool), dim=1, id="all true"))
        out.append(case(fn, np.zeros((3, 4), bool), dim=1, id="all false"))
        out.append(case(fn, np.array([np.nan, -0.0, 2e-38], np.float32), id="nan true, -0 false"))
        out.append(case(fn, Big((1 << 18, 4), "int64", seed=1170), dim=1, id="int64 256K rows of 4"))
        out.append(case(fn, Big((1 << 20,), "int64", seed=1171), id="int64 1M"))
        return out
    golden(fn)(gen)


_allany("all")
_allany("any")


def _softmax(fn):
    def gen():
        u = lambda s: uniform(s, -4, 4)  # noqa: E731
        out = []
        for shape, dim in [((5,), 0), ((5,), -1), ((3, 4), -1), ((3, 4), 0), ((3, 4), 1), ((2, 3, 4), 1),
                           ((2, 3, 4), -2), ((2, 3, 4), 0), ((2, 3, 4, 5), 2), ((), 0), ((), -1), ((0, 4), 1),
                           ((3, 0), 1), ((1, 7), 1), ((7, 300), 1), ((300, 7), 0), ((2, 2000), 1), ((2000, 2), 0)]:
            out.append(case(fn, u(shape), dim, id=f"{shape} dim={dim}"))
        F = f"nn.functional.{fn}"
        out.append(case(F, u((3, 4)), dim=-1, id="F dim -1"))
        out.append(case(F, u((2, 3, 4)), dim=1, id="F dim 1"))
        out.append(case(f"Tensor.{fn}", u((3, 4)), -1, id="method"))
        out.append(case(f"Tensor.{fn}", u((3, 4)), dim=0, id="method dim kwarg"))
        out.append(case(fn, u((3, 4)), dim=1, dtype="float32", id="dtype kwarg"))
        out.append(case(fn, ints((3, 4)), 1, id="error: int64 (probe)"))
        out.append(case(fn, ints((3, 4)), 1, dtype="float32", id="int64 with dtype float32"))
        out.append(case(fn, u((3, 4)), 2, id="error: dim out of range"))
        out.append(case(fn, (u((3, 4)) + 1000).astype(np.float32), 1, id="large values (stable)"))
        out.append(case(fn, (u((3, 4)) * 30).astype(np.float32), 1, id="wide range"))
        m = u((4, 5))
        m[0, 1:] = -np.inf
        m[1, 2] = -np.inf
        m[2, :] = -np.inf
        out.append(case(fn, m, 1, id="-inf masked (all -inf row gives nan)"))
        out.append(case(fn, np.array([[1.0, np.inf, 2.0], [1.0, np.nan, 2.0]], np.float32), 1, id="inf and nan"))
        out.append(case(fn, tr(u((5, 3))), 0, id="transposed dim 0"))
        out.append(case(fn, tr(u((5, 3))), 1, id="transposed dim 1"))
        out.append(case(fn, strided(u((3, 10))), -1, id="strided"))
        out.append(case(fn, V(u((2, 3, 4)), ("permute", 2, 0, 1)), 2, id="permuted"))
        out.append(case(fn, u((3, 4)), -1, id="grad", grad=True))
        out.append(case(fn, u((3, 4)), 0, id="grad dim 0", grad=True))
        out.append(case(fn, u((2, 3, 4)), 1, id="grad 3-D dim 1", grad=True))
        out.append(case(fn, u(()), 0, id="grad 0-d", grad=True))
        out.append(case(fn, tr(u((5, 3))), 1, id="grad transposed", grad=True))
        out.append(case(fn, strided(u((3, 10))), 1, id="grad strided", grad=True))
        mm = u((3, 4))
        mm[0, 1] = mm[2, 3] = -np.inf
        out.append(case(fn, mm, 1, id="grad with -inf entries", grad=True))
        out.append(case(F, u((2, 3, 4)), dim=-1, id="grad F", grad=True))
        out.append(case(fn, Big((1024, 1024), seed=1180), -1, id="1024x1024 dim -1"))
        out.append(case(fn, Big((1024, 1024), seed=1181), 0, id="1024x1024 dim 0"))
        out.append(case(fn, big_in((1 << 20,), -10, 10, 1182), 0, id="1M in one row"))
        out.append(case(fn, Big((1 << 18, 4), seed=1183), 1, id="256K rows of 4"))
        out.append(case(fn, Big((1024, 1024), seed=1184), 1, id="1M grad", grad=True))
        return out
    golden(fn)(gen)


_softmax("softmax")
_softmax("log_softmax")


@golden("topk")
def _topk():
    d = lambda s: distinct(s)  # noqa: E731
    out = []
    for shape, k, kw in [((10,), 3, {}), ((10,), 3, {"largest": False}), ((10,), 10, {}), ((10,), 0, {}),
                         ((10,), 1, {}), ((3, 8), 2, {"dim": 1}), ((3, 8), 2, {"dim": 0}), ((3, 8), 3, {"dim": -1}),
                         ((3, 8), 2, {"dim": 0, "largest": False}), ((2, 3, 8), 2, {"dim": 1}),
                         ((2, 3, 8), 5, {"dim": -1, "largest": False}), ((2, 3, 8), 2, {"dim": 0}),
                         ((3, 8), 2, {"sorted": True}), ((), 1, {}), ((0, 4), 2, {"dim": 1}),
                         ((4, 0), 0, {"dim": 1}), ((5, 300), 7, {}), ((300, 5), 7, {"dim": 0}),
                         ((2, 3000), 50, {"largest": False})]:
        out.append(case("topk", d(shape), k, id=f"{shape} k={k} {kw}", **kw))
    out.append(case("topk", d((3, 8)), 2, 0, False, True, id="positional k dim largest sorted"))
    out.append(case("Tensor.topk", d((3, 8)), 3, id="method"))
    out.append(case("Tensor.topk", d((3, 8)), k=2, dim=0, largest=False, id="method kwargs"))
    for dt in ("int64", "int32"):
        out.append(case("topk", distinct((4, 9), dtype=dt), 3, id=f"{dt}"))
    out.append(case("topk", np.array([1.0, np.nan, 3.0, -np.inf, np.inf, 0.5], np.float32), 3, id="nan is largest"))
    out.append(case("topk", np.array([1.0, np.nan, 3.0, -np.inf, np.inf, 0.5], np.float32), 3, largest=False,
                    id="smallest with nan and inf"))
    out.append(case("topk", d((10,)), 11, id="error: k above size"))
    out.append(case("topk", d((10,)), -1, id="error: negative k"))
    out.append(case("topk", d((3, 8)), 2, dim=2, id="error: dim out of range"))
    out.append(case("topk", tr(d((8, 3))), 2, dim=1, id="transposed dim 1"))
    out.append(case("topk", tr(d((8, 3))), 2, dim=0, id="transposed dim 0"))
    out.append(case("topk", strided(d((3, 20))), 4, id="strided"))
    out.append(case("topk", d((3, 8)), 3, id="grad", grad=True))
    out.append(case("topk", d((3, 8)), 2, dim=0, largest=False, id="grad smallest dim 0", grad=True))
    out.append(case("topk", d((10,)), 4, id="grad 1-D", grad=True))
    out.append(case("topk", tr(d((8, 3))), 2, dim=1, id="grad transposed", grad=True))
    s = untied_seed((1 << 20,), None, 1200, k=8)
    out.append(case("topk", Big((1 << 20,), seed=s), 8, id="1M k=8"))
    s = untied_seed((1 << 20,), None, s + 1, k=8)
    out.append(case("topk", Big((1 << 20,), seed=s), 8, largest=False, id="1M k=8 smallest"))
    s = untied_seed((1024, 1024), 1, s + 1, k=5)
    out.append(case("topk", Big((1024, 1024), seed=s), 4, dim=1, id="1024x1024 k=4 dim 1", grad=True))
    s = untied_seed((1024, 1024), 0, s + 1, k=5)
    out.append(case("topk", Big((1024, 1024), seed=s), 5, dim=0, id="1024x1024 k=5 dim 0"))
    return out


def _sort_cases(fn):
    """sort and argsort: distinct values, or ties with stable=True."""
    d = lambda s: distinct(s)  # noqa: E731
    out = []
    for shape, kw in [((10,), {}), ((10,), {"descending": True}), ((3, 8), {}), ((3, 8), {"dim": 0}),
                      ((3, 8), {"dim": -1, "descending": True}), ((2, 3, 8), {"dim": 1}), ((2, 3, 8), {"dim": 0}),
                      ((2, 3, 8), {"dim": -2, "descending": True}), ((), {}), ((0,), {}), ((3, 0), {"dim": 1}),
                      ((1, 9), {"dim": 0}), ((5, 300), {}), ((300, 5), {"dim": 0}), ((2, 3000), {}),
                      ((2, 1025), {"descending": True}), ((2, 2049), {})]:
        out.append(case(fn, d(shape), id=f"{shape} {kw}", **kw))
    out.append(case(fn, d((3, 8)), 0, True, id="positional dim descending"))
    out.append(case(f"Tensor.{fn}", d((3, 8)), id="method"))
    out.append(case(f"Tensor.{fn}", d((3, 8)), dim=0, descending=True, id="method kwargs"))
    for dt in ("int64", "int32"):
        out.append(case(fn, distinct((4, 9), dtype=dt), id=f"{dt}"))
        out.append(case(fn, distinct((4, 9), dtype=dt), dim=0, descending=True, id=f"{dt} descending dim 0"))
    ties = ints((4, 12), -3, 3)
    out.append(case(fn, ties, stable=True, id="int64 ties stable"))
    out.append(case(fn, ties, stable=True, descending=True, id="int64 ties stable descending"))
    out.append(case(fn, (ties / 2).astype(np.float32), stable=True, dim=0, id="float ties stable dim 0"))
    out.append(case(fn, bools((3, 10)), stable=True, id="bool stable"))
    out.append(case(fn, np.array([0.0, -0.0, 1.0, -0.0, 0.0], np.float32), stable=True, id="signed zeros stable"))
    nan = np.array([1.0, np.nan, 3.0, -np.inf, np.inf, 0.5, np.nan, -2.0], np.float32)
    out.append(case(fn, nan, stable=True, id="nan sorts last"))
    out.append(case(fn, nan, stable=True, descending=True, id="nan sorts first descending"))
    out.append(case(fn, d((3, 8)), dim=2, id="error: dim out of range"))
    out.append(case(fn, tr(d((8, 3))), id="transposed dim -1"))
    out.append(case(fn, tr(d((8, 3))), dim=0, id="transposed dim 0"))
    out.append(case(fn, strided(d((3, 20))), descending=True, id="strided descending"))
    out.append(case(fn, Big((1024, 1024), seed=1220 + len(fn)), stable=True, id="1024x1024 stable"))
    out.append(case(fn, Big((1 << 20,), seed=1230 + len(fn)), stable=True, id="1M stable"))
    out.append(case(fn, Big((1024, 1024), seed=1240 + len(fn)), dim=0, descending=True, stable=True,
                    id="1024x1024 dim 0 descending stable"))
    out.append(case(fn, Big((1 << 20,), "int64", seed=1250 + len(fn)), stable=True, id="1M int64 stable"))
    return out


@golden("sort")
def _sort():
    d = lambda s: distinct(s)  # noqa: E731
    out = _sort_cases("sort")
    out.append(case("sort", d((3, 8)), id="grad", grad=True))
    out.append(case("sort", d((3, 8)), dim=0, descending=True, id="grad dim 0 descending", grad=True))
    out.append(case("sort", tr(d((8, 3))), id="grad transposed", grad=True))
    out.append(case("sort", d((10,)), id="grad 1-D", grad=True))
    out.append(case("sort", Big((1024, 1024), seed=1260), stable=True, id="1M grad stable", grad=True))
    return out


golden("argsort")(lambda: _sort_cases("argsort"))
