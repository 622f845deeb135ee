"""Expressions for float64 (and the default dtype): creation, casts, arithmetic, unary math,
reductions, matmul, promotion, printing and autograd.

generate_dtype64.py evaluates each with ``torch`` bound to real PyTorch (``dev`` = "cpu") and freezes
the value, or the exception's type and message, into dtype64.json; replay_dtype64.py evaluates them
with ``torch`` bound to borch_webgpu on a device (``cpu``, or ``webgpu`` in Chromium, where float64 is
held on the host) and compares: dtypes, shapes, integers, strings and reprs exactly, float values to
RTOL/ATOL, far tighter than float32 could reach (a float32 step anywhere shows as ~1e-8 relative).
The environment adds ``np``, ``nan``, ``inf`` and the helpers below (``X``, ``Y``, ``M``, ``N``: float64
tensors on ``dev``; ``grad(f, *xs)``; ``default64(f)``).
"""
from __future__ import annotations

RTOL, ATOL = 1e-12, 1e-14

_X = "[0.1, -0.7, 1.3, 2.9, -0.05, 0.6]"
_Y = "[0.3, 1.7, -0.4, 0.25, 0.9, -1.1]"
_M = "[[0.1, -0.2, 0.35, 1.1], [0.7, 0.05, -1.3, 0.4], [-0.6, 0.9, 0.15, -0.25]]"
_N = "[[0.2, -1.1], [0.45, 0.3], [-0.75, 0.6], [0.05, 1.9]]"


def helpers(torch, dev: str) -> dict:
    """The names the expressions use besides torch, dev and np (the same on both sides)."""
    def t(values, dtype=None, grad=False):
        return torch.tensor(values, dtype=dtype or torch.float64, device=dev, requires_grad=grad)

    def grad(f, *xs):
        leaves = [x.detach().clone().requires_grad_(True) for x in xs]
        return list(torch.autograd.grad(f(*leaves), leaves))

    def default64(f):
        torch.set_default_dtype(torch.float64)
        try:
            return f()
        finally:
            torch.set_default_dtype(torch.float32)

    def steps(name, **kw):
        """Three steps of optimizer ``name`` on a float64 parameter; its values after them."""
        w = t([0.3, -0.8, 1.1, 0.05, -0.4, 0.9], grad=True)
        opt = getattr(torch.optim, name)([w], **kw)
        x = t(eval(_X))
        for _ in range(3):
            opt.zero_grad()
            ((w * x).sin().sum() + (w * w).sum() * 0.1).backward()
            opt.step()
        return w.detach()

    return {"X": t(eval(_X)), "Y": t(eval(_Y)), "M": t(eval(_M)), "N": t(eval(_N)), "P": t([0.2, 1.5, 3.7, 0.01]),
            "t": t, "grad": grad, "default64": default64, "F": torch.nn.functional, "steps": steps}


UNARY = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "asin",
         "acos", "atan", "sinh", "cosh", "tanh", "sigmoid", "erf", "reciprocal", "floor", "ceil", "round", "trunc",
         "frac", "sign", "abs", "neg", "square", "relu"]
# each input chosen inside the op's domain (P > 0, Q in (0, 1))
_DOMAIN = {"log": "P", "log2": "P", "log10": "P", "log1p": "P", "sqrt": "P", "rsqrt": "P", "asin": "Q", "acos": "Q"}
Q = "t([0.05, 0.3, 0.5, 0.77, 0.999])"
# a (1, 2, 4, 5) image and (2, 2, 3, 3) kernels with digits float32 cannot hold
IMG = "(torch.arange(40, dtype=torch.float64, device=dev).reshape(1, 2, 4, 5) * 0.1).sin()"
KER = "(torch.arange(36, dtype=torch.float64, device=dev).reshape(2, 2, 3, 3) * 0.37).cos()"

