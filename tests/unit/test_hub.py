"""borch_webgpu.hub in CPython: the published models (web/hub/) load only after verification, and every
kind of bad file, written here, is refused with its own exception and nothing is cached: truncated,
oversize, a flipped byte, a header that lies about offsets or shapes, NaN weights, a wrong sample, an
unknown manifest field, path traversal, another origin, an adapter too small. Plus torch.hub's
load_state_dict_from_url / download_url_to_file with the full sha256."""
from __future__ import annotations

import copy
import hashlib
import json
import shutil
import struct
from pathlib import Path

import numpy as np
import pytest

import borch_webgpu as torch
from borch_webgpu import hub
from borch_webgpu._server import Site, serve

WEB_HUB = Path(__file__).resolve().parents[2] / "web" / "hub"
PUBLISHED = json.loads((WEB_HUB / "index.json").read_text())["manifests"]


@pytest.fixture
def pub(tmp_path):
    """A copy of web/hub/ in a temporary folder and an empty hub cache; yields (folder, manifest of lenet5)."""
    folder = tmp_path / "site" / "hub"
    shutil.copytree(WEB_HUB, folder)
    old = hub._hub_dir
    hub.set_dir(tmp_path / "cache")
    yield folder
    hub._hub_dir = old


def cached(tmp_path) -> list[str]:
    d = tmp_path / "cache" / "verified"
    return sorted(p.name for p in d.iterdir()) if d.exists() else []


def manifest(folder: Path, name: str = "lenet5-mnist") -> dict:
    return json.loads((folder / f"{name}.json").read_text())


def write(folder: Path, m: dict, data: bytes | None = None, name: str = "bad") -> Path:
    """Write weights ``data`` (when given) and manifest ``m`` pointing at them, with their size and hash."""
    m = copy.deepcopy(m)
    if data is not None:
        (folder / f"{name}.safetensors").write_bytes(data)
        m["weights"].update(url=f"{name}.safetensors", bytes=len(data), sha256=hashlib.sha256(data).hexdigest())
    path = folder / f"{name}.json"
    path.write_text(json.dumps(m))
    return path


def st_split(data: bytes) -> tuple[dict, bytes]:
    (n,) = struct.unpack("<Q", data[:8])
    return json.loads(data[8:8 + n]), data[8 + n:]


def st_join(header: dict, body: bytes) -> bytes:
    head = json.dumps(header).encode()
    head += b" " * (-len(head) % 8)
    return struct.pack("<Q", len(head)) + head + body


# ---- the published models ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", PUBLISHED)
def test_published_model_loads_only_verified_and_is_cached_then_rehashed(pub, tmp_path, name, capsys):
    m = manifest(pub, name[:-5])
    data = (pub / m["weights"]["url"]).read_bytes()
    assert len(data) == m["weights"]["bytes"] and hashlib.sha256(data).hexdigest() == m["weights"]["sha256"]
    model = hub.load(pub / name)
    v = model.hub_verified
    assert (v.name, v.source, v.device, v.bytes) == (m["name"], "network", "cpu", len(data))
    assert v.sample_error <= 1e-5 < m["sample"]["tolerance"]
    assert "100%|██████████|" in capsys.readouterr().err
    assert not model.training and model.catalog.name == (m["model"]["library"], m["model"]["factory"])
    assert cached(tmp_path) == [f"{m['weights']['sha256']}.safetensors"]
    # the cached copy is used, and hashed again: a changed one is dropped and fetched again
    assert hub.load(pub / name, progress=False).hub_verified.source == "cache"
    (tmp_path / "cache" / "verified" / f"{m['weights']['sha256']}.safetensors").write_bytes(b"x" + data[1:])
    assert hub.load(pub / name, progress=False).hub_verified.source == "network"
    assert hub.load(pub / name, progress=False).hub_verified.source == "cache"
    # predictions: the sample's labels, as the manifest's logits say
    x = hub._manifest.decode_array(m["sample"]["input"], "x", "x")
    with torch.no_grad():
        pred = model(torch.from_numpy(x)).argmax(1).tolist()
    want = hub._manifest.decode_array(m["sample"]["logits"], "y", "y").argmax(1).tolist()
    assert pred == want and np.mean(np.array(pred) == m["sample"]["labels"]) >= 0.75
    assert m["provenance"]["test_accuracy"] >= 0.95 and m["license"] == "MIT"


