"""Expressions for ``torch.bfloat16``: creation, casts (round to nearest, ties to even; NaN, infinities,
overflow), arithmetic and unary math (bit for bit: PyTorch's CPU kernels compute in float32 and round),
promotion, printing, finfo, reductions and matmul (to a tolerance: the order of float32 sums differs),
autograd, layers, save/load and safetensors.

generate_bf16.py evaluates each with ``torch`` bound to real PyTorch (``dev`` = "cpu") and freezes the
value, or the exception's type and message, into bf16.json; replay_bf16.py evaluates them with ``torch``
bound to borch_webgpu (``cpu``, or ``webgpu`` in Chromium, where bfloat16 is held on the host) and
compares: dtypes, shapes, strings exactly; values exactly unless the case carries ``{"tol": r}`` (then
to r relative to the largest value of the result).
The environment adds ``np``, ``nan``, ``inf`` and the helpers below (``X``, ``Y``, ``M``, ``N``: bfloat16
tensors on ``dev``; ``F32``: float32 values that are not bfloat16 values; ``t(values, dtype)``;
``grad(f, *xs)``; ``roundtrip(d)``; ``st_roundtrip(d)``).
"""
from __future__ import annotations

_X = "[0.1, -0.7, 1.3, 2.9, -0.05, 0.6, 100.3, -3.7]"
_Y = "[0.3, 1.7, -0.4, 0.25, 0.9, -1.1, 7.77, 0.013]"
_M = "[[0.1, -0.2, 0.35, 1.1], [0.7, 0.05, -1.3, 0.4], [-0.6, 0.9, 0.15, -0.25]]"
_N = "[[0.2, -1.1], [0.45, 0.3], [-0.75, 0.6], [0.05, 1.9]]"
# float32 values on and between bfloat16 values: ties (1 + 2**-8 -> 1, 1 + 3 * 2**-8 -> 1 + 2**-6), just past
# ties, the largest finite float32, the smallest subnormals, NaN, infinities
_F32 = ("[1.0, 1.00390625, 1.01171875, 1.0039063, -1.00390625, 3.3895314e38, 3.40282e38, 1e-40, -1e-45, "
        "float('nan'), float('inf'), -float('inf'), 0.0, -0.0, 65504.0, 1e20]")


def helpers(torch, dev: str) -> dict:
    """The names the expressions use besides torch, dev and np (the same on both sides)."""
    def t(values, dtype=None, grad=False):
        return torch.tensor(values, dtype=dtype or torch.bfloat16, device=dev, requires_grad=grad)

    def grad(f, *xs):
        leaves = [x.detach().clone().requires_grad_(True) for x in xs]
        return list(torch.autograd.grad(f(*leaves), leaves))

    def fixed(m):
        """Module m on dev in bfloat16 with fixed parameter values (no random init involved)."""
        m = m.to(dev)
        with torch.no_grad():
            for i, p in enumerate(m.parameters()):
                n = p.numel()
                p.copy_(torch.tensor([((k * 37 + i * 11) % 19) / 10.0 - 0.9 for k in range(n)]).reshape(p.shape))
        return m.bfloat16()

    def steps(name, **kw):
        """Three steps of optimizer ``name`` on a bfloat16 parameter; its values after them."""
        w = t([0.3, -0.8, 1.1, 0.05, -0.4, 0.9, 0.2, -0.6], grad=True)
        opt = getattr(torch.optim, name)([w], **kw)
        x = t(eval(_X))
        for _ in range(3):
            opt.zero_grad()
            ((w * x).sin().sum() + (w * w).sum() * 0.1).backward()
            opt.step()
        return w.detach()

    def default_bf16(f):
        torch.set_default_dtype(torch.bfloat16)
        try:
            return f()
        finally:
            torch.set_default_dtype(torch.float32)

    def roundtrip(d):
        """A dict of tensors through save() and load() (PyTorch's zip format: BFloat16Storage)."""
        import io
        buf = io.BytesIO()
        torch.save(d, buf)
        buf.seek(0)
        return torch.load(buf)

    def st_roundtrip(d):
        """A dict of tensors through safetensors bytes (BF16), written and read by the library itself."""
        if hasattr(torch, "serialization") and hasattr(torch.serialization, "save_file"):
            import os
            import tempfile
            path = os.path.join(tempfile.mkdtemp(), "m.safetensors")
            torch.serialization.save_file(d, path)
            return torch.load(path)
        from safetensors.torch import load, save
        return load(save(d))

    return {"X": t(eval(_X)), "Y": t(eval(_Y)), "M": t(eval(_M)), "N": t(eval(_N)),
            "F32": torch.tensor(eval(_F32), device=dev), "t": t, "grad": grad, "F": torch.nn.functional,
            "default_bf16": default_bf16, "fixed": fixed, "steps": steps, "roundtrip": roundtrip, "st_roundtrip": st_roundtrip}


