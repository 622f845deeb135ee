"""The hub: weights that prove themselves before anything says "loaded" (``torch.hub``'s place).

``hub.load(manifest_or_url, device=None, progress=True)`` reads a manifest (a versioned JSON schema,
see :mod:`borch_webgpu.hub._manifest`; an unknown field is refused), checks that the device can hold
the model (the adapter's limits, before anything is fetched or allocated), downloads the weights from
the manifest's own origin while checking their byte count and full sha256, reads the safetensors
header with the same hardened reader as ``torch.load``, refuses NaN/inf weights, builds the
architecture from the catalog (``borch_webgpu.models``), loads it with ``strict=True``, runs the
manifest's sample input on the device and compares the logits with the ones PyTorch computed. Only
then does it return the model (in eval mode, with ``model.hub_verified``). Each failure has its own
exception class (all :class:`HubError`): :class:`UnknownManifestField`, :class:`ManifestError`,
:class:`UnsafeName`, :class:`CrossOriginURL`, :class:`FetchError`, :class:`WrongSize`,
:class:`TruncatedDownload`, :class:`HashMismatch`, :class:`HeaderMismatch`,
:class:`NonFiniteWeights`, :class:`SampleMismatch`, :class:`AdapterTooSmall`.

Nothing is cached unless it passed every check; a verified file is cached by its sha256 (the
browser's Cache Storage, or ``get_dir()/verified`` in CPython) and hashed again when it is reused.
``hub.fetch_weights`` is the path without an adapter: the same manifest and bytes, verified on
``cpu``. ``hub.load_state_dict_from_url`` and ``download_url_to_file`` have PyTorch's signatures;
``check_hash=True`` verifies the full sha256 (the file name must carry all 64 hex digits: PyTorch
accepts a prefix of 8).

Unlike PyTorch's ``torch.hub.load(repo_or_dir, model)``, which runs code from a GitHub repository,
``load`` here takes a manifest: models come from the catalog, weights from the manifest.

Example::

    >>> from borch_webgpu import hub
    >>> try:
    ...     hub.load({"schema": "borch_webgpu.hub/1", "nmae": "x"})
    ... except hub.UnknownManifestField as e:
    ...     print(e)
    hub manifest <dict>: unknown field 'nmae' (did you mean 'name'?); schema borch_webgpu.hub/1 has schema, name, model, weights, limits, input, sample, license, provenance and nothing else
"""
from __future__ import annotations

import hashlib
import os
import re
import sys
import urllib.parse
from collections import OrderedDict
from pathlib import Path

from .. import _assets
from ..device import _ffi, canonical
from ._errors import (AdapterTooSmall, CrossOriginURL, FetchError, HashMismatch, HeaderMismatch, HubError,
                      ManifestError, NonFiniteWeights, SampleMismatch, TruncatedDownload, UnknownManifestField,
                      UnsafeName, WrongSize)
from ._fetch import VerifiedCache, is_url, read_limited, read_verified
from ._manifest import MAX_MANIFEST_BYTES, SCHEMA, check_manifest, check_name, parse_manifest, resolve_weights
from ._verify import Verified, check_layout, check_limits, device_limits, read_weights, run_sample

__all__ = ["load", "fetch_weights", "read_manifest", "load_state_dict_from_url", "download_url_to_file", "get_dir",
           "set_dir", "SCHEMA", "Verified", "HubError", "ManifestError", "UnknownManifestField", "UnsafeName",
           "CrossOriginURL", "FetchError", "WrongSize", "TruncatedDownload", "HashMismatch", "HeaderMismatch",
           "NonFiniteWeights", "SampleMismatch", "AdapterTooSmall"]

HASH_REGEX = re.compile(r"-([a-f0-9]*)\.")   # torch.hub's: the hash part of "name-<hash>.ext"
_hub_dir: str | None = None


def get_dir() -> str:
    """The folder for downloaded weights (torch.hub's ``get_dir``): ``set_dir``'s, else ``hub`` in the
    asset cache (``$BORCH_WEBGPU_CACHE`` or ``~/.cache/borch_webgpu``).

    Example::

        >>> from borch_webgpu import hub
        >>> hub.get_dir().endswith("hub")
        True
    """
    return _hub_dir if _hub_dir is not None else str(_assets.cache_dir() / "hub")


def set_dir(d) -> None:
    """Set the folder ``get_dir`` returns."""
    global _hub_dir
    _hub_dir = os.path.expanduser(os.fspath(d))


