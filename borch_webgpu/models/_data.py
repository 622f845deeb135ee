"""timm's data config: ``resolve_data_config`` (input size, interpolation, mean, std, crop from a model's
pretrained_cfg, overridden by ``args``) and ``create_transform`` (the matching eval transform, built
from ``vision.transforms``)."""
from __future__ import annotations

import math

from ..tensor import Tensor
from ..vision import transforms as T

__all__ = ["resolve_data_config", "resolve_model_data_config", "create_transform", "MaybeToTensor",
           "DEFAULT_CROP_PCT"]

# timm.data.constants
DEFAULT_CROP_PCT = 0.875
DEFAULT_CROP_MODE = "center"
IMAGENET_DEFAULT_MEAN = (0.485, 0.456, 0.406)
IMAGENET_DEFAULT_STD = (0.229, 0.224, 0.225)


def resolve_data_config(args: dict | None = None, pretrained_cfg: dict | None = None, model=None,
                        use_test_size: bool = False, verbose: bool = False) -> dict:
    """timm's ``resolve_data_config``: ``input_size``, ``interpolation``, ``mean``, ``std``, ``crop_pct``
    and ``crop_mode`` for a model, each from ``args`` if given there, else from the model's
    ``pretrained_cfg`` (or the ``pretrained_cfg`` passed), else timm's default.

    Example::

        >>> from borch_webgpu import models
        >>> models.resolve_data_config(pretrained_cfg=models.get_pretrained_cfg("timm", "resnet50"))
        {'input_size': (3, 224, 224), 'interpolation': 'bicubic', 'mean': (0.485, 0.456, 0.406), 'std': (0.229, 0.224, 0.225), 'crop_pct': 0.95, 'crop_mode': 'center'}
        >>> cfg = models.get_pretrained_cfg("timm", "resnet50")
        >>> models.resolve_data_config({"input_size": (3, 64, 64)}, pretrained_cfg=cfg)["input_size"]
        (3, 64, 64)
    """
    if not (model is not None or args or pretrained_cfg):
        raise ValueError("resolve_data_config: at least one of model, args, or pretrained_cfg is required")
    args = args or {}
    cfg = pretrained_cfg or {}
    if not cfg and model is not None:
        cfg = getattr(model, "pretrained_cfg", None) or {}
    out: dict = {}
    in_chans = args.get("in_chans") or args.get("chans") or 3
    input_size = (in_chans, 224, 224)
    if args.get("input_size") is not None:
        input_size = tuple(args["input_size"])
        if len(input_size) != 3:
            raise ValueError(f"resolve_data_config: input_size must be (C, H, W), got {args['input_size']!r}")
        in_chans = input_size[0]
    elif args.get("img_size") is not None:
        input_size = (in_chans, int(args["img_size"]), int(args["img_size"]))
    elif use_test_size and cfg.get("test_input_size") is not None:
        input_size = tuple(cfg["test_input_size"])
    elif cfg.get("input_size") is not None:
        input_size = tuple(cfg["input_size"])
    out["input_size"] = input_size
    out["interpolation"] = args.get("interpolation") or cfg.get("interpolation") or "bicubic"
    for key, default in (("mean", IMAGENET_DEFAULT_MEAN), ("std", IMAGENET_DEFAULT_STD)):
        if args.get(key) is not None:
            v = tuple(args[key])
            if len(v) == 1:
                v = v * in_chans
            elif len(v) != in_chans:
                raise ValueError(f"resolve_data_config: {key} has {len(v)} values for {in_chans} channels")
            out[key] = v
        else:
            out[key] = tuple(cfg[key]) if cfg.get(key) else default
    if args.get("crop_pct"):
        out["crop_pct"] = args["crop_pct"]
    elif use_test_size and cfg.get("test_crop_pct"):
        out["crop_pct"] = cfg["test_crop_pct"]
    else:
        out["crop_pct"] = cfg.get("crop_pct") or DEFAULT_CROP_PCT
    out["crop_mode"] = args.get("crop_mode") or cfg.get("crop_mode") or DEFAULT_CROP_MODE
    if verbose:
        print("Data processing configuration for current model + dataset:")
        for k, v in out.items():
            print(f"\t{k}: {v}")
    return out


