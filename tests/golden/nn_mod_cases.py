"""Scenarios for the nn modules, utils and the optimizer that issue 11 adds (parametrize and the
parametrizations, the hook-based weight/spectral norms, lazy modules, max_unpool, fractional max pooling,
SyncBatchNorm, CrossMapLRN2d, AdaptiveLogSoftmaxWithLoss, Adafactor), in optim_cases.py's form: each snippet
runs after PRELUDE with ``torch`` bound to real PyTorch (generate_optim.py writes nn_mod.json) and to
borch_webgpu (``replay_optim.py --golden nn_mod.json`` compares, on cpu and on WebGPU in Chromium).

Weights come from ``fill`` (sines of the element index, the same in both libraries); a spectral norm's
random start vectors are overwritten with fixed ones before training, so the power iteration is
PyTorch's step by step; an orthogonal parametrization's ``base`` of a non-square weight (completed with random
columns) is overwritten with a fixed orthogonal matrix. ``result`` also holds reprs, state_dict keys and signatures (compared exactly).
"""
from optim_cases import PRELUDE as _BASE

PRELUDE = _BASE + '''
import inspect
import math
nn = torch.nn
F = torch.nn.functional
P = torch.nn.utils.parametrize


def W(shape, s=0.0):
    """Deterministic values of ``shape``: sin(1.3 i + s) * 0.8."""
    n = 1
    for k in shape:
        n *= k
    return T([math.sin(1.3 * i + s) * 0.8 for i in range(n)]).reshape(shape)


def fill(m, s=0.0):
    """Every floating parameter and buffer of m gets W(shape, s + k); returns m on dev."""
    m = m.to(dev)
    with torch.no_grad():
        for k, (_, t) in enumerate(list(m.named_parameters()) + list(m.named_buffers())):
            if t.is_floating_point():
                t.copy_(W(tuple(t.shape), s + k))
    return m


def sig(obj):
    fn = obj.__init__ if inspect.isclass(obj) else obj
    return [[p.name, p.kind.name, None if p.default is p.empty else repr(p.default)]
            for p in inspect.signature(fn).parameters.values()]


def keys(m):
    return [[k, list(v.shape)] for k, v in m.state_dict().items()]


def grads(m):
    return [p.grad.clone() for _, p in m.named_parameters()]


def fwd_bwd(m, x):
    """The output, then every parameter's gradient of (out * W).sum()."""
    x = x.requires_grad_()
    out = m(x)
    (out * W(tuple(out.shape), 9.0)).sum().backward()
    return [out.detach(), x.grad] + grads(m)


def sgd_steps(m, x, steps=3, lr=0.1):
    """SGD on (m(x) * W).sum(); the output of every step."""
    opt = torch.optim.SGD(m.parameters(), lr=lr)
    outs = []
    for _ in range(steps):
        opt.zero_grad()
        out = m(x)
        (out * W(tuple(out.shape), 5.0)).sum().backward()
        opt.step()
        outs.append(out.detach())
    return outs


class Symmetric(nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(0, 1)

    def right_inverse(self, A):
        return A.triu()


class Scale(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.c = c

    def forward(self, X):
        return X * self.c

    def right_inverse(self, A):
        return A / self.c


class SumOfTwo(nn.Module):
    """A parametrization of two tensors: right_inverse returns (A / 2, A / 2)."""
    def forward(self, a, b):
        return a + 2 * b

    def right_inverse(self, A):
        return A / 3, A / 3
'''

