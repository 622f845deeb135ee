"""Expressions for ``torch.autocast`` (and ``torch.amp`` / ``torch.cpu.amp`` / ``torch.cuda.amp``) and
``torch.amp.GradScaler``: the output dtype of every op on PyTorch's CPU autocast lists (and of ops on no
list), nesting, the decorator, the state queries, the refusals and warnings, and GradScaler training
traces (scales, growth trackers, skipped steps with an injected inf, state_dict round trips).

generate_amp.py evaluates each with ``torch`` bound to real PyTorch 2.13.0 (CPU build; ``dev`` = ``DT`` =
"cpu") into amp.json; replay_amp.py evaluates them with borch_webgpu (``cpu``, or ``webgpu`` in Chromium
with ``DT`` = "webgpu", where autocast's dtype is given as bfloat16, since SwiftShader has no float16)
and compares as replay_bf16.py does (dtypes exactly; values exactly, or to ``{"tol": r}``).
Helpers: ``ac(**kw)`` (an autocast region on ``DT`` in bfloat16), ``R(seed, *shape)`` (float32 values on
``dev``), ``warned(f)``, ``dtypes(x)``, ``trace(...)`` (a GradScaler loop).
"""
from __future__ import annotations

_TOL = {"tol": 2e-2}
# about a machine without a GPU (PyTorch's CPU build: 'cuda' warns and disables itself); where WebGPU runs,
# replay_amp.py checks instead that 'cuda' (the WebGPU device) is enabled there without a warning
_NO_GPU = {"no_gpu": True}


def helpers(torch, dev: str) -> dict:
    """The names the expressions use besides torch, dev and np (the same on both sides)."""
    DT = "cpu" if dev == "cpu" else dev
    F = torch.nn.functional

    def R(seed, *shape):
        """Deterministic float32 values in [-1, 1) of this shape (no random generator involved)."""
        n = 1
        for s in shape:
            n *= s
        vals = [((i * 7919 + seed * 104729) % 2000) / 1000.0 - 1.0 for i in range(n)]
        return torch.tensor(vals, device=dev).reshape(shape)

    def ac(**kw):
        kw.setdefault("dtype", torch.bfloat16)
        return torch.autocast(DT, **kw)

    def under_cpu(f):
        with torch.autocast("cpu", dtype=torch.bfloat16):
            return f()

    def under(f, **kw):
        with ac(**kw):
            return f()

    def dtypes(x):
        if isinstance(x, (list, tuple)):
            return [dtypes(v) for v in x]
        return x.dtype

    def warned(f):
        """f's value and the messages of the warnings it raised."""
        import warnings
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            v = f()
        return [v, [str(x.message).split(" (Triggered")[0] for x in w]]  # not where in C++ it was raised

    def trace(device=None, steps=6, inf_at=(2,), nan_at=(), init_scale=2.0 ** 10, growth_interval=2,
              growth_factor=2.0, backoff_factor=0.5, opt="SGD", bf16=False):
        """A GradScaler loop on a tiny regression; per step [scale before, loss, skipped, tracker after],
        then the final weights and the scaler's state_dict."""
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scaler = torch.amp.GradScaler(device or DT, init_scale=init_scale, growth_factor=growth_factor,
                                          backoff_factor=backoff_factor, growth_interval=growth_interval)
        w = torch.nn.Parameter(R(1, 3, 2) * 0.5)
        x, y = R(2, 4, 3), R(3, 4, 2)
        o = getattr(torch.optim, opt)([w], lr=0.05)
        rows = []
        for i in range(steps):
            o.zero_grad()
            with ac(enabled=bf16):
                loss = F.mse_loss(x @ w, y)
            if i in inf_at or i in nan_at:
                loss = loss * float("inf" if i in inf_at else "nan")
            before = scaler.get_scale()
            w0 = w.detach().clone()
            scaler.scale(loss).backward()
            scaler.step(o)
            scaler.update()
            rows.append([before, loss.item(), bool((w.detach() == w0).all().item()), scaler._get_growth_tracker()])
        return [rows, w.detach(), scaler.state_dict()]

    def SO(init_scale=2.0 ** 16, dtype=None):
        """A fresh (GradScaler('cpu'), parameter, SGD) triple."""
        w = torch.nn.Parameter(R(1, 4, 3).to(dtype or torch.float32))
        return torch.amp.GradScaler("cpu", init_scale=init_scale), w, torch.optim.SGD([w], lr=0.1)

    def custom_fns():
        """custom_fwd with and without cast_inputs, custom_bwd: dtypes inside a region, the gradient, outside."""
        class Double(torch.autograd.Function):
            @staticmethod
            @torch.amp.custom_fwd(device_type=DT, cast_inputs=torch.float32)
            def forward(ctx, x):
                return x * 2

            @staticmethod
            @torch.amp.custom_bwd(device_type=DT)
            def backward(ctx, g):
                return g * 2

        class Plain(torch.autograd.Function):
            @staticmethod
            @torch.amp.custom_fwd(device_type=DT)
            def forward(ctx, x, w):
                return x @ w

            @staticmethod
            @torch.amp.custom_bwd(device_type=DT)
            def backward(ctx, g):
                return g, g

        x = torch.ones(2, dtype=torch.bfloat16, device=dev, requires_grad=True)
        with ac():
            y = Double.apply(x)
            z = Plain.apply(torch.ones(2, 2, device=dev), torch.ones(2, 2, device=dev))
        y.sum().backward()
        return [y.dtype, z.dtype, x.grad, Double.apply(x.detach()).dtype]

    def raises_inside():
        try:
            with ac():
                raise ValueError("inside")
        except ValueError as e:
            return str(e)

    return {"raises_inside": raises_inside, "custom_fns": custom_fns, "DT": DT, "F": F, "R": R, "ac": ac, "under": under, "under_cpu": under_cpu, "dtypes": dtypes, "warned": warned,
            "trace": trace, "A": R(1, 4, 3), "B": R(2, 3, 5), "V": R(3, 3), "Hb": R(4, 4, 4, 4).bfloat16(), "SO": SO}


