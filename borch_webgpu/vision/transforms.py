"""``torchvision.transforms`` for tensors and numpy images.

Images are numpy arrays (H, W) or (H, W, C) (uint8 or float) before ``ToTensor`` and tensors
(C, H, W) after it, as in torchvision. ``ToTensor`` makes tensors on the cpu device (like
torchvision's CPU tensors), so per-sample transforms run in numpy and a DataLoader uploads each
batch to the GPU with one copy. Random transforms draw from borch_webgpu's generator.
"""
from __future__ import annotations

import numbers

import numpy as np

from ..ops.creation import tensor
from ..tensor import Tensor
from . import _resize

__all__ = ["Compose", "ToTensor", "Normalize", "RandomCrop", "RandomHorizontalFlip", "CenterCrop", "Resize", "Lambda",
           "Pad"]


def _pair(size, what: str):
    if isinstance(size, numbers.Integral):
        return int(size), int(size)
    if isinstance(size, (tuple, list)) and len(size) in (1, 2):
        return (int(size[0]), int(size[0])) if len(size) == 1 else (int(size[0]), int(size[1]))
    raise ValueError(f"{what}: please provide only two dimensions (h, w) for size, got {size!r}")


def _uniform() -> float:
    from ..ops.random import rand
    return float(rand(1, device="cpu").item())


def _randint(n: int) -> int:
    from ..ops.random import randint
    return int(randint(0, n, (1,), device="cpu").item())


def _hw(img) -> tuple[int, int]:
    if isinstance(img, Tensor):
        return img.shape[-2], img.shape[-1]
    return img.shape[0], img.shape[1]


def _crop(img, top: int, left: int, h: int, w: int):
    if isinstance(img, Tensor):
        return img[..., top:top + h, left:left + w]
    return img[top:top + h, left:left + w]


class Compose:
    """Apply transforms one after another."""

    def __init__(self, transforms):
        self.transforms = list(transforms)

    def __call__(self, img):
        for t in self.transforms:
            img = t(img)
        return img

    def __repr__(self) -> str:
        inner = "".join(f"\n    {t}" for t in self.transforms)
        return f"{type(self).__name__}({inner}\n)"


class ToTensor:
    """A (H, W[, C]) numpy image to a float32 (C, H, W) tensor; uint8 values are divided by 255."""

    def __call__(self, pic):
        if isinstance(pic, Tensor):
            raise TypeError(f"pic should be PIL Image or ndarray. Got {type(pic)}")
        arr = np.asarray(pic)
        if arr.ndim not in (2, 3):
            raise ValueError(f"pic should be 2/3 dimensional. Got {arr.ndim} dimensions.")
        if arr.ndim == 2:
            arr = arr[:, :, None]
        out = arr.transpose(2, 0, 1).astype(np.float32)
        if arr.dtype == np.uint8:
            out /= 255.0
        return tensor(out, device="cpu")

    def __repr__(self) -> str:
        return "ToTensor()"


class Normalize:
    """``(x - mean) / std`` per channel of a (C, H, W) (or batched) tensor."""

    def __init__(self, mean, std, inplace: bool = False):
        self.mean, self.std, self.inplace = list(mean), list(std), inplace
        if any(s == 0 for s in self.std):
            raise ValueError("std evaluated to zero after conversion to torch.float32, leading to division by zero.")

    def __call__(self, t: Tensor) -> Tensor:
        if not isinstance(t, Tensor):
            raise TypeError(f"Input tensor should be a torch tensor. Got {type(t)}.")
        if not t.dtype.is_floating_point:
            raise TypeError(f"Input tensor should be a float tensor. Got {t.dtype}.")
        c = t.shape[-3]
        mean = tensor(self.mean, device=t.device).reshape(-1, 1, 1)
        std = tensor(self.std, device=t.device).reshape(-1, 1, 1)
        if mean.shape[0] not in (1, c):
            raise ValueError(f"Normalize: {len(self.mean)} means for an image of {c} channels")
        out = (t - mean) / std
        if self.inplace:
            t.copy_(out)
            return t
        return out

    def __repr__(self) -> str:
        return f"Normalize(mean={self.mean}, std={self.std})"