_PARAMETRIZE = [
    ("weight_norm Linear forward and grads",
     "m = nn.utils.parametrizations.weight_norm(fill(nn.Linear(4, 3)))\n"
     "result = [repr(m), keys(m), type(m).__name__, m.weight.detach()] + fwd_bwd(m, W((2, 4), 1.0))"),
    ("weight_norm Conv2d dim=None",
     "m = nn.utils.parametrizations.weight_norm(fill(nn.Conv2d(2, 3, 2)), dim=None)\n"
     "result = [keys(m)] + fwd_bwd(m, W((1, 2, 3, 3), 2.0))"),
    ("weight_norm Conv1d dim=1 and a second name",
     "m = nn.utils.parametrizations.weight_norm(fill(nn.Conv1d(2, 3, 2)), dim=1)\n"
     "m = nn.utils.parametrizations.weight_norm(m, name='bias')\n"
     "result = [keys(m), repr(m)] + fwd_bwd(m, W((2, 2, 4), 2.0))"),
    ("weight_norm loads the old weight_g / weight_v keys (strict)",
     "old = {'weight_g': W((3, 1), 1.0), 'weight_v': W((3, 4), 2.0), 'bias': W((3,), 3.0)}\n"
     "m = nn.utils.parametrizations.weight_norm(nn.Linear(4, 3).to(dev))\n"
     "r = m.load_state_dict(old)\n"
     "result = [repr(r), keys(m), m.weight.detach()]"),
    ("spectral_norm Linear: u, v and weight over SGD steps",
     "m = nn.utils.parametrizations.spectral_norm(fill(nn.Linear(4, 3)))\n"
     "sn = m.parametrizations.weight[0]\n"
     "with torch.no_grad():\n"
     "    sn._u.copy_(F.normalize(W((3,), 4.0), dim=0)); sn._v.copy_(F.normalize(W((4,), 5.0), dim=0))\n"
     "outs = sgd_steps(m, W((2, 4), 1.0))\n"
     "m.eval()\n"
     "result = [repr(m), keys(m)] + outs + [sn._u.clone(), sn._v.clone(), m.weight.detach(), m(W((2, 4), 1.0))"
     ".detach(), m.parametrizations.weight.original.detach()]"),
    ("spectral_norm Conv2d grads, n_power_iterations=2",
     "m = nn.utils.parametrizations.spectral_norm(fill(nn.Conv2d(2, 3, 2)), n_power_iterations=2)\n"
     "sn = m.parametrizations.weight[0]\n"
     "with torch.no_grad():\n"
     "    sn._u.copy_(F.normalize(W((3,), 4.0), dim=0)); sn._v.copy_(F.normalize(W((8,), 5.0), dim=0))\n"
     "result = [keys(m), sn.dim] + fwd_bwd(m, W((1, 2, 3, 3), 2.0)) + [sn._u.clone(), sn._v.clone()]"),
    ("spectral_norm ConvTranspose2d uses dim 1",
     "m = nn.utils.parametrizations.spectral_norm(fill(nn.ConvTranspose2d(2, 3, 2)))\n"
     "sn = m.parametrizations.weight[0]\n"
     "with torch.no_grad():\n"
     "    sn._u.copy_(F.normalize(W((3,), 4.0), dim=0)); sn._v.copy_(F.normalize(W((8,), 5.0), dim=0))\n"
     "result = [keys(m), sn.dim] + fwd_bwd(m, W((1, 2, 2, 2), 2.0))"),
    ("register_parametrization: symmetric, assignment, chaining, removal",
     "m = P.register_parametrization(fill(nn.Linear(3, 3)), 'weight', Symmetric())\n"
     "w0 = m.weight.detach().clone()\n"
     "A = W((3, 3), 2.0); m.weight = A + A.T\n"
     "w1 = m.weight.detach().clone()\n"
     "P.register_parametrization(m, 'weight', Scale(2.0))\n"
     "out = fwd_bwd(m, W((2, 3), 1.0))\n"
     "info = [repr(m), keys(m), P.is_parametrized(m), P.is_parametrized(m, 'bias'), "
     "P.type_before_parametrizations(m).__name__]\n"
     "P.remove_parametrizations(m, 'weight', leave_parametrized=False)\n"
     "result = [w0, w1] + out + info + [type(m).__name__, keys(m), m.weight.detach(), hasattr(m, 'parametrizations')]"),
    ("register_parametrization of two tensors (original0, original1) and cached()",
     "m = P.register_parametrization(fill(nn.Linear(3, 2)), 'weight', SumOfTwo())\n"
     "with P.cached():\n"
     "    same = m.weight is m.weight\n"
     "    out = fwd_bwd(m, W((2, 3), 1.0))\n"
     "k = keys(m)\n"
     "P.remove_parametrizations(m, 'weight')\n"
     "result = [same, k] + out + [keys(m), m.weight.detach(), type(m.weight).__name__]"),
    ("parametrized buffer and transfer_parametrizations_and_params",
     "m = fill(nn.BatchNorm1d(3))\n"
     "P.register_parametrization(m, 'running_var', Scale(3.0))\n"
     "m2 = P.transfer_parametrizations_and_params(m, nn.BatchNorm1d(3).to(dev))\n"
     "result = [keys(m), [n for n, _ in m.named_buffers()], m.running_var.clone(), keys(m2), "
     "m2.running_var.clone(), m2.parametrizations.running_var.original is m.parametrizations.running_var.original]"),
    ("orthogonal Linear (matrix_exp, cayley, householder): weight and grads",
     "out = []\n"
     "for mp, shape in (('matrix_exp', (3, 3)), ('cayley', (3, 3)), ('householder', (4, 3)), (None, (2, 4))):\n"
     "    m = nn.utils.parametrizations.orthogonal(fill(nn.Linear(shape[1], shape[0])), orthogonal_map=mp)\n"
     "    if shape[0] != shape[1]:  # base completes the weight's columns with random ones: made fixed\n"
     "        B = W((max(shape), max(shape)), 3.0)\n"
     "        with torch.no_grad():\n"
     "            m.parametrizations.weight[0].base.copy_(torch.linalg.matrix_exp(B - B.T))\n"
     "    w = m.weight\n"
     "    out += [keys(m), torch.allclose(w.T @ w if shape[0] >= shape[1] else w @ w.T, "
     "torch.eye(min(shape), device=dev), atol=1e-5)]\n"
     "    out += fwd_bwd(m, W((2, shape[1]), 1.0))\n"
     "result = out"),
    ("orthogonal householder without trivialization",
     "m = nn.utils.parametrizations.orthogonal(fill(nn.Linear(3, 4)), orthogonal_map='householder', "
     "use_trivialization=False)\n"
     "result = [keys(m)] + fwd_bwd(m, W((2, 3), 1.0))"),
    ("legacy weight_norm: names, grads, removal",
     "import warnings\n"
     "with warnings.catch_warnings(record=True) as ws:\n"
     "    warnings.simplefilter('always')\n"
     "    m = nn.utils.weight_norm(fill(nn.Linear(4, 3)))\n"
     "warned = [str(w.message) for w in ws]\n"
     "k = keys(m)\n"
     "out = fwd_bwd(m, W((2, 4), 1.0))\n"
     "nn.utils.remove_weight_norm(m)\n"
     "result = [warned, k] + out + [keys(m), m.weight.detach(), type(m.weight).__name__]"),
    ("legacy weight_norm Conv2d dim=None and dim=2",
     "import warnings; warnings.simplefilter('ignore')\n"
     "a = nn.utils.weight_norm(fill(nn.Conv2d(2, 3, 2)), dim=None)\n"
     "b = nn.utils.weight_norm(fill(nn.Conv2d(2, 3, 2)), dim=2)\n"
     "result = [keys(a), keys(b)] + fwd_bwd(a, W((1, 2, 3, 3), 1.0)) + fwd_bwd(b, W((1, 2, 3, 3), 1.0))"),
    ("legacy spectral_norm: u, v, weight over SGD steps, metadata, eval, removal",
     "m = nn.utils.spectral_norm(fill(nn.Linear(4, 3)))\n"
     "with torch.no_grad():\n"
     "    m.weight_u.copy_(F.normalize(W((3,), 4.0), dim=0)); m.weight_v.copy_(F.normalize(W((4,), 5.0), dim=0))\n"
     "k = keys(m)\n"
     "outs = sgd_steps(m, W((2, 4), 1.0))\n"
     "sd = m.state_dict()\n"
     "m.eval(); e = m(W((2, 4), 1.0)).detach()\n"
     "m2 = nn.utils.spectral_norm(nn.Linear(4, 3).to(dev)); r = m2.load_state_dict(sd)\n"
     "nn.utils.remove_spectral_norm(m)\n"
     "result = [k] + outs + [m2.weight_u.clone(), m2.weight_v.clone(), m2.weight_orig.detach(), "
     "sd._metadata[''], e, repr(r), keys(m), m.weight.detach()]"),
    ("legacy spectral_norm ConvTranspose1d and Conv2d grads",
     "a = nn.utils.spectral_norm(fill(nn.ConvTranspose1d(2, 3, 2)))\n"
     "b = nn.utils.spectral_norm(fill(nn.Conv2d(2, 3, 2)), n_power_iterations=3)\n"
     "with torch.no_grad():\n"
     "    a.weight_u.copy_(F.normalize(W((3,), 4.0), dim=0)); a.weight_v.copy_(F.normalize(W((4,), 5.0), dim=0))\n"
     "    b.weight_u.copy_(F.normalize(W((3,), 4.0), dim=0)); b.weight_v.copy_(F.normalize(W((8,), 5.0), dim=0))\n"
     "result = [keys(a), keys(b)] + fwd_bwd(a, W((1, 2, 3), 1.0)) + fwd_bwd(b, W((1, 2, 3, 3), 1.0)) + "
     "[a.weight_u.clone(), b.weight_v.clone()]"),
]