# what generate_bf16.py saves with PyTorch into bf16_files/ (as bfloat16: the values are rounded there)
FILE_TENSORS = {"w": [[0.1, -0.7, 1.3], [2.9, 1e20, -1e-40]], "b": [float("inf"), 3.3895314e38, 0.0]}

UNARY = ["exp", "expm1", "log", "log2", "log1p", "sqrt", "rsqrt", "sin", "cos", "tan", "atan", "sinh", "cosh",
         "tanh", "sigmoid", "erf", "reciprocal", "floor", "ceil", "round", "trunc", "frac", "sign", "abs", "neg",
         "square", "relu"]
_POS = {"log", "log2", "log1p", "sqrt", "rsqrt"}
_OTHER = ["bool", "uint8", "int8", "int16", "int32", "int64", "float16", "float32", "float64"]
_RED = {"tol": 1e-2}
# float16 on webgpu needs the adapter feature shader-f16 (SwiftShader has none): replay_bf16.py checks that
# such an adapter refuses these cases with the TypeError that says so, and replays them where it has it
_F16 = {"f16": True}


def _f16(d: str) -> tuple:
    return (_F16,) if d == "float16" else ()

CASES: list[tuple] = [
    # ---- creation and the dtype ------------------------------------------------------------------------
    ("tensor dtype=bfloat16", f"t({_X})"),
    ("tensor rounds float32 values", "F32.to(torch.bfloat16)"),
    ("tensor from Python floats", f"t({_F32})"),
    ("tensor double rounding through float32", "t([1 + 2 ** -8 + 2 ** -30, 1 + 2 ** -8 + 2 ** -20])"),
    ("tensor from ints", "t([1, 257, 65535, -3, 2 ** 40 + 2 ** 31])"),
    ("tensor from bools", "t([True, False])"),
    ("tensor scalar", "t(3.3)"),
    ("zeros", "torch.zeros(2, 3, dtype=torch.bfloat16, device=dev)"),
    ("ones", "torch.ones(3, dtype=torch.bfloat16, device=dev)"),
    ("full", "torch.full((2,), 0.1, dtype=torch.bfloat16, device=dev)"),
    ("arange", "torch.arange(0, 2, 0.3, dtype=torch.bfloat16, device=dev)"),
    ("linspace", "torch.linspace(0, 1, 5, dtype=torch.bfloat16, device=dev)"),
    ("eye", "torch.eye(2, dtype=torch.bfloat16, device=dev)"),
    ("zeros_like", "torch.zeros_like(X)"),
    ("full_like", "torch.full_like(X, 1 / 3)"),
    ("empty dtype", "torch.empty(3, dtype=torch.bfloat16, device=dev).dtype"),
    ("element_size", "X.element_size()"),
    ("itemsize", "X.itemsize"),
    ("nbytes", "X.nbytes"),
    ("is_floating_point", "X.is_floating_point()"),
    ("is_floating_point dtype", "torch.bfloat16.is_floating_point"),
    ("is_signed", "torch.bfloat16.is_signed"),
    ("type()", "X.type()"),
    ("repr dtype", "repr(torch.bfloat16)"),
    ("finfo", "repr(torch.finfo(torch.bfloat16))"),
    ("finfo eps", "torch.finfo(torch.bfloat16).eps"),
    ("finfo max", "torch.finfo(torch.bfloat16).max"),
    ("finfo tiny", "torch.finfo(torch.bfloat16).tiny"),
    ("finfo bits", "torch.finfo(torch.bfloat16).bits"),
    ("finfo resolution", "torch.finfo(torch.bfloat16).resolution"),
    ("finfo dtype", "torch.finfo(torch.bfloat16).dtype"),
    ("iinfo refuses", "torch.iinfo(torch.bfloat16)"),
    ("default bfloat16: tensor", "default_bf16(lambda: torch.tensor([1.1, 2.2], device=dev))"),
    ("default bfloat16: int * float", "default_bf16(lambda: torch.tensor([1, 2], device=dev) * 0.1)"),
    ("default bfloat16: zeros", "default_bf16(lambda: torch.zeros(2, device=dev).dtype)"),
    # ---- printing --------------------------------------------------------------------------------------------
    ("repr", "repr(t([1.0, 2.5]))"),
    ("repr X", "repr(X)"),
    ("repr scalar", "repr(t(3.3))"),
    ("repr ints", "repr(t([1, 2, 300]))"),
    ("repr specials", "repr(F32.bfloat16())"),
    ("repr large", "repr(t([1e10, 1.5]))"),
    ("repr 2-d", "repr(M)"),
    ("repr requires_grad", "repr(t([0.5], grad=True))"),
    ("str", "str(t([-0.1, 0.25]))"),
    # ---- casts ---------------------------------------------------------------------------------------------
    ("bfloat16()", f"torch.tensor({_X}, device=dev).bfloat16()"),
    ("to(bfloat16)", "F32.to(torch.bfloat16)"),
    ("to(dtype=bfloat16)", "torch.tensor([3, -4], device=dev).to(dtype=torch.bfloat16)"),
    ("type(bfloat16)", "torch.tensor([0.1], device=dev).type(torch.bfloat16)"),
    ("float64 to bfloat16", "torch.tensor([1 + 2 ** -8 + 2 ** -30, 0.1, 1e300], dtype=torch.float64, device=dev).bfloat16()"),
    ("float16 to bfloat16", "torch.tensor([0.1, 65504.0, 6e-8], dtype=torch.float16, device=dev).bfloat16()", _F16),
    *[(f"bfloat16 to {d}", f"t([1.5, -2.75, 0.0, 300.0, 3e4]).to(torch.{d})", *_f16(d)) for d in _OTHER],
    ("bfloat16 specials to int64", "F32.bfloat16().to(torch.int64)"),
    ("bfloat16 specials to float32", "F32.bfloat16().float()"),
    ("int64 big to bfloat16", "torch.tensor([2 ** 40 + 2 ** 31, 16777217], device=dev).bfloat16()"),
    ("item", "X[2].item()"),
    ("item scalar", "t(0.1).item()"),
    ("float(t)", "float(t(1 / 3))"),
    ("int(t)", "int(t(2.9))"),
    ("tolist", "X.tolist()"),
    ("numpy refuses", "X.numpy()"),
    ("cpu() keeps bfloat16", "X.cpu()"),
    ("clone", "X.clone()"),
    ("contiguous of transpose", "M.t().contiguous()"),
    # ---- arithmetic (bit for bit) ---------------------------------------------------------------------------
    ("add", "X + Y"),
    ("sub", "X - Y"),
    ("mul", "X * Y"),
    ("div", "X / Y"),
    ("add alpha", "torch.add(X, Y, alpha=0.3)"),
    ("add scalar float", "X + 0.1"),
    ("mul scalar float", "X * 3.3"),
    ("add scalar int", "X + 3"),
    ("rsub scalar", "1 - X"),
    ("rdiv scalar", "1 / X"),
    ("pow scalar", "X.abs() ** 0.5"),
    ("pow tensor", "X.abs() ** Y"),
    ("unary minus", "-X"),
    ("floor_divide", "torch.floor_divide(X, Y)"),
    ("remainder", "torch.remainder(X, Y)"),
    ("fmod", "torch.fmod(X, Y)"),
    ("maximum", "torch.maximum(X, Y)"),
    ("minimum", "torch.minimum(X, Y)"),
    ("clamp", "X.clamp(-0.5, 0.55)"),
    ("where", "torch.where(X > 0, X, Y)"),
    ("lerp", "torch.lerp(X, Y, 0.3)"),
    ("addcmul", "torch.addcmul(X, X, Y, value=0.5)"),
    ("addcdiv", "torch.addcdiv(X, X, Y, value=0.5)"),
    ("atan2", "torch.atan2(X, Y)"),
    ("hypot", "torch.hypot(X, Y)"),
    ("sum of three adds rounds each", "X + Y + X"),
    ("in-place add_", "X.clone().add_(Y)"),
    ("in-place mul_ scalar", "X.clone().mul_(0.3)"),
    ("in-place copy_ from float32", "X.clone().copy_(F32[:8])"),
    ("float32 += bfloat16", "torch.tensor([0.1] * 8, device=dev).add_(X)"),
    ("bfloat16 += float32 keeps bfloat16", "X.clone().add_(torch.tensor([0.1] * 8, device=dev))"),
    ("fill_", "X.clone().fill_(0.1)"),
    ("setitem", "(lambda z: (z.__setitem__(1, 0.1), z)[1])(X.clone())"),
    ("masked_fill", "X.masked_fill(X > 1, 0.1)"),
    *[(f"{f}", f"X.abs().{f}()" if f in _POS else f"X.{f}()") for f in UNARY],
    ("gelu", "F.gelu(X)", _RED),  # PyTorch's vectorized and scalar float32 erf differ in the last bits
    ("silu", "F.silu(X)"),
    ("softplus", "F.softplus(X)"),
    ("leaky_relu", "F.leaky_relu(X, 0.1)"),
    ("elu", "F.elu(X)"),
    ("hardtanh", "F.hardtanh(X)"),
    ("nan_to_num", "F32.bfloat16().nan_to_num()"),
    # ---- promotion ---------------------------------------------------------------------------------------
    *[(f"bfloat16 + {d}", f"X + torch.tensor([1, 2, 3, 0, 1, 0, 2, 1], device=dev).to(torch.{d})", *_f16(d))
      for d in _OTHER],
    *[(f"{d} * bfloat16", f"torch.tensor([1, 2, 3, 0, 1, 0, 2, 1], device=dev).to(torch.{d}) * X", *_f16(d))
      for d in _OTHER],
    ("bfloat16 + 0-d float32", "X + torch.tensor(0.1, device=dev)"),
    ("bfloat16 + 0-d float64", "X + torch.tensor(0.1, dtype=torch.float64, device=dev)"),
    ("0-d bfloat16 + int tensor", "torch.tensor([1, 2], device=dev) + t(0.5)"),
    ("0-d bfloat16 + float16 tensor", "torch.tensor([1, 2], dtype=torch.float16, device=dev) + t(0.5)", _F16),
    ("int tensor * float scalar stays default", "(torch.tensor([1, 2], device=dev) * 0.1).dtype"),
    ("promote_types bf16 f16", "torch.promote_types(torch.bfloat16, torch.float16)"),
    ("promote_types bf16 f32", "torch.promote_types(torch.bfloat16, torch.float32)"),
    ("promote_types bf16 i64", "torch.promote_types(torch.int64, torch.bfloat16)"),
    ("promote_types bf16 f64", "torch.promote_types(torch.bfloat16, torch.float64)"),
    ("promote_types bf16 bool", "torch.promote_types(torch.bool, torch.bfloat16)"),
    ("result_type", "torch.result_type(X, 1.5)"),
    ("can_cast to int", "torch.can_cast(torch.bfloat16, torch.int32)"),
    ("can_cast to half", "torch.can_cast(torch.bfloat16, torch.float16)"),
    ("can_cast from half", "torch.can_cast(torch.float16, torch.bfloat16)"),
    ("int / int true division default float", "(torch.tensor([1, 2], device=dev) / 3).dtype"),
    # ---- comparisons -----------------------------------------------------------------------------------
    ("gt", "X > Y"),
    ("eq scalar", "X == 0.1"),
    ("eq float32 0.1", "t([0.1]) == torch.tensor([0.1], device=dev)"),
    ("isnan", "F32.bfloat16().isnan()"),
    ("isinf", "F32.bfloat16().isinf()"),
    ("isfinite", "F32.bfloat16().isfinite()"),
    ("allclose", "torch.allclose(X, X + 0.001)"),
    ("equal", "torch.equal(X, X.clone())"),
    # ---- reductions and matmul (to a tolerance) ---------------------------------------------------------
    ("sum", "X.sum()", _RED),
    ("sum dim", "M.sum(1)", _RED),
    ("mean", "X.mean()", _RED),
    ("mean dim keepdim", "M.mean(0, keepdim=True)", _RED),
    ("prod", "Y.prod()", _RED),
    ("max", "X.max()"),
    ("max dim", "M.max(1)"),
    ("min", "X.min()"),
    ("argmax", "X.argmax()"),
    ("amax", "M.amax(0)"),
    ("std", "X.std()", _RED),
    ("var", "M.var(1)", _RED),
    ("norm", "X.norm()", _RED),
    ("cumsum", "X.cumsum(0)", _RED),
    ("logsumexp", "M.logsumexp(1)", _RED),
    ("softmax", "X.softmax(0)", _RED),
    ("log_softmax", "M.log_softmax(1)", _RED),
    ("sort", "X.sort()"),
    ("topk", "X.topk(3)"),
    ("matmul", "M @ N", _RED),
    ("mm", "torch.mm(M, N)", _RED),
    ("mv", "torch.mv(M, X[:4])", _RED),
    ("dot", "torch.dot(X, Y)", _RED),
    ("bmm", "torch.bmm(M.expand(2, 3, 4), N.expand(2, 4, 2))", _RED),
    ("matmul mixed refuses", "M @ N.float()"),
    ("addmm", "torch.addmm(t([1.0, 2.0]), M, N)", _RED),
    ("linear", "F.linear(M, N.t(), t([0.5, -0.5]))", _RED),
    # ---- shapes and indexing (values move, never round) -----------------------------------------------
    ("reshape", "M.reshape(2, 6)"),
    ("transpose", "M.t()"),
    ("index", "X[[0, 3, 5]]"),
    ("slice", "X[1:6:2]"),
    ("mask", "X[X > 0]"),
    ("cat", "torch.cat([X, Y])"),
    ("cat with float32", "torch.cat([X, Y.float()])"),
    ("stack", "torch.stack([X, Y])"),
    ("gather", "torch.gather(M, 1, torch.tensor([[0], [2], [3]], device=dev))"),
    ("flip", "X.flip(0)"),
    # ---- autograd ----------------------------------------------------------------------------------------
    ("grad mul", "grad(lambda a, b: (a * b).sum(), X, Y)"),
    ("grad exp", "grad(lambda a: a.exp().sum(), X)", _RED),
    ("grad tanh", "grad(lambda a: a.tanh().sum(), X)", _RED),
    ("grad matmul", "grad(lambda a, b: (a @ b).sum(), M, N)", _RED),
    ("grad dtype", "grad(lambda a: (a * 2).sum(), X)[0].dtype"),
    ("grad of a float32 cast", "grad(lambda a: (a.float() * 3).sum(), X)"),
    ("backward leaf grad", "(lambda a: ((a * a).sum().backward(), a.grad)[1])(X.clone().requires_grad_())"),
    ("linear layer", "(lambda m: m(M))(torch.nn.Linear(4, 2).to(torch.bfloat16).requires_grad_(False).eval()).shape"),
    ("module to bfloat16", "torch.nn.Linear(4, 2).bfloat16().weight.dtype"),
    ("mse_loss", "F.mse_loss(X, Y)", _RED),
    ("cross_entropy", "F.cross_entropy(M, torch.tensor([0, 3, 1], device=dev))", _RED),
    ("layer_norm", "F.layer_norm(M, (4,))", _RED),
    # ---- in-place and indexed writes round too ----------------------------------------------------------
    ("index_add_", "X.clone().index_add_(0, torch.tensor([0, 2, 2, 5], device=dev), Y[:4])"),
    ("scatter_add_", "X.clone().scatter_add_(0, torch.tensor([0, 2, 2, 5], device=dev), Y[:4])"),
    ("index_put_ accumulate", "X.clone().index_put_((torch.tensor([1, 1, 4], device=dev),), Y[:3], accumulate=True)"),
    ("view add_", "(lambda z: (z[2:5].add_(0.013), z)[1])(X.clone())"),
    ("addmm_", "torch.zeros(3, 2, dtype=torch.bfloat16, device=dev).addmm_(M, N)", _RED),
    ("mm out=", "torch.mm(M, N, out=torch.empty(3, 2, dtype=torch.bfloat16, device=dev))", _RED),
    ("lerp_", "X.clone().lerp_(Y, 0.3)"),
    # ---- random numbers and init keep the dtype -----------------------------------------------------
    ("randn dtype", "torch.randn(3, dtype=torch.bfloat16, device=dev).dtype"),
    ("rand_like dtype", "torch.rand_like(X).dtype"),
    ("init dtype", "torch.nn.init.kaiming_uniform_(torch.empty(3, 4, dtype=torch.bfloat16, device=dev)).dtype"),
    # ---- training: optimizers on bfloat16 parameters, layers ------------------------------------------
    ("SGD momentum steps", "steps('SGD', lr=0.1, momentum=0.9)", _RED),
    ("Adam steps", "steps('Adam', lr=0.01)", _RED),
    ("AdamW steps", "steps('AdamW', lr=0.01)", _RED),
    ("Linear forward", "fixed(torch.nn.Linear(4, 2))(M)", _RED),
    ("Conv1d forward", "fixed(torch.nn.Conv1d(3, 2, 2))(M.unsqueeze(0))", _RED),
    ("BatchNorm1d train", "(lambda m: [m(M), m.running_mean, m.running_var])(fixed(torch.nn.BatchNorm1d(4)))", _RED),
    ("LayerNorm", "fixed(torch.nn.LayerNorm(4))(M)", _RED),
    ("Linear grads", "(lambda m: ((m(M) ** 2).sum().backward(), [m.weight.grad, m.bias.grad])[1])"
     "(fixed(torch.nn.Linear(4, 2)))", _RED),
    # ---- serialization -----------------------------------------------------------------------------------
    ("save and load keep bfloat16", "(lambda d: [d['x'], d['m']])(roundtrip({'x': X, 'm': M}))"),
    ("safetensors BF16", "(lambda d: [d['x'], d['m']])(st_roundtrip({'x': X, 'm': M}))"),
]