class Pad:
    """Pad the borders (int, (lr, tb) or (l, t, r, b)) with a constant or by reflection/replication."""

    def __init__(self, padding, fill=0, padding_mode: str = "constant"):
        self.padding, self.fill, self.padding_mode = padding, fill, padding_mode

    def _amounts(self):
        p = self.padding
        if isinstance(p, numbers.Integral):
            return p, p, p, p
        if len(p) == 2:
            return p[0], p[1], p[0], p[1]
        return tuple(p)

    def __call__(self, img):
        left, top, right, bottom = self._amounts()
        if isinstance(img, Tensor):
            from ..ops.shape import pad
            mode = {"edge": "replicate", "symmetric": "reflect"}.get(self.padding_mode, self.padding_mode)
            x = img if img.dim() > 2 else img.unsqueeze(0)
            out = pad(x, (left, right, top, bottom), mode=mode, value=self.fill if mode == "constant" else None)
            return out if img.dim() > 2 else out.squeeze(0)
        widths = [(top, bottom), (left, right)] + [(0, 0)] * (img.ndim - 2)
        mode = {"constant": "constant", "edge": "edge", "reflect": "reflect", "symmetric": "symmetric"}[self.padding_mode]
        kw = {"constant_values": self.fill} if mode == "constant" else {}
        return np.pad(img, widths, mode=mode, **kw)

    def __repr__(self) -> str:
        return f"Pad(padding={self.padding}, fill={self.fill}, padding_mode={self.padding_mode})"


class RandomCrop:
    """A random ``size`` crop, after optional ``padding`` (torchvision's arguments)."""

    def __init__(self, size, padding=None, pad_if_needed: bool = False, fill=0, padding_mode: str = "constant"):
        self.size = _pair(size, "RandomCrop")
        self.padding, self.pad_if_needed, self.fill, self.padding_mode = padding, pad_if_needed, fill, padding_mode

    def __call__(self, img):
        if self.padding is not None:
            img = Pad(self.padding, self.fill, self.padding_mode)(img)
        h, w = _hw(img)
        th, tw = self.size
        if self.pad_if_needed and (h < th or w < tw):
            img = Pad((max(tw - w, 0), max(th - h, 0)), self.fill, self.padding_mode)(img)
            h, w = _hw(img)
        if h < th or w < tw:
            raise ValueError(f"Required crop size {(th, tw)} is larger than input image size {(h, w)}")
        top = _randint(h - th + 1)
        left = _randint(w - tw + 1)
        return _crop(img, top, left, th, tw)

    def __repr__(self) -> str:
        return f"RandomCrop(size={self.size}, padding={self.padding})"


class RandomHorizontalFlip:
    """Flip left-right with probability ``p``."""

    def __init__(self, p: float = 0.5):
        self.p = p

    def __call__(self, img):
        if _uniform() < self.p:
            if isinstance(img, Tensor):
                return img.flip(-1)
            return np.ascontiguousarray(img[:, ::-1])
        return img

    def __repr__(self) -> str:
        return f"RandomHorizontalFlip(p={self.p})"


class CenterCrop:
    """The central ``size`` crop (zero-padded when the image is smaller)."""

    def __init__(self, size):
        self.size = _pair(size, "CenterCrop")

    def __call__(self, img):
        h, w = _hw(img)
        th, tw = self.size
        if h < th or w < tw:
            pl, pt = max(tw - w, 0) // 2, max(th - h, 0) // 2
            img = Pad((pl, pt, max(tw - w, 0) - pl, max(th - h, 0) - pt))(img)
            h, w = _hw(img)
        top = int(round((h - th) / 2.0))
        left = int(round((w - tw) / 2.0))
        return _crop(img, top, left, th, tw)

    def __repr__(self) -> str:
        return f"CenterCrop(size={self.size})"


