"""Expressions for complex64 / complex128, torch.fft and the complex linear algebra: creation, views,
promotion, arithmetic, unary math, reductions, matmul, printing, gradients and PyTorch's errors.

generate_complex.py evaluates each with ``torch`` bound to real PyTorch (``dev`` = "cpu") and freezes
the value, or the exception's type and message, into complex.json; replay_complex.py evaluates them
with ``torch`` bound to borch_webgpu on a device (``cpu``, or ``webgpu`` in Chromium, where complex
tensors are held on the host) and compares: dtypes, shapes, strings, reprs and booleans exactly;
numbers (complex ones as real and imaginary parts) to a tolerance by dtype (TOLS). The environment
adds ``np``, ``nan``, ``inf`` and the helpers below.
"""
from __future__ import annotations

import math
import warnings

# (rtol, atol) by the dtype a tensor reports; Python numbers (item(), tolist()) by their own precision
TOLS = {"torch.complex64": (2e-5, 2e-6), "torch.float32": (2e-5, 2e-6),
        "torch.complex128": (1e-11, 1e-12), "torch.float64": (1e-11, 1e-12)}
SCALAR_TOL = (2e-5, 2e-6)
CPU_ONLY = {"devices": ["cpu"]}   # replayed on cpu only (the case says why)

_Z = "[1+2j, 3-1j, -0.5+0.25j, 2j, -1.5-0.75j, 0.3+0j]"
_W = "[0.5-1j, -2+0.5j, 1.25+1j, -0.75-0.5j, 1+1j, -0.2+0.4j]"
_X = "[0.3, -1.2, 0.7, 2.1, -0.4, 1.6, -0.9, 0.05]"
_A = "[[1+1j, 2-0.5j, 0.5j], [-1+0.25j, 0.75+0j, 1-1j]]"
_B = "[[0.5+0j, -1j], [1+1j, 2-1j], [-0.5+0.5j, 1.5+0j]]"
_M = "[[2.0, -1.0, 0.5], [1.0, 3.0, -2.0], [0.0, 1.5, 1.0]]"


def helpers(torch, dev: str) -> dict:
    """The names the expressions use besides torch, dev and np (the same on both sides)."""
    def t(values, dtype=None, grad=False):
        return torch.tensor(values, dtype=dtype, device=dev, requires_grad=grad)

    def grad(f, *xs):
        leaves = [x.detach().clone().requires_grad_(True) for x in xs]
        return list(torch.autograd.grad(f(*leaves), leaves))

    def warned(f):
        """(f's result, the messages of the warnings it raised, without PyTorch's C++ location suffix)."""
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = f()
        return r, [str(x.message).split(" (Triggered internally")[0] for x in w]

    def eig_check(A):
        """eig's results as invariants (eigenvectors are defined up to a phase): the eigenvalues sorted by
        (real, imag), the residual |A V - V diag(w)| small, and each column's norm 1."""
        w, V = torch.linalg.eig(A)
        Ac = A.to(w.dtype)
        res = (Ac @ V - V * w.unsqueeze(-2)).abs().max().item()
        norms = V.abs().pow(2).sum(-2).sqrt()
        order = sorted(w.tolist(), key=lambda z: (round(z.real, 4), round(z.imag, 4)))
        return order, res < 1e-4, norms, w.dtype, V.dtype

    def linear():
        """nn.Linear(2, 3) with fixed parameters, not requiring grad."""
        m = torch.nn.Linear(2, 3).to(dev).requires_grad_(False)
        m.weight.copy_(t([[0.5, -1.0], [0.25, 0.75], [-1.5, 2.0]]))
        m.bias.copy_(t([0.1, -0.2, 0.3]))
        return m

    return {"linear": linear, "Z": t(eval(_Z)), "W": t(eval(_W)), "ZD": t(eval(_Z), torch.complex128), "X": t(eval(_X)),
            "XD": t(eval(_X), torch.float64), "A": t(eval(_A)), "B": t(eval(_B)), "M": t(eval(_M)),
            "t": t, "grad": grad, "warned": warned, "eig_check": eig_check, "math": math}


