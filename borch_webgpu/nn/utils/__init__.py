"""``torch.nn.utils``: gradient clipping, parameter/vector conversion, ``rnn`` (padding and packing sequences)
and ``fusion`` (folding an eval BatchNorm into the convolution or linear layer before it)."""
from .clip_grad import clip_grad_norm, clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_, get_total_norm
from .convert_parameters import parameters_to_vector, vector_to_parameters
from .fusion import fuse_conv_bn_eval, fuse_conv_bn_weights, fuse_linear_bn_eval, fuse_linear_bn_weights
from . import fusion, rnn
from .init import skip_init
# parametrizations and the hook-based weight/spectral norms (issue 11)
from . import parametrizations, parametrize
from .spectral_norm import remove_spectral_norm, spectral_norm
from .weight_norm import remove_weight_norm, weight_norm

__all__ = ["clip_grad_norm_", "clip_grad_norm", "skip_init", "clip_grad_value_", "clip_grads_with_norm_", "get_total_norm", "parameters_to_vector",
           "vector_to_parameters", "fuse_conv_bn_eval", "fuse_conv_bn_weights", "fuse_linear_bn_eval",
           "fuse_linear_bn_weights", "fusion", "rnn",
           "parametrizations", "parametrize", "spectral_norm", "remove_spectral_norm", "weight_norm",
           "remove_weight_norm"]