_LAZY = [
    ("LazyLinear: placeholders, optimizer built first, materialize, class becomes Linear",
     "m = nn.LazyLinear(3).to(dev)\n"
     "before = [repr(m), type(m.weight).__name__, repr(m.weight), list(m.state_dict()), m.has_uninitialized_params(), "
     "isinstance(m, nn.modules.lazy.LazyModuleMixin)]\n"
     "opt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
     "y = m(W((2, 5), 1.0))\n"
     "after = [repr(m), type(m).__name__, type(m.weight).__name__, keys(m), "
     "list(y.shape)]\n"
     "fill(m)\n"
     "out = m(W((2, 5), 1.0)); (out * W((2, 3), 2.0)).sum().backward(); opt.step()\n"
     "result = before + after + [out.detach(), m.weight.detach(), m.bias.detach()]"),
    ("LazyLinear load_state_dict materializes (class stays LazyLinear)",
     "m = nn.LazyLinear(3, bias=False).to(dev)\n"
     "r = m.load_state_dict({'weight': W((3, 4), 1.0)})\n"
     "result = [repr(r), repr(m), type(m).__name__, type(m.weight).__name__, m.weight.detach(), "
     "m(W((2, 4), 2.0)).detach(), type(m).__name__, repr(m)]"),
    ("Lazy convolutions become their layers",
     "out = []\n"
     "for m, x in ((nn.LazyConv1d(4, 2), W((2, 3, 5))), (nn.LazyConv2d(4, 3, padding=1, bias=False), W((1, 2, 4, 4))), "
     "(nn.LazyConv3d(2, 2, stride=2), W((1, 3, 4, 4, 4))), (nn.LazyConvTranspose1d(2, 3, stride=2), W((2, 3, 4))), "
     "(nn.LazyConvTranspose2d(4, 2, groups=2), W((1, 2, 3, 3))), (nn.LazyConvTranspose3d(2, 2), W((2, 2, 2, 2)))):\n"
     "    m = m.to(dev)\n"
     "    out += [repr(m), list(m.state_dict())]\n"
     "    m(x)\n"
     "    fill(m)\n"
     "    out += [repr(m), type(m).__name__, keys(m), m(x).detach()]\n"
     "result = out"),
    ("Lazy batch and instance norms become their layers",
     "out = []\n"
     "for m, x in ((nn.LazyBatchNorm1d(), W((4, 3))), (nn.LazyBatchNorm2d(momentum=0.3), W((2, 3, 2, 2))), "
     "(nn.LazyBatchNorm3d(affine=False), W((2, 2, 2, 2, 2))), (nn.LazyInstanceNorm1d(), W((2, 3, 5))), "
     "(nn.LazyInstanceNorm2d(affine=False, track_running_stats=False), W((2, 3, 3, 3))), "
     "(nn.LazyInstanceNorm3d(), W((1, 2, 2, 3, 2)))):\n"
     "    m = m.to(dev)\n"
     "    out += [repr(m), [[k, type(v).__name__] for k, v in m.state_dict().items()]]\n"
     "    y = m(x)\n"
     "    out += [repr(m), type(m).__name__, keys(m), y.detach()] + [b.clone() for b in m.buffers()]\n"
     "result = out"),
    ("Uninitialized placeholders",
     "p = nn.UninitializedParameter(); b = nn.UninitializedBuffer()\n"
     "r = [repr(p), repr(b), nn.parameter.is_lazy(p), isinstance(p, nn.Parameter), p.requires_grad, b.requires_grad]\n"
     "p.materialize((2, 3)); b.materialize((4,), dtype=torch.float64)\n"
     "result = r + [type(p).__name__, list(p.shape), p.requires_grad, list(b.shape), str(b.dtype), nn.parameter.is_lazy(b)]"),
    ("signatures of the lazy modules and the utils",
     "result = [sig(c) for c in (nn.LazyLinear, nn.LazyConv1d, nn.LazyConv2d, nn.LazyConv3d, nn.LazyConvTranspose1d, "
     "nn.LazyConvTranspose2d, nn.LazyConvTranspose3d, nn.LazyBatchNorm1d, nn.LazyBatchNorm2d, nn.LazyBatchNorm3d, "
     "nn.LazyInstanceNorm1d, nn.LazyInstanceNorm2d, nn.LazyInstanceNorm3d, nn.UninitializedParameter, "
     "nn.UninitializedBuffer, P.register_parametrization, P.remove_parametrizations, P.is_parametrized, "
     "nn.utils.parametrizations.weight_norm, nn.utils.parametrizations.spectral_norm, "
     "nn.utils.parametrizations.orthogonal, nn.utils.weight_norm, nn.utils.remove_weight_norm, "
     "nn.utils.spectral_norm, nn.utils.remove_spectral_norm, torch.optim.Adafactor)]"),
]