CASES = [
    # creation, dtypes, printing, item
    ("tensor default", "t([1+2j, 3-1j])"),
    ("tensor repr", "repr(t([1+2j, 3-1j]))"),
    ("repr fractions", "repr(t([1.5+2j, 3-1.25j]))"),
    ("repr sci", "repr(t([[1e-5+2j, 3-1j]]))"),
    ("repr complex128", "repr(t([1+2j], torch.complex128))"),
    ("repr zeros", "repr(torch.zeros(2, dtype=torch.cfloat, device=dev))"),
    ("repr 0-d", "repr(t([1+2j, 3-1j]).sum())"),
    ("repr nan inf", "repr(t([complex(nan, 1), complex(inf, 0)]))"),
    ("repr big", "repr(t([1e10+1j, 1]))"),
    ("repr matrix", "repr(A)"),
    ("repr grad_fn", "repr(t([1+2j], grad=True) * 2)"),
    ("repr requires_grad", "repr(t([1+2j], grad=True))"),
    ("repr long", "repr(torch.arange(40., device=dev).reshape(4, 10) * (1 + 0.5j))"),
    ("item", "t([1+2j]).item()"),
    ("item type", "type(t(1+2j).item()).__name__"),
    ("tolist", "Z.tolist()"),
    ("dtype complex scalar", "t(1j).dtype"),
    ("dtype numpy complex128", "torch.tensor(np.array([1+2j])).dtype"),
    ("from_numpy complex64", "torch.from_numpy(np.array([1+2j], dtype=np.complex64))"),
    ("cfloat alias", "torch.cfloat is torch.complex64 and torch.cdouble is torch.complex128"),
    ("dtype flags", "[torch.complex64.is_complex, torch.complex64.is_floating_point, torch.complex64.to_real(), "
                    "torch.complex128.to_real()]"),
    ("finfo complex", "[torch.finfo(torch.complex64).eps, torch.finfo(torch.complex128).dtype]"),
    ("element_size", "[Z.element_size(), ZD.element_size()]"),
    ("is_complex", "[Z.is_complex(), torch.is_complex(X), Z.is_floating_point()]"),
    ("type name", "[Z.type(), ZD.type()]"),
    ("zeros ones", "[torch.zeros(2, dtype=torch.complex64, device=dev), torch.ones(2, 2, dtype=torch.cdouble, device=dev)]"),
    ("to complex64", "X.to(torch.complex64)"),
    ("to complex128", "Z.to(torch.complex128)"),
    ("to float warns", "warned(lambda: Z.to(torch.float32))"),
    ("promote_types", "[torch.promote_types(torch.complex64, torch.float64), "
                      "torch.promote_types(torch.complex128, torch.float32), torch.promote_types(torch.int64, torch.complex64)]"),
    ("can_cast", "[torch.can_cast(torch.complex64, torch.float32), torch.can_cast(torch.float64, torch.complex64)]"),
    # parts and views
    ("real", "Z.real"),
    ("imag", "Z.imag"),
    ("real of real is self", "X.real is X"),
    # views sharing memory: on cpu only (on webgpu a real result lives on the GPU, so these are copies)
    ("real is a view", "(lambda z: (z.real.__setitem__(0, 7.0), z.imag.__setitem__(1, 5.0), z)[-1])(Z.clone())",
     CPU_ONLY),
    ("real strides", "[Z.real.stride(), Z.imag.storage_offset(), Z.real._base is Z]", CPU_ONLY),
    ("view_as_real aliases", "(lambda z: (torch.view_as_real(z).__setitem__((0, 1), -9.0), z)[-1])(Z.clone())",
     CPU_ONLY),
    ("view_as_complex aliases", "(lambda x: (torch.view_as_complex(x).__setitem__(1, 5j), x)[-1])(X.reshape(4, 2).clone())",
     CPU_ONLY),
    ("view_as_real", "torch.view_as_real(Z)"),
    ("view_as_complex", "torch.view_as_complex(t([[1., 2.], [3., -1.]]))"),
    ("view_as_complex of a 3-d", "torch.view_as_complex(torch.arange(12., device=dev).reshape(2, 3, 2))"),
    ("complex()", "torch.complex(t([1., 3.]), t([2., -1.]))"),
    ("complex() broadcast", "torch.complex(t([[1.], [2.]]), t([0.5, -0.5, 1.]))"),
    ("complex() float64", "torch.complex(XD, XD * 2)"),
    ("polar", "torch.polar(t([2., 1., 0.5]), t([0., 1.5707963, -2.]))"),
    ("abs", "Z.abs()"),
    ("abs complex128", "ZD.abs()"),
    ("angle", "Z.angle()"),
    ("angle real", "torch.angle(t([1., -2., 0.]))"),
    ("conj", "Z.conj()"),
    ("conj flags", "[Z.conj().is_conj(), Z.is_conj(), Z.conj().resolve_conj().is_conj(), "
                   "torch.conj_physical(Z).is_conj(), X.conj().is_conj()]"),
    ("conj_physical", "torch.conj_physical(Z)"),
    ("resolve_conj values", "Z.conj().resolve_conj()"),
    ("mH", "A.mH"),
    ("H adjoint", "[A.H, A.adjoint(), A.T, A.mT]"),
    ("complex() of a tensor", "complex(t(1+2j))"),
    # (PyTorch warns once per process, so only the first cast's warning, in "to float warns", is compared)
    ("copy_ complex into real", "torch.ones(2, device=dev).copy_(Z[:2])"),
    # arithmetic and promotion
    ("add", "Z + W"),
    ("sub", "Z - W"),
    ("mul", "Z * W"),
    ("div", "Z / W"),
    ("add real", "Z + X[:6]"),
    ("mul real scalar", "Z * 2.5"),
    ("mul complex scalar", "X * 1j"),
    ("float64 times 1j", "XD * 1j"),
    ("int times 1j", "torch.tensor([1, 2], device=dev) * 1j"),
    ("complex64 with float64", "(Z + XD[:6]).dtype"),
    ("complex64 with 0-d float64", "(Z * t(2., torch.float64)).dtype"),
    ("float64 with 0-d complex64", "(XD * t(1j)).dtype"),
    ("float32 with 0-d complex128", "(X * t(1j, torch.complex128)).dtype"),
    ("neg", "-Z"),
    ("rsub", "1 - Z"),
    ("rdiv", "1 / Z"),
    ("pow scalar", "Z ** 2"),
    ("eq", "Z == Z.conj().conj()"),
    ("ne", "Z != W"),
    ("add alpha", "torch.add(Z, W, alpha=2)"),
    # unary math
    ("exp", "Z.exp()"),
    ("log", "Z.log()"),
    ("sqrt", "Z.sqrt()"),
    ("sin", "Z.sin()"),
    ("cos", "Z.cos()"),
    ("tanh", "Z.tanh()"),
    ("reciprocal", "Z.reciprocal()"),
    ("sigmoid", "Z.sigmoid()"),
    ("exp complex128", "ZD.exp()"),
    ("sqrt complex128", "ZD.sqrt()"),
    # reductions and matmul
    ("sum", "Z.sum()"),
    ("sum dim", "A.sum(0)"),
    ("mean", "Z.mean()"),
    ("mean dim keepdim", "A.mean(1, keepdim=True)"),
    ("matmul", "A @ B"),
    ("matmul vector", "A @ t([1j, 1, -1])"),
    ("matmul complex128", "A.to(torch.complex128) @ B.to(torch.complex128)"),
    ("reshape transpose", "A.t().reshape(6)"),
    ("index", "Z[1:4]"),
    ("prod", "Z.prod()"),
    ("prod dim", "A.prod(1)"),
    ("prod with a zero", "t([1+1j, 0j, 2-1j]).prod()"),
    ("cumsum", "Z.cumsum(0)"),
    ("cumsum dim", "A.cumsum(1)"),
    ("var", "Z.var()"),
    ("std dim", "A.std(1)"),
    ("var correction 0", "A.var(0, correction=0)"),
    ("vdot", "torch.vdot(Z, W)"),
    ("dot", "torch.dot(Z, W)"),
    ("isclose", "torch.isclose(Z, Z + 1e-3j, atol=1e-2)"),
    ("allclose", "[torch.allclose(Z, Z.clone()), torch.allclose(Z, Z + 1e-3j)]"),
    ("linalg.norm", "torch.linalg.norm(Z)"),
    ("vector_norm ord 1", "torch.linalg.vector_norm(A, ord=1, dim=1)"),
    ("Tensor.norm", "Z.norm()"),
    ("where", "torch.where(t([True, False, True, False, True, True]), Z, 0)"),
    ("where two complex", "torch.where(Z.real > 0, Z, W)"),
    ("sgn", "torch.sgn(t([1+1j, 0j, -2+0j]))"),
    ("isnan isinf", "[torch.isnan(t([complex(0, nan), 1j])), torch.isinf(t([complex(inf, 0), 1j])), "
                    "torch.isfinite(t([complex(1, inf), 1j]))]"),
    ("full complex", "torch.full((2,), 1j, device=dev)"),
    ("full complex128", "torch.full((2,), 1 + 1j, dtype=torch.complex128, device=dev)"),
    ("randn complex", "[torch.randn(3, 2, dtype=torch.cfloat, device=dev).shape, "
                      "torch.randn(3, dtype=torch.cdouble, device=dev).dtype, torch.rand(2, dtype=torch.cfloat, device=dev).dtype]"),
    ("cat stack", "[torch.cat([Z, W]), torch.stack([Z, W], 1).shape]"),
    ("setitem", "(lambda z: (z.__setitem__(1, 5j), z.__setitem__(slice(3, 5), 1 + 1j), z)[-1])(Z.clone())"),
    ("fill_", "Z.clone().fill_(2 - 1j)"),
    ("mul_ in place", "Z.clone().mul_(1j)"),
    ("add_ real into complex", "Z.clone().add_(X[:6])"),
    ("clone to cpu", "Z.clone().to('cpu')"),
    ("logsumexp", "Z.logsumexp(0)"),
    ("logsumexp dim", "A.logsumexp(1, keepdim=True)"),
    ("cumprod", "Z.cumprod(0)"),
    ("cumprod dim", "A.cumprod(1)"),
    ("exp2 asin acos atan", "[Z.exp2(), Z.asin(), Z.acos(), Z.atan()]"),
    ("logical", "[torch.logical_and(Z, t([0j, 1, 1, 1, 0, 1])), torch.logical_or(Z * 0, W), torch.logical_not(Z)]"),
    ("trapezoid", "torch.trapezoid(Z)"),
    ("masked_fill index_select", "[Z.masked_fill(Z.real > 0, 0), Z.index_select(0, torch.tensor([2, 0], device=dev))]"),
    ("outer diag", "[torch.outer(Z[:2], W[:2]), torch.diag(Z[:3])]"),
    # fft
    ("fft", "torch.fft.fft(X)"),
    ("fft complex", "torch.fft.fft(Z)"),
    ("fft n pad", "torch.fft.fft(X, n=10)"),
    ("fft n trim", "torch.fft.fft(Z, n=4)"),
    ("fft ortho", "torch.fft.fft(X, norm='ortho')"),
    ("fft forward", "torch.fft.fft(Z, norm='forward')"),
    ("fft float64", "torch.fft.fft(XD)"),
    ("fft int", "torch.fft.fft(torch.arange(4, device=dev))"),
    ("fft dim 0", "torch.fft.fft(A, dim=0)"),
    ("ifft", "torch.fft.ifft(Z)"),
    ("ifft real", "torch.fft.ifft(X)"),
    ("rfft", "torch.fft.rfft(X)"),
    ("rfft odd n", "torch.fft.rfft(X, n=7)"),
    ("rfft ortho", "torch.fft.rfft(X, norm='ortho')"),
    ("irfft", "torch.fft.irfft(torch.fft.rfft(X))"),
    ("irfft n odd", "torch.fft.irfft(Z[:4], n=7)"),
    ("irfft default n", "torch.fft.irfft(Z)"),
    ("irfft forward", "torch.fft.irfft(Z, norm='forward')"),
    ("fft2", "torch.fft.fft2(A)"),
    ("ifft2", "torch.fft.ifft2(A)"),
    ("fft2 s", "torch.fft.fft2(A, s=(3, 4))"),
    ("rfft2", "torch.fft.rfft2(X.reshape(2, 4))"),
    ("irfft2", "torch.fft.irfft2(A)"),
    ("irfft2 s", "torch.fft.irfft2(A, s=(2, 5))"),
    ("fftn", "torch.fft.fftn(X.reshape(2, 2, 2))"),
    ("fftn dim", "torch.fft.fftn(X.reshape(2, 4), dim=(1,))"),
    ("fftn s", "torch.fft.fftn(A, s=(3,))"),
    ("ifftn", "torch.fft.ifftn(A)"),
    ("rfftn", "torch.fft.rfftn(X.reshape(2, 2, 2))"),
    ("irfftn", "torch.fft.irfftn(A)"),
    ("hfft", "torch.fft.hfft(Z[:4])"),
    ("hfft n", "torch.fft.hfft(Z[:4], n=5)"),
    ("ihfft", "torch.fft.ihfft(X)"),
    ("ihfft ortho", "torch.fft.ihfft(X, norm='ortho')"),
    ("hfft2", "torch.fft.hfft2(A)"),
    ("hfft2 s", "torch.fft.hfft2(A, s=(3, 4), norm='ortho')"),
    ("ihfft2", "torch.fft.ihfft2(X.reshape(2, 4))"),
    ("hfftn", "torch.fft.hfftn(A.reshape(1, 2, 3))"),
    ("ihfftn", "torch.fft.ihfftn(X.reshape(2, 2, 2), norm='forward')"),
    ("ihfftn dim", "torch.fft.ihfftn(X.reshape(2, 4), dim=(0,))"),
    ("fftfreq", "torch.fft.fftfreq(5)"),
    ("fftfreq d", "torch.fft.fftfreq(8, d=0.1)"),
    ("rfftfreq", "torch.fft.rfftfreq(5, d=0.5)"),
    ("fftfreq float64", "torch.fft.fftfreq(4, dtype=torch.float64)"),
    ("fftshift", "torch.fft.fftshift(torch.fft.fftfreq(5))"),
    ("fftshift 2-d", "torch.fft.fftshift(torch.arange(6., device=dev).reshape(2, 3))"),
    ("fftshift dim", "torch.fft.fftshift(torch.arange(6., device=dev).reshape(2, 3), dim=1)"),
    ("ifftshift", "torch.fft.ifftshift(torch.fft.fftshift(torch.arange(7, device=dev)))"),
    ("fft repr", "repr(torch.fft.fft(t([0., 1., 2., 3.])))"),
    ("rfft repr", "repr(torch.fft.rfft(t([0., 1., 2., 3.])))"),
    ("ifft repr", "repr(torch.fft.ifft(t([4., 0., 0., 0.])))"),
    # linear algebra
    ("eig", "eig_check(M)"),
    ("eig float64", "eig_check(M.double())"),
    ("eig complex", "eig_check(A[:, :2] @ B[:2])"),
    ("eig repr", "repr(torch.linalg.eig(t([[2., 0.], [0., 3.]])))"),
    ("eigvals", "sorted(torch.linalg.eigvals(M).tolist(), key=lambda z: (round(z.real, 4), round(z.imag, 4)))"),
    ("eigvals dtype", "torch.linalg.eigvals(M.double()).dtype"),
    ("eigvals rotation", "sorted(torch.linalg.eigvals(t([[0., -1.], [1., 0.]])).tolist(), key=lambda z: z.imag)"),
    ("inv complex", "torch.linalg.inv(A @ A.mH)"),
    ("det complex", "torch.linalg.det(A @ A.mH + 1j * torch.eye(2, device=dev))"),
    ("svdvals complex", "torch.linalg.svdvals(A)"),
    ("eigvalsh complex", "torch.linalg.eigvalsh(A @ A.mH)"),
    # gradients (PyTorch's convention for real losses)
    ("grad rfft abs", "grad(lambda x: torch.fft.rfft(x).abs().sum(), X)"),
    ("grad fft abs", "grad(lambda x: torch.fft.fft(x, n=6).abs().sum(), X)"),
    ("grad fft complex", "grad(lambda z: (torch.fft.fft(z) * W.conj()).real.sum(), Z)"),
    ("grad ifft", "grad(lambda z: torch.fft.ifft(z, norm='ortho').imag.sum(), Z)"),
    ("grad irfft", "grad(lambda z: (torch.fft.irfft(z, n=9) * torch.arange(9., device=dev)).sum(), Z[:5])"),
    ("grad irfft even", "grad(lambda z: (torch.fft.irfft(z) ** 2).sum(), Z)"),
    ("grad rfft2", "grad(lambda x: torch.fft.rfft2(x).abs().sum(), X.reshape(2, 4))"),
    ("grad fftn", "grad(lambda x: torch.fft.fftn(x, s=(3, 5)).abs().sum(), X.reshape(2, 4))"),
    ("grad irfftn", "grad(lambda z: (torch.fft.irfftn(z, norm='ortho') * 0.5).pow(2).sum(), A)"),
    ("grad hfft", "grad(lambda z: torch.fft.hfft(z, n=6).pow(2).sum(), Z[:4])"),
    ("grad ihfft", "grad(lambda x: torch.fft.ihfft(x).abs().sum(), X)"),
    ("grad hfft2", "grad(lambda z: torch.fft.hfft2(z).pow(2).sum(), A)"),
    ("grad ihfftn", "grad(lambda x: torch.fft.ihfftn(x).abs().sum(), X.reshape(2, 4))"),
    ("grad abs", "grad(lambda z: z.abs().sum(), Z)"),
    ("grad real imag", "grad(lambda z: (z.real * 2 + z.imag ** 2).sum(), Z)"),
    ("grad view_as_real", "grad(lambda z: (torch.view_as_real(z) * t([1., -2.])).sum(), Z)"),
    ("grad view_as_complex", "grad(lambda x: torch.view_as_complex(x).abs().sum(), X.reshape(4, 2))"),
    ("grad complex()", "grad(lambda a, b: torch.complex(a, b).abs().sum(), X[:4], X[4:])"),
    ("grad polar", "grad(lambda r, th: torch.polar(r, th).real.sum() + torch.polar(r, th).imag.sum(), "
                   "X[:4].abs(), X[4:])"),
    ("grad mul", "grad(lambda z, w: (z * w).abs().sum(), Z, W)"),
    ("grad mul real", "grad(lambda z, x: (z * x).abs().sum(), Z, X[:6])"),
    ("grad add", "grad(lambda z, w: (z + w * 2).abs().sum(), Z, W)"),
    ("grad div", "grad(lambda z, w: (z / w).real.sum(), Z, W)"),
    ("grad exp log", "grad(lambda z: (z.exp() + z.log()).abs().sum(), Z)"),
    ("grad sqrt sin", "grad(lambda z: (z.sqrt() * z.sin()).imag.sum(), Z)"),
    ("grad matmul", "grad(lambda a, b: (a @ b).abs().sum(), A, B)"),
    ("grad sum mean", "grad(lambda a: a.sum(0).abs().sum() + a.mean().real, A)"),
    ("grad angle", "grad(lambda z: z.angle().sum(), Z[:5])"),
    ("grad conj", "grad(lambda z: (z.conj() * W).imag.sum(), Z)"),
    ("grad to complex", "grad(lambda x: (x.to(torch.complex64) * 1j).exp().real.sum(), X)"),
    ("grad float64", "grad(lambda z: torch.fft.fft(z).abs().sum(), ZD)"),
    ("grad prod", "grad(lambda z: z.prod().abs(), Z[:4])"),
    ("grad prod zero", "grad(lambda z: z.prod(0).real.sum(), t([1+1j, 0j, 2-1j]))"),
    ("grad cumsum", "grad(lambda z: (z.cumsum(0) * W).real.sum(), Z)"),
    ("grad var", "grad(lambda z: z.var(), Z)"),
    ("grad std dim", "grad(lambda a: a.std(1).sum(), A)"),
    ("grad norm", "grad(lambda z: torch.linalg.norm(z), Z)"),
    ("grad where", "grad(lambda z, w: torch.where(Z.real > 0, z, w).abs().sum(), Z, W)"),
    ("grad sgn", "grad(lambda z: (torch.sgn(z) * W).real.sum(), Z)"),
    ("grad vdot", "grad(lambda z, w: torch.vdot(z, w).abs(), Z, W)"),
    ("grad logsumexp", "grad(lambda z: z.logsumexp(0).abs(), Z)"),
    ("grad cumprod", "grad(lambda z: z.cumprod(0).real.sum(), Z[:4])"),
    ("grad cumprod zero", "grad(lambda z: z.cumprod(0).imag.sum(), t([1+1j, 0j, 2-1j, 0.5j]))"),
    ("grad asin atan", "grad(lambda z: (z.asin() + z.atan()).abs().sum(), Z * 0.3)"),
    ("complex module", "(lambda m: warned(lambda: m.to(torch.complex64))[1] + [m.weight.dtype, "
                       "m(A[:, :2]), grad(lambda a: m(a).abs().sum(), A[:, :2])])(linear())"),
    ("backward x.grad", "(lambda x: (torch.fft.rfft(x).abs().sum().backward(), x.grad)[1])(X.clone().requires_grad_())"),
    ("requires_grad complex", "t([1j], grad=True).requires_grad"),
    # PyTorch's errors
    ("lt refused", "Z < 1"),
    ("gt refused", "Z > W"),
    ("max refused", "torch.max(Z)"),
    ("max dim refused", "Z.max(dim=0)"),
    ("argmax refused", "Z.argmax()"),
    ("amax refused", "Z.amax()"),
    ("relu refused", "torch.relu(Z)"),
    ("floor refused", "Z.floor()"),
    ("sign refused", "Z.sign()"),
    ("clamp refused", "Z.clamp(min=0)"),
    ("backward of complex", "(Z.clone().requires_grad_() * 2).sum().backward()"),
    ("imag of real", "X.imag"),
    ("view_as_real of real", "torch.view_as_real(X)"),
    ("view_as_real of conj", "torch.view_as_real(Z.conj())"),
    ("view_as_complex last 3", "torch.view_as_complex(torch.ones(3, device=dev))"),
    ("view_as_complex int", "torch.view_as_complex(torch.ones(3, 2, dtype=torch.int32, device=dev))"),
    ("view_as_complex stride", "torch.view_as_complex(torch.ones(2, 3, device=dev).t())"),
    ("complex() mixed", "torch.complex(X, XD)"),
    ("complex() int", "torch.complex(torch.ones(2, dtype=torch.int64, device=dev), torch.ones(2, dtype=torch.int64, device=dev))"),
    ("rfft of complex", "torch.fft.rfft(Z)"),
    ("ihfft of complex", "torch.fft.ihfft(Z)"),
    ("ihfft2 of complex", "torch.fft.ihfft2(A)"),
    ("fft bad norm", "torch.fft.fft(X, norm='bad')"),
    ("fft n 0", "torch.fft.fft(X, n=0)"),
    ("fft bad dim", "torch.fft.fft(X, dim=2)"),
    ("fft2 of 1-d", "torch.fft.fft2(X)"),
    ("fftn s and dim", "torch.fft.fftn(A, s=(2,), dim=(0, 1))"),
    ("fft2 repeated dim", "torch.fft.fft2(A, dim=(0, 0))"),
    ("irfft of 1", "torch.fft.irfft(t([1.]))"),
    ("fftfreq negative", "torch.fft.fftfreq(-1)"),
    ("matmul mixed", "A @ B.real"),
    ("linear mixed", "torch.nn.functional.linear(A, torch.ones(2, 3, device=dev))"),
    ("sort refused", "torch.sort(Z)"),
    ("topk refused", "torch.topk(Z, 2)"),
    ("median refused", "Z.median()"),
    ("unique refused", "torch.unique(Z)"),
    ("cummax refused", "Z.cummax(0)"),
    ("minimum refused", "torch.minimum(Z, W)"),
    ("abs_ refused", "Z.clone().abs_()"),
    ("erf refused", "torch.erf(Z)"),
    ("real add_ complex refused", "torch.ones(2, device=dev).add_(1j)"),
    ("real mul_ complex refused", "X[:6].clone().mul_(Z)"),
    ("abs_ with grad refused", "t([1+1j], grad=True).clone().abs_()"),
    ("float() refused", "float(t(1j))"),
    ("complex into a real tensor", "(lambda x: x.__setitem__(0, 1j))(torch.ones(2, device=dev))"),
    ("eig non-square", "torch.linalg.eig(A)"),
    ("eig int", "torch.linalg.eig(torch.ones(2, 2, dtype=torch.int64, device=dev))"),
]


