"""``torch.nn.utils.parametrizations``: ``weight_norm``, ``spectral_norm`` and ``orthogonal`` as
parametrizations (see ``parametrize``), with PyTorch's names (``parametrizations.weight.original0`` /
``original1``, the power-iteration buffers ``_u`` / ``_v``), defaults and errors."""
from __future__ import annotations

from enum import Enum, auto

from ... import linalg
from ...autograd import no_grad
from ...ops.creation import empty, eye
from ...tensor import Tensor
from .. import functional as F
from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..modules.module import Module
from . import parametrize

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


def _norm_except_dim(v: Tensor, pow: float, dim: int) -> Tensor:
    """``torch.norm_except_dim``: the p-norm over every dim but ``dim`` (kept as size 1); ``dim=-1`` is the
    norm of the whole tensor (a 0-d tensor), as in PyTorch."""
    if dim == -1:
        return linalg.vector_norm(v, pow)
    if v.dim() == 1:  # the norm of each single element
        return v.abs()
    d = dim % v.dim()
    return linalg.vector_norm(v, pow, dim=tuple(i for i in range(v.dim()) if i != d), keepdim=True)


def _weight_norm(v: Tensor, g: Tensor, dim: int) -> Tensor:
    """``torch._weight_norm``: ``v * g / ||v||`` with the norm taken over every dim but ``dim``."""
    return v * (g / _norm_except_dim(v, 2, dim))


def _is_orthogonal(q: Tensor) -> bool:
    from ...ops.compare import allclose
    n, k = q.size(-2), q.size(-1)
    ident = eye(k, dtype=q.dtype, device=q.device)
    return allclose(q.mT @ q, ident, atol=10.0 * n * 1.1920928955078125e-07)


def _make_orthogonal(a: Tensor) -> Tensor:
    """The Q of A's QR decomposition with R's diagonal made positive (a unique orthogonal matrix)."""
    from ...ops._linalg_householder import geqrf
    x, tau = geqrf(a)
    q = linalg.householder_product(x, tau)
    return q * x.diagonal(dim1=-2, dim2=-1).sign().unsqueeze(-2)


class _OrthMaps(Enum):
    matrix_exp = auto()
    cayley = auto()
    householder = auto()