def read_manifest(manifest_or_url) -> tuple[dict, str, bool, str]:
    """(checked manifest, where it came from, whether that is a URL, how errors name it). A dict is
    taken as it is (relative weights resolve against the page in a browser, the current folder in
    CPython); a string is a URL (in a browser, relative to the page) or, in CPython, a file path."""
    if isinstance(manifest_or_url, dict):
        where = "hub manifest <dict>"
        m = check_manifest(manifest_or_url, where)
        if _ffi.IN_BROWSER:
            return m, _ffi.page_url(), True, where
        return m, os.path.join(os.getcwd(), ""), False, where
    if not isinstance(manifest_or_url, (str, os.PathLike)):
        raise TypeError(f"hub.load: manifest_or_url must be a dict, a URL or a path, got "
                        f"{type(manifest_or_url).__name__}")
    loc = os.fspath(manifest_or_url)
    where = f"hub manifest {loc!r}"
    url = _ffi.IN_BROWSER or is_url(loc)
    raw = read_limited(loc, url, MAX_MANIFEST_BYTES, where)
    if _ffi.IN_BROWSER:
        loc = urllib.parse.urljoin(_ffi.page_url(), loc)
    return parse_manifest(raw, where), loc, url, where


def _cache() -> VerifiedCache:
    return VerifiedCache(Path(get_dir()) / "verified")


def _verified_model(manifest_or_url, device, progress):
    from .. import models
    from ..ops.creation import tensor
    m, base, url, where = read_manifest(manifest_or_url)
    dev = canonical(device)
    check_limits(m, device_limits(dev), dev, where)
    w = m["weights"]
    location = resolve_weights(base, w["url"], where, url)   # refused or not whatever the cache holds
    label = check_name(w["url"].rsplit("/", 1)[-1], "the weights file name", where)
    cache = _cache()
    data, source = cache.get(w["sha256"]), "cache"
    if data is not None and callable(progress):
        progress(len(data), len(data))
    if data is None:
        data, source = read_verified(location, url, w["bytes"], w["sha256"], where, progress, label), "network"
    arrays = read_weights(data, m, where)
    spec = m["model"]
    try:
        model = models.create_model(spec["library"], spec["factory"], **spec["args"])
    except (TypeError, ValueError, RuntimeError) as e:
        raise ManifestError(f"{where}: model {spec['library']}/{spec['factory']} {spec['args']}: {e}") from e
    check_layout(model, arrays, where)
    model.load_state_dict(OrderedDict((k, tensor(a.copy(), device="cpu")) for k, a in arrays.items()), strict=True)
    model = model.to(dev).eval()
    err = run_sample(model, m, dev, where)
    if source == "network":
        cache.put(w["sha256"], data)
    model.hub_verified = Verified(m["name"], w["sha256"], len(data), str(dev), err, float(m["sample"]["tolerance"]),
                                  source)
    return model


def load(manifest_or_url, device=None, progress=True):
    """Download, verify and build the model a manifest describes; return it only once its sample is
    reproduced on ``device``.

    Args:
        manifest_or_url: a manifest (dict), or its URL (in a browser: on the page's origin, relative
            URLs allowed) or file path (CPython).
        device: where the model runs (None: the default device, ``webgpu`` in a browser with an adapter).
        progress: True draws a progress bar on stderr; a callable gets ``(done_bytes, total_bytes)``
            after each chunk; False is quiet.

    Returns:
        the catalog model in eval mode, its weights loaded with ``strict=True``, and
        ``model.hub_verified`` (a :class:`Verified`: name, sha256, bytes, device, the sample's relative
        error and tolerance, and whether the bytes came from the network or the cache).

    Raises:
        HubError: one subclass per failure (see the module's docstring); nothing is cached then.

    Example::

        >>> from pathlib import Path
        >>> import borch_webgpu
        >>> from borch_webgpu import hub
        >>> published = Path(borch_webgpu.__file__).parents[1] / "web" / "hub"   # what the site serves at /hub/
        >>> model = hub.load(published / "lenet5-mnist.json", device="cpu", progress=False)
        >>> model.catalog.name, model.hub_verified.bytes, model.hub_verified.sample_error < 1e-5
        (ModelName(library='borchvision', factory='lenet5'), 247568, True)
    """
    return _verified_model(manifest_or_url, device, progress)


def fetch_weights(manifest_or_url, progress=True) -> "OrderedDict":
    """The path without an adapter: the same manifest, bytes and checks as :func:`load`, the sample
    reproduced on ``cpu``; returns the verified state dict (tensors on ``cpu``).

    Example::

        >>> from pathlib import Path
        >>> import borch_webgpu
        >>> from borch_webgpu import hub
        >>> published = Path(borch_webgpu.__file__).parents[1] / "web" / "hub"
        >>> sd = hub.fetch_weights(published / "mnist_cnn-digits.json", progress=False)
        >>> list(sd)[:3], sd["conv1.weight"].device
        (['conv1.weight', 'bn1.weight', 'bn1.bias'], device(type='cpu'))
    """
    return OrderedDict(_verified_model(manifest_or_url, "cpu", progress).state_dict())


