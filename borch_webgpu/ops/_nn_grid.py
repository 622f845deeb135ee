"""``F.affine_grid`` and ``F.grid_sample`` (2-D and 3-D; bilinear / trilinear and nearest; bicubic in 2-D),
written with differentiable ops after ATen's GridSampler: each output point gathers its 2^d neighbours (4 x 4
for bicubic) from the flattened input and weighs them by the fractional parts of its coordinates, so autograd
gives the gradients for the input (a scatter of the gather) and for the grid (through the weights)."""
from __future__ import annotations

import itertools
import warnings

import numpy as np

from .. import _dtype
from ..tensor import Tensor
from ._registry import OpDef, register

__all__ = ["affine_grid", "grid_sample"]

# a float32 matrix product of 3-4 terms; a weighted sum of 4 or 8 neighbours
register(OpDef("affine_grid", "nn", None, None, tol=(1e-5, 1e-6), extra={"messages": True},
               doc="the sampling grid of a batch of affine matrices: base grid @ theta^T"))
register(OpDef("grid_sample", "nn", None, None, tol=(1e-5, 1e-5), extra={"messages": True},
               doc="input sampled at grid points: bilinear (trilinear), nearest or bicubic (2-D), zeros / border / "
                   "reflection"))

_ALIGN = ("Default grid_sample and affine_grid behavior has changed to align_corners=False since 1.3.0. Please "
          "specify align_corners=True if the old behavior is desired. See the documentation of grid_sample for "
          "details.")


def _steps(n: int, align_corners: bool) -> np.ndarray:
    if n <= 1:
        return np.zeros(1, np.float32)
    r = np.linspace(-1, 1, n, dtype=np.float32)
    return r if align_corners else r * np.float32((n - 1) / n)


def affine_grid(theta: Tensor, size, align_corners: bool | None = None) -> Tensor:
    """The (N, H, W, 2) (or (N, D, H, W, 3)) sampling grid, in [-1, 1] coordinates, of the affine maps
    ``theta`` (N, 2, 3) (or (N, 3, 4)) for an output of ``size`` (N, C, H, W) (or (N, C, D, H, W)).

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> identity = torch.tensor([[[1., 0., 0.], [0., 1., 0.]]])
        >>> F.affine_grid(identity, (1, 1, 1, 2), align_corners=True).tolist()
        [[[[-1.0, 0.0], [1.0, 0.0]]]]
    """
    from .creation import tensor as make
    if align_corners is None:
        warnings.warn(_ALIGN, stacklevel=2)
        align_corners = False
    if not theta.dtype.is_floating_point:
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    size = tuple(size)
    if len(size) == 4:
        if theta.dim() != 3 or theta.shape[-2] != 2 or theta.shape[-1] != 3:
            raise ValueError(f"Expected a batch of 2D affine matrices of shape Nx2x3 for size {size}. Got "
                             f"{theta.shape}.")
        spatial = size[-2:]
    elif len(size) == 5:
        if theta.dim() != 3 or theta.shape[-2] != 3 or theta.shape[-1] != 4:
            raise ValueError(f"Expected a batch of 3D affine matrices of shape Nx3x4 for size {size}. Got "
                             f"{theta.shape}.")
        spatial = size[-3:]
    else:
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D affine transforms, "
                                  f"respectively. Got size {size}.")
    if align_corners and min(spatial) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size grids when "
                      "align_corners=True. This is not an intended use case of affine_grid. See the documentation "
                      "of affine_grid for details.", stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    n, k = size[0], len(spatial) + 1
    if theta.shape[0] != n:
        raise RuntimeError(f"Expected size for first two dimensions of batch2 tensor to be: [{n}, {k}] but got: "
                           f"[{theta.shape[0]}, {k}].")
    # base[..., j] is the coordinate along spatial dim -1 - j (x is the width), then a 1
    axes = np.meshgrid(*[_steps(s, align_corners) for s in spatial], indexing="ij")
    base = np.stack([*axes[::-1], np.ones(axes[0].shape, np.float32)], -1).reshape(1, -1, k)
    grid = make(np.ascontiguousarray(base), dtype=theta.dtype, device=theta.device).expand(n, -1, k) \
        @ theta.transpose(1, 2)
    return grid.reshape((n, *spatial, k - 1))


