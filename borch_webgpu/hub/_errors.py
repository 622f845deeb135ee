"""One exception class per way a download can fail verification; each message says what was
expected and what arrived. All are ``HubError`` (a ``RuntimeError``, like torch.hub's own errors)."""
from __future__ import annotations

__all__ = ["HubError", "ManifestError", "UnknownManifestField", "UnsafeName", "CrossOriginURL", "FetchError",
           "WrongSize", "TruncatedDownload", "HashMismatch", "HeaderMismatch", "NonFiniteWeights", "SampleMismatch",
           "AdapterTooSmall"]


class HubError(RuntimeError):
    """Something ``borch_webgpu.hub`` refused: a bad manifest, a download that does not match it, or
    weights that do not reproduce the manifest's sample. Nothing refused is ever cached."""


class ManifestError(HubError):
    """The manifest does not follow the schema (a missing field, a value of the wrong type or range,
    an unknown schema version)."""


class UnknownManifestField(ManifestError):
    """The manifest has a field the schema does not define (a typo such as ``sha265`` is refused, not
    ignored)."""


class UnsafeName(ManifestError):
    """A name or a path that could leave its folder: ``..``, a slash or backslash in a file name, an
    absolute path, a control character."""


class CrossOriginURL(ManifestError):
    """The weights URL points at another origin than the manifest's: weights come from where the
    manifest came from (or a path relative to it)."""


class FetchError(HubError):
    """The request itself failed (an HTTP status other than 200, a missing file)."""


class WrongSize(HubError):
    """More bytes than the manifest declares (the download stops at the first extra byte), or a server
    that announces another size."""


class TruncatedDownload(HubError):
    """The download ended before the manifest's byte count."""


class HashMismatch(HubError):
    """The bytes' full sha256 is not the manifest's."""


class HeaderMismatch(HubError):
    """The safetensors header is malformed or lies (offsets, shapes, dtypes), or the tensors it
    describes are not the architecture's state dict, or not the manifest's limits and dtype."""


class NonFiniteWeights(HubError):
    """A weight is NaN or infinite."""


class SampleMismatch(HubError):
    """The model, built and loaded, does not reproduce the manifest's sample logits within its tolerance
    on this device."""


class AdapterTooSmall(HubError):
    """The device cannot hold the model: its largest buffer or its total size exceeds the adapter's
    limits (checked before anything is allocated)."""


for _cls in (HubError, ManifestError, UnknownManifestField, UnsafeName, CrossOriginURL, FetchError, WrongSize,
             TruncatedDownload, HashMismatch, HeaderMismatch, NonFiniteWeights, SampleMismatch, AdapterTooSmall):
    _cls.__module__ = "borch_webgpu.hub"   # where they are public