def test_fetch_weights_and_progress_callback(pub):
    seen = []
    sd = hub.fetch_weights(pub / "mnist_cnn-digits.json", progress=lambda done, total: seen.append((done, total)))
    m = manifest(pub, "mnist_cnn-digits")
    assert seen[0] == (0, m["weights"]["bytes"]) and seen[-1] == (m["weights"]["bytes"],) * 2
    model = torch.models.create_model("borchvision", "mnist_cnn", num_classes=10, in_chans=1)
    assert list(sd) == list(model.state_dict()) and all(t.device.type == "cpu" for t in sd.values())
    model.load_state_dict(sd, strict=True)


def test_published_weights_total_size_stays_small():
    sizes = {p.name: p.stat().st_size for p in WEB_HUB.iterdir()}
    # the largest, timm/mobilenetv3_small_100 with 10 classes: 1.53M float32 parameters
    assert max(sizes.values()) < 6_500_000, sizes
    assert len(PUBLISHED) >= 4 and sum(sizes.values()) < 8_000_000, sizes


# ---- bad downloads: each its own exception, nothing cached ------------------------------------------------

def test_truncated(pub, tmp_path):
    m = manifest(pub)
    data = (pub / m["weights"]["url"]).read_bytes()
    (pub / "short.safetensors").write_bytes(data[:-100])
    m["weights"]["url"] = "short.safetensors"
    with pytest.raises(hub.TruncatedDownload, match=rf"is {len(data) - 100} bytes, the manifest says {len(data)}"):
        hub.load(write(pub, m))
    assert cached(tmp_path) == []


def test_oversize_stops_at_the_first_extra_byte(pub, tmp_path, monkeypatch):
    m = manifest(pub)
    data = (pub / m["weights"]["url"]).read_bytes()
    (pub / "long.safetensors").write_bytes(data + bytes(5_000_000))
    m["weights"]["url"] = "long.safetensors"
    with pytest.raises(hub.WrongSize, match=rf"is {len(data) + 5_000_000} bytes, the manifest says {len(data)}"):
        hub.load(write(pub, m))
    # a stream that does not announce its size is cut off after the declared bytes
    orig = hub._fetch.open_stream
    monkeypatch.setattr(hub._fetch, "open_stream", lambda loc, url, where: (None, *orig(loc, url, where)[1:]))
    with pytest.raises(hub.WrongSize, match=rf"more than the {len(data)} bytes the manifest declares arrived .* "
                                            r"\(at least \d+\); the download was stopped"):
        hub.load(write(pub, m))
    assert cached(tmp_path) == []


def test_flipped_byte(pub, tmp_path):
    m = manifest(pub)
    data = bytearray((pub / m["weights"]["url"]).read_bytes())
    data[-17] ^= 0x01
    (pub / "flipped.safetensors").write_bytes(bytes(data))
    m["weights"]["url"] = "flipped.safetensors"
    with pytest.raises(hub.HashMismatch) as e:
        hub.load(write(pub, m))
    assert f"is {hashlib.sha256(data).hexdigest()}; the manifest says {m['weights']['sha256']}" in str(e.value)
    assert cached(tmp_path) == []


