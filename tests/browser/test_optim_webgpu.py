"""``torch.optim`` scenarios (trajectories, state_dicts, schedules, exceptions) replayed on WebGPU
in real Chromium."""
from __future__ import annotations


def test_optim_scenarios_match_pytorch_on_webgpu(replay_on_webgpu):
    replay_on_webgpu("replay_optim.py", "optim:")


def test_more_optimizers_and_swa_match_pytorch_on_webgpu(replay_on_webgpu):
    """NAdam, RAdam, Adamax, Adadelta, ASGD, Rprop, LBFGS, SparseAdam and swa_utils (optim_more.json)."""
    replay_on_webgpu("replay_optim.py", "optim:", ["--golden", "optim_more.json"])


def test_nn_modules_utils_and_adafactor_match_pytorch_on_webgpu(replay_on_webgpu):
    """Issue 11: parametrizations, weight/spectral norms, lazy modules, the extra pooling and normalisation
    layers and Adafactor (nn_mod.json)."""
    replay_on_webgpu("replay_optim.py", "optim:", ["--golden", "nn_mod.json"])