_LOW = [
    ("mm", "torch.mm(A, B)"),
    ("matmul", "torch.matmul(A, B)"),
    ("@", "A @ B"),
    ("Tensor.mm", "A.mm(B)"),
    ("Tensor.matmul", "A.matmul(B)"),
    ("matmul vector", "A @ V"),
    ("bmm", "torch.bmm(A.expand(2, 4, 3), B.expand(2, 3, 5))"),
    ("baddbmm", "torch.baddbmm(R(5, 2, 4, 5), A.expand(2, 4, 3), B.expand(2, 3, 5))"),
    ("addmm", "torch.addmm(R(5, 4, 5), A, B)"),
    ("addbmm", "torch.addbmm(R(5, 4, 5), A.expand(2, 4, 3), B.expand(2, 3, 5))"),
    ("linear", "F.linear(A, B.t(), R(6, 5))"),
    ("nn.Linear", "torch.nn.Linear(3, 5).to(dev)(A)"),
    ("conv1d", "F.conv1d(R(1, 1, 2, 6), R(2, 3, 2, 3))"),
    ("conv2d", "F.conv2d(R(1, 1, 2, 5, 5), R(2, 3, 2, 3, 3), R(3, 3))"),
    ("conv3d", "F.conv3d(R(1, 1, 2, 4, 4, 4), R(2, 2, 2, 3, 3, 3))"),
    ("nn.Conv2d", "torch.nn.Conv2d(2, 3, 3).to(dev)(R(1, 1, 2, 5, 5))"),
    ("conv_transpose1d", "F.conv_transpose1d(R(1, 1, 2, 6), R(2, 2, 3, 3))"),
    ("conv_transpose2d", "F.conv_transpose2d(R(1, 1, 2, 4, 4), R(2, 2, 3, 3, 3))"),
    ("conv_transpose3d", "F.conv_transpose3d(R(1, 1, 2, 3, 3, 3), R(2, 2, 2, 2, 2, 2))"),
    ("prelu", "F.prelu(R(1, 2, 3, 4), R(2, 3))"),
    ("scaled_dot_product_attention", "F.scaled_dot_product_attention(R(1, 1, 4, 8), R(2, 1, 4, 8), R(3, 1, 4, 8))"),
    ("linalg.vecdot", "torch.linalg.vecdot(A, R(7, 4, 3))"),
]
_FP32 = [
    ("prod", "torch.prod(Hb[0])"),
    ("Tensor.prod", "Hb[0].prod(1)"),
    ("quantile", "torch.quantile(Hb[0, 0], 0.3)"),
    ("cdist", "torch.cdist(Hb[0], Hb[1])"),
    ("trace", "torch.trace(Hb[0])"),
    ("inverse", "torch.inverse(Hb[0] + 4 * torch.eye(4, device=dev).bfloat16())"),
    ("pinverse", "torch.pinverse(Hb[0])"),
    ("linalg.inv", "torch.linalg.inv(Hb[0] + 4 * torch.eye(4, device=dev).bfloat16())"),
    ("linalg.solve", "torch.linalg.solve(Hb[0] + 4 * torch.eye(4, device=dev).bfloat16(), Hb[1])"),
    ("linalg.svdvals", "torch.linalg.svdvals(Hb[0])"),
    ("linalg.qr", "torch.linalg.qr(Hb[0])"),
    ("mse_loss", "F.mse_loss(Hb[0], Hb[1])"),
    ("l1_loss", "F.l1_loss(Hb[0], Hb[1])"),
    ("smooth_l1_loss", "F.smooth_l1_loss(Hb[0], Hb[1])"),
    ("huber_loss", "F.huber_loss(Hb[0], Hb[1])"),
    ("cross_entropy", "F.cross_entropy(Hb[0], torch.tensor([0, 3, 1, 2], device=dev))"),
    ("nll_loss", "F.nll_loss(Hb[0], torch.tensor([0, 3, 1, 2], device=dev))"),
    ("binary_cross_entropy", "F.binary_cross_entropy(Hb[0].sigmoid(), Hb[1].sigmoid())"),
    ("binary_cross_entropy_with_logits", "F.binary_cross_entropy_with_logits(Hb[0], Hb[1].sigmoid())"),
    ("kl_div", "F.kl_div(Hb[0], Hb[1], reduction='batchmean')"),
    ("soft_margin_loss", "F.soft_margin_loss(Hb[0], Hb[1].sign())"),
    ("margin_ranking_loss", "F.margin_ranking_loss(Hb[0, 0], Hb[1, 0], Hb[2, 0].sign())"),
    ("hinge_embedding_loss", "F.hinge_embedding_loss(Hb[0], Hb[1].sign())"),
    ("cosine_embedding_loss", "F.cosine_embedding_loss(Hb[0], Hb[1], Hb[2, 0].sign())"),
    ("triplet_margin_loss", "F.triplet_margin_loss(Hb[0], Hb[1], Hb[2])"),
    ("multi_margin_loss", "F.multi_margin_loss(Hb[0], torch.tensor([0, 3, 1, 2], device=dev))"),
    ("poisson_nll_loss", "F.poisson_nll_loss(Hb[0], Hb[1].abs())"),
    ("nn.CrossEntropyLoss", "torch.nn.CrossEntropyLoss()(Hb[0], torch.tensor([0, 3, 1, 2], device=dev))"),
    ("nn.MSELoss", "torch.nn.MSELoss()(Hb[0], Hb[1])"),
    ("avg_pool3d", "F.avg_pool3d(Hb.reshape(1, 1, 4, 4, 4), 2)"),
    ("max_pool3d", "F.max_pool3d(Hb.reshape(1, 1, 4, 4, 4), 2)"),
    ("adaptive_avg_pool3d", "F.adaptive_avg_pool3d(Hb.reshape(1, 1, 4, 4, 4), 2)"),
    ("pad reflect", "F.pad(Hb[0].reshape(1, 4, 4), (1, 1), mode='reflect')"),
    ("pad replicate", "F.pad(Hb[0].reshape(1, 4, 4), (1, 1), mode='replicate')"),
    ("grid_sample", "F.grid_sample(Hb[0].reshape(1, 1, 4, 4), Hb[1, :2].reshape(1, 2, 2, 2), align_corners=False)"),
]
_ON_CPU = ("quantile", "pinverse", "linalg.svdvals", "linalg.qr", "inverse", "linalg.inv", "linalg.solve")