_ADAFACTOR = [
    ("Adafactor", "result = train(lambda ps: torch.optim.Adafactor(ps))"),
    ("Adafactor lr weight_decay d", "result = train(lambda ps: torch.optim.Adafactor(ps, lr=0.05, weight_decay=0.1, "
     "d=1.5), steps=8)"),
    ("Adafactor eps beta2_decay maximize", "result = train(lambda ps: torch.optim.Adafactor(ps, lr=0.1, "
     "beta2_decay=-0.5, eps=(1e-3, 1e-2), maximize=True))"),
    ("Adafactor big", "result = train_big(lambda ps: torch.optim.Adafactor(ps, lr=0.02))"),
    ("Adafactor 3-D parameter", "w = T(torch.arange(24, device=dev).reshape(2, 3, 4).float() * 0.1 - 1.0)"
     ".requires_grad_()\nopt = torch.optim.Adafactor([w], lr=0.05)\nout = []\nfor _ in range(4):\n"
     "    opt.zero_grad(); ((w * w * w).sum() + (w * T(0.5)).sum()).backward(); opt.step(); out.append(w.detach()"
     ".clone())\nresult = out + snapshot(opt)"),
]

# Muon (2-D parameters only): a is 2 x 3 (wide), the big one 64 x 33 (tall: the iteration runs on its transpose)
_MUON = [
    ("Muon", "a = make_params()[0]\nopt = torch.optim.Muon([a], lr=0.002)\nout = []\nfor _ in range(5):\n"
     "    opt.zero_grad(); loss_of(a).backward(); opt.step(); out.append(a.detach().clone())\nresult = out + snapshot(opt)"),
    ("Muon no nesterov, match_rms_adamw, weight_decay", "a = make_params()[0]\nopt = torch.optim.Muon([a], lr=0.001, "
     "weight_decay=0.3, momentum=0.8, nesterov=False, adjust_lr_fn='match_rms_adamw')\nout = []\nfor _ in range(4):\n"
     "    opt.zero_grad(); loss_of(a).backward(); opt.step(); out.append(a.detach().clone())\nresult = out + snapshot(opt)"),
    ("Muon big (tall)", "result = train_big(lambda ps: torch.optim.Muon(ps, lr=0.001), steps=3)"),
    ("Muon ns_steps coefficients eps", "result = train_big(lambda ps: torch.optim.Muon(ps, lr=0.001, ns_steps=3, "
     "ns_coefficients=(2.0, -1.5, 0.5), eps=1e-3), steps=2)"),
    ("Muon defaults and repr", "o = torch.optim.Muon([torch.ones(2, 2, requires_grad=True)])\n"
     "result = [sorted((k, repr(v)) for k, v in o.defaults.items()), repr(o)]"),
]