def resolve_model_data_config(model, args: dict | None = None, pretrained_cfg: dict | None = None,
                              use_test_size: bool = False, verbose: bool = False) -> dict:
    """``resolve_data_config`` with the model first (timm's ``resolve_model_data_config``)."""
    return resolve_data_config(args=args, pretrained_cfg=pretrained_cfg, model=model, use_test_size=use_test_size,
                               verbose=verbose)


# create_transform's arguments that only the training transform reads (timm ignores them for eval) ...
_TRAIN_ONLY = {"scale", "ratio", "hflip", "vflip", "color_jitter", "color_jitter_prob", "grayscale_prob",
               "gaussian_blur_prob", "auto_augment", "re_prob", "re_mode", "re_count", "re_num_splits",
               "train_crop_mode"}
# ... and those accepted at timm's default value only
_EVAL_FIXED = {"no_aug": False, "use_prefetcher": False, "normalize": True, "separate": False,
               "tf_preprocessing": False, "crop_border_pixels": None, "naflex": False}


class MaybeToTensor:
    """timm's MaybeToTensor: ``ToTensor`` for a numpy image, a tensor passes through."""

    def __call__(self, pic):
        return pic if isinstance(pic, Tensor) else T.ToTensor()(pic)

    def __repr__(self) -> str:
        return "MaybeToTensor()"


def create_transform(input_size=224, is_training: bool = False, interpolation: str = "bilinear",
                     mean=IMAGENET_DEFAULT_MEAN, std=IMAGENET_DEFAULT_STD, crop_pct: float | None = None,
                     crop_mode: str | None = None, **kwargs) -> T.Compose:
    """timm's eval transform (``transforms_imagenet_eval``): resize the smaller edge to
    ``input size / crop_pct`` and take the central ``input_size`` crop ('center'; 'squash' resizes both
    edges instead), then ToTensor and Normalize. ``create_transform(**resolve_data_config(model=m))``
    gives the transform that matches ``m``'s pretrained_cfg. Images are (C, H, W) tensors or numpy
    images; the numbers are those of timm's transform applied to a float tensor image.

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu import models
        >>> tf = models.create_transform(input_size=(3, 32, 32), interpolation="bicubic", crop_pct=0.9)
        >>> tf
        Compose(
            Resize(size=35, interpolation=bicubic, max_size=None, antialias=True)
            CenterCrop(size=(32, 32))
            MaybeToTensor()
            Normalize(mean=[0.485, 0.456, 0.406], std=[0.229, 0.224, 0.225])
        )
        >>> tf(torch.rand(3, 48, 40)).shape
        torch.Size([3, 32, 32])
    """
    if is_training:
        raise NotImplementedError("create_transform: only the eval transform is here (is_training=False); "
                                  "compose a training pipeline from borch_webgpu.vision.transforms")
    bad = sorted(k for k, v in kwargs.items() if k not in _TRAIN_ONLY and _EVAL_FIXED.get(k, object()) != v)
    if bad:
        raise NotImplementedError(f"create_transform: {', '.join(f'{k}={kwargs[k]!r}' for k in bad)} not supported "
                                  "(the eval transform takes input_size, interpolation, mean, std, crop_pct, crop_mode)")
    img_size = tuple(input_size[-2:]) if isinstance(input_size, (tuple, list)) else (input_size, input_size)
    crop_pct = crop_pct or DEFAULT_CROP_PCT
    scale = tuple(math.floor(x / crop_pct) for x in img_size)
    if crop_mode == "squash":
        tfl = [T.Resize(scale, interpolation=interpolation)]
    elif crop_mode in (None, "center"):
        if scale[0] != scale[1]:
            raise NotImplementedError(f"create_transform: a non-square input_size {img_size} (timm's "
                                      "ResizeKeepRatio) is not supported")
        tfl = [T.Resize(scale[0], interpolation=interpolation)]
    else:
        raise NotImplementedError(f"create_transform: crop_mode {crop_mode!r} is not supported ('center', 'squash')")
    return T.Compose(tfl + [T.CenterCrop(img_size), MaybeToTensor(), T.Normalize(mean=mean, std=std)])
