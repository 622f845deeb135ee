"""SummaryWriter scenarios shared by the generator (real PyTorch 2.13's SummaryWriter) and the replay
(ours). Each scenario writes into ``root/<name>``; ``torch`` is whichever library runs them. Data come
from numpy (seeded), so both libraries see the same numbers."""
from __future__ import annotations

import os

import numpy as np


def _rng(seed: int) -> np.random.Generator:
    return np.random.default_rng(seed)


def scalars(torch, SummaryWriter, d):
    w = SummaryWriter(d)
    w.add_scalar("py/float", 0.1)
    w.add_scalar("py/float", -2.5, 0)
    w.add_scalar("py/int", 3, 1)
    w.add_scalar("py/zero", 0.0, 2)
    w.add_scalar("py/neg_zero", -0.0, 2)
    w.add_scalar("np/float64", np.float64(1.0) / 3, np.int64(4))
    w.add_scalar("np/float32", np.float32(1.0) / 3, 5)
    w.add_scalar("np/array1", np.array([7.25]), 6)
    w.add_scalar("tensor/0d", torch.tensor(2.5), 7)
    w.add_scalar("tensor/1elem", torch.tensor([[0.125]]), 8)
    w.add_scalar("tensor/f64", torch.tensor(1.0 / 7, dtype=torch.float64), 9)
    w.add_scalar("tensor/int", torch.tensor(12), 10)
    w.add_scalar("special/inf", float("inf"), 11)
    w.add_scalar("special/nan", float("nan"), 12)
    w.add_scalar("special/big", 1e300, 13)
    w.add_scalar("special/tiny", 1e-50, 14)
    w.add_scalar("step/large", 1.0, 2 ** 40)
    w.add_scalar("step/negative", 1.0, -3)
    w.add_scalar("new_style", 0.75, 15, new_style=True)
    w.add_scalar("new_style/zero", 0.0, 16, new_style=True)
    w.add_scalar("new_style/double", 1.0 / 3, 17, new_style=True, double_precision=True)
    w.add_scalar("walltime", 1.5, 18, walltime=1234.5)
    w.close()


def scalars_multi(torch, SummaryWriter, d):
    with SummaryWriter(d) as w:
        for step in range(3):
            w.add_scalars("loss/main", {"train": 1.0 / (step + 1), "val": torch.tensor(2.0 - step)}, step)
        w.add_scalar("plain", 4.0, 0)


def histograms(torch, SummaryWriter, d):
    rng = _rng(0)
    w = SummaryWriter(d)
    w.add_histogram("tf/normal_f32", torch.tensor(rng.normal(size=200).astype(np.float32)), 0)
    w.add_histogram("tf/normal_f64_np", rng.normal(2.0, 3.0, size=150), 1)
    w.add_histogram("tf/positive", torch.tensor(rng.uniform(0.5, 4.0, size=(4, 5)).astype(np.float32)), 2)
    w.add_histogram("tf/with_zero", torch.tensor([0.0, 0.0, 1.0, -1.0]), 3)
    w.add_histogram("tf/constant", torch.ones(10), 4)
    w.add_histogram("tf/int", torch.tensor([1, 2, 2, 3, 3, 3]), 5)
    w.add_histogram("bins/10", torch.tensor(rng.normal(size=100).astype(np.float32)), 6, bins=10)
    w.add_histogram("bins/auto", rng.normal(size=300), 7, bins="auto")
    w.add_histogram("bins/fd", rng.normal(size=300), 8, bins="fd")
    w.add_histogram("bins/edges", rng.uniform(size=50), 9, bins=[0.0, 0.25, 0.5, 1.0])
    w.add_histogram("max_bins", rng.normal(size=500), 10, bins=50, max_bins=7)
    w.close()