CASES: list[tuple] = [
    # ---- creation and inference ------------------------------------------------------------------------
    ("tensor dtype=float64", f"t({_X})"),
    ("tensor from numpy float64", "torch.tensor(np.array([0.1, 1e-300, 1e300, -2.5]), device=dev)"),
    ("tensor from numpy float32 stays float32", "torch.tensor(np.array([0.1, 2.5], np.float32), device=dev)"),
    ("from_numpy float64", "torch.from_numpy(np.array([[0.1, 0.2], [0.3, 0.4]])).to(dev)"),
    ("tensor from a numpy float64 scalar", "torch.tensor(np.float64(0.1), device=dev)"),
    ("tensor from a list with a numpy float64", "torch.tensor([np.float64(0.1), 0.2], device=dev)"),
    ("tensor from Python floats is float32", "torch.tensor([0.1, 0.2], device=dev)"),
    ("zeros", "torch.zeros(2, 3, dtype=torch.float64, device=dev)"),
    ("ones", "torch.ones(4, dtype=torch.double, device=dev)"),
    ("full", "torch.full((2, 2), 0.1, dtype=torch.float64, device=dev)"),
    ("empty dtype", "torch.empty(3, dtype=torch.float64, device=dev).dtype"),
    ("arange", "torch.arange(0, 1, 0.1, dtype=torch.float64, device=dev)"),
    ("linspace", "torch.linspace(0, 1, 7, dtype=torch.float64, device=dev)"),
    ("eye", "torch.eye(3, dtype=torch.float64, device=dev)"),
    ("zeros_like", "torch.zeros_like(X)"),
    ("ones_like", "torch.ones_like(M)"),
    ("full_like", "torch.full_like(X, 1 / 3)"),
    ("new_full", "X.new_full((2,), 0.7)"),
    ("new_tensor", "X.new_tensor([0.1, 0.2])"),
    ("element_size", "X.element_size()"),
    ("is_floating_point", "X.is_floating_point()"),
    ("type()", "X.type()"),
    ("finfo float64 eps", "torch.finfo(torch.float64).eps"),
    # ---- the default dtype -------------------------------------------------------------------------------
    ("get_default_dtype", "torch.get_default_dtype()"),
    ("default float64: tensor", "default64(lambda: torch.tensor([0.1, 0.2], device=dev))"),
    ("default float64: zeros", "default64(lambda: torch.zeros(2, device=dev).dtype)"),
    ("default float64: arange", "default64(lambda: torch.arange(3.0, device=dev))"),
    ("default float64: int * float", "default64(lambda: torch.tensor([1, 2], device=dev) * 0.1)"),
    ("default float64: int.sin()", "default64(lambda: torch.tensor([1, 2], device=dev).sin())"),
    ("default float64: get", "default64(lambda: torch.get_default_dtype())"),
    ("default float64: float32 prints its dtype",
     "default64(lambda: repr(torch.tensor([0.5], dtype=torch.float32, device=dev)))"),
    ("default float64: repr", "default64(lambda: repr(torch.tensor([0.1, 0.25], device=dev)))"),
    ("default float64: rand dtype", "default64(lambda: torch.rand(3, device=dev).dtype)"),
    ("default float64: Linear weight", "default64(lambda: torch.nn.Linear(2, 3).weight.dtype)"),
    ("set_default_dtype int64", "torch.set_default_dtype(torch.int64)"),
    # ---- casts ---------------------------------------------------------------------------------------
    ("double()", "torch.tensor([0.1, 2.5], device=dev).double()"),
    ("to(float64)", "torch.tensor([0.1, 2.5], device=dev).to(torch.float64)"),
    ("to(dtype=float64)", "torch.tensor([3, -4], device=dev).to(dtype=torch.float64)"),
    ("type(float64)", "torch.tensor([0.1], device=dev).type(torch.float64)"),
    ("float()", "X.float()"),
    ("float().double()", "X.float().double()"),
    ("long()", "t([1.9, -2.7, 0.5]).long()"),
    ("int()", "t([1.9, -2.7, 0.5]).int()"),
    ("bool()", "t([0.0, -0.1, 2.0]).bool()"),
    ("bool to float64", "torch.tensor([True, False], device=dev).double()"),
    ("item exact", "t(0.1).item()"),
    ("item 1/3", "(t(1.0) / 3).item()"),
    ("tolist", "(X / 3).tolist()"),
    ("numpy dtype", "str(X.numpy().dtype)"),
    ("numpy values", "(X * 1e-3).numpy()"),
    ("float(t)", "float(t(1e-310))"),
    ("cpu() keeps float64", "X.cpu()"),
    # ---- arithmetic ----------------------------------------------------------------------------------------
    *[(f"binary {op}", f"X {op} Y") for op in ("+", "-", "*", "/", "//", "%")],
    ("pow", "X.abs() ** Y"),
    ("pow scalar", "X ** 2"),
    ("rpow scalar", "2 ** X"),
    ("scalar add", "X + 0.1"),
    ("scalar rsub", "1 - X"),
    ("scalar div", "X / 3"),
    ("atan2", "torch.atan2(X, Y)"),
    ("fmod", "torch.fmod(X, Y)"),
    ("remainder", "torch.remainder(X, Y)"),
    ("maximum", "torch.maximum(X, Y)"),
    ("minimum", "torch.minimum(X, Y)"),
    ("lerp", "torch.lerp(X, Y, 0.3)"),
    ("clamp", "X.clamp(-0.3, 0.7)"),
    ("where", "torch.where(X > 0.2, X, Y)"),
    ("div rounding floor", "torch.div(X, Y, rounding_mode='floor')"),
    ("comparisons", "[X < Y, X >= Y, X == X.float().double(), X != Y]"),
    ("eq float64 against float32", "t([0.1]) == torch.tensor([0.1], device=dev)"),
    ("isnan isinf isfinite beyond float32", "[t([1e300, inf, nan, 1e-320]).isinf(), t([1e300, nan]).isnan(), "
                                            "t([1e300, -inf, 1e-320]).isfinite()]"),
    ("in-place add_", "(lambda a: (a.add_(Y), a)[1])(X.clone())"),
    ("in-place mul_ scalar", "(lambda a: (a.mul_(0.1), a)[1])(X.clone())"),
    ("in-place float32 += float64", "(lambda a: (a.add_(X), a)[1])(torch.ones(6, device=dev))"),
    ("in-place int64 += float64", "torch.ones(6, dtype=torch.int64, device=dev).add_(X)"),
    ("setitem", "(lambda a: (a.__setitem__(slice(1, 3), 0.1), a)[1])(X.clone())"),
    ("setitem float32 value", "(lambda a: (a.__setitem__(0, torch.tensor(0.1, device=dev)), a)[1])(X.clone())"),
    # ---- promotion -------------------------------------------------------------------------------------
    ("float64 + float32", "X + torch.ones(6, device=dev)"),
    ("float32 + float64 0-d", "torch.ones(2, device=dev) + t(0.1)"),
    ("float64 0-d + float32 0-d", "t(0.1) + torch.tensor(0.2, device=dev)"),
    ("int64 + float64", "torch.tensor([1, 2], device=dev) + t([0.1, 0.2])"),
    ("int64 + float64 0-d", "torch.tensor([1, 2], device=dev) + t(0.1)"),
    ("bool * float64", "torch.tensor([True, False], device=dev) * t([0.1, 0.2])"),
    ("float64 * int scalar", "X * 3"),
    ("float64 + bool scalar", "X + True"),
    ("int + float scalar", "torch.tensor([1, 2], device=dev) + 0.1"),
    ("result_type tensor scalar", "torch.result_type(X, 1.0)"),
    ("result_type int tensor 0-d float64", "torch.result_type(torch.tensor([1], device=dev), t(1.0))"),
    ("result_type float32 float64", "torch.result_type(torch.ones(1, device=dev), X)"),
    ("promote_types", "[torch.promote_types(torch.float64, torch.int64), "
                      "torch.promote_types(torch.float16, torch.float64)]"),
    ("can_cast", "[torch.can_cast(torch.float64, torch.float32), torch.can_cast(torch.float64, torch.int64)]"),
    # ---- unary math ------------------------------------------------------------------------------------
    *[(f"unary {op}", f"torch.{op}({_DOMAIN.get(op, 'X') if _DOMAIN.get(op) != 'Q' else Q})") for op in UNARY],
    ("softplus", "torch.nn.functional.softplus(X)"),
    ("gelu", "torch.nn.functional.gelu(X)"),
    ("gelu tanh", "torch.nn.functional.gelu(X, approximate='tanh')"),
    ("silu", "torch.nn.functional.silu(X)"),
    ("elu", "torch.nn.functional.elu(X)"),
    ("leaky_relu", "torch.nn.functional.leaky_relu(X, 0.01)"),
    ("mish", "torch.nn.functional.mish(X)"),
    ("hardtanh", "torch.nn.functional.hardtanh(X)"),
    ("exp of 700", "t([700.0, -745.0]).exp()"),
    ("log of 1e-300", "t([1e-300]).log()"),
    # ---- reductions ----------------------------------------------------------------------------------------
    ("sum", "X.sum()"),
    ("sum dim", "M.sum(1)"),
    ("sum keepdim", "M.sum(0, keepdim=True)"),
    ("sum float32 dtype=float64", "torch.tensor([0.1, 0.2, 0.3], device=dev).sum(dtype=torch.float64)"),
    ("sum int64 + 0.1 scale", "(torch.arange(10, device=dev) * t(0.1)).sum()"),
    ("mean", "M.mean()"),
    ("mean dim", "M.mean(dim=0)"),
    ("prod", "X.prod()"),
    ("amax amin", "[M.amax(1), M.amin(0)]"),
    ("max dim", "tuple(M.max(1))"),
    ("min", "M.min()"),
    ("argmax argmin", "[M.argmax(), M.argmin(1)]"),
    ("var std", "[M.var(), M.std(1), M.var(0, unbiased=False)]"),
    ("norm", "[X.norm(), M.norm(dim=1), X.norm(p=1)]"),
    ("logsumexp", "M.logsumexp(1)"),
    ("cumsum cumprod", "[X.cumsum(0), M.cumprod(1)]"),
    ("softmax", "torch.softmax(M, 1)"),
    ("log_softmax", "torch.log_softmax(M, 0)"),
    ("sort", "tuple(X.sort())"),
    ("topk", "tuple(X.topk(2))"),
    ("median", "X.median()"),
    ("all any", "[X.bool().all(), (X > 2).any()]"),
    ("sum of 1e8 and tiny", "t([1e8, 1e-8, -1e8, 3e-9]).sum()"),
    # ---- matrix products -----------------------------------------------------------------------------------
    ("matmul", "M @ N"),
    ("mm", "torch.mm(M, N)"),
    ("bmm", "torch.bmm(M.reshape(1, 3, 4).expand(2, 3, 4), N.expand(2, 4, 2))"),
    ("mv", "torch.mv(M, P)"),
    ("dot", "torch.dot(X, Y)"),
    ("outer", "torch.outer(X[:3], Y[:2])"),
    ("addmm", "torch.addmm(t([0.5, -0.5]), M, N, beta=0.5, alpha=2)"),
    ("linear", "torch.nn.functional.linear(M, N.T, t([0.1, 0.2]))"),
    ("einsum", "torch.einsum('ij,jk->ik', M, N)"),
    ("matmul transposed", "M.T @ M"),
    ("matmul float64 float32", "M @ N.float()"),
    # ---- linalg in float64 (numpy's LAPACK in float64 on both devices; vectors as products, signs free)
    ("linalg.inv float64", "torch.linalg.inv((M @ M.T + torch.eye(3, dtype=torch.float64, device=dev)))"),
    ("linalg.det float64", "torch.linalg.det((M @ M.T + torch.eye(3, dtype=torch.float64, device=dev)))"),
    ("linalg.slogdet float64", "tuple(torch.linalg.slogdet((M @ M.T + torch.eye(3, dtype=torch.float64, device=dev))))"),
    ("linalg.solve float64", "torch.linalg.solve((M @ M.T + torch.eye(3, dtype=torch.float64, device=dev)), M[:, :2])"),
    ("linalg.cholesky float64", "torch.linalg.cholesky((M @ M.T + torch.eye(3, dtype=torch.float64, device=dev)))"),
    ("linalg.qr float64 R abs", "torch.linalg.qr(M.T).R.abs()"),
    ("linalg.qr float64 product", "(lambda q: q.Q @ q.R)(torch.linalg.qr(M.T))"),
    ("linalg.eigvalsh float64", "torch.linalg.eigvalsh((M @ M.T + torch.eye(3, dtype=torch.float64, device=dev)))"),
    ("linalg.svdvals float64", "torch.linalg.svdvals(M)"),
    ("linalg.pinv float64", "torch.linalg.pinv(M)"),
    ("linalg.lstsq float64", "torch.linalg.lstsq(M.T, N[:, :1] + 0.5).solution"),
    ("linalg.matrix_rank float64", "torch.linalg.matrix_rank(M)"),
    ("linalg.lu_factor float64", "tuple(torch.linalg.lu_factor((M @ M.T + torch.eye(3, dtype=torch.float64, device=dev))))"),
    ("linalg.inv float64 grad", "grad(lambda a: torch.linalg.inv(a).sum(), (M @ M.T + torch.eye(3, dtype=torch.float64, device=dev)))"),
    ("linalg.det float64 grad", "grad(lambda a: torch.linalg.det(a), (M @ M.T + torch.eye(3, dtype=torch.float64, device=dev)))"),
    ("linalg.eigvalsh float64 grad", "grad(lambda a: torch.linalg.eigvalsh(a).pow(2).sum(), (M @ M.T + torch.eye(3, dtype=torch.float64, device=dev)))"),
    # ---- shapes and indexing ----------------------------------------------------------------------------
    ("cat stack", "[torch.cat([X, Y]), torch.stack([X, Y], 1)]"),
    ("reshape transpose", "M.reshape(4, 3).t().contiguous()"),
    ("index and mask", "[X[[0, 2, 5]], X[X > 0.5], M[1:, ::2]]"),
    ("gather", "torch.gather(M, 1, torch.tensor([[0, 3], [1, 1], [2, 0]], device=dev))"),
    ("flip roll", "[X.flip(0), X.roll(2)]"),
    # ---- nn functional -------------------------------------------------------------------------------
    ("mse_loss", "torch.nn.functional.mse_loss(X, Y)"),
    ("cross_entropy", "torch.nn.functional.cross_entropy(M, torch.tensor([0, 3, 1], device=dev))"),
    ("layer_norm", "torch.nn.functional.layer_norm(M, (4,))"),
    ("dropout eval", "torch.nn.functional.dropout(X, 0.5, training=False)"),
    ("conv2d", f"F.conv2d({IMG}, {KER}, t([0.1, -0.2]), padding=1)"),
    ("conv2d grads", f"grad(lambda x, w: F.conv2d(x, w, stride=2).sin().sum(), {IMG}, {KER})"),
    ("conv1d", f"F.conv1d({IMG}[0], {KER}[:, :, 0])"),
    ("avg_pool2d", f"F.avg_pool2d({IMG}, 2)"),
    ("max_pool2d", f"F.max_pool2d({IMG}, 2, 1)"),
    ("pool grads", f"grad(lambda x: (F.avg_pool2d(x, 2) * F.max_pool2d(x, 2)).sum(), {IMG})"),
    ("adaptive_avg_pool2d", f"F.adaptive_avg_pool2d({IMG}, 1)"),
    ("batch_norm training", f"F.batch_norm({IMG}, None, None, training=True)"),
    ("batch_norm eval", f"F.batch_norm({IMG}, t([0.1, -0.3]), t([0.7, 1.3]), t([1.1, 0.9]), t([0.05, 0.0]))"),
    ("batch_norm grads", f"grad(lambda x: F.batch_norm(x, None, None, training=True).exp().sum(), {IMG})"),
    ("group_norm", f"F.group_norm({IMG}, 1)"),
    ("interpolate bilinear", f"F.interpolate({IMG}, scale_factor=2, mode='bilinear')"),
    ("interpolate nearest", f"F.interpolate({IMG}, size=(3, 7))"),
    ("interpolate grads", f"grad(lambda x: F.interpolate(x, size=(5, 9), mode='bilinear').sin().sum(), {IMG})"),
    ("embedding", "F.embedding(torch.tensor([2, 0], device=dev), M)"),
    # ---- optimizers ---------------------------------------------------------------------------------
    ("SGD momentum", "steps('SGD', lr=0.1, momentum=0.9, nesterov=True)"),
    ("Adam", "steps('Adam', lr=0.01)"),
    ("AdamW", "steps('AdamW', lr=0.01, weight_decay=0.1)"),
    ("RMSprop", "steps('RMSprop', lr=0.01)"),
    ("Linear module double", "(lambda m: (torch.nn.init.constant_(m.weight, 0.1), torch.nn.init.constant_(m.bias, "
                             "-0.2), m(M))[2])(torch.nn.Linear(4, 2).double().to(dev))"),
    # ---- printing ---------------------------------------------------------------------------------------
    ("repr", "repr(X)"),
    ("repr 0-d", "repr(t(0.5))"),
    ("repr wide range", "repr(t([0.1, 1e-5, 123456.789]))"),
    ("repr integers", "repr(t([1.0, 2.0, -3.0]))"),
    ("repr empty", "repr(t([]))"),
    ("repr 2-D", "repr(M)"),
    ("repr requires_grad", "repr(t([0.25], grad=True))"),
    ("repr grad_fn", "repr(t([0.25], grad=True) * 2)"),
    ("str dtype", "[str(X.dtype), repr(torch.double)]"),
    # ---- autograd --------------------------------------------------------------------------------------
    ("grad sin exp", "grad(lambda x: (x.sin() * x.exp()).sum(), X)"),
    ("grad div pow", "grad(lambda x, y: (x / (y * y + 1) + x.abs() ** 1.5).sum(), X, Y)"),
    ("grad matmul", "grad(lambda a, b: (a @ b).tanh().sum(), M, N)"),
    ("grad softmax", "grad(lambda a: (torch.softmax(a, 1) * torch.arange(4, device=dev)).sum(), M)"),
    ("grad mean var", "grad(lambda a: a.var(1).sum() + a.mean(), M)"),
    ("grad log_softmax cross_entropy",
     "grad(lambda a: torch.nn.functional.cross_entropy(a, torch.tensor([0, 3, 1], device=dev)), M)"),
    ("grad through float() and back", "grad(lambda x: (x.float() * 2).double().sum(), X)"),
    ("grad mixed float32", "grad(lambda x: (x * torch.ones(6, device=dev)).sum(), X)"),
    ("backward .grad", "(lambda x: ((x * x).sum().backward(), x.grad)[1])(t([0.1, 0.2], grad=True))"),
    ("double backward", "(lambda x: torch.autograd.grad(torch.autograd.grad((x ** 3).sum(), x, create_graph=True)"
                        "[0].sum(), x))(t([0.1, 0.7], grad=True))"),
]


