"""``torch.nn.functional``: every name comes from the op module that implements it."""
from __future__ import annotations

from ..ops.conv import *  # noqa: F401,F403 - conv1d, conv2d, conv_transpose2d
from ..ops.nn_ops import *  # noqa: F401,F403 - linear, bilinear, dropout, embedding, one_hot
from ..ops._nn_attention import *  # noqa: F401,F403 - scaled_dot_product_attention, multi_head_attention_forward
from ..ops._nn_loss import *  # noqa: F401,F403 - the losses
from ..ops._nn_loss2 import *  # noqa: F401,F403 - margin, ranking, embedding, triplet and likelihood losses
from ..ops._nn_distance import *  # noqa: F401,F403 - normalize, cosine_similarity, pairwise_distance
from ..ops._nn_misc import *  # noqa: F401,F403 - lp_pool1d/2d, local_response_norm, gumbel_softmax
from ..ops._nn_fold import *  # noqa: F401,F403 - unfold, fold
from ..ops._nn_bag import *  # noqa: F401,F403 - embedding_bag
from ..ops._nn_grid import *  # noqa: F401,F403 - affine_grid, grid_sample
from ..ops._nn_ctc import *  # noqa: F401,F403 - ctc_loss
from ..ops._nn_3d import *  # noqa: F401,F403 - conv3d, max_pool3d, avg_pool3d
from ..ops._nn_norm import *  # noqa: F401,F403 - batch_norm, layer_norm, group_norm, instance_norm
from ..ops.pooling import *  # noqa: F401,F403 - max/avg/adaptive pooling
from ..ops.reduce import log_softmax, softmax
from ..ops.shape import pad
from ..ops.unary import (elu, gelu, hardsigmoid, hardswish, hardtanh, leaky_relu, mish, relu, relu6, selu, sigmoid,
                         silu, softplus, tanh)
from ..ops.upsample import *  # noqa: F401,F403 - interpolate, upsample, pixel_shuffle
from ..ops import _nn_3d, _nn_attention, _nn_bag, _nn_ctc, _nn_distance, _nn_fold, _nn_grid, _nn_loss, _nn_loss2, _nn_misc, _nn_norm, conv as _conv, nn_ops as _nn_ops, \
    pooling as _pooling, upsample as _upsample

__all__ = ["elu", "gelu", "hardsigmoid", "hardswish", "hardtanh", "leaky_relu", "mish", "relu", "relu6", "selu",
           "sigmoid", "silu", "softplus", "tanh", "softmax", "log_softmax", "pad",
           *_conv.__all__, *_nn_ops.__all__, *_nn_attention.__all__, *_nn_loss.__all__, *_nn_loss2.__all__,
           *_nn_3d.__all__, *_nn_bag.__all__, *_nn_ctc.__all__, *_nn_distance.__all__, *_nn_fold.__all__, *_nn_grid.__all__, *_nn_misc.__all__, *_nn_norm.__all__,
           *_pooling.__all__, *_upsample.__all__]

# max_unpool1d/2d/3d and fractional max pooling (issue 11)
from ..ops._nn_unpool import *  # noqa: F401,F403,E402
from ..ops import _nn_unpool  # noqa: E402

__all__ += _nn_unpool.__all__

# ---- the remaining activations, rms_norm, the dropout family, channel shuffles, pdist and the *_with_indices
# pools (borch_webgpu/ops/_nn_act.py, _nn_extra.py) ---------------------------------------------------------
from ..ops._nn_act import *  # noqa: F401,F403,E402
from ..ops._nn_extra import *  # noqa: F401,F403,E402
from ..ops import _nn_act, _nn_extra  # noqa: E402

__all__ += [*_nn_act.__all__, *_nn_extra.__all__]