def encode(v):
    """A JSON-ready description of a value (complex numbers as [real, imag])."""
    if v is None or isinstance(v, (bool, int, str)):
        return {"value": v}
    if isinstance(v, float):
        return {"value": _f(v)}
    if isinstance(v, complex):
        return {"complex": [_f(v.real), _f(v.imag)]}
    if type(v).__name__ == "dtype":
        return {"dtype": str(v)}
    if all(hasattr(v, a) for a in ("tolist", "dtype", "shape")):
        return {"tensor": {"dtype": str(v.dtype), "shape": list(v.shape), "values": _vals(v.detach().tolist())}}
    if isinstance(v, (list, tuple)):
        return {"seq": [encode(x) for x in v]}
    return {"repr": repr(v)}


def _f(x: float):
    return x if math.isfinite(x) else repr(x)


def _vals(x):
    if isinstance(x, list):
        return [_vals(i) for i in x]
    if isinstance(x, complex):
        return [_f(x.real), _f(x.imag)]
    return _f(x) if isinstance(x, float) else x


def evaluate(expr: str, env: dict) -> dict:
    """{"out": encoded value} or {"raises": type name, "message": text}."""
    try:
        return {"out": encode(eval(expr, dict(env)))}  # noqa: S307 - our own list of expressions
    except Exception as e:  # noqa: BLE001 - the exception is the result
        return {"raises": type(e).__name__, "message": str(e)}