def U(shape, s):
    return "((W(%s, %r) + 0.8) * 0.6)" % (shape, s)   # samples in [0, 0.96)


_LAYERS = [
    ("max_unpool1d/2d/3d and MaxUnpool modules: values and grads",
     "out = []\n"
     "for n, shape, k, st, pad, osz in ((1, (2, 3, 9), 3, 2, 1, None), (2, (2, 2, 5, 6), 2, 2, 0, (5, 6)), "
     "(2, (1, 3, 7, 7), 3, 2, 1, None), (3, (1, 2, 4, 5, 4), 2, 2, 0, (4, 5, 4))):\n"
     "    x = W(shape, 1.0)\n"
     "    p, i = getattr(F, f'max_pool{n}d')(x, k, st, pad, return_indices=True)\n"
     "    p = p.detach().requires_grad_()\n"
     "    u = getattr(F, f'max_unpool{n}d')(p, i, k, st, pad, output_size=osz)\n"
     "    (u * W(tuple(u.shape), 3.0)).sum().backward()\n"
     "    mod = getattr(nn, f'MaxUnpool{n}d')(k, st, pad)\n"
     "    out += [u.detach(), p.grad, repr(mod), mod(p, i, output_size=osz).detach()]\n"
     "p, i = F.max_pool2d(W((3, 6, 6), 2.0), 2, return_indices=True)\n"
     "result = out + [F.max_unpool2d(p, i, 2)]"),
    ("fractional_max_pool2d with fixed samples: values, indices, grads, module",
     "out = []\n"
     "for shape, k, osz, ratio in (((2, 3, 9, 8), (3, 2), (4, 5), None), ((1, 2, 7, 7), 2, None, (0.5, 0.5)), "
     "((3, 6, 5), 2, (3, 4), None)):\n"
     "    x = W(shape, 1.0).requires_grad_()\n"
     "    nb = 1 if len(shape) == 3 else shape[0]\n"
     "    s = " + U("(nb, shape[-3], 2)", 2.0) + "\n"
     "    o, i = F.fractional_max_pool2d(x, k, output_size=osz, output_ratio=ratio, return_indices=True, "
     "_random_samples=s)\n"
     "    (o * W(tuple(o.shape), 3.0)).sum().backward()\n"
     "    out += [o.detach(), i, x.grad]\n"
     "m = nn.FractionalMaxPool2d(2, output_size=3, return_indices=True, _random_samples=" + U("(2, 3, 2)", 4.0) + ")\n"
     "r = m(W((2, 3, 6, 6), 5.0))\n"
     "result = out + [repr(m), list(m.state_dict()), r[0], r[1], "
     "F.fractional_max_pool2d_with_indices(W((1, 1, 5, 5), 1.0), 2, (3, 3), _random_samples=" + U("(1, 1, 2)", 7.0) + ")[1]]"),
    ("fractional_max_pool3d with fixed samples: values, indices, grads",
     "x = W((1, 2, 6, 7, 5), 1.0).requires_grad_()\n"
     "o, i = F.fractional_max_pool3d(x, 2, output_size=(3, 4, 2), return_indices=True, "
     "_random_samples=" + U("(1, 2, 3)", 2.0) + ")\n"
     "(o * W(tuple(o.shape), 3.0)).sum().backward()\n"
     "m = nn.FractionalMaxPool3d((2, 2, 1), output_ratio=(0.5, 0.5, 0.6), _random_samples=" + U("(2, 2, 3)", 6.0) + ")\n"
     "result = [o.detach(), i, x.grad, repr(m), m(W((2, 2, 4, 6, 5), 5.0)), "
     "F.fractional_max_pool3d(W((2, 4, 4, 4), 2.0), 2, output_size=2, _random_samples=" + U("(1, 2, 3)", 8.0) + ")]"),
    ("SyncBatchNorm in one process and convert_sync_batchnorm",
     "m = fill(nn.SyncBatchNorm(3, momentum=0.2))\n"
     "out = fwd_bwd(m, W((4, 3, 2, 5), 1.0)) + [m.running_mean.clone(), m.running_var.clone(), "
     "int(m.num_batches_tracked)]\n"
     "m.eval(); e = m(W((2, 3, 5), 2.0)).detach()\n"
     "c = fill(nn.Sequential(nn.Conv2d(2, 3, 1), nn.BatchNorm2d(3), nn.Sequential(nn.BatchNorm1d(3, affine=False))))\n"
     "s = nn.SyncBatchNorm.convert_sync_batchnorm(c)\n"
     "cm = fill(nn.SyncBatchNorm(2, momentum=None))\n"
     "for k in range(3):\n"
     "    cm(W((3, 2, 4), float(k)))\n"
     "result = out + [e, repr(m), repr(s), keys(s), s[1].weight is c[1].weight, cm.running_mean.clone(), "
     "cm.running_var.clone()]"),
    ("CrossMapLRN2d: PyTorch's forward and backward",
     "out = []\n"
     "for size, c in ((3, 5), (2, 4), (4, 6), (5, 3)):\n"
     "    m = nn.CrossMapLRN2d(size, alpha=0.3, beta=0.75, k=1.5)\n"
     "    out += [repr(m)] + fwd_bwd(m, W((2, c, 3, 2), float(size)))\n"
     "result = out + [repr(nn.CrossMapLRN2d(3)), nn.CrossMapLRN2d(3)(W((1, 4, 2, 2), 1.0))]"),
    ("AdaptiveLogSoftmaxWithLoss: output, loss, grads, log_prob, predict",
     "m = fill(nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 8], div_value=2.0))\n"
     "x = W((6, 8), 1.0).requires_grad_()\n"
     "r = m(x, torch.tensor([0, 5, 9, 3, 6, 8], device=dev))\n"
     "r.loss.backward()\n"
     "h = fill(nn.AdaptiveLogSoftmaxWithLoss(6, 7, [2], head_bias=True), 2.0)\n"
     "one = h(W((6,), 3.0), torch.tensor(4, device=dev))\n"
     "result = [repr(m), keys(m), type(r).__name__, r.output.detach(), r.loss.detach(), x.grad] + grads(m) + "
     "[m.log_prob(W((4, 8), 2.0)).detach(), m.predict(W((7, 8), 3.0)), m.predict(W((3, 8), 0.0) * 0.1), "
     "one.output.detach(), one.loss.detach(), h.log_prob(W((2, 6), 4.0)).detach(), keys(h)]"),
    ("NLLLoss2d and Container (deprecated aliases)",
     "import warnings\n"
     "with warnings.catch_warnings(record=True) as ws:\n"
     "    warnings.simplefilter('always')\n"
     "    l = nn.NLLLoss2d(ignore_index=1)\n"
     "    c = nn.Container(a=nn.ReLU(), b=nn.Linear(2, 2))\n"
     "x = F.log_softmax(W((2, 3, 2, 2), 1.0), 1)\n"
     "t = torch.tensor([[[0, 1], [2, 0]], [[1, 1], [2, 2]]], device=dev)\n"
     "result = [[str(w.message) for w in ws], repr(l), l(x, t), repr(c), list(c.state_dict())]"),
    ("signatures of the layers",
     "result = [sig(c) for c in (nn.MaxUnpool1d, nn.MaxUnpool2d, nn.MaxUnpool3d, F.max_unpool1d, F.max_unpool2d, "
     "F.max_unpool3d, nn.FractionalMaxPool2d, nn.FractionalMaxPool3d, "
     "F.fractional_max_pool2d_with_indices, F.fractional_max_pool3d_with_indices, "
     "nn.SyncBatchNorm, nn.SyncBatchNorm.convert_sync_batchnorm, nn.CrossMapLRN2d, nn.AdaptiveLogSoftmaxWithLoss, "
     "nn.AdaptiveLogSoftmaxWithLoss.forward, nn.NLLLoss2d, nn.MaxUnpool2d.forward)]"),
]

