"""utils.data, the data sets, save/load and scope() on the cpu device."""
from __future__ import annotations

import gc
import io
import weakref

import numpy as np
import pytest

import borch_webgpu as torch
from borch_webgpu.utils.data import DataLoader, TensorDataset, random_split


def test_save_load_round_trip(tmp_path):
    sd = {"w": torch.arange(6.0).reshape(2, 3), "b": torch.tensor([1, 2, 3]), "m": torch.tensor([True, False])}
    torch.save(sd, tmp_path / "a.pt")
    back = torch.load(tmp_path / "a.pt")
    assert list(back) == ["w", "b", "m"]
    for k in sd:
        assert back[k].dtype is sd[k].dtype and back[k].tolist() == sd[k].tolist()


def test_save_nested_structure_and_plain_values():
    obj = {"state": {0: {"step": torch.tensor(3.0), "buf": torch.ones(2)}}, "param_groups": [{"lr": 0.1, "params": [0]}],
           "t": (torch.zeros(1), None, float("inf"))}
    buf = io.BytesIO()
    torch.save(obj, buf)
    back = torch.load(io.BytesIO(buf.getvalue()))
    assert back["state"][0]["buf"].tolist() == [1.0, 1.0]
    assert back["param_groups"] == [{"lr": 0.1, "params": [0]}]
    assert back["t"][1] is None and back["t"][2] == float("inf")


def test_load_refuses_a_broken_zip_and_the_legacy_format_with_an_explanation(tmp_path):
    p = tmp_path / "model.pt"
    p.write_bytes(b"PK\x03\x04" + b"\0" * 100)
    with pytest.raises(torch.serialization.CheckpointError, match=r"model.pt': BadZip: not a readable zip"):
        torch.load(p)
    # PyTorch's legacy format (before 1.6) starts with a protocol-2 pickle of its magic number
    p.write_bytes(b"\x80\x02\x8a\nl\xfc\x9cF\xf9 j\xa8P\x19." + bytes(40))
    with pytest.raises(torch.serialization.SafetensorError, match="legacy checkpoint format"):
        torch.load(p)


def test_tensor_dataset_dataloader_and_random_split():
    x = torch.arange(10.0).reshape(10, 1)
    y = torch.arange(10)
    ds = TensorDataset(x, y)
    batches = list(DataLoader(ds, batch_size=4))
    assert [b[0].shape[0] for b in batches] == [4, 4, 2]
    assert batches[0][1].tolist() == [0, 1, 2, 3]
    assert len(list(DataLoader(ds, batch_size=4, drop_last=True))) == 2
    g = torch.Generator().manual_seed(0)
    seen = sorted(v for b in DataLoader(ds, batch_size=3, shuffle=True, generator=g) for v in b[1].tolist())
    assert seen == list(range(10))
    a, b = random_split(ds, [7, 3], generator=torch.Generator().manual_seed(1))
    assert len(a) == 7 and len(b) == 3
    assert sorted(a.indices + b.indices) == list(range(10))
    with pytest.raises(ValueError):
        random_split(ds, [5, 6])


def test_shuffle_is_reproducible_with_a_seeded_generator():
    ds = TensorDataset(torch.arange(20))
    order = lambda seed: [v for b in DataLoader(ds, batch_size=5, shuffle=True,  # noqa: E731
                                                generator=torch.Generator().manual_seed(seed)) for v in b[0].tolist()]
    assert order(3) == order(3) and order(3) != order(4)


def test_mnist_and_digits(tmp_path):
    mnist = torch.vision.datasets.MNIST(tmp_path, train=True, download=True)
    test = torch.vision.datasets.MNIST(tmp_path, train=False, download=True)
    assert len(mnist) == 8500 and len(test) == 1500
    img, label = mnist[0]
    assert img.shape == (28, 28) and img.dtype == np.uint8 and 0 <= label < 10
    assert mnist.data.shape == (8500, 28, 28) and mnist.targets.shape == (8500,)
    assert sorted(set(test.targets.tolist())) == list(range(10))
    digits = torch.vision.datasets.Digits(tmp_path, train=False, download=True)
    assert len(digits) == 360 and digits[0][0].shape == (8, 8) and digits.data.max().item() <= 16
    with pytest.raises(RuntimeError, match="download=True"):
        torch.vision.datasets.MNIST(tmp_path / "empty", train=True, download=False)


def test_transforms_on_numpy_and_tensors():
    from borch_webgpu.vision import transforms as T
    img = (np.arange(28 * 28) % 256).astype(np.uint8).reshape(28, 28)
    t = T.Compose([T.ToTensor(), T.Normalize((0.5,), (0.25,))])(img)
    assert t.shape == (1, 28, 28) and t.device.type == "cpu"
    assert abs(t[0, 0, 1].item() - ((1 / 255 - 0.5) / 0.25)) < 1e-6
    torch.manual_seed(0)
    crop = T.RandomCrop(24, padding=4)(img)
    assert crop.shape == (24, 24)
    assert T.CenterCrop(10)(img).shape == (10, 10)
    flipped = T.RandomHorizontalFlip(p=1.0)(img)
    assert (flipped[:, 0] == img[:, -1]).all()


def test_scope_frees_graph_cycles_and_keep_survives():
    w = torch.ones(3, requires_grad=True)
    refs = []
    with torch.scope():
        y = (w * 2).exp()          # a graph that is never run backward
        refs.append(weakref.ref(y))
        kept = torch.keep(torch.ones(2) * 5)
        refs.append(weakref.ref(kept))
        del y, kept
    gc.collect()
    assert refs[0]() is None
    with torch.scope():
        with torch.scope():
            inner = torch.keep(torch.ones(1))
            r = weakref.ref(inner)
            del inner
        gc.collect()
        assert r() is not None  # the outer scope holds what the inner one kept
    gc.collect()
    assert r() is None


def test_dataloader_gathers_tensordataset_batches_exactly_as_default_collate_would():
    """The fast path (one gather per tensor) gives what per-sample indexing + default_collate gives,
    for shuffled batches and for a random_split Subset; a subclass keeps its own __getitem__."""
    from borch_webgpu.utils.data import DataLoader, TensorDataset, default_collate, random_split

    x = torch.arange(40.).reshape(20, 2)
    y = torch.arange(20)
    ds = TensorDataset(x, y)
    fast = list(DataLoader(ds, batch_size=6, shuffle=True, generator=torch.Generator().manual_seed(3)))
    slow = list(DataLoader(ds, batch_size=6, shuffle=True, generator=torch.Generator().manual_seed(3),
                           collate_fn=lambda s: default_collate(s)))
    assert len(fast) == len(slow) == 4
    for (xa, ya), (xb, yb) in zip(fast, slow):
        assert xa.dtype == xb.dtype and ya.dtype == yb.dtype
        assert xa.tolist() == xb.tolist() and ya.tolist() == yb.tolist()
    train, _ = random_split(ds, [15, 5], generator=torch.Generator().manual_seed(1))
    got = [b[1].tolist() for b in DataLoader(train, batch_size=4)]
    want = [[train[i][1].item() for i in range(k, min(k + 4, 15))] for k in range(0, 15, 4)]
    assert got == want

    class Doubled(TensorDataset):
        def __getitem__(self, i):
            a, b = super().__getitem__(i)
            return a * 2, b

    xb, _ = next(iter(DataLoader(Doubled(x, y), batch_size=3)))
    assert xb.tolist() == (x[:3] * 2).tolist()
