"""``torch.optim`` scenarios (trajectories, state_dicts, schedules, exceptions) replayed on WebGPU
in real Chromium."""
from __future__ import annotations


def test_optim_scenarios_match_pytorch_on_webgpu(replay_on_webgpu):
    replay_on_webgpu("replay_optim.py", "optim:")
