"""The catalog's table: one record per two-part name, filled by ``@register_model`` at import.

A name is ``(library, factory)``: the library says where the architecture comes from ("timm",
"borchvision"), not where the code lives. The factory's signature is the list of architecture
arguments: keyword-only, annotated, and without defaults (a default that later changed would make
a saved manifest build a different model that still loads its weights).
"""
from __future__ import annotations

import difflib
import fnmatch
import inspect
import numbers
from dataclasses import dataclass, field
from typing import Any, Callable, NamedTuple

__all__ = ["ModelName", "ModelArg", "ModelEntry", "register_model", "REGISTRY", "list_models", "model_args",
           "get_pretrained_cfg", "entry", "check_args"]


class ModelName(NamedTuple):
    """A catalog name: ``ModelName(library='timm', factory='resnet18')``; ``str()`` gives ``timm/resnet18``."""
    library: str
    factory: str

    def __str__(self) -> str:
        return f"{self.library}/{self.factory}"


class ModelArg(NamedTuple):
    """One architecture argument: its name, the type it must have, and what it means."""
    name: str
    type: str
    doc: str


ARG_DOCS = {
    "num_classes": "outputs of the classifier (0: no classifier; forward gives the pooled features)",
    "in_chans": "channels of the input image (the first convolution's in_channels)",
    "img_size": "side of the square input image the model is built for (a ViT's position embedding grid)",
}
ARG_MIN = {"num_classes": 0, "in_chans": 1, "img_size": 1}
_TYPES = {"int": numbers.Integral}


@dataclass(frozen=True)
class ModelEntry:
    """A registered architecture: its name, factory, arguments, pretrained_cfg (timm's data config
    for the architecture: input size, mean, std, crop, interpolation) and, for ``timm`` names, the
    defaults timm's own signature documents (filled by ``from_timm_name`` only)."""
    name: ModelName
    fn: Callable[..., Any]
    args: tuple[ModelArg, ...]
    pretrained_cfg: dict = field(hash=False)
    timm_defaults: dict | None = field(default=None, hash=False)


REGISTRY: dict[ModelName, ModelEntry] = {}


def _args_of(fn) -> tuple[ModelArg, ...]:
    out = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind is not p.KEYWORD_ONLY or p.default is not p.empty:
            raise TypeError(f"register_model: {fn.__name__}'s argument {p.name!r} must be keyword-only without a "
                            "default (architecture arguments have no defaults)")
        kind = p.annotation if isinstance(p.annotation, str) else getattr(p.annotation, "__name__", "")
        if kind not in _TYPES:
            raise TypeError(f"register_model: {fn.__name__}'s argument {p.name!r} needs an annotation among "
                            f"{sorted(_TYPES)}, got {p.annotation!r}")
        if p.name not in ARG_DOCS:
            raise TypeError(f"register_model: {fn.__name__}'s argument {p.name!r} has no entry in ARG_DOCS")
        out.append(ModelArg(p.name, kind, ARG_DOCS[p.name]))
    return tuple(out)


def register_model(library: str, *, pretrained_cfg: dict, timm_defaults: dict | None = None):
    """Decorator: register ``fn`` as ``library/fn.__name__``. A name registered twice raises."""
    def deco(fn):
        name = ModelName(library, fn.__name__)
        if name in REGISTRY:
            raise ValueError(f"register_model: {name} is registered twice")
        args = _args_of(fn)
        if (library == "timm") != (timm_defaults is not None):
            raise ValueError(f"register_model: {name}: timm names (only) carry timm_defaults")
        if timm_defaults is not None and set(timm_defaults) != {a.name for a in args}:
            raise ValueError(f"register_model: {name}: timm_defaults {sorted(timm_defaults)} != arguments "
                             f"{[a.name for a in args]}")
        REGISTRY[name] = ModelEntry(name, fn, args, dict(pretrained_cfg), timm_defaults)
        return fn
    return deco