class Resize:
    """Resize to ``size``: (h, w), or the smaller edge to an int (the other keeps the aspect ratio,
    capped by ``max_size``), as torchvision does on tensors: ``interpolation`` 'bilinear' or 'bicubic'
    (antialiased when ``antialias``, torchvision's default) or 'nearest'. Numpy images become float
    tensors in [0, 1] first; integer tensors are rounded back to their dtype.

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu.vision import transforms
        >>> transforms.Resize(4, interpolation="bicubic")(torch.ones(3, 8, 12)).shape
        torch.Size([3, 4, 6])
    """

    def __init__(self, size, interpolation="bilinear", max_size=None, antialias=True):
        mode = str(getattr(interpolation, "value", interpolation)).lower().rsplit(".", 1)[-1]
        if mode not in ("nearest",) + _resize.MODES:
            raise ValueError(f"Resize: interpolation must be 'nearest', 'bilinear' or 'bicubic', got {interpolation!r}")
        if isinstance(size, (list, tuple)) and len(size) not in (1, 2) or \
                not isinstance(size, (numbers.Integral, list, tuple)):
            raise TypeError(f"Size should be int or sequence of length 1 or 2. Got {size!r}")
        if max_size is not None and not (isinstance(size, numbers.Integral) or len(size) == 1):
            raise ValueError("max_size should only be passed if size specifies the length of the smaller edge, i.e. "
                             f"size should be an int or a sequence of length 1 in torchscript mode, got size={size!r}")
        self.size, self.interpolation, self.max_size, self.antialias = size, interpolation, max_size, antialias
        self._mode = mode

    def _target(self, h: int, w: int) -> tuple[int, int]:
        if isinstance(self.size, numbers.Integral) or (isinstance(self.size, (list, tuple)) and len(self.size) == 1):
            s = int(self.size if isinstance(self.size, numbers.Integral) else self.size[0])
            short, long = (h, w) if h <= w else (w, h)
            new_short, new_long = s, int(s * long / short)
            if self.max_size is not None:
                if self.max_size <= s:
                    raise ValueError(f"max_size = {self.max_size} must be strictly greater than the requested size "
                                     f"for the smaller edge size = {self.size}")
                if new_long > self.max_size:
                    new_short, new_long = int(self.max_size * new_short / new_long), self.max_size
            return (new_short, new_long) if h <= w else (new_long, new_short)
        return int(self.size[0]), int(self.size[1])

    def __call__(self, img):
        t = img if isinstance(img, Tensor) else ToTensor()(img)
        h, w = t.shape[-2], t.shape[-1]
        th, tw = self._target(h, w)
        if (th, tw) == (h, w):
            return t
        if self._mode == "nearest":
            from ..nn.functional import interpolate
            out = interpolate(t.float().reshape(1, -1, h, w), size=(th, tw), mode="nearest")
            out = out.reshape(tuple(t.shape[:-2]) + (th, tw))
        else:
            rows = tensor(_resize.resize_matrix(h, th, self._mode, bool(self.antialias)),
                          device=t.device)
            cols = tensor(np.ascontiguousarray(_resize.resize_matrix(w, tw, self._mode, bool(self.antialias)).T),
                          device=t.device)
            out = rows @ t.float() @ cols
        if not t.dtype.is_floating_point:
            out = out.round().to(t.dtype)
        return out

    def __repr__(self) -> str:
        return (f"Resize(size={self.size}, interpolation={self._mode}, max_size={self.max_size}, "
                f"antialias={self.antialias})")


class Lambda:
    """Wrap a function as a transform."""

    def __init__(self, lambd):
        if not callable(lambd):
            raise TypeError(f"Argument lambd should be callable, got {repr(type(lambd).__name__)}")
        self.lambd = lambd

    def __call__(self, img):
        return self.lambd(img)