def download_url_to_file(url: str, dst: str, hash_prefix: str | None = None, progress: bool = True) -> None:
    """torch.hub's ``download_url_to_file``: ``url`` to the file ``dst`` (written whole, or not at all).
    With ``hash_prefix`` the sha256 must start with it (HashMismatch, PyTorch's message).

    Example::

        >>> import os, tempfile
        >>> from borch_webgpu import hub
        >>> d = tempfile.mkdtemp()
        >>> with open(os.path.join(d, "a.bin"), "wb") as f:
        ...     _ = f.write(b"weights")
        >>> hub.download_url_to_file("file://" + os.path.join(d, "a.bin"), os.path.join(d, "b.bin"), "ffff", progress=False)
        Traceback (most recent call last):
        ...
        borch_webgpu.hub.HashMismatch: invalid hash value (expected "ffff", got "...")
    """
    where = "download_url_to_file"
    data = read_verified(url, _ffi.IN_BROWSER or is_url(url), None, None, where, progress,
                         os.path.basename(urllib.parse.urlsplit(url).path) or url)
    digest = hashlib.sha256(data).hexdigest()
    if hash_prefix is not None and digest[:len(hash_prefix)] != hash_prefix:
        raise HashMismatch(f'invalid hash value (expected "{hash_prefix}", got "{digest}")')
    dst = os.path.expanduser(dst)
    tmp = f"{dst}.{os.getpid()}.partial"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, dst)


def load_state_dict_from_url(url: str, model_dir: str | None = None, map_location=None, progress: bool = True,
                             check_hash: bool = False, file_name: str | None = None, weights_only: bool = False):
    """torch.hub's ``load_state_dict_from_url``: download ``url`` into ``model_dir`` (default
    ``get_dir()/checkpoints``) once, then ``torch.load`` it (PyTorch's ``.pt``/``.pth`` zip format, or
    safetensors). ``weights_only`` defaults to False as in PyTorch, which runs a ``.pt`` file's pickle
    unrestricted: pass ``weights_only=True`` for a file you do not trust.

    ``check_hash=True`` needs the file name ``name-<sha256>.ext`` with the **full** sha256 (64 hex
    digits; PyTorch accepts a prefix of 8 or more): the download, and a cached file each time it is
    reused, must hash to it (HashMismatch; a cached file that does not is downloaded again).
    ``file_name`` must be a plain file name (UnsafeName for ``..`` or a slash).

    Example::

        >>> import borch_webgpu as torch
        >>> torch.hub.load_state_dict_from_url("https://example.com/resnet18-f37072fd.safetensors", check_hash=True)
        Traceback (most recent call last):
        ...
        ValueError: load_state_dict_from_url: check_hash=True needs the full sha256 in the file name ('name-<64 hex digits>.ext'); 'resnet18-f37072fd.safetensors' carries 8 digits ('f37072fd'). borch_webgpu verifies all 64 digits (PyTorch accepts a prefix of 8)
    """
    from .. import serialization
    filename = file_name if file_name is not None else os.path.basename(urllib.parse.urlsplit(url).path)
    check_name(filename, "the file name", "load_state_dict_from_url")
    digest = None
    if check_hash:
        r = HASH_REGEX.search(filename)
        digest = r.group(1) if r else None
        if digest is None or len(digest) != 64:
            raise ValueError(f"load_state_dict_from_url: check_hash=True needs the full sha256 in the file name "
                             f"('name-<64 hex digits>.ext'); {filename!r} carries "
                             f"{'no hash' if not digest else f'{len(digest)} digits ({digest!r})'}. borch_webgpu "
                             "verifies all 64 digits (PyTorch accepts a prefix of 8)")
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    cached = os.path.join(model_dir, filename)
    if digest is not None:
        if os.path.exists(cached):
            with open(cached, "rb") as f:
                if hashlib.sha256(f.read()).hexdigest() != digest:
                    sys.stderr.write(f"{cached} does not hash to {digest}: downloading it again\n")
                    os.remove(cached)
    if not os.path.exists(cached):
        sys.stdout.write(f'Downloading: "{url}" to {cached}\n')
        download_url_to_file(url, cached, digest, progress=progress)
    return serialization.load(cached, map_location=map_location, weights_only=weights_only)
