"""Site step: models/ and vision/ pages, generated from borchvision's code at build time (parameter
counts from building each architecture, data set sizes from loading each split), and favicon.ico
(a PNG inside an ICO, for browsers that ask for /favicon.ico on pages that link no icon)."""
from __future__ import annotations

import inspect
import struct
import sys
import tempfile
import zlib
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parents[1]))

from _api_collect import signature  # noqa: E402
from _api_docstring import inline, render, summary  # noqa: E402
from _api_html import esc, grouped, page, write  # noqa: E402


def png(pixels: np.ndarray) -> bytes:
    """A PNG of an (H, W) uint8 grayscale or (H, W, 4) RGBA array."""
    h, w = pixels.shape[:2]
    color = 6 if pixels.ndim == 3 else 0
    raw = b"".join(b"\x00" + pixels[y].tobytes() for y in range(h))

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, color, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def favicon_ico() -> bytes:
    """favicon.svg's mark (an orange rounded square with a white 3x3 grid of dots) as a 32x32 ICO."""
    n = 32
    yy, xx = np.mgrid[0:n, 0:n] + 0.5
    r = 6.0
    cx, cy = np.clip(xx, r, n - r), np.clip(yy, r, n - r)
    inside = (xx - cx) ** 2 + (yy - cy) ** 2 <= r * r
    img = np.zeros((n, n, 4), np.uint8)
    img[inside] = (194, 65, 12, 255)
    for gy in (9.5, 16, 22.5):
        for gx in (9.5, 16, 22.5):
            img[(xx - gx) ** 2 + (yy - gy) ** 2 <= 2.6 ** 2] = (255, 255, 255, 255)
    data = png(img)
    return struct.pack("<HHH", 0, 1, 1) + struct.pack("<BBBBHHII", n, n, 0, 0, 1, 32, len(data), 22) + data


def _factories():
    from borch_webgpu.vision import models
    for name in models.__all__:
        obj = getattr(models, name)
        if inspect.isfunction(obj):
            yield name, obj


def models_page(site_dir: Path) -> str:
    import borch_webgpu
    from _models_catalog import catalog_section
    from _models_hub import hub_section, load_manifests
    from borch_webgpu.vision import models

    rows, details = [], []
    for name, fn in _factories():
        m = fn()
        params = sum(p.numel() for p in m.parameters())
        buffers = sum(b.numel() for b in m.buffers())
        classes = m.fc.out_features if hasattr(m, "fc") else "?"
        qual = f"torch.vision.models.{name}"
        rows.append(f'<tr id="{esc(name)}" data-params="{params}"><td><a href="../api/torch.vision.models.html#'
                    f'{esc(qual)}"><code>{esc(name)}</code></a></td><td class="num">{grouped(params)}</td>'
                    f'<td class="num">{grouped(buffers)}</td><td class="num">{classes}</td>'
                    f'<td class="num">{params * 4 / 2**20:.1f} MiB</td><td>{inline(summary(fn.__doc__))}</td></tr>')
        details.append(f'<h3><code>{esc(name)}{esc(signature(fn))}</code></h3>{render(fn.__doc__)}')
        del m
    blocks = [n for n in models.__all__ if inspect.isclass(getattr(models, n))]
    block_links = ", ".join(f'<a href="../api/torch.vision.models.html#torch.vision.models.{esc(n)}"><code>{esc(n)}'
                            f'</code></a>' for n in blocks)
    manifests = load_manifests(site_dir)
    body = f"""<h1>Models</h1>
<p class="lead">The model catalog (<code>borch_webgpu.models</code>, timm's shape), the weights this site
publishes (<code>borch_webgpu.hub</code>: downloaded and verified in your browser before they load), and the
architectures <code>borch_webgpu.vision.models</code> builds with torchvision's module tree and parameter names.</p>
{hub_section(manifests)}
{catalog_section(manifests)}
<h2>borchvision's architectures</h2>
<table class="facts grid"><thead><tr><th>builder</th><th>parameters</th><th>buffers</th><th>classes</th>
<th>float32 weights</th><th>what it is</th></tr></thead><tbody>{"".join(rows)}</tbody></table>
<p class="muted">Counted at build time by building each model with its defaults (borch_webgpu
{esc(borch_webgpu.__version__)}, <code>sum(p.numel() for p in model.parameters())</code>). Building blocks:
{block_links}.</p>
<h2>Use one</h2>
<pre class="code"><code>import borch_webgpu as torch
from borch_webgpu.vision import models

model = models.resnet18_cifar(num_classes=10).to("webgpu")
x = torch.randn(8, 3, 32, 32, device="webgpu")
print(model(x).shape)              # torch.Size([8, 10])
# weights saved from torchvision as safetensors:
# model.load_state_dict(torch.load("resnet18.safetensors"))</code></pre>
<p>Run it in the <a href="../playground/">playground</a>.</p>
<h2>Builders</h2>
{"".join(details)}"""
    return page("Models", body, active="Models", scripts=("../js/models.mjs",))


