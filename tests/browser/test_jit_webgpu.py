"""torch.jit on WebGPU in Chromium: tests/golden/replay_jit.py in the page against PyTorch 2.13's answers in
tests/golden/jit.json (traced, scripted and saved-then-loaded MLP, CNN with BatchNorm and a function on
the example and on a new batch size; BatchNorm state after a train-mode trace; TracerWarnings; errors),
then PyTorch's TorchScript archive refused and its state_dict loaded, with the models on ``webgpu``."""
from __future__ import annotations


def test_jit_goldens_on_webgpu(replay_on_webgpu):
    replay_on_webgpu("replay_jit.py", "jit:")
