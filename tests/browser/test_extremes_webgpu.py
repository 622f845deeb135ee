"""kthvalue, aminmax, cummax and cummin on WebGPU in Chromium: their golden cases (values, indices, gradients,
PyTorch's exceptions; tests/golden/cases_tensorfns_reduce.py) replayed in the page."""
from __future__ import annotations


def test_kthvalue_aminmax_cummax_cummin_goldens_on_webgpu(replay_on_webgpu):
    replay_on_webgpu("replay.py", "golden:", ["kthvalue", "aminmax", "cummax", "cummin"])