def images(torch, SummaryWriter, d):
    rng = _rng(1)
    w = SummaryWriter(d)
    w.add_image("chw_float", torch.tensor(rng.uniform(size=(3, 5, 7)).astype(np.float32)), 0)
    w.add_image("chw_out_of_range", torch.tensor(rng.normal(0.5, 1.0, size=(3, 4, 4)).astype(np.float32)), 1)
    w.add_image("hwc_uint8_np", rng.integers(0, 256, size=(6, 3, 3)).astype(np.uint8), 2, dataformats="HWC")
    w.add_image("hw_float", torch.tensor(rng.uniform(size=(4, 9)).astype(np.float32)), 3, dataformats="HW")
    w.add_image("wh_float", rng.uniform(size=(4, 9)), 4, dataformats="WH")
    w.add_image("chw_gray", torch.tensor(rng.uniform(size=(1, 5, 5)).astype(np.float32)), 5)
    w.add_image("chw_rgba", torch.tensor(rng.uniform(size=(4, 3, 2)).astype(np.float32)), 6)
    w.add_image("chw_uint8", torch.tensor(rng.integers(0, 256, size=(3, 2, 2)).astype(np.uint8)), 7)
    w.add_images("nchw_batch", torch.tensor(rng.uniform(size=(10, 3, 4, 3)).astype(np.float32)), 8)
    w.add_images("nhwc_gray", rng.uniform(size=(3, 4, 4, 1)), 9, dataformats="NHWC")
    w.close()


def texts(torch, SummaryWriter, d):
    with SummaryWriter(d) as w:
        w.add_text("note", "This is an lstm", 0)
        w.add_text("note", "**markdown** and ünïcödé ✓", 10)
        w.add_text("empty", "", 11)


def hparams(torch, SummaryWriter, d):
    with SummaryWriter(d) as w:
        w.add_hparams({"lr": 0.01, "bsize": 16, "opt": "adam", "flag": True, "skipped": None,
                       "t": torch.tensor([0.5])},
                      {"hparam/accuracy": 0.9, "hparam/loss": torch.tensor(0.25)},
                      hparam_domain_discrete={"opt": ["adam", "sgd"], "bsize": [16, 32]},
                      run_name="trial0")
        w.add_hparams({"lr": 0.1}, {"hparam/accuracy": 0.5}, run_name="trial1", global_step=3)


def purge_and_reopen(torch, SummaryWriter, d):
    w = SummaryWriter(d, purge_step=4, filename_suffix=".sfx")
    w.add_scalar("x", 1.0, 4)
    w.close()
    w.close()                      # a second close does nothing
    w.add_scalar("x", 2.0, 5)     # a new event file (no purge events this time)
    w.flush()
    w.close()


def max_queue(torch, SummaryWriter, d):
    w = SummaryWriter(d, max_queue=2, flush_secs=10000)
    for step in range(5):
        w.add_scalar("q", float(step), step)
    w.close()


def tensors(torch, SummaryWriter, d):
    rng = _rng(2)
    f = rng.normal(size=(2, 3))
    with SummaryWriter(d) as w:
        w.add_tensor("float32", torch.tensor(f.astype(np.float32)), 0)
        w.add_tensor("float64", torch.tensor(f), 1)
        w.add_tensor("float16", torch.tensor(f.astype(np.float16)), 2)
        w.add_tensor("bfloat16", torch.tensor(f.astype(np.float32)).bfloat16(), 3)
        w.add_tensor("int64", torch.tensor(np.array([-3, 0, 2 ** 40])), 4)
        w.add_tensor("int32", torch.tensor(np.array([[-7, 1], [5, 0]], np.int32)), 5)
        w.add_tensor("int16", torch.tensor(np.array([-300, 300], np.int16)), 6)
        w.add_tensor("int8", torch.tensor(np.array([-5, 5], np.int8)), 7)
        w.add_tensor("uint8", torch.tensor(np.array([0, 200, 255], np.uint8)), 8)
        w.add_tensor("bool", torch.tensor(np.array([True, False, True])), 9)
        w.add_tensor("complex64", torch.tensor((f[0] + 1j * f[1]).astype(np.complex64)), 10)
        w.add_tensor("complex128", torch.tensor(f[1] - 2j * f[0]), 11)
        w.add_tensor("scalar", torch.tensor(4.5), 12)