def _reflect(x: Tensor, twice_low: int, twice_high: int) -> Tensor:
    """ATen's reflect_coordinates: fold x into [twice_low / 2, twice_high / 2] by reflections."""
    from .elementwise import where
    if twice_low == twice_high:
        return x * 0
    lo, span = twice_low / 2, (twice_high - twice_low) / 2
    d = (x - lo).abs()
    extra = d.fmod(span)
    flips = (d / span).floor().detach()
    return where(flips.fmod(2) == 0, extra + lo, span - extra + lo)


def _unnormalize(coord: Tensor, size: int, align_corners: bool) -> Tensor:
    return (coord + 1) / 2 * (size - 1) if align_corners else ((coord + 1) * size - 1) / 2


def _padded(x: Tensor, size: int, padding_mode: str, align_corners: bool) -> Tensor:
    """ATen's compute_coordinates: positions folded back (reflection) and clipped (border, reflection)."""
    if padding_mode == "reflection":
        x = _reflect(x, 0, 2 * (size - 1)) if align_corners else _reflect(x, -1, 2 * size - 1)
    if padding_mode in ("border", "reflection"):
        x = x.clamp(0, size - 1)
    return x


def _source(coord: Tensor, size: int, padding_mode: str, align_corners: bool) -> Tensor:
    """Grid coordinates in [-1, 1] to input positions along one dim, with the padding applied."""
    return _padded(_unnormalize(coord, size, align_corners), size, padding_mode, align_corners)


def _cubic_weights(t: Tensor) -> list:
    """ATen's get_cubic_upsample_coefficients (A = -0.75): the weights of taps -1, 0, 1, 2 at fraction t."""
    a = -0.75

    def near(x):   # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):    # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _bicubic(flat: Tensor, grid: Tensor, sizes, padding_mode: str, align_corners: bool) -> Tensor:
    """(N, C, L) bicubic samples of flat (N, C, H * W) at grid (N, Ho, Wo, 2), as ATen does it: 4 x 4 taps
    around the unpadded position, each tap's integer position padded on its own (zeros outside)."""
    from .elementwise import where
    n, c = flat.shape[0], flat.shape[1]
    h, w = sizes
    length = int(np.prod(grid.shape[1:-1]))
    xs = _unnormalize(grid[..., 0].reshape(n, length), w, align_corners)
    ys = _unnormalize(grid[..., 1].reshape(n, length), h, align_corners)
    x0, y0 = xs.detach().floor(), ys.detach().floor()
    wx, wy = _cubic_weights(xs - x0), _cubic_weights(ys - y0)

    def taps(base, size):
        out = []
        for off in (-1, 0, 1, 2):
            q = _padded(base + off, size, padding_mode, align_corners)
            out.append(((q >= 0) & (q <= size - 1), q.clamp(0, size - 1).to(_dtype.int64)))
        return out
    tx, ty = taps(x0, w), taps(y0, h)
    out = None
    for i, (oky, iy) in enumerate(ty):
        row = None
        for j, (okx, ix) in enumerate(tx):
            vals = flat.gather(2, (iy * w + ix).unsqueeze(1).expand(n, c, length))
            term = where((oky & okx).unsqueeze(1), vals, 0.0) * wx[j].unsqueeze(1)
            row = term if row is None else row + term
        term = row * wy[i].unsqueeze(1)
        out = term if out is None else out + term
    return out