# ---- the value format of dtype64.json, shared by the generator (PyTorch) and the replay (ours) ----------
def encode(v):
    """compare_io's JSON description, with numpy arrays described as tensors are."""
    from compare_io import encode as base
    if type(v).__module__ == "numpy" and hasattr(v, "tolist"):
        return {"tensor": {"dtype": str(v.dtype), "shape": list(getattr(v, "shape", ())),
                           "values": base(v.tolist())}}
    if isinstance(v, (list, tuple)):
        return {"seq": [encode(x) for x in v]}
    return base(v)


def evaluate(expr: str, env: dict) -> dict:
    """{"out": encoded value} or {"raises": type name, "message": text}."""
    try:
        return {"out": encode(eval(expr, dict(env)))}  # noqa: S307 - our own list of expressions
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return {"raises": type(e).__name__, "message": str(e)}


def _unwrap(values):
    """compare_io writes a list's floats as plain JSON but a scalar as {"value": ...}."""
    return values["value"] if isinstance(values, dict) and "value" in values else values


def _num(x):
    return float(x) if isinstance(x, str) else x  # "nan", "inf", "-inf"


def _close_values(a, b, where: str) -> str | None:
    if isinstance(a, list) or isinstance(b, list):
        if not (isinstance(a, list) and isinstance(b, list)) or len(a) != len(b):
            return f"{where}: {a!r} against {b!r}"
        for i, (x, y) in enumerate(zip(a, b)):
            err = _close_values(x, y, f"{where}[{i}]")
            if err:
                return err
        return None
    x, y = _num(a), _num(b)
    if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, float) or not isinstance(y, float):
        return None if type(x) is type(y) and x == y else f"{where}: {a!r}, PyTorch {b!r}"
    if x != x and y != y or x == y:
        return None
    if abs(x - y) <= ATOL + RTOL * abs(y):
        return None
    return f"{where}: {x!r}, PyTorch {y!r} (relative error {abs(x - y) / max(abs(y), 1e-300):.2e})"


def close(got: dict, want: dict, where: str = "out") -> str | None:
    """None when an encoded value matches PyTorch's (floats to RTOL/ATOL, the rest exactly)."""
    if set(got) != set(want):
        return f"{where}: {got} against PyTorch's {want}"
    if "seq" in want:
        if len(got["seq"]) != len(want["seq"]):
            return f"{where}: {len(got['seq'])} items, PyTorch {len(want['seq'])}"
        for i, (g, w) in enumerate(zip(got["seq"], want["seq"])):
            err = close(g, w, f"{where}[{i}]")
            if err:
                return err
        return None
    if "tensor" in want:
        g, w = got["tensor"], want["tensor"]
        if (g["dtype"], g["shape"]) != (w["dtype"], w["shape"]):
            return f"{where}: {g['dtype']} {g['shape']}, PyTorch {w['dtype']} {w['shape']}"
        return _close_values(_unwrap(g["values"]), _unwrap(w["values"]), where)
    if "value" in want and isinstance(want["value"], float):
        return _close_values(got["value"], want["value"], where)
    return None if got == want else f"{where}: {got}, PyTorch {want}"
