"""Downloads that are checked while they stream (byte count and full sha256), a progress report, and the
cache of verified files (Cache Storage in the browser, a folder of the asset cache in CPython).

Where bytes come from: in a browser, ``fetch()`` of a URL on the page's own origin; in CPython, a file
path, or any URL ``urllib`` opens (``http://``, ``https://``, ``file://``).
"""
from __future__ import annotations

import hashlib
import os
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

from ..device import _ffi
from ._errors import CrossOriginURL, FetchError, HashMismatch, TruncatedDownload, WrongSize
from ._manifest import origin

__all__ = ["Progress", "is_url", "open_stream", "read_verified", "read_limited", "VerifiedCache", "page_url"]

CHUNK = 1 << 20
CACHE_NAME = "borch-hub-v1"   # the browser's Cache Storage holding verified weights, keyed by sha256


def _size(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f}{unit}" if unit == "B" else f"{n:.1f}{unit}"
        n /= 1000
    return f"{n:.1f}GB"


class Progress:
    """Reports a download: ``progress`` True draws a tqdm-like bar on stderr, a callable is called as
    ``progress(done_bytes, total_bytes_or_None)`` after every chunk, False says nothing."""

    def __init__(self, label: str, total: int | None, progress) -> None:
        self.label, self.total, self.done, self.fn = label, total, 0, progress
        self.t0 = time.perf_counter()
        self.shown = -1
        if callable(progress):
            progress(0, total)

    def update(self, n: int) -> None:
        self.done += n
        if callable(self.fn):
            self.fn(self.done, self.total)
        elif self.fn:
            self._draw(final=False)

    def _draw(self, final: bool) -> None:
        pct = int(100 * self.done / self.total) if self.total else 100
        if not final and (pct < self.shown + 10 or pct == 100):   # about ten updates; close() draws the last
            return
        self.shown = pct
        bar = "█" * (pct // 10) + " " * (10 - pct // 10)
        rate = self.done / max(time.perf_counter() - self.t0, 1e-6)
        total = _size(self.total) if self.total else "?"
        sys.stderr.write(f"\r{self.label}: {pct:3d}%|{bar}| {_size(self.done)}/{total} [{_size(rate)}/s]"
                         + ("\n" if final else ""))
        sys.stderr.flush()

    def close(self) -> None:
        if self.fn is True:
            self._draw(final=True)


def is_url(s: str) -> bool:
    return urllib.parse.urlsplit(s).scheme in ("http", "https", "file")


def page_url() -> str | None:
    return _ffi.page_url() if _ffi.IN_BROWSER else None


def open_stream(location: str, url: bool, where: str):
    """(announced size or None, chunk iterator, cancel) for a URL or (in CPython) a file path."""
    try:
        if _ffi.IN_BROWSER:
            page = _ffi.page_url()
            full = urllib.parse.urljoin(page, location)
            if origin(full) != origin(page):
                raise CrossOriginURL(f"{where}: {location!r} is not on this page's origin {'://'.join(origin(page))}; "
                                     "borch_webgpu fetches only from the site it is served from")
            return _ffi.fetch_stream(full)
        if url:
            resp = urllib.request.urlopen(urllib.request.Request(location, headers={"User-Agent": "borch_webgpu.hub"}))
            length = resp.headers.get("Content-Length")
            chunks = iter(lambda: resp.read(CHUNK), b"")
            return (None if length is None else int(length)), chunks, resp.close
        f = open(location, "rb")  # noqa: SIM115 - closed by cancel() or at the end of the iterator
    except OSError as e:
        raise FetchError(f"{where}: cannot fetch {location}: {e}") from None

    def chunks():
        with f:
            yield from iter(lambda: f.read(CHUNK), b"")
    return os.fstat(f.fileno()).st_size, chunks(), f.close


def read_limited(location: str, url: bool, limit: int, where: str) -> bytes:
    """All of a small file (a manifest), refusing one longer than ``limit`` bytes without reading it all."""
    announced, chunks, cancel = open_stream(location, url, where)
    buf = bytearray()
    for chunk in chunks:
        buf += chunk
        if len(buf) > limit:
            cancel()
            raise WrongSize(f"{where}: more than {limit} bytes arrived; a manifest is at most {limit} bytes")
    return bytes(buf)


def read_verified(location: str, url: bool, size: int | None, sha256: str | None, where: str, progress,
                  label: str) -> bytes:
    """The bytes at ``location``, checked while they stream: never more than ``size`` (WrongSize at the
    first extra byte, or at once when the server announces another size), exactly ``size``
    (TruncatedDownload), then the full ``sha256`` (HashMismatch). None skips a check."""
    announced, chunks, cancel = open_stream(location, url, where)
    if size is not None and announced is not None and announced != size:
        cancel()
        cls = TruncatedDownload if announced < size else WrongSize
        raise cls(f"{where}: {location} is {announced} bytes, the manifest says {size} bytes")
    bar = Progress(label, size if size is not None else announced, progress)
    h, buf = hashlib.sha256(), bytearray()
    try:
        for chunk in chunks:
            if size is not None and len(buf) + len(chunk) > size:
                cancel()
                raise WrongSize(f"{where}: more than the {size} bytes the manifest declares arrived from {location} "
                                f"(at least {len(buf) + len(chunk)}); the download was stopped")
            h.update(chunk)
            buf += chunk
            bar.update(len(chunk))
    finally:
        bar.close()
    if size is not None and len(buf) < size:
        raise TruncatedDownload(f"{where}: {location} ended after {len(buf)} bytes; the manifest says {size} bytes")
    digest = h.hexdigest()
    if sha256 is not None and digest != sha256:
        raise HashMismatch(f"{where}: the sha256 of {location} is {digest}; the manifest says {sha256}")
    return bytes(buf)


class VerifiedCache:
    """Files that passed every check, by sha256: Cache Storage in a browser, ``folder`` in CPython.
    ``get`` hashes what it finds again and drops an entry whose bytes changed."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def _key(self, sha256: str) -> str:
        return urllib.parse.urljoin(_ffi.page_url(), f"/__borch_hub__/{sha256}")

    def get(self, sha256: str) -> bytes | None:
        if _ffi.IN_BROWSER:
            data = _ffi.cache_get(CACHE_NAME, self._key(sha256))
        else:
            p = self.folder / f"{sha256}.safetensors"
            data = p.read_bytes() if p.is_file() else None
        if data is not None and hashlib.sha256(data).hexdigest() != sha256:
            self.drop(sha256)
            return None
        return data

    def put(self, sha256: str, data: bytes) -> None:
        assert hashlib.sha256(data).hexdigest() == sha256
        if _ffi.IN_BROWSER:
            _ffi.cache_put(CACHE_NAME, self._key(sha256), data)
            return
        self.folder.mkdir(parents=True, exist_ok=True)
        tmp = self.folder / f"{sha256}.partial"
        tmp.write_bytes(data)
        tmp.replace(self.folder / f"{sha256}.safetensors")

    def drop(self, sha256: str) -> None:
        if _ffi.IN_BROWSER:
            _ffi.cache_delete(CACHE_NAME, self._key(sha256))
        else:
            (self.folder / f"{sha256}.safetensors").unlink(missing_ok=True)