class _Orthogonal(Module):
    base: Tensor

    def __init__(self, weight, orthogonal_map: _OrthMaps, *, use_trivialization=True) -> None:
        super().__init__()
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X: Tensor) -> Tensor:  # noqa: N803 - PyTorch's name
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map in (_OrthMaps.matrix_exp, _OrthMaps.cayley):
            X = X.tril()
            if n != k:
                from ...ops.shape import cat
                X = cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = X - X.mT
            if self.orthogonal_map == _OrthMaps.matrix_exp:
                Q = linalg.matrix_exp(A)
            else:
                ident = eye(n, dtype=A.dtype, device=A.device)
                Q = linalg.solve(ident - 0.5 * A, ident + 0.5 * A)
            if n != k:
                Q = Q[..., :k]
        else:
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = linalg.householder_product(A, tau)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if hasattr(self, "base"):
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    @no_grad()
    def right_inverse(self, Q: Tensor) -> Tensor:  # noqa: N803
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. Got a tensor of shape "
                             f"{Q.shape}.")
        Q_init = Q  # noqa: N806
        n, k = Q.size(-2), Q.size(-1)
        transpose = n < k
        if transpose:
            Q = Q.mT
            n, k = k, n
        if not hasattr(self, "base"):
            if self.orthogonal_map in (_OrthMaps.cayley, _OrthMaps.matrix_exp):
                raise NotImplementedError("It is not possible to assign to the matrix exponential or the Cayley "
                                          "parametrizations when use_trivialization=False.")
            from ...ops._linalg_householder import geqrf
            A, tau = geqrf(Q)
            d = A.diagonal(dim1=-2, dim2=-1).sign()
            d = d * (1 - 2 * (tau == 0.0).to(d.dtype))
            e = eye(n, k, dtype=A.dtype, device=A.device)   # A's diagonal becomes d
            A = A * (1 - e) + e * d.unsqueeze(-2)
            return A.mT if transpose else A
        if n == k:
            Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
        else:
            from ...ops.random import randn
            from ...ops.shape import cat
            N = randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype, device=Q.device)
            Q = _make_orthogonal(cat([Q, N], dim=-1))
        self.base = Q
        return -eye(Q_init.size(-2), Q_init.size(-1), dtype=Q_init.dtype,
                    device=Q_init.device).expand(Q_init.shape).contiguous()


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:
    """Parametrize ``module.<name>`` (a matrix or a batch of matrices) to be orthogonal: ``Q^T Q = I``.

    Args:
        module (nn.Module): the module.
        name (str): the tensor. Default: ``"weight"``.
        orthogonal_map (str, optional): ``"matrix_exp"``, ``"cayley"`` or ``"householder"``. Default:
            ``"matrix_exp"`` for a square matrix, ``"householder"`` otherwise.
        use_trivialization (bool): keep the base in a buffer ``base`` (dynamic trivialization). Default: ``True``.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.utils.parametrizations.orthogonal(torch.nn.Linear(3, 3))
        >>> torch.allclose(m.weight.T @ m.weight, torch.eye(3), atol=1e-5)
        True
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = "matrix_exp" if weight.size(-2) == weight.size(-1) else "householder"
    orth_enum = getattr(_OrthMaps, orthogonal_map, None)
    if orth_enum is None:
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
                         f"Got: {orthogonal_map}")
    orth = _Orthogonal(weight, orth_enum, use_trivialization=use_trivialization)
    parametrize.register_parametrization(module, name, orth, unsafe=True)
    return module


class _WeightNorm(Module):
    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        if dim is None:
            dim = -1
        self.dim = dim

    def forward(self, weight_g, weight_v):
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight):
        return _norm_except_dim(weight, 2, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int = 0):
    """Weight normalization as a parametrization: ``weight = g * v / ||v||``, the magnitude ``g`` in
    ``parametrizations.<name>.original0`` and the direction ``v`` in ``original1``; the norm is over every
    dim but ``dim`` (over the whole tensor when ``dim=None``). A state dict saved with the old
    :func:`torch.nn.utils.weight_norm` (``<name>_g`` / ``<name>_v``) loads as well.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(20, 40), name="weight")
        >>> m.parametrizations.weight.original0.shape, m.parametrizations.weight.original1.shape
        (torch.Size([40, 1]), torch.Size([40, 20]))
    """
    _wn = _WeightNorm(dim)
    parametrize.register_parametrization(module, name, _wn, unsafe=True)

    def _weight_norm_compat_hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                 error_msgs) -> None:
        g_key, v_key = f"{prefix}{name}_g", f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            original0, original1 = state_dict.pop(g_key), state_dict.pop(v_key)
            state_dict[f"{prefix}parametrizations.{name}.original0"] = original0
            state_dict[f"{prefix}parametrizations.{name}.original1"] = original1

    module._register_load_state_dict_pre_hook(_weight_norm_compat_hook)
    return module


class _SpectralNorm(Module):
    def __init__(self, weight: Tensor, n_power_iterations: int = 1, dim: int = 0, eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError(f"Dimension out of range (expected to be in range of [-{ndim}, {ndim - 1}] but got "
                             f"{dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = empty(h, dtype=weight.dtype, device=weight.device).normal_(0, 1)
            v = empty(w, dtype=weight.dtype, device=weight.device).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: Tensor) -> Tensor:
        if self.dim != 0:
            weight = weight.permute(self.dim, *(d for d in range(weight.dim()) if d != self.dim))
        return weight.flatten(1)

    @no_grad()
    def _power_method(self, weight_mat: Tensor, n_power_iterations: int) -> None:
        for _ in range(n_power_iterations):
            self._u = F.normalize(weight_mat.mv(self._v), dim=0, eps=self.eps, out=self._u)
            self._v = F.normalize(weight_mat.t().mv(self._u), dim=0, eps=self.eps, out=self._v)

    def forward(self, weight: Tensor) -> Tensor:
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        sigma = u.dot(weight_mat.mv(v))
        return weight / sigma

    def right_inverse(self, value: Tensor) -> Tensor:
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1, eps: float = 1e-12,
                  dim: int | None = None) -> Module:
    """Spectral normalization as a parametrization: ``weight / sigma``, ``sigma`` the largest singular value
    of the weight (reshaped to a matrix over ``dim``), estimated by power iteration; the vectors are the
    buffers ``parametrizations.<name>.0._u`` / ``_v``, updated on each access in training mode.

    Args:
        module (nn.Module): the module.
        name (str): the tensor. Default: ``"weight"``.
        n_power_iterations (int): power-iteration steps per access. Default: 1.
        eps (float): added to norms for stability. Default: 1e-12.
        dim (int, optional): the output dim. Default: 1 for ConvTranspose, else 0.

    Example::

        >>> import borch_webgpu as torch
        >>> m = torch.nn.utils.parametrizations.spectral_norm(torch.nn.Linear(20, 40))
        >>> m.parametrizations.weight[0]._u.shape, torch.linalg.matrix_norm(m.weight, 2) < 1.01
        (torch.Size([40]), tensor(True))
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module


