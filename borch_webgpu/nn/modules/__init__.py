"""``torch.nn.modules``: Module, the containers and the layers, one file per family."""
from .module import Module
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential
from .activation import (ELU, GELU, SELU, Hardsigmoid, Hardswish, Hardtanh, LeakyReLU, LogSoftmax, Mish, ReLU, ReLU6,
                         Sigmoid, SiLU, Softmax, Softmax2d, Softplus, Tanh)
from .batchnorm import BatchNorm1d, BatchNorm2d, BatchNorm3d
from .conv import Conv1d, Conv2d, Conv3d, ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from .dropout import Dropout, Dropout1d, Dropout2d
from .flatten import Flatten, Unflatten
from .fold import Fold, Unfold
from .instancenorm import InstanceNorm1d, InstanceNorm2d, InstanceNorm3d
from .linear import Bilinear, Identity, Linear
from .distance import CosineSimilarity, PairwiseDistance
from .loss import (BCELoss, BCEWithLogitsLoss, CosineEmbeddingLoss, CTCLoss, CrossEntropyLoss, GaussianNLLLoss,
                   HingeEmbeddingLoss, HuberLoss, KLDivLoss, L1Loss, MarginRankingLoss, MSELoss, MultiLabelMarginLoss,
                   MultiLabelSoftMarginLoss, MultiMarginLoss, NLLLoss, PoissonNLLLoss, SmoothL1Loss, SoftMarginLoss,
                   TripletMarginLoss, TripletMarginWithDistanceLoss)
from .normalization import GroupNorm, LayerNorm, LocalResponseNorm
from .padding import (CircularPad1d, CircularPad2d, CircularPad3d, ConstantPad1d, ConstantPad2d, ConstantPad3d,
                      ReflectionPad1d, ReflectionPad2d, ReflectionPad3d, ReplicationPad1d, ReplicationPad2d,
                      ReplicationPad3d, ZeroPad1d, ZeroPad2d, ZeroPad3d)
from .pixelshuffle import PixelShuffle, PixelUnshuffle
from .rnn import GRU, LSTM, RNN, GRUCell, LSTMCell, RNNBase, RNNCell, RNNCellBase
from .pooling import (AdaptiveAvgPool1d, AdaptiveAvgPool2d, AdaptiveAvgPool3d, AdaptiveMaxPool1d, AdaptiveMaxPool2d,
                      AdaptiveMaxPool3d, AvgPool1d, AvgPool2d, AvgPool3d, LPPool1d, LPPool2d, LPPool3d, MaxPool1d,
                      MaxPool2d, MaxPool3d)
from .sparse import Embedding, EmbeddingBag
from .transformer import (MultiheadAttention, Transformer, TransformerDecoder, TransformerDecoderLayer,
                          TransformerEncoder, TransformerEncoderLayer)
from .upsampling import Upsample
# lazy modules, PyTorch's extra pooling/normalisation layers (issue 11)
from .lazy import (LazyBatchNorm1d, LazyBatchNorm2d, LazyBatchNorm3d, LazyConv1d, LazyConv2d, LazyConv3d,
                   LazyConvTranspose1d, LazyConvTranspose2d, LazyConvTranspose3d, LazyInstanceNorm1d,
                   LazyInstanceNorm2d, LazyInstanceNorm3d, LazyLinear)
from . import lazy
from .pooling_extra import FractionalMaxPool2d, FractionalMaxPool3d, MaxUnpool1d, MaxUnpool2d, MaxUnpool3d
from .normalization_extra import CrossMapLRN2d, SyncBatchNorm
from .adaptive import AdaptiveLogSoftmaxWithLoss, Container, NLLLoss2d

# the remaining activations, RMSNorm, the alpha/3-D dropouts, ChannelShuffle, UpsamplingNearest2d/Bilinear2d
from .activation_more import (CELU, GLU, Hardshrink, LogSigmoid, PReLU, RReLU, Softmin, Softshrink, Softsign,
                              Tanhshrink, Threshold)
from .channelshuffle import ChannelShuffle
from .dropout import AlphaDropout, Dropout3d, FeatureAlphaDropout
from .normalization import RMSNorm
from .upsampling import UpsamplingBilinear2d, UpsamplingNearest2d

__all__ = [name for name in dir() if not name.startswith("_") and name[0].isupper()]