def test_header_lies_about_offsets(pub, tmp_path):
    m = manifest(pub)
    header, body = st_split((pub / m["weights"]["url"]).read_bytes())
    header["conv1.weight"]["data_offsets"][1] += 4     # overlaps the next tensor
    with pytest.raises(hub.HeaderMismatch, match=r"header is invalid: .*TensorInvalidInfo: tensor 'conv1.weight'"):
        hub.load(write(pub, m, st_join(header, body)))
    header, body = st_split((pub / m["weights"]["url"]).read_bytes())
    header["fc.bias"]["shape"] = [11]                  # more values than the bytes hold
    with pytest.raises(hub.HeaderMismatch) as e:
        hub.load(write(pub, m, st_join(header, body)))
    assert isinstance(e.value.__cause__, torch.serialization.SafetensorError)
    assert cached(tmp_path) == []


def test_header_lies_about_shapes(pub, tmp_path):
    m = manifest(pub)
    header, body = st_split((pub / m["weights"]["url"]).read_bytes())
    header["fc.weight"]["shape"] = [84, 10]            # a valid file, but not lenet5's state dict
    with pytest.raises(hub.HeaderMismatch, match=r"not the state dict of borchvision/lenet5 .*shape mismatches "
                                                 r"fc.weight: file \[84, 10\], model \[10, 84\]"):
        hub.load(write(pub, m, st_join(header, body)))
    header, body = st_split((pub / m["weights"]["url"]).read_bytes())
    header["fc.wieght"] = header.pop("fc.weight")
    with pytest.raises(hub.HeaderMismatch, match=r"missing keys fc.weight; unexpected keys fc.wieght"):
        hub.load(write(pub, m, st_join(header, body)))
    m2 = manifest(pub)
    m2["limits"]["largest_buffer"] -= 4
    with pytest.raises(hub.HeaderMismatch, match=r"the manifest's limits say"):
        hub.load(write(pub, m2, (pub / m["weights"]["url"]).read_bytes()))
    assert cached(tmp_path) == []


@pytest.mark.parametrize("value", [np.nan, np.inf])
def test_nan_and_inf_weights(pub, tmp_path, value):
    m = manifest(pub)
    header, body = st_split((pub / m["weights"]["url"]).read_bytes())
    a, _ = header["conv2.weight"]["data_offsets"]
    body = body[:a + 40] + np.float32(value).tobytes() + body[a + 44:]
    with pytest.raises(hub.NonFiniteWeights, match=r"tensor 'conv2.weight' \[16, 6, 5, 5\] holds 1 NaN or infinite "
                                                   r"value \(the first at index \(0, 0, 2, 0\)"):
        hub.load(write(pub, m, st_join(header, body)))
    assert cached(tmp_path) == []


def test_wrong_sample_names_the_error(pub, tmp_path):
    m = manifest(pub)
    y = hub._manifest.decode_array(m["sample"]["logits"], "y", "y").copy()
    y[3, 1] += 2.0
    m["sample"]["logits"] = hub._manifest.encode_array(y)
    with pytest.raises(hub.SampleMismatch, match=r"on cpu the sample's logits differ from the manifest's: relative "
                                                 r"error \d\.\d+e-0\d > tolerance 1\.0e-04 \(largest \|difference\| "
                                                 r"2 at \[3, 1\]"):
        hub.load(write(pub, m))
    assert cached(tmp_path) == []


# ---- bad manifests -------------------------------------------------------------------------------------

