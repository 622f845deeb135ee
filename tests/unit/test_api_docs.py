"""The generated API reference and coverage page (scripts/site/10_api.py, 11_models_vision.py), in CPython:
every public name is in the index, every public function and class has a docstring, the docstring
examples run and print what they show (on the cpu device), and the coverage page's numbers are the ones
a fresh comparison with tests/golden/torch_names.json gives."""
from __future__ import annotations

import doctest
import html
import importlib
import importlib.util
import inspect
import json
import pkgutil
import re
import shutil
import sys
import warnings
from pathlib import Path
from types import ModuleType

import pytest

import borch_webgpu

ROOT = Path(__file__).resolve().parents[2]
SITE_STEPS = ROOT / "scripts" / "site"
sys.path.insert(0, str(SITE_STEPS))

import _api_collect  # noqa: E402
import _api_coverage  # noqa: E402
import _api_docstring  # noqa: E402


def _step(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"site_step_{name}", SITE_STEPS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def api_site(tmp_path_factory) -> Path:
    site = tmp_path_factory.mktemp("site")
    _step("10_api").build(site)
    return site


@pytest.fixture(scope="module")
def index(api_site) -> dict[str, dict]:
    data = json.loads((api_site / "api" / "index.json").read_text())
    return {e["qualname"]: e for e in data["entries"]}


# ---- the index covers every public name ----------------------------------------------------------------

def _expected_names() -> set[str]:
    """Found here independently of the generator: follow ``__all__`` from the package and borchvision;
    every non-module name is an entry, and so is every public attribute of Tensor."""
    names, seen = set(), set()
    queue = [borch_webgpu, importlib.import_module("borch_webgpu.vision")]
    while queue:
        mod = queue.pop()
        if mod.__name__ in seen:
            continue
        seen.add(mod.__name__)
        shown = "torch" + mod.__name__[len("borch_webgpu"):]
        for name in getattr(mod, "__all__", ()):
            value = getattr(mod, name)
            if isinstance(value, ModuleType):
                queue.append(value)
            else:
                names.add(f"{shown}.{name}")
    names |= {f"torch.Tensor.{n}" for n in dir(borch_webgpu.Tensor) if not n.startswith("_")}
    return names


def test_index_covers_every_public_name(index):
    missing = sorted(_expected_names() - set(index))
    assert not missing, f"{len(missing)} public names are not in api/index.json: {missing}"


def test_index_entries_are_complete(index):
    conv = index["torch.nn.Conv2d"]
    assert conv["kind"] == "class" and conv["page"] == "torch.nn.html"
    assert conv["signature"].startswith("(in_channels: int, out_channels: int, kernel_size")
    assert conv["torch_url"] == "https://pytorch.org/docs/stable/generated/torch.nn.Conv2d.html"
    assert index["torch.Tensor.view"]["kind"] == "method"
    assert index["torch.Tensor.shape"]["kind"] == "property"
    assert index["torch.nn.functional.cross_entropy"]["kind"] == "function"
    assert index["torch.keep"].get("mirrors") is None          # ours only: no PyTorch link
    for q, e in index.items():
        assert e["page"].endswith(".html") and e["kind"] in ("function", "class", "method", "property",
                                                              "attribute"), q


def test_registry_ops_show_their_tolerance(index):
    from borch_webgpu.ops._registry import REGISTRY
    shown = 0
    for ns in ("torch", "torch.nn.functional", "torch.Tensor"):
        for name, op in REGISTRY.items():
            e = index.get(f"{ns}.{name}")
            if e is None or e["kind"] == "class":
                continue
            assert e.get("op"), f"{ns}.{name} is a registry op but shows no tolerance"
            assert (e["op"]["rtol"], e["op"]["atol"]) == tuple(op.tol), f"{ns}.{name}"
            shown += 1
    assert shown > 150


def test_api_pages_render(api_site):
    page = (api_site / "api" / "torch.nn.html").read_text()
    assert 'id="torch.nn.Conv2d"' in page
    assert 'href="https://pytorch.org/docs/stable/generated/torch.nn.Conv2d.html"' in page
    assert '<pre class="code example">' in page             # Example:: blocks became code
    tensor_page = (api_site / "api" / "torch.Tensor.html").read_text()
    assert 'id="torch.Tensor.add_"' in tensor_page and "In-place version of" in tensor_page
    for path in (api_site / "api").glob("*.html"):
        text = path.read_text()
        assert "http://" not in text.replace("http://www.w3.org", ""), path   # nothing to fetch elsewhere
        assert not re.search(r'<(script|link|img)[^>]+(src|href)="https?://', text), path


# ---- docstrings -----------------------------------------------------------------------------------------

def test_public_functions_and_classes_have_docstrings():
    bad = _api_collect.undocumented(_api_collect.collect())
    assert not bad, (f"{len(bad)} public functions/classes (or Tensor members with no documented function of "
                     "the same name) have no docstring:\n  " + "\n  ".join(bad))


def _package_modules() -> list[str]:
    return sorted(m.name for m in pkgutil.walk_packages(borch_webgpu.__path__, "borch_webgpu."))


@pytest.mark.parametrize("modname", _package_modules())
def test_docstring_examples_run(modname):
    """The ``>>>`` examples print what they show, on the cpu device, with ``torch`` = borch_webgpu."""
    mod = importlib.import_module(modname)
    assert borch_webgpu.get_default_device().type == "cpu"
    tests = [t for t in doctest.DocTestFinder().find(mod, globs={"torch": borch_webgpu}) if t.examples]
    failures = []
    for t in sorted(tests, key=lambda t: t.name):
        borch_webgpu.manual_seed(0)
        runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
        report: list[str] = []
        with warnings.catch_warnings():   # an example may show a deprecated name on purpose (F.upsample)
            warnings.simplefilter("ignore")
            result = runner.run(t, out=report.append)
        if result.failed:
            failures.append("".join(report))
    assert not failures, "\n".join(failures)


def test_docstring_rendering():
    doc = '''Summary with ``code`` and :class:`~torch.nn.Linear`.

    Args:
        x (Tensor): the input,
            continued.
        dim (int): a dim.

    Shape:
        - Input: (N, C)

    Example::

        >>> 1 + 1
        2
    '''
    out = _api_docstring.render(doc)
    assert "<code>code</code>" in out and "<code>Linear</code>" in out
    assert '<dt><code>x</code> <span class="type">(Tensor)</span></dt><dd>the input, continued.</dd>' in out
    assert "<ul><li>Input: (N, C)</li></ul>" in out
    assert '<pre class="code example"><code>&gt;&gt;&gt; 1 + 1\n2</code></pre>' in out
    assert _api_docstring.summary(doc) == "Summary with ``code`` and :class:`~torch.nn.Linear`."


# ---- coverage against PyTorch ---------------------------------------------------------------------------

def test_torch_names_has_every_namespace():
    gen = _api_coverage.generator()
    frozen = json.loads((ROOT / "tests" / "golden" / "torch_names.json").read_text())
    assert frozen["torch_version"].startswith("2.13.0")
    missing = [ns for ns in gen.NAMESPACES if ns not in frozen["namespaces"]]
    assert not missing, f"torch_names.json lacks {missing}: rerun python tests/golden/generate_torch_names.py"
    for ns in gen.NAMESPACES:
        assert frozen["namespaces"][ns]["names"], ns
    with pytest.raises(RuntimeError, match="lacks namespaces"):
        _api_coverage.compare({"torch_version": "2.13.0", "namespaces": {"torch": frozen["namespaces"]["torch"]}})


def test_torch_names_filter_is_sensible():
    frozen = json.loads((ROOT / "tests" / "golden" / "torch_names.json").read_text())["namespaces"]
    assert {"add", "matmul", "Tensor", "no_grad", "set_grad_enabled", "unique"} <= set(frozen["torch"]["names"])
    assert not {"float32", "nn", "AliasDb", "FloatTensor", "cudnn_convolution", "classproperty"} & \
        set(frozen["torch"]["names"])
    assert "Tensor" not in frozen["torch.nn.functional"]["names"]           # an import, not F's own
    assert "Optimizer" not in frozen["torch.optim.lr_scheduler"]["names"]
    assert {"Conv2d", "Module", "Parameter"} <= set(frozen["torch.nn"]["names"])
    assert {"shape", "grad", "add_", "view"} <= set(frozen["torch.Tensor"]["names"])


def _page_rows(path: Path) -> dict[str, dict]:
    rows = {}
    for m in re.finditer(r'<tr data-ns="([^"]+)" data-have="(\d+)" data-torch="(\d+)" data-extra="(\d+)" '
                         r'data-missing="(\d+)"><td>.*?</td><td class="num">(\d+) / (\d+)</td>', path.read_text()):
        ns, have, total, extra, missing, shown_have, shown_total = m.groups()
        rows[html.unescape(ns)] = {"have": int(have), "torch": int(total), "extra": int(extra),
                                   "missing": int(missing), "shown": (int(shown_have), int(shown_total))}
    return rows


def test_coverage_page_numbers_match_a_fresh_comparison(api_site):
    fresh = _api_coverage.compare()
    page = _page_rows(api_site / "api" / "coverage.html")
    assert set(page) == {r["namespace"] for r in fresh}
    for r in fresh:
        p = page[r["namespace"]]
        assert p["have"] == len(r["have"]) and p["torch"] == r["torch_total"], r["namespace"]
        assert p["shown"] == (len(r["have"]), r["torch_total"])
        assert p["extra"] == len(r["extra"]) and p["missing"] == len(r["missing"])
        assert len(r["have"]) + len(r["missing"]) == r["torch_total"]
    text = (api_site / "api" / "coverage.html").read_text()
    for r in fresh:      # every missing name is listed
        section = text.split(f'id="{r["namespace"]}"', 1)[1].split("</section>", 1)[0]
        for name in r["missing"]:
            assert f"<code>{html.escape(name)}</code>" in section, (r["namespace"], name)


def test_coverage_page_counts_the_upstream_names(api_site):
    """"Used by upstream examples: N of M present": M is the scan's name count (scripts/site/upstream_names.json),
    and a name counts as present exactly when borch_webgpu resolves it (checked here by pkgutil, independently)."""
    scan = json.loads((SITE_STEPS / "upstream_names.json").read_text())
    text = (api_site / "api" / "coverage.html").read_text()
    section = text.split('id="upstream"', 1)[1].split("</section>", 1)[0]
    m = re.search(r'data-present="(\d+)" data-total="(\d+)"', section)
    shown = re.search(r"Used by upstream examples: (\d+) of (\d+) present", section)
    assert m and shown and m.groups() == shown.groups()
    present, total = map(int, m.groups())
    assert total == len(scan["names"]) > 50 and not set(scan["names"]) & set(scan["out_of_scope"])

    def here(name: str) -> bool:
        try:
            pkgutil.resolve_name("borch_webgpu" + name[len("torch"):])
            return True
        except (ImportError, AttributeError, ValueError):
            return False

    missing = [n for n in scan["names"] if not here(n)]
    assert present == total - len(missing)
    listed = section.split("Missing here", 1)[1].split("</p>", 1)[0]
    assert sorted(re.findall(r"<code>([^<]+)</code>", listed)) == sorted(missing)
    assert "torch.nn.Linear" in scan["names"] and "torch.nn.Linear" not in missing


def test_coverage_counts_ours_with_the_same_filter():
    rows = {r["namespace"]: r for r in _api_coverage.compare()}
    assert "ConvTranspose3d" in rows["torch.nn"]["have"] and "LinearCrossEntropyLoss" in rows["torch.nn"]["missing"]
    assert "add" in rows["torch"]["have"] and "float32" not in rows["torch"]["have"]
    # torch.optim.swa_utils is a namespace of its own (a module inside torch.optim is not one of its names)
    assert rows["torch.optim.swa_utils"]["missing"] == [] and "AveragedModel" in rows["torch.optim.swa_utils"]["have"]
    assert "item_async" in rows["torch.Tensor"]["extra"]
    assert "amax" not in rows["torch.linalg"]["extra"]        # an import into our linalg, not in its __all__


# ---- models and vision pages ----------------------------------------------------------------------------

def test_models_and_vision_pages(tmp_path):
    from borch_webgpu import _assets
    from borch_webgpu.vision import datasets, models
    (tmp_path / "data").mkdir()
    for name in _assets.DATA_FILES:
        shutil.copyfile(_assets.data_dir() / name, tmp_path / "data" / name)
    shutil.copytree(Path(__file__).resolve().parents[2] / "web" / "hub", tmp_path / "hub")
    _step("11_models_vision").build(tmp_path)
    page = (tmp_path / "models" / "index.html").read_text()
    from borch_webgpu import models as catalog
    import _models_catalog   # the step put scripts/site on sys.path
    records, cases = _models_catalog.load_parity()
    for name in catalog.list_models():      # the catalog, from the code, with its parameter counts and parity
        m = re.search(rf'<tr id="catalog-{name}" data-params="(\d+)" data-cpu="(\w+)" data-webgpu="(\w+)">', page)
        assert m, name
        assert m.group(2) == "pass" and m.group(3) == ("pass" if str(name) in records["webgpu"] else "none"), name
        row = page[m.start():page.index("</tr>", m.start())]
        for dev in ("cpu", "webgpu"):
            if str(name) in records[dev]:
                assert f'{records[dev][str(name)]["err"]:.1e}' in row, (name, dev)
        assert f'data-name="{name}"' in row and "Build and run" in row
        if name.library == "timm":   # timm's documented defaults (the ViTs' img_size too)
            args = catalog._registry.entry(*name).timm_defaults
        else:
            args = {a.name: {"num_classes": 10, "in_chans": 1 if "mnist" in name.factory or "lenet" in name.factory
                             else 3}[a.name] for a in catalog.model_args(*name)}
        assert int(m.group(1)) == sum(p.numel() for p in catalog.create_model(*name, **args).parameters()), name
    for manifest in json.loads((tmp_path / "hub" / "index.json").read_text())["manifests"]:   # the published weights
        mf = json.loads((tmp_path / "hub" / manifest).read_text())
        assert f'<tr id="hub-{mf["name"]}">' in page and mf["weights"]["sha256"] in page
        assert f'<option value="{mf["name"]}">' in page
    for name in models.__all__:
        fn = getattr(models, name)
        if inspect.isfunction(fn):
            m = re.search(rf'<tr id="{name}" data-params="(\d+)">', page)
            assert m, name
            assert int(m.group(1)) == sum(p.numel() for p in fn().parameters())
    vision = (tmp_path / "vision" / "index.html").read_text()
    for name in datasets.__all__:
        m = re.search(rf'<section id="{name}" data-train="(\d+)" data-test="(\d+)">', vision)
        assert m, name
    assert (tmp_path / "vision" / "mnist-samples.png").read_bytes().startswith(b"\x89PNG")
    assert (tmp_path / "favicon.ico").read_bytes()[:4] == b"\x00\x00\x01\x00"
