"""More snippets for generate_nn_meta.py (same format): the remaining activation modules, RMSNorm, the alpha and
3-D dropouts, ChannelShuffle and UpsamplingNearest2d / UpsamplingBilinear2d (borch_webgpu/nn/modules/
activation_more.py): their repr, registered parameters (PReLU's and RMSNorm's weight, with their initial values
printed) and construction errors."""
from __future__ import annotations

REPRS = [
    "nn.CELU()", "nn.CELU(2.0, True)", "nn.GLU()", "nn.GLU(1)", "nn.Hardshrink()", "nn.Hardshrink(0.2)",
    "nn.Softshrink()", "nn.Softshrink(1.0)", "nn.LogSigmoid()", "nn.Softmin()", "nn.Softmin(1)", "nn.Softsign()",
    "nn.Tanhshrink()", "nn.Threshold(0.1, 20)", "nn.Threshold(0.1, 20.0, inplace=True)", "nn.RReLU()",
    "nn.RReLU(0.1, 0.3, True)", "nn.PReLU()", "nn.PReLU(3, init=0.1)", "nn.PReLU(3, init=0.1).weight",
    "nn.RMSNorm(4)", "nn.RMSNorm([2, 3], eps=1e-5, elementwise_affine=False)", "nn.RMSNorm((3,)).weight",
    "nn.AlphaDropout()", "nn.AlphaDropout(0.2)", "nn.FeatureAlphaDropout(0.2, True)", "nn.Dropout3d()",
    "nn.Dropout3d(0.3, inplace=True)", "nn.ChannelShuffle(2)", "nn.UpsamplingNearest2d(size=(3, 4))",
    "nn.UpsamplingNearest2d(scale_factor=2)", "nn.UpsamplingBilinear2d(scale_factor=2)",
    "nn.UpsamplingBilinear2d(size=5)",
    "nn.Sequential(nn.Conv2d(4, 8, 1), nn.PReLU(8), nn.ChannelShuffle(2), nn.RMSNorm([8, 2, 2]), nn.Softsign())",
    # importable from the module PyTorch defines them in (from torch.nn.modules.activation import PReLU)
    "[m.PReLU is nn.PReLU and m.Threshold is nn.Threshold and m.GLU is nn.GLU for m in [nn.modules.activation]]",
    "[m.AlphaDropout is nn.AlphaDropout and m.Dropout3d is nn.Dropout3d for m in [nn.modules.dropout]]",
    "nn.modules.normalization.RMSNorm is nn.RMSNorm", "nn.modules.channelshuffle.ChannelShuffle is nn.ChannelShuffle",
    "nn.modules.upsampling.UpsamplingBilinear2d is nn.UpsamplingBilinear2d",
]

STRUCTURE = [
    "nn.PReLU()",
    "nn.PReLU(5)",
    "nn.RMSNorm(4)",
    "nn.RMSNorm([2, 3], elementwise_affine=False)",
    "nn.Sequential(nn.Linear(2, 4), nn.PReLU(4), nn.RMSNorm(4), nn.GLU(), nn.AlphaDropout(0.1))",
]

ERRORS = [
    ("AlphaDropout p", "nn.AlphaDropout(1.5)"),
    ("Dropout3d p", "nn.Dropout3d(-0.5)"),
    ("PReLU channels", "nn.PReLU(3)(torch.ones(2, 4, 5))"),
    ("RMSNorm shape", "nn.RMSNorm(4)(torch.ones(2, 3))"),
    ("GLU odd", "nn.GLU()(torch.ones(2, 3))"),
    ("ChannelShuffle groups", "nn.ChannelShuffle(3)(torch.ones(1, 4, 2, 2))"),
    ("CELU alpha 0", "nn.CELU(0.0)(torch.ones(2))"),
    ("RReLU bounds", "nn.RReLU(0.5, 0.1)(torch.ones(2))"),
    ("Softshrink lambd", "nn.Softshrink(-1.0)(torch.ones(2))"),
    ("FeatureAlphaDropout 1-D", "nn.FeatureAlphaDropout(0.5)(torch.ones(3))"),
    ("UpsamplingBilinear2d 3-D", "nn.UpsamplingBilinear2d(scale_factor=2)(torch.ones(1, 2, 3))"),
    ("conv_transpose1d 4-D input", "F.conv_transpose1d(torch.ones(1, 2, 3, 4), torch.ones(2, 1, 2))"),
    ("pdist 1-D", "F.pdist(torch.ones(3))"),
]