OPTIM_SNIPPETS = _PARAMETRIZE + _LAZY + _LAYERS + _ADAFACTOR + _MUON

OPTIM_ERRORS = [
    ("spectral_norm n_power_iterations", "torch.nn.utils.parametrizations.spectral_norm(torch.nn.Linear(2, 2), "
     "n_power_iterations=0)"),
    ("spectral_norm dim", "torch.nn.utils.parametrizations.spectral_norm(torch.nn.Linear(2, 2), dim=2)"),
    ("spectral_norm missing name", "torch.nn.utils.parametrizations.spectral_norm(torch.nn.ReLU())"),
    ("legacy spectral_norm twice", "torch.nn.utils.spectral_norm(torch.nn.utils.spectral_norm(torch.nn.Linear(2, 2)))"),
    ("legacy spectral_norm n_power_iterations", "torch.nn.utils.spectral_norm(torch.nn.Linear(2, 2), "
     "n_power_iterations=-1)"),
    ("legacy spectral_norm uninitialized", "torch.nn.utils.spectral_norm(torch.nn.LazyLinear(2))"),
    ("remove_spectral_norm not found", "torch.nn.utils.remove_spectral_norm(torch.nn.Linear(2, 2))"),
    ("legacy weight_norm twice", "import warnings; warnings.simplefilter('ignore')\n"
     "torch.nn.utils.weight_norm(torch.nn.utils.weight_norm(torch.nn.Linear(2, 2)))"),
    ("remove_weight_norm not found", "torch.nn.utils.remove_weight_norm(torch.nn.Linear(2, 2), 'bias')"),
    ("orthogonal 1-D", "torch.nn.utils.parametrizations.orthogonal(torch.nn.Linear(2, 2), 'bias')"),
    ("orthogonal map", "torch.nn.utils.parametrizations.orthogonal(torch.nn.Linear(2, 2), orthogonal_map='qr')"),
    ("register_parametrization missing name", "class Id(torch.nn.Module):\n    def forward(self, x):\n"
     "        return x\ntorch.nn.utils.parametrize.register_parametrization(torch.nn.Linear(2, 2), 'foo', Id())"),
    ("register_parametrization shape change", "class Sq(torch.nn.Module):\n    def forward(self, x):\n"
     "        return x.sum(0)\ntorch.nn.utils.parametrize.register_parametrization(torch.nn.Linear(2, 3), 'weight', Sq())"),
    ("register_parametrization non-tensor", "class N(torch.nn.Module):\n    def forward(self, x):\n"
     "        return 3\ntorch.nn.utils.parametrize.register_parametrization(torch.nn.Linear(2, 3), 'weight', N())"),
    ("remove_parametrizations not parametrized",
     "torch.nn.utils.parametrize.remove_parametrizations(torch.nn.Linear(2, 2), 'weight')"),
    ("remove_parametrizations two tensors leave_parametrized=False",
     "m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(2, 2))\n"
     "torch.nn.utils.parametrize.remove_parametrizations(m, 'weight', leave_parametrized=False)"),
    ("uninitialized shape", "torch.nn.LazyLinear(2).weight.shape"),
    ("uninitialized parameter method", "torch.nn.LazyLinear(2).weight.mul(2)"),
    ("uninitialized parameter operator", "1 + torch.nn.UninitializedParameter()"),
    ("uninitialized buffer method", "torch.nn.LazyBatchNorm1d().running_mean.sum()"),
    ("lazy conv rank", "torch.nn.LazyConv2d(2, 3)(torch.ones(2, 3))"),
    ("lazy conv groups", "torch.nn.LazyConv2d(4, 1, groups=2)(torch.ones(1, 3, 2, 2))"),
    ("lazy batch norm rank", "torch.nn.LazyBatchNorm2d()(torch.ones(2, 3))"),
    ("Adafactor lr", "torch.optim.Adafactor([torch.ones(2, requires_grad=True)], lr=-1.0)"),
    ("Adafactor beta2_decay", "torch.optim.Adafactor([torch.ones(2, requires_grad=True)], beta2_decay=0.5)"),
    ("Adafactor eps1", "torch.optim.Adafactor([torch.ones(2, requires_grad=True)], eps=(-1.0, 1e-3))"),
    ("Adafactor eps2", "torch.optim.Adafactor([torch.ones(2, requires_grad=True)], eps=(None, -1e-3))"),
    ("Adafactor d", "torch.optim.Adafactor([torch.ones(2, requires_grad=True)], d=0.5)"),
    ("Adafactor weight_decay", "torch.optim.Adafactor([torch.ones(2, requires_grad=True)], weight_decay=-0.1)"),
    ("Muon 1-D parameter", "torch.optim.Muon([torch.ones(2, requires_grad=True)])"),
    ("Muon lr", "torch.optim.Muon([torch.ones(2, 2, requires_grad=True)], lr=-1.0)"),
    ("Muon momentum", "torch.optim.Muon([torch.ones(2, 2, requires_grad=True)], momentum=-0.5)"),
    ("Muon weight_decay", "torch.optim.Muon([torch.ones(2, 2, requires_grad=True)], weight_decay=-0.1)"),
    ("Muon adjust_lr_fn", "torch.optim.Muon([torch.ones(2, 2, requires_grad=True)], adjust_lr_fn='rms')"),
    ("Muon ns_steps", "w = torch.ones(2, 2, requires_grad=True)\no = torch.optim.Muon([w], ns_steps=100)\n"
     "w.sum().backward(); o.step()"),
    ("Muon coefficients", "w = torch.ones(2, 2, requires_grad=True)\no = torch.optim.Muon([w], ns_coefficients=(1.0, 2.0))\n"
     "w.sum().backward(); o.step()"),
]