def _load_split(cls, train: bool, data_dir: Path):
    from borch_webgpu import _data
    saved = (_data.base_url, _data.base_path)
    _data.configure(path=str(data_dir))
    try:
        with tempfile.TemporaryDirectory() as root:
            return cls(root=root, train=train, download=True)
    finally:
        _data.configure(url=saved[0], path=saved[1])


def _samples(ds, per_class: int = 1) -> np.ndarray:
    """The first image of each class side by side, scaled to 0..255, 2x."""
    imgs = []
    labels = ds.targets.numpy() if hasattr(ds.targets, "numpy") else np.asarray(ds.targets)
    for c in range(len(ds.classes)):
        i = int(np.flatnonzero(labels == c)[0])
        img = np.asarray(ds[i][0], dtype=np.float32)
        imgs.append(img)
    strip = np.concatenate([np.pad(im, 1) for im in imgs], axis=1)
    strip = (255 * strip / max(float(strip.max()), 1.0)).astype(np.uint8)
    scale = max(1, 56 // strip.shape[0])
    return np.kron(strip, np.ones((scale, scale), np.uint8))


def vision_page(site_dir: Path) -> str:
    from borch_webgpu.vision import datasets, transforms

    out_dir = site_dir / "vision"
    ds_html = []
    for name in datasets.__all__:
        cls = getattr(datasets, name)
        splits = {split: _load_split(cls, split == "train", site_dir / "data") for split in ("train", "test")}
        shape = tuple(np.asarray(splits["train"][0][0]).shape)
        counts = {k: np.bincount(v.targets.numpy(), minlength=len(v.classes)) for k, v in splits.items()}
        pic = f"{name.lower()}-samples.png"
        write_bytes(out_dir / pic, png(_samples(splits["test"])))
        per_class = "".join(f"<tr><td>{esc(c)}</td><td class='num'>{counts['train'][i]}</td>"
                            f"<td class='num'>{counts['test'][i]}</td></tr>" for i, c in enumerate(cls.classes))
        ds_html.append(
            f'<section id="{esc(name)}" data-train="{len(splits["train"])}" data-test="{len(splits["test"])}">'
            f'<h3><code>datasets.{esc(name)}</code></h3><p>{inline(summary(cls.__doc__))}</p>'
            f'<table class="facts"><tr><td>train</td><td>{grouped(len(splits["train"]))} images</td></tr>'
            f'<tr><td>test</td><td>{grouped(len(splits["test"]))} images</td></tr>'
            f'<tr><td>image</td><td>{" x ".join(map(str, shape))}, uint8 (numpy array until <code>ToTensor</code>)'
            f'</td></tr><tr><td>classes</td><td>{len(cls.classes)}</td></tr></table>'
            f'<p><img src="{pic}" alt="the first test image of each class of {esc(name)}" class="samples"></p>'
            f'<details><summary>Images per class</summary><table class="facts grid"><thead><tr><th>class</th>'
            f'<th>train</th><th>test</th></tr></thead><tbody>{per_class}</tbody></table></details></section>')
    tr_rows = "".join(
        f'<tr><td><a href="../api/torch.vision.transforms.html#torch.vision.transforms.{esc(n)}"><code>{esc(n)}'
        f'</code></a></td><td><code>{esc(signature(getattr(transforms, n)))}</code></td>'
        f'<td>{inline(summary(getattr(transforms, n).__doc__))}</td></tr>' for n in transforms.__all__)
    model_links = ", ".join(f'<a href="../models/#{esc(n)}"><code>{esc(n)}</code></a>' for n, _ in _factories())
    body = f"""<h1>Vision</h1>
<p class="lead"><code>borch_webgpu.vision</code> is torchvision's counterpart: data sets served from this
site, transforms, and models. Everything below is read from the code and the data files when the site is
built.</p>
<h2>Data sets</h2>
<div class="doc">{render(datasets.__doc__)}</div>
<p>Both load from this site's own <code>data/</code> folder (<code>download=True</code> fetches from the same
origin; nothing leaves it).</p>
{"".join(ds_html)}
<pre class="code"><code>import borch_webgpu as torch
from borch_webgpu.vision import datasets, transforms
from borch_webgpu.utils.data import DataLoader

tf = transforms.Compose([transforms.ToTensor(), transforms.Normalize((0.1307,), (0.3081,))])
train = datasets.MNIST(train=True, download=True, transform=tf)
for x, y in DataLoader(train, batch_size=64, shuffle=True):
    print(x.shape, y.shape)        # torch.Size([64, 1, 28, 28]) torch.Size([64])
    break</code></pre>
<h2>Transforms</h2>
<p>{inline(summary(transforms.__doc__))}</p>
<table class="facts grid"><thead><tr><th>transform</th><th>arguments</th><th>what it does</th></tr></thead>
<tbody>{tr_rows}</tbody></table>
<h2>Models</h2>
<p>{model_links}: see <a href="../models/">Models</a> for parameter counts; weights are not downloadable yet.</p>"""
    return page("Vision", body, active="Vision")


def write_bytes(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def build(site_dir: Path) -> None:
    site_dir = Path(site_dir)
    write(site_dir / "models" / "index.html", models_page(site_dir))
    write(site_dir / "vision" / "index.html", vision_page(site_dir))
    write_bytes(site_dir / "favicon.ico", favicon_ico())