def list_models(pattern: str | None = None, library: str | None = None) -> list[ModelName]:
    """The catalog's names, sorted, as ``ModelName(library, factory)`` records.

    Args:
        pattern (str, optional): an fnmatch pattern (``"resnet*"``); it matches the factory, or the
            whole ``library/factory`` when it contains a ``/``.
        library (str, optional): only names from this library (``"timm"``, ``"borchvision"``).

    Example::

        >>> from borch_webgpu import models
        >>> models.list_models("resnet18*")
        [ModelName(library='borchvision', factory='resnet18_cifar'), ModelName(library='timm', factory='resnet18')]
        >>> [str(n) for n in models.list_models("mobilenet*", library="timm")]
        ['timm/mobilenetv2_100', 'timm/mobilenetv3_large_100', 'timm/mobilenetv3_small_100']
        >>> [str(n) for n in models.list_models("vit_*")]
        ['timm/vit_base_patch16_224', 'timm/vit_small_patch16_224', 'timm/vit_tiny_patch16_224']
    """
    out = []
    for name in sorted(REGISTRY):
        if library is not None and name.library != library:
            continue
        if pattern is not None and not fnmatch.fnmatchcase(str(name) if "/" in pattern else name.factory, pattern):
            continue
        out.append(name)
    return out


def entry(library: str, factory: str, op: str = "create_model") -> ModelEntry:
    """The record of ``library/factory``; an unknown name raises timm's RuntimeError, with the close names."""
    for what, value in (("library", library), ("factory", factory)):
        if not isinstance(value, str):
            raise TypeError(f"{op}: {what} must be a str, got {type(value).__name__} ({value!r})")
    found = REGISTRY.get(ModelName(library, factory))
    if found is not None:
        return found
    libraries = sorted({n.library for n in REGISTRY})
    if library not in libraries:
        hint = f"the libraries are {', '.join(libraries)}"
    else:
        close = difflib.get_close_matches(factory, [n.factory for n in REGISTRY if n.library == library], n=3)
        hint = f"did you mean {', '.join(f'{library}/{c}' for c in close)}?" if close else \
            f"{library} has {', '.join(n.factory for n in list_models(library=library))}"
    raise RuntimeError(f"Unknown model ({library}/{factory}): {hint} (models.list_models() lists the catalog)")


def model_args(library: str, factory: str) -> tuple[ModelArg, ...]:
    """The arguments ``library/factory`` takes, all required (architecture arguments have no defaults).

    Example::

        >>> from borch_webgpu import models
        >>> [a.name for a in models.model_args("timm", "resnet50")]
        ['num_classes', 'in_chans']
    """
    return entry(library, factory, "model_args").args


def get_pretrained_cfg(library: str, factory: str) -> dict:
    """A copy of ``library/factory``'s pretrained_cfg (timm's data config: input_size, mean, std, crop_pct,
    interpolation, ...) without building the model.

    Example::

        >>> from borch_webgpu import models
        >>> cfg = models.get_pretrained_cfg("timm", "resnet50")
        >>> cfg["input_size"], cfg["crop_pct"], cfg["interpolation"]
        ((3, 224, 224), 0.95, 'bicubic')
    """
    return dict(entry(library, factory, "get_pretrained_cfg").pretrained_cfg)


def check_args(e: ModelEntry, args: dict, op: str) -> None:
    """Refuse missing, unknown and mistyped architecture arguments (TypeError listing the accepted names)."""
    where = f"{op}({e.name.library!r}, {e.name.factory!r})"
    names = [a.name for a in e.args]
    takes = f"{e.name} takes {', '.join(names)}"
    unknown = [k for k in args if k not in names]
    if unknown:
        said = []
        for k in unknown:
            close = difflib.get_close_matches(k, names, n=1)
            said.append(f"{k!r} (did you mean {close[0]!r}?)" if close else repr(k))
        why = ""
        if "pretrained" in unknown:
            why = " (the catalog builds architectures and fetches no weights: load_state_dict(..., strict=True))"
        raise TypeError(f"{where}: unknown argument{'s' if len(unknown) > 1 else ''} {', '.join(said)}{why}; "
                        f"{takes}")
    missing = [k for k in names if k not in args]
    if missing:
        raise TypeError(f"{where}: missing argument{'s' if len(missing) > 1 else ''} "
                        f"{', '.join(repr(k) for k in missing)}; {takes}, each given explicitly (architecture "
                        "arguments have no defaults)")
    for a in e.args:
        v = args[a.name]
        if not isinstance(v, _TYPES[a.type]) or isinstance(v, bool):
            raise TypeError(f"{where}: {a.name} must be {a.type}, got {type(v).__name__} ({v!r})")
        if a.name in ARG_MIN and v < ARG_MIN[a.name]:
            raise ValueError(f"{where}: {a.name} must be >= {ARG_MIN[a.name]}, got {v!r}")