def _num(x):
    return float(x) if isinstance(x, str) else x  # "nan", "inf", "-inf"


def _close_values(a, b, where: str, tol) -> str | None:
    if isinstance(a, list) or isinstance(b, list):
        if not (isinstance(a, list) and isinstance(b, list)) or len(a) != len(b):
            return f"{where}: {a!r} against {b!r}"
        for i, (x, y) in enumerate(zip(a, b)):
            err = _close_values(x, y, f"{where}[{i}]", tol)
            if err:
                return err
        return None
    x, y = _num(a), _num(b)
    if isinstance(x, bool) or isinstance(y, bool) or not isinstance(x, float) or not isinstance(y, float):
        return None if type(x) is type(y) and x == y else f"{where}: {a!r}, PyTorch {b!r}"
    rtol, atol = tol
    if x != x and y != y or x == y or abs(x - y) <= atol + rtol * abs(y):
        return None
    return f"{where}: {x!r}, PyTorch {y!r} (relative error {abs(x - y) / max(abs(y), 1e-300):.2e})"


def close(got: dict, want: dict, where: str = "out") -> str | None:
    """None when an encoded value matches PyTorch's (numbers to TOLS, the rest exactly)."""
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
        return _close_values(g["values"], w["values"], where, TOLS.get(w["dtype"], (0.0, 0.0)))
    if "complex" in want:
        return _close_values(got["complex"], want["complex"], where, SCALAR_TOL)
    if "value" in want and isinstance(want["value"], float):
        return _close_values(got["value"], want["value"], where, SCALAR_TOL)
    return None if got == want else f"{where}: {got}, PyTorch {want}"