def curves_and_layouts(torch, SummaryWriter, d):
    rng = _rng(3)
    labels = rng.integers(0, 2, size=40)
    preds = rng.uniform(size=40)
    with SummaryWriter(d) as w:
        w.add_pr_curve("pr/tensor", torch.tensor(labels), torch.tensor(preds.astype(np.float32)), 0)
        w.add_pr_curve("pr/np_11", labels, preds, 1, num_thresholds=11)
        w.add_pr_curve("pr/weights", labels, preds, 2, num_thresholds=200, weights=0.5)
        w.add_pr_curve_raw("pr/raw", np.array([4, 3, 1]), np.array([3, 1, 0]), np.array([0, 2, 3]),
                           np.array([0, 1, 3]), np.array([0.57, 0.75, 1.0]), np.array([1.0, 0.75, 0.25]),
                           3, num_thresholds=3)
        w.add_custom_scalars({"Taiwan": {"twse": ["Multiline", ["twse/0050", "twse/2330"]]},
                              "USA": {"dow": ["Margin", ["dow/aaa", "dow/bbb", "dow/ccc"]],
                                      "nasdaq": ["Margin", ["nasdaq/aaa", "nasdaq/bbb", "nasdaq/ccc"]]}})
        w.add_custom_scalars_multilinechart(["a", "b"])
        w.add_custom_scalars_marginchart(["m", "lo", "hi"], category="cat", title="margins")
        w.add_histogram_raw("hist/raw", min=0.0, max=3.0, num=4, sum=6.0, sum_squares=14.0,
                            bucket_limits=[1.0, 2.0, 3.0], bucket_counts=[1, 1, 2], global_step=4)


def audios(torch, SummaryWriter, d):
    t = np.arange(64)
    with SummaryWriter(d) as w:
        w.add_audio("sine", torch.tensor(np.sin(t * 0.3).astype(np.float32)).unsqueeze(0), 0, sample_rate=8000)
        w.add_audio("np_1d", 0.5 * np.cos(t * 0.1), 1)
        w.add_audio("clipped", torch.tensor(2.0 * np.sin(t * 0.2)), 2, sample_rate=16000)


def embeddings(torch, SummaryWriter, d):
    rng = _rng(4)
    with SummaryWriter(d) as w:
        w.add_embedding(torch.tensor(rng.normal(size=(5, 3)).astype(np.float32)), metadata=list("abcde"),
                        label_img=torch.tensor(rng.uniform(size=(5, 3, 4, 4)).astype(np.float32)))
        w.add_embedding(rng.normal(size=(3, 2)), metadata=[[1, "x"], [2, "y"], [3, "z"]],
                        metadata_header=["n", "s"], global_step=2, tag="my/tag \u00e9")
        w.add_embedding(torch.tensor(rng.normal(size=(2, 4)).astype(np.float32)),
                        label_img=torch.tensor(rng.uniform(size=(2, 1, 3, 3)).astype(np.float32)), global_step=3,
                        tag='say "hi"\\%')
        w.add_scalar("after", 1.0, 0)


def meshes(torch, SummaryWriter, d):
    vertices = [[[1.0, 1.0, 1.0], [-1.0, -1.0, 1.0], [1.0, -1.0, -1.0], [-1.0, 1.0, -1.0]]]
    colors = [[[255, 0, 0], [0, 255, 0], [0, 0, 255], [255, 0, 255]]]
    faces = [[[0, 2, 3], [0, 3, 1], [0, 1, 2], [1, 3, 2]]]
    with SummaryWriter(d) as w:
        w.add_mesh("my_mesh", vertices=torch.tensor(vertices), colors=torch.tensor(colors, dtype=torch.int),
                   faces=torch.tensor(faces, dtype=torch.int))
        w.add_mesh("cloud", vertices=torch.tensor(vertices), global_step=1,
                   config_dict={"camera": {"cls": "PerspectiveCamera", "fov": 75}, "material": {"size": 0.5}})


SCENARIOS = [scalars, scalars_multi, histograms, images, texts, hparams, purge_and_reopen, max_queue,
             tensors, curves_and_layouts, audios, embeddings, meshes]


def run_all(torch, SummaryWriter, root) -> None:
    for fn in SCENARIOS:
        fn(torch, SummaryWriter, os.path.join(str(root), fn.__name__))