def _check_sample(input: Tensor, grid: Tensor, mode: str) -> None:
    s_in, s_grid = list(input.shape), list(grid.shape)
    if input.dim() < 1 or grid.dim() < 1 or s_in[0] != s_grid[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, but got input with "
                           f"sizes {s_in} and grid with sizes {s_grid}")
    if s_grid[-1] != input.dim() - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.dim() - 2} in last dimension, but got "
                           f"grid with sizes {s_grid}")
    for i in range(2, input.dim()):
        if s_in[i] <= 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial dimensions, but input has "
                               f"sizes {s_in} with dimension {i} being empty")
    want = 4 if input.dim() == 4 else 5
    if input.dim() != want or grid.dim() != want:
        raise RuntimeError(f"grid_sampler(): expected {want}D input and grid with same number of dimensions, but got "
                           f"input with sizes {s_in} and grid with sizes {s_grid}")
    if mode == "bicubic" and want == 5:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")
    if not input.dtype.is_floating_point:
        names = {"int64": "Long", "int32": "Int", "bool": "Bool"}
        raise NotImplementedError(f"\"grid_sampler_{want - 2}d_cpu_kernel_impl\" not implemented for "
                                  f"'{names.get(input.dtype.name, input.dtype.name)}'")


def grid_sample(input: Tensor, grid: Tensor, mode: str = "bilinear", padding_mode: str = "zeros",
                align_corners: bool | None = None) -> Tensor:
    """Sample (N, C, H, W) ``input`` at the (N, Ho, Wo, 2) ``grid`` points (x, y in [-1, 1]; also 3-D:
    (N, C, D, H, W) with an (N, Do, Ho, Wo, 3) grid). ``mode``: 'bilinear', 'nearest' or (2-D only)
    'bicubic' (PyTorch's cubic convolution, A = -0.75, over 4 x 4 taps); ``padding_mode``: 'zeros', 'border'
    or 'reflection'. Differentiable with respect to the input and the grid.

    Example::

        >>> import borch_webgpu as torch
        >>> import borch_webgpu.nn.functional as F
        >>> img = torch.tensor([[[[0., 1.], [2., 3.]]]])
        >>> F.grid_sample(img, torch.zeros(1, 1, 1, 2), align_corners=True).item()
        1.5
    """
    from .creation import zeros
    from .elementwise import where
    if mode not in ("bilinear", "nearest", "bicubic"):
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', 'nearest' or 'bicubic', but "
                         f"got: '{mode}'")
    if padding_mode not in ("zeros", "border", "reflection"):
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', 'border', or "
                         f"'reflection', but got: '{padding_mode}'")
    if align_corners is None:
        warnings.warn(_ALIGN, stacklevel=2)
        align_corners = False
    _check_sample(input, grid, mode)
    n, c, *sizes = tuple(input.shape)
    out_sp = tuple(grid.shape[1:-1])
    length = int(np.prod(out_sp))
    nd = len(sizes)
    # position along input spatial dim j comes from grid coordinate nd - 1 - j
    pos = [_source(grid[..., nd - 1 - j].reshape(n, length), sizes[j], padding_mode, align_corners)
           for j in range(nd)]
    strides = [int(np.prod(sizes[j + 1:])) for j in range(nd)]
    flat = input.reshape(n, c, int(np.prod(sizes)))

    def pick(corner, weight):
        ok = None
        idx = None
        for j, p in enumerate(corner):
            inside = (p >= 0) & (p <= sizes[j] - 1)
            ok = inside if ok is None else ok & inside
            term = p.clamp(0, sizes[j] - 1).to(_dtype.int64) * strides[j]
            idx = term if idx is None else idx + term
        vals = flat.gather(2, idx.unsqueeze(1).expand(n, c, length))
        return vals * where(ok, weight, 0.0).unsqueeze(1)

    if mode == "bicubic":
        out = _bicubic(flat, grid, sizes, padding_mode, align_corners)
    elif mode == "nearest":  # a weight of one that depends on the grid: PyTorch gives the grid a zero gradient
        out = pick([p.detach().round() for p in pos], pos[0] * 0 + 1)
    else:
        lows = [p.detach().floor() for p in pos]
        fracs = [p - lo for p, lo in zip(pos, lows)]
        out = zeros((n, c, length), dtype=input.dtype, device=input.device)
        for bits in itertools.product((0, 1), repeat=nd):
            weight = None
            for j, b in enumerate(bits):
                f = fracs[j] if b else 1 - fracs[j]
                weight = f if weight is None else weight * f
            out = out + pick([lo + b for lo, b in zip(lows, bits)], weight)
    return out.reshape((n, c, *out_sp))