OPTIM_ERRORS += [
    ("max_unpool2d output_size", "p, i = torch.nn.functional.max_pool2d(torch.ones(1, 1, 4, 4), 2, return_indices=True)"
     "\ntorch.nn.functional.max_unpool2d(p, i, 2, output_size=(7, 4))"),
    ("max_unpool2d output_size length", "p, i = torch.nn.functional.max_pool2d(torch.ones(1, 1, 4, 4), 2, "
     "return_indices=True)\ntorch.nn.functional.max_unpool2d(p, i, 2, output_size=(4, 4, 4))"),
    ("FractionalMaxPool2d no size", "torch.nn.FractionalMaxPool2d(2)"),
    ("FractionalMaxPool2d both", "torch.nn.FractionalMaxPool2d(2, output_size=2, output_ratio=0.5)"),
    ("FractionalMaxPool2d ratio", "torch.nn.FractionalMaxPool2d(2, output_ratio=1.5)"),
    ("FractionalMaxPool3d kernel", "torch.nn.FractionalMaxPool3d(0, output_size=2)"),
    ("fractional_max_pool2d no size", "torch.nn.functional.fractional_max_pool2d(torch.ones(1, 1, 4, 4), 2)"),
    ("fractional_max_pool2d pool too large", "torch.nn.functional.fractional_max_pool2d(torch.ones(2, 3, 7, 6), 3, "
     "output_size=6, _random_samples=torch.rand(2, 3, 2))"),
    ("fractional_max_pool2d samples", "torch.nn.functional.fractional_max_pool2d(torch.ones(2, 3, 7, 6), 2, "
     "output_size=3, _random_samples=torch.rand(2, 3, 3))"),
    ("fractional_max_pool3d no size", "torch.nn.functional.fractional_max_pool3d(torch.ones(1, 1, 4, 4, 4), 2)"),
    ("SyncBatchNorm rank", "torch.nn.SyncBatchNorm(3)(torch.ones(3))"),
    ("SyncBatchNorm channels", "torch.nn.SyncBatchNorm(0)(torch.ones(2, 0, 3))"),
    ("CrossMapLRN2d rank", "torch.nn.CrossMapLRN2d(3)(torch.ones(2, 3, 4))"),
    ("AdaptiveLogSoftmaxWithLoss cutoffs", "torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [4, 4])"),
    ("AdaptiveLogSoftmaxWithLoss empty cutoffs", "torch.nn.AdaptiveLogSoftmaxWithLoss(8, 10, [])"),
    ("AdaptiveLogSoftmaxWithLoss target range", "torch.nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2])(torch.ones(2, 4), "
     "torch.tensor([1, 6]))"),
    ("AdaptiveLogSoftmaxWithLoss batch", "torch.nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2])(torch.ones(2, 4), "
     "torch.tensor([1, 2, 3]))"),
    ("AdaptiveLogSoftmaxWithLoss 2-D target", "torch.nn.AdaptiveLogSoftmaxWithLoss(4, 6, [2])(torch.ones(2, 4), "
     "torch.ones(2, 2, dtype=torch.long))"),
]

SIGNATURES = ["Adafactor", "Muon"]