@pytest.mark.parametrize("path, value, error, message", [
    (("extra",), 1, hub.UnknownManifestField, "unknown field 'extra'; schema borch_webgpu.hub/1 has schema, name"),
    (("weights", "sha265"), "0", hub.UnknownManifestField, "unknown field 'weights.sha265' (did you mean 'sha256'?)"),
    (("schema",), "borch_webgpu.hub/2", hub.ManifestError, "schema 'borch_webgpu.hub/2' is not one this version reads"),
    (("weights", "sha256"), "ab" * 4, hub.ManifestError, "weights.sha256 must be 64 lowercase hex digits"),
    (("weights", "bytes"), -1, hub.ManifestError, "weights.bytes must be a non-negative integer"),
    (("weights", "dtype"), "float16", hub.ManifestError, "weights.dtype must be 'float32'"),
    (("sample", "tolerance"), 0, hub.ManifestError, "sample.tolerance must be a number in (0, 1)"),
    (("name",), "../../evil", hub.UnsafeName, "name '../../evil' is not a safe name"),
    (("weights", "url"), "../../../etc/passwd", hub.UnsafeName, "weights.url '../../../etc/passwd' is not a safe path"),
    (("weights", "url"), "sub/%2e%2e/x.safetensors", hub.UnsafeName, "is not a safe path"),
    (("weights", "url"), "w\\x.safetensors", hub.UnsafeName, "is not a safe path"),
    (("weights", "url"), "http://example.com/w.safetensors", hub.CrossOriginURL, "names its weights by a path relative"),
    (("model", "args"), {"num_classes": 10}, hub.ManifestError, "missing argument 'in_chans'"),
    (("model", "factory"), "lenet6", hub.ManifestError, "Unknown model (borchvision/lenet6)"),
])
def test_bad_manifest_fields(pub, tmp_path, path, value, error, message):
    m = manifest(pub)
    obj = m
    for k in path[:-1]:
        obj = obj[k]
    obj[path[-1]] = value
    with pytest.raises(error) as e:
        hub.load(write(pub, m))
    assert message in str(e.value)
    assert cached(tmp_path) == []


def test_missing_fields_and_not_json(pub):
    m = manifest(pub)
    del m["license"], m["limits"]["total_bytes"]
    with pytest.raises(hub.ManifestError, match=r"missing field 'license' \(schema borch_webgpu.hub/1\)"):
        hub.load(m)
    m["license"] = "MIT"
    with pytest.raises(hub.ManifestError, match="missing field 'limits.total_bytes'"):
        hub.load(m)
    (pub / "broken.json").write_text("{" * 100 + "}" * 100)
    with pytest.raises(hub.ManifestError, match="nests 100 levels deep"):
        hub.load(pub / "broken.json")
    with pytest.raises(hub.FetchError, match="cannot fetch"):
        hub.load(pub / "nothing-here.json")


def test_adapter_too_small_is_refused_before_anything_is_fetched(pub, tmp_path, monkeypatch):
    m = manifest(pub)
    m["weights"]["url"] = "not-fetched.safetensors"   # a fetch would raise FetchError
    monkeypatch.setattr(hub, "device_limits", lambda dev: {"maxStorageBufferBindingSize": 1 << 20,
                                                           "maxBufferSize": 1000, "total_bytes": 1 << 31})
    with pytest.raises(hub.AdapterTooSmall, match=rf"largest tensor is {m['limits']['largest_buffer']} bytes; this "
                                                  r"adapter's maxBufferSize is 1000 bytes"):
        hub.load(write(pub, m))
    monkeypatch.setattr(hub, "device_limits", lambda dev: {"total_bytes": 1000})
    with pytest.raises(hub.AdapterTooSmall, match=r"tensors total \d+ bytes; at most 1000 fit here"):
        hub.load(write(pub, m))


# ---- over HTTP: same origin only -------------------------------------------------------------------------

@pytest.fixture
def http(pub):
    server = serve(Site(root=pub.parent))
    yield f"http://127.0.0.1:{server.server_address[1]}/hub/"
    server.shutdown()


