"""The seeded sample of the property-based op cases (tests/golden/property_cases.py: 100 cases of random
shapes, broadcasting, strided views, dtypes, dims and indices) on WebGPU in Chromium: each gives numpy's
value under PyTorch's rules or PyTorch's exception type, inside ``torch.scope()``; no crash, no hang
(the runner's timeout bounds it). tests/unit/test_ops_property.py runs thousands more on cpu."""
from __future__ import annotations


def test_property_sample_gives_pytorchs_values_or_exception_types_on_webgpu(replay_on_webgpu):
    replay_on_webgpu("replay_property.py", "property:")