def _on_cpu(expr: str) -> str:
    return expr.replace("Hb", "Hb.cpu()").replace("device=dev", "device='cpu'")


_NONE = [
    ("softmax stays", "F.softmax(Hb[0], 1)"),
    ("log_softmax stays", "F.log_softmax(Hb[0], 1)"),
    ("layer_norm stays", "F.layer_norm(Hb[0], (4,))"),
    ("exp stays", "Hb[0].exp()"),
    ("sum stays", "Hb[0].sum()"),
    ("relu stays", "F.relu(Hb[0])"),
    ("pad constant stays", "F.pad(Hb[0], (1, 1))"),
    ("float32 add stays", "A + 1"),
    ("float32 softmax stays", "A.softmax(0)"),
    ("bfloat16 + float32 promotes", "Hb[0, :, :3] + A"),
    ("cat promotes", "torch.cat([Hb[0], R(1, 4, 4)])"),
    ("float64 mm stays", "torch.mm(A.double(), B.double())"),
    ("int mm stays", "torch.mm(torch.ones(2, 2, dtype=torch.int64, device=dev), torch.ones(2, 2, dtype=torch.int64, device=dev))"),
]

CASES: list[tuple] = [
    # ---- output dtypes: lower precision, float32, and no list ---------------------------------------------
    *[(f"lower {n}", f"under(lambda: ({e}).dtype)") for n, e in _LOW],
    *[(f"fp32 {n}", f"under(lambda: dtypes({e}))") for n, e in _FP32 if n not in _ON_CPU],
    # (the decompositions run on the cpu device also in the browser: SwiftShader compiles their kernels slowly)
    *[(f"fp32 {n}", f"under_cpu(lambda: dtypes({_on_cpu(e)}))") for n, e in _FP32 if n in _ON_CPU],
    *[(f"none {n}", f"under(lambda: ({e}).dtype)") for n, e in _NONE],
    # ---- layers built of listed ops: their inner linear / matmul calls autocast too -----------------------
    ("MultiheadAttention", "under(lambda: dtypes(torch.nn.MultiheadAttention(8, 2, batch_first=True).to(dev)"
     "(R(1, 2, 5, 8), R(2, 2, 5, 8), R(3, 2, 5, 8))))"),
    ("MultiheadAttention no weights", "under(lambda: torch.nn.MultiheadAttention(8, 2).to(dev)"
     "(R(1, 5, 2, 8), R(2, 5, 2, 8), R(3, 5, 2, 8), need_weights=False)[0].dtype)"),
    ("TransformerEncoderLayer train", "under(lambda: torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0, "
     "batch_first=True).to(dev)(R(1, 2, 5, 8)).dtype)"),
    ("conv net and loss", "under(lambda: (lambda c: [c(R(1, 2, 1, 6, 6)).dtype, F.cross_entropy(c(R(1, 2, 1, 6, 6)), "
     "torch.tensor([0, 2], device=dev)).dtype])(torch.nn.Sequential(torch.nn.Conv2d(1, 4, 3), torch.nn.BatchNorm2d(4), "
     "torch.nn.ReLU(), torch.nn.Flatten(), torch.nn.Linear(64, 3)).to(dev)))"),
    # ---- values (the bfloat16 inputs are rounded float32 values; products and sums to a tolerance) ---
    ("value mm", "under(lambda: torch.mm(A, B))", _TOL),
    ("value linear", "under(lambda: F.linear(A, B.t(), R(6, 5)))", _TOL),
    ("value conv2d", "under(lambda: F.conv2d(R(1, 1, 2, 5, 5), R(2, 3, 2, 3, 3), R(3, 3)))", _TOL),
    ("value mse_loss", "under(lambda: F.mse_loss(Hb[0], Hb[1]))", _TOL),
    ("value cross_entropy", "under(lambda: F.cross_entropy(Hb[0], torch.tensor([0, 3, 1, 2], device=dev)))", _TOL),
    # ---- autograd through the casts ------------------------------------------------------------------
    ("grad dtypes of a float32 layer", "(lambda m: (under(lambda: F.mse_loss(m(A), R(8, 4, 5))).backward(), "
     "[m.weight.grad.dtype, m.bias.grad.dtype])[1])(torch.nn.Linear(3, 5).to(dev))"),
    ("grad values", "(lambda w: (under(lambda: (A @ w).float().pow(2).sum()).backward(), w.grad)[1])"
     "(B.clone().requires_grad_())", _TOL),
    ("output requires grad", "under(lambda: (A @ B.clone().requires_grad_()).requires_grad)"),
    # ---- regions, nesting, the decorator, state ------------------------------------------------------
    ("enabled inside", "under(lambda: torch.is_autocast_enabled(DT))"),
    ("enabled outside", "torch.is_autocast_enabled(DT)"),
    ("no-arg is cuda's", "(lambda: [under(lambda: torch.is_autocast_enabled()), torch.is_autocast_enabled()])()",
     _NO_GPU),
    ("dtype inside", "under(lambda: torch.get_autocast_dtype(DT))"),
    ("default dtype cpu", "torch.get_autocast_dtype('cpu')"),
    ("default dtype cuda", "torch.get_autocast_dtype('cuda')"),
    ("float16 region dtype", "(lambda: [torch.autocast('cpu', dtype=torch.float16).fast_dtype])()"),
    ("nested disabled", "under(lambda: under(lambda: [torch.is_autocast_enabled(DT), (A @ B).dtype], enabled=False))"),
    ("nested enabled again", "under(lambda: under(lambda: under(lambda: (A @ B).dtype), enabled=False))"),
    ("state restored", "(under(lambda: 1), torch.is_autocast_enabled(DT), (A @ B).dtype)"),
    ("enter returns self", "(lambda a: (a.__enter__() is a, a.__exit__(None, None, None)))(ac())"),
    ("decorator", "ac()(lambda x: (x @ B).dtype)(A)"),
    ("decorator keeps name", "ac()(dtypes).__name__"),
    ("exception inside restores", "(lambda: [raises_inside(), torch.is_autocast_enabled(DT), (A @ B).dtype])()"),
    ("cache flag", "under(lambda: torch.is_autocast_cache_enabled(), cache_enabled=False)"),
    ("cache flag outside", "torch.is_autocast_cache_enabled()"),
    ("torch.amp.autocast", "[torch.amp.autocast is torch.autocast, torch.amp.autocast(DT, dtype=torch.bfloat16).device == DT]"),
    ("is_autocast_available", "[torch.amp.is_autocast_available('cpu'), torch.amp.is_autocast_available('cuda')]"),
    ("cpu.amp.autocast warns", "warned(lambda: torch.cpu.amp.autocast().fast_dtype)"),
    ("cpu.amp.autocast works", "warned(lambda: (lambda a: (a.__enter__(), (A.cpu() @ B.cpu()).dtype, "
     "a.__exit__(None, None, None))[1])(torch.cpu.amp.autocast()))"),
    ("cuda.amp.autocast warns", "warned(lambda: torch.cuda.amp.autocast(enabled=False).fast_dtype)"),
    ("custom_fwd and custom_bwd", "custom_fns()"),
    ("custom_fwd needs a str", "torch.amp.custom_fwd(device_type=3)"),
    *[(f"deprecated {f}", f"warned(lambda: torch.{f}({a}))") for f, a in (
        ("is_autocast_cpu_enabled", ""), ("set_autocast_cpu_enabled", "False"), ("get_autocast_cpu_dtype", ""),
        ("set_autocast_cpu_dtype", "torch.bfloat16"), ("get_autocast_gpu_dtype", ""),
        ("set_autocast_gpu_dtype", "torch.float16"))],
    ("deprecated inside a region", "under_cpu(lambda: warned(lambda: torch.is_autocast_cpu_enabled())[0])"),
    # ---- refusals and warnings ------------------------------------------------------------------------
    ("device_type not a str", "torch.autocast(torch.device('cpu'))"),
    ("unsupported device_type", "torch.autocast('foo')"),
    ("float32 dtype warns and disables", "warned(lambda: (lambda a: (a.__enter__(), torch.is_autocast_enabled('cpu'), "
     "a.__exit__(None, None, None))[1])(torch.autocast('cpu', dtype=torch.float32)))"),
    ("float64 dtype warns", "warned(lambda: torch.autocast('cpu', dtype=torch.float64)._enabled)"),
    ("decorating a non-callable", "torch.autocast('cpu')(3)"),
    # ---- GradScaler ----------------------------------------------------------------------------------
    ("GradScaler cuda without CUDA", "warned(lambda: [torch.amp.GradScaler('cuda').is_enabled(), "
     "torch.amp.GradScaler('cuda').get_scale()])", _NO_GPU),
    ("GradScaler default device", "warned(lambda: torch.amp.GradScaler().is_enabled())", _NO_GPU),
    ("cuda.amp.GradScaler", "warned(lambda: torch.cuda.amp.GradScaler().is_enabled())", _NO_GPU),
    ("autocast cuda without CUDA", "warned(lambda: torch.autocast('cuda')._enabled)", _NO_GPU),
    ("cpu.amp.GradScaler", "warned(lambda: torch.cpu.amp.GradScaler().is_enabled())"),
    ("disabled scaler passes through", "warned(lambda: (lambda s: [s.scale(A) is A, s.get_scale(), s.state_dict(), "
     "s._get_growth_tracker()])(torch.amp.GradScaler('cpu', enabled=False)))"),
    ("cpu scaler fresh", "(lambda s: [s.is_enabled(), s.get_scale(), s.state_dict(), s.get_growth_factor(), "
     "s.get_backoff_factor(), s.get_growth_interval()])(torch.amp.GradScaler('cpu'))"),
    ("scale a tensor", "torch.amp.GradScaler('cpu', init_scale=8.0).scale(A)"),
    ("scale a list", "torch.amp.GradScaler('cpu', init_scale=8.0).scale([A, V])"),
    ("scale a bfloat16 loss", "torch.amp.GradScaler('cpu').scale(Hb[0].sum())"),
    ("scale refuses a number", "torch.amp.GradScaler('cpu').scale(3.0)"),
    ("growth factor must be > 1", "torch.amp.GradScaler('cpu', growth_factor=1.0)"),
    ("backoff factor must be < 1", "torch.amp.GradScaler('cpu', backoff_factor=1.0)"),
    ("trace inf at 2", "trace()", _TOL),
    ("trace nan and inf", "trace(steps=7, inf_at=(1,), nan_at=(4,))", _TOL),
    ("trace growth every step", "trace(growth_interval=1, inf_at=(), steps=4)", _TOL),
    ("trace Adam", "trace(opt='Adam', inf_at=(0, 3), steps=5)", _TOL),
    ("trace under bfloat16 autocast", "trace(bf16=True, steps=4, inf_at=(1,))", _TOL),
    ("trace growth overflow",
     "trace(init_scale=2.0 ** 40, growth_factor=2.0 ** 100, growth_interval=1, inf_at=(), steps=2)", _TOL),
    ("unscale_ twice", "(lambda s, w, o: (s.scale(w.sum()).backward(), s.unscale_(o), s.unscale_(o)))(*SO())"),
    ("unscale_ then step values", "(lambda s, w, o: (s.scale((w * w).sum()).backward(), s.unscale_(o), w.grad.clone(), "
     "s.step(o), s.update(), w.detach(), s.get_scale())[2:])(*SO(256.0))", _TOL),
    ("step twice", "(lambda s, w, o: (s.scale(w.sum()).backward(), s.step(o), s.step(o)))(*SO())"),
    ("unscale_ after step", "(lambda s, w, o: (s.scale(w.sum()).backward(), s.step(o), s.unscale_(o)))(*SO())"),
    ("step returns the closure-free result", "(lambda s, w, o: (s.scale(w.sum()).backward(), s.step(o))[1])(*SO())"),
    ("float16 grads refused", "(lambda s, w, o: (s.scale(w.sum()).backward(), s.unscale_(o)))(*SO(dtype=torch.half))",
     {"f16": True}),
    ("bfloat16 grads unscale", "(lambda s, w, o: (s.scale((w * w).sum()).backward(), s.unscale_(o), w.grad)[2])"
     "(*SO(256.0, torch.bfloat16))"),
    ("bfloat16 parameter steps", "(lambda s, w, o: (s.scale((w * w).sum()).backward(), s.step(o), s.update(), w.detach())[3])"
     "(*SO(256.0, torch.bfloat16))"),
    ("step without scale", "torch.amp.GradScaler('cpu').step(torch.optim.SGD([torch.nn.Parameter(A.clone())], lr=0.1))"),
    ("update without scale", "torch.amp.GradScaler('cpu').update()"),
    ("update new_scale float", "(lambda s: (s.scale(A), s.update(3.0), s.get_scale())[2])(torch.amp.GradScaler('cpu'))"),
    ("update new_scale tensor", "(lambda s: (s.scale(A), s.update(torch.tensor(5.0, device=dev)), s.get_scale())[2])"
     "(torch.amp.GradScaler(DT))"),
    ("step closure refused", "(lambda s, w, o: (s.scale(w.sum()).backward(), s.step(o, closure=lambda: 0)))(*SO())"),
    ("load_state_dict empty", "torch.amp.GradScaler('cpu').load_state_dict({})"),
    ("load_state_dict", "(lambda s: (s.load_state_dict({'scale': 128.0, 'growth_factor': 3.0, 'backoff_factor': 0.25, "
     "'growth_interval': 7, '_growth_tracker': 2}), s.state_dict(), s.scale(V))[1:])(torch.amp.GradScaler('cpu'))"),
    ("set factors", "(lambda s: (s.set_growth_factor(4.0), s.set_backoff_factor(0.125), s.set_growth_interval(9), "
     "s.state_dict())[3])(torch.amp.GradScaler('cpu'))"),
    ("state_dict after a trace", "trace(steps=3)[2]"),
]