def test_http_manifest_relative_weights_and_other_origins(pub, http, tmp_path):
    assert hub.load(http + "mnist_cnn-mnist.json", progress=False).hub_verified.source == "network"
    m = manifest(pub)
    m["weights"]["url"] = "/hub/lenet5-mnist.safetensors"        # an absolute path on the same origin
    assert hub.load(http + write(pub, m, name="abs").name, progress=False).hub_verified.name == "lenet5-mnist"
    m["weights"]["url"] = "http://localhost:1/lenet5-mnist.safetensors"
    with pytest.raises(hub.CrossOriginURL, match=r"is on http://localhost:1, not on the manifest's origin "
                                                 r"http://127.0.0.1:\d+"):
        hub.load(http + write(pub, m, name="other").name)
    shutil.rmtree(tmp_path / "cache")   # the cache holds lenet5's bytes by their sha256: it would answer first
    m = manifest(pub)
    (pub / "short.safetensors").write_bytes((pub / m["weights"]["url"]).read_bytes()[:1000])
    m["weights"]["url"] = "short.safetensors"
    with pytest.raises(hub.TruncatedDownload, match="is 1000 bytes"):     # Content-Length, before reading
        hub.load(http + write(pub, m, name="short-http").name)
    with pytest.raises(hub.FetchError, match="HTTP Error 404"):
        hub.load(http + "missing.json")


# ---- torch.hub's functions -------------------------------------------------------------------------------

def test_load_state_dict_from_url_checks_the_full_sha256(pub, http, tmp_path, capsys):
    src = (pub / "lenet5-mnist.safetensors").read_bytes()
    digest = hashlib.sha256(src).hexdigest()
    good = f"lenet5-{digest}.safetensors"
    (pub / good).write_bytes(src)
    (pub / f"lenet5-{digest[:8]}.safetensors").write_bytes(src)
    (pub / f"lenet5-{'0' * 64}.safetensors").write_bytes(src)
    sd = torch.hub.load_state_dict_from_url(http + good, check_hash=True, progress=False)
    assert f'Downloading: "{http + good}"' in capsys.readouterr().out
    assert list(sd) == list(torch.models.create_model("borchvision", "lenet5", num_classes=10,
                                                      in_chans=1).state_dict())
    cached_file = Path(hub.get_dir()) / "checkpoints" / good
    assert cached_file.read_bytes() == src
    cached_file.write_bytes(src[:-1] + b"\0")          # a changed cached copy is hashed, refused, fetched again
    torch.hub.load_state_dict_from_url(http + good, check_hash=True, progress=False)
    assert cached_file.read_bytes() == src
    with pytest.raises(ValueError, match=r"needs the full sha256 in the file name .* carries 8 digits"):
        torch.hub.load_state_dict_from_url(http + f"lenet5-{digest[:8]}.safetensors", check_hash=True)
    with pytest.raises(hub.HashMismatch, match=rf'invalid hash value \(expected "{"0" * 64}", got "{digest}"\)'):
        torch.hub.load_state_dict_from_url(http + f"lenet5-{'0' * 64}.safetensors", check_hash=True, progress=False)
    assert not (Path(hub.get_dir()) / "checkpoints" / f"lenet5-{'0' * 64}.safetensors").exists()
    with pytest.raises(hub.UnsafeName, match=r"the file name '\.\./evil' is not a safe name"):
        torch.hub.load_state_dict_from_url(http + good, file_name="../evil")
    sd = torch.hub.load_state_dict_from_url(http + good, model_dir=str(tmp_path / "md"), file_name="plain.safetensors",
                                            progress=False)
    assert (tmp_path / "md" / "plain.safetensors").exists() and "fc.weight" in sd


def test_signatures_are_pytorchs():
    import inspect
    sig = inspect.signature(torch.hub.load_state_dict_from_url)
    assert [(p.name, p.default) for p in sig.parameters.values()] == [
        ("url", inspect.Parameter.empty), ("model_dir", None), ("map_location", None), ("progress", True),
        ("check_hash", False), ("file_name", None), ("weights_only", False)]
    sig = inspect.signature(torch.hub.download_url_to_file)
    assert [(p.name, p.default) for p in sig.parameters.values()] == [
        ("url", inspect.Parameter.empty), ("dst", inspect.Parameter.empty), ("hash_prefix", None), ("progress", True)]
    assert issubclass(hub.HashMismatch, RuntimeError) and issubclass(hub.UnknownManifestField, hub.ManifestError)
