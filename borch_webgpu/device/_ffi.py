"""The only module that imports ``js`` or ``pyodide``: everything browser-specific goes through here.

In plain CPython ``IN_BROWSER`` is False and nothing here is used; the package imports and
runs on the numpy ``cpu`` device.
"""
from __future__ import annotations

import sys
from importlib import resources

IN_BROWSER = sys.platform == "emscripten"

# Python -> JS calls made by the device layer (the dispatch-path benchmark reports it per op).
calls = 0


def backend_source() -> str:
    return resources.files("borch_webgpu").joinpath("js/gpu.mjs").read_text(encoding="utf-8")


def load_backend():
    """A new JS backend object (``createBackend()`` of js/gpu.mjs). The host imports that module and sets
    ``globalThis.borchCreateBackend`` (js/runtime.mjs does, before Python starts the device), so nothing
    is evaluated from a string: the site's Content-Security-Policy forbids eval. A Pyodide started some
    other way gets the module's text evaluated instead."""
    import js  # type: ignore[import-not-found]

    make = getattr(js, "borchCreateBackend", None)
    if make is not None:
        return make()
    from pyodide.code import run_js  # type: ignore[import-not-found]

    src = backend_source().replace("export function createBackend", "function createBackend", 1)
    return run_js(src + "\ncreateBackend()\n")


def can_block() -> bool:
    from pyodide.ffi import can_run_sync  # type: ignore[import-not-found]

    return bool(can_run_sync())


class BlockingNotAvailable(RuntimeError):
    pass


def wait(promise, what: str):
    """Block on a JS promise (JSPI through ``pyodide.ffi.run_sync``)."""
    from pyodide.ffi import can_run_sync, run_sync  # type: ignore[import-not-found]

    if not can_run_sync():
        raise BlockingNotAvailable(
            f"{what} needs to wait for the GPU, and this Python code cannot block here. "
            "Run it with pyodide.runPythonAsync (the borch_webgpu runner, playground and lessons do), "
            "or use the async form, e.g. `await t.numpy_async()` / `await t.item_async()`.")
    out = run_sync(promise)
    _check_interrupt()
    return out


def _check_interrupt() -> None:
    """The playground's Stop (its interrupt buffer at 2, web/js/worker.mjs) raises here, right after the
    wait: Pyodide's own check could miss a Stop that came while Python was suspended in the wait, and the
    page then killed the worker."""
    import js  # type: ignore[import-not-found]
    buf = getattr(js, "borchInterrupt", None)
    if buf is not None and buf[0] == 2:
        buf[0] = 0
        raise KeyboardInterrupt


def as_py_bytes(js_u8) -> bytes:
    return js_u8.to_bytes()


def is_js_error(err: BaseException) -> bool:
    try:
        from pyodide.ffi import JsException  # type: ignore[import-not-found]
    except ImportError:  # pragma: no cover - CPython
        return False
    return isinstance(err, JsException)


def fetch_bytes(url: str) -> bytes:
    """GET a same-origin URL: with fetch() where Python can block on a promise, else with a
    synchronous XMLHttpRequest (bytes through the x-user-defined charset)."""
    import js  # type: ignore[import-not-found]
    if can_block():
        resp = wait(js.fetch(url), f"fetching {url}")
        if not resp.ok:
            raise OSError(f"fetching {url} failed: HTTP {resp.status}")
        return wait(resp.arrayBuffer(), f"reading {url}").to_bytes()
    req = js.XMLHttpRequest.new()
    req.open("GET", url, False)
    req.overrideMimeType("text/plain; charset=x-user-defined")
    req.send(None)
    if req.status != 200:
        raise OSError(f"fetching {url} failed: HTTP {req.status}")
    return bytes(ord(c) & 0xFF for c in req.responseText)


def page_url() -> str:
    """The URL of the page (or worker) this Pyodide runs in: relative URLs resolve against it."""
    import js  # type: ignore[import-not-found]
    return str(js.location.href)


def fetch_stream(url: str):
    """(Content-Length or None, an iterator of byte chunks, a function that cancels the rest) for a GET
    of ``url``, read chunk by chunk from the response body (so a caller can stop at a byte limit)."""
    import js  # type: ignore[import-not-found]
    resp = wait(js.fetch(url), f"fetching {url}")
    if not resp.ok:
        raise OSError(f"fetching {url} failed: HTTP {resp.status}")
    length = resp.headers.get("Content-Length")
    if resp.headers.get("Content-Encoding") not in (None, "identity"):
        length = None   # the length of the compressed body; the stream yields the decoded bytes
    reader = resp.body.getReader()

    def chunks():
        while True:
            r = wait(reader.read(), f"reading {url}")
            if r.done:
                return
            yield r.value.to_bytes()

    return (None if length is None else int(length)), chunks(), lambda: reader.cancel()


def cache_get(cache: str, key: str) -> bytes | None:
    """The bytes stored under ``key`` in the page's Cache Storage ``cache``, or None."""
    import js  # type: ignore[import-not-found]
    c = wait(js.caches.open(cache), "opening the cache")
    r = wait(c.match(key), "reading the cache")
    if r is None or not hasattr(r, "arrayBuffer"):   # undefined: no entry
        return None
    return wait(r.arrayBuffer(), "reading the cache").to_bytes()


def cache_put(cache: str, key: str, data: bytes) -> None:
    import js  # type: ignore[import-not-found]
    from pyodide.ffi import to_js  # type: ignore[import-not-found]
    c = wait(js.caches.open(cache), "opening the cache")
    wait(c.put(key, js.Response.new(to_js(memoryview(data)))), "writing the cache")


def cache_delete(cache: str, key: str) -> None:
    import js  # type: ignore[import-not-found]
    c = wait(js.caches.open(cache), "opening the cache")
    wait(c.delete(key), "deleting from the cache")
