"""Recurrent layers ``RNN``, ``LSTM`` and ``GRU`` with PyTorch's signatures, parameter names (``weight_ih_l0``,
``bias_hh_l1_reverse``, ``weight_hr_l0``, ...), initialisation, input checks and error text. The cells
(``RNNCell``, ``LSTMCell``, ``GRUCell``) are in _rnn_cell.py, exported here as PyTorch does; the recurrence
itself is in _rnn_loop.py."""
from __future__ import annotations

import math
import numbers
import warnings

from ...ops.creation import empty, zeros
from ...ops.shape import cat, stack
from ...tensor import Tensor
from .. import init
from ..parameter import Parameter
from ..utils.rnn import PackedSequence
from ._rnn_cell import GRUCell, LSTMCell, RNNCell, RNNCellBase
from ._rnn_loop import run_layers
from .module import Module

__all__ = ["RNNBase", "RNN", "LSTM", "GRU", "RNNCellBase", "RNNCell", "LSTMCell", "GRUCell"]

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _apply_permutation(tensor: Tensor, permutation: Tensor, dim: int = 1) -> Tensor:
    return tensor.index_select(dim, permutation)


class RNNBase(Module):
    """What RNN, LSTM and GRU share: the parameters of every layer and direction, the input checks and
    the ``repr``. ``mode`` is ``'RNN_TANH'``, ``'RNN_RELU'``, ``'LSTM'`` or ``'GRU'``."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0,
                 device=None, dtype=None) -> None:
        super().__init__()
        fk = {"device": device, "dtype": dtype}
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise ValueError("dropout should be a number in range [0, 1] representing the probability of an element "
                             "being zeroed")
        if dropout > 0 and num_layers == 1:
            warnings.warn("dropout option adds dropout after all but last recurrent layer, so non-zero dropout "
                          f"expects num_layers greater than 1, but got dropout={dropout} and num_layers={num_layers}",
                          stacklevel=2)
        for name, value, typ in (("bias", bias, bool), ("batch_first", batch_first, bool),
                                 ("input_size", input_size, int)):
            if not isinstance(value, typ):
                raise TypeError(f"{name} should be of type {typ.__name__}, got: {type(value).__name__}")
        if input_size <= 0:
            raise ValueError("input_size must be greater than zero")
        if not isinstance(hidden_size, int):
            raise TypeError(f"hidden_size should be of type int, got: {type(hidden_size).__name__}")
        if hidden_size <= 0:
            raise ValueError("hidden_size must be greater than zero")
        if num_layers <= 0:
            raise ValueError("num_layers must be greater than zero")
        if proj_size < 0:
            raise ValueError("proj_size should be a positive integer or zero to disable projections")
        if proj_size >= hidden_size:
            raise ValueError("proj_size has to be smaller than hidden_size")
        if mode not in _GATES:
            raise ValueError("Unrecognized RNN mode: " + mode)
        gate_size = _GATES[mode] * hidden_size
        real_hidden = proj_size if proj_size > 0 else hidden_size
        dirs = 2 if bidirectional else 1
        self._flat_weights_names: list[str] = []
        self._all_weights: list[list[str]] = []
        for layer in range(num_layers):
            for direction in range(dirs):
                layer_input = input_size if layer == 0 else real_hidden * dirs
                suffix = "_reverse" if direction == 1 else ""
                shapes = {"weight_ih": (gate_size, layer_input), "weight_hh": (gate_size, real_hidden)}
                if bias:
                    shapes.update(bias_ih=(gate_size,), bias_hh=(gate_size,))
                if proj_size > 0:
                    shapes["weight_hr"] = (proj_size, hidden_size)
                names = []
                for kind, shape in shapes.items():
                    name = f"{kind}_l{layer}{suffix}"
                    setattr(self, name, Parameter(empty(shape, **fk)))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self) -> list:
        return [getattr(self, n, None) for n in self._flat_weights_names]

    @property
    def all_weights(self) -> list[list[Parameter]]:
        """The parameters of each layer and direction, in ``_all_weights`` order."""
        return [[getattr(self, w) for w in ws] for ws in self._all_weights]

    def flatten_parameters(self) -> None:
        """Nothing to do here (PyTorch packs the weights into one cuDNN buffer on CUDA)."""

    def reset_parameters(self) -> None:
        """Every parameter uniform in ``[-1/sqrt(hidden_size), 1/sqrt(hidden_size)]``."""
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def check_input(self, input: Tensor, batch_sizes: Tensor | None) -> None:
        """PyTorch's checks of the input's dtype, rank and feature size."""
        w = getattr(self, self._flat_weights_names[0])
        if input.dtype != w.dtype:
            raise ValueError(f"RNN input dtype ({input.dtype}) does not match weight dtype ({w.dtype}). Convert "
                             f"input: input.to({w.dtype}), or convert model: model.to({input.dtype})")
        expected = 2 if batch_sizes is not None else 3
        if input.dim() != expected:
            raise RuntimeError(f"input must have {expected} dimensions, got {input.dim()}")
        if self.input_size != input.size(-1):
            raise RuntimeError(f"input.size(-1) must be equal to input_size. Expected {self.input_size}, got "
                               f"{input.size(-1)}")

    def get_expected_hidden_size(self, input: Tensor, batch_sizes) -> tuple[int, int, int]:
        """(num_layers * num_directions, batch, proj_size or hidden_size)."""
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input.size(0) if self.batch_first else input.size(1)
        dirs = 2 if self.bidirectional else 1
        return (self.num_layers * dirs, mini_batch, self.proj_size if self.proj_size > 0 else self.hidden_size)

    def check_hidden_size(self, hx: Tensor, expected_hidden_size, msg: str = "Expected hidden size {}, got {}") -> None:
        """Raise PyTorch's RuntimeError when ``hx`` is not of ``expected_hidden_size``."""
        if tuple(hx.size()) != tuple(expected_hidden_size):
            raise RuntimeError(msg.format(tuple(expected_hidden_size), list(hx.size())))

    def check_forward_args(self, input: Tensor, hidden: Tensor, batch_sizes) -> None:
        """check_input, then the hidden state's size."""
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation: Tensor | None):
        """``hx`` (or LSTM's (h, c)) with its batch dim in ``permutation``'s order (None: unchanged)."""
        if permutation is None:
            return hx
        if isinstance(hx, tuple):
            return tuple(_apply_permutation(h, permutation) for h in hx)
        return _apply_permutation(hx, permutation)

    def extra_repr(self) -> str:
        s = f"{self.input_size}, {self.hidden_size}"
        if self.proj_size != 0:
            s += f", proj_size={self.proj_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s

    # ---- the forward pass shared by the three ---------------------------------------------------------------
    def _weights(self) -> list:
        """Per layer and direction: (w_ih, w_hh, b_ih, b_hh, w_hr), None where absent."""
        out = []
        for names in self._all_weights:
            got = {n.split("_l")[0]: getattr(self, n) for n in names}
            out.append(tuple(got.get(k) for k in ("weight_ih", "weight_hh", "bias_ih", "bias_hh", "weight_hr")))
        return out

    def _zeros_state(self, input: Tensor, batch: int, size: int) -> Tensor:
        dirs = 2 if self.bidirectional else 1
        return zeros(self.num_layers * dirs, batch, size, dtype=input.dtype, device=input.device)

    def _unpack(self, input):
        """(input, batch_sizes as a tensor or None, the same as a list, sorted and unsorted indices)."""
        if isinstance(input, PackedSequence):
            data, batch_sizes, sorted_indices, unsorted_indices = input
            return data, batch_sizes, [int(b) for b in batch_sizes.tolist()], sorted_indices, unsorted_indices
        return input, None, None, None, None

    def _run(self, input: Tensor, sizes: list[int] | None, hx):
        """Run the layers over a (T, B, F) / (B, T, F) input (sizes None) or packed data (N, F)."""
        if sizes is None:
            x = input.transpose(0, 1) if self.batch_first else input
            if x.shape[0] == 0:
                raise RuntimeError("Expected sequence length to be larger than 0 in RNN")
            steps, sizes = list(x.unbind(0)), [x.shape[1]] * x.shape[0]
        else:
            steps = list(input.split(sizes, 0))
        outs, h_n, c_n = run_layers(self.mode, steps, sizes, hx, self._weights(), self.num_layers,
                                    self.bidirectional, self.dropout, self.training)
        if input.dim() == 2:  # packed data: the steps one after the other
            return cat(outs, 0), h_n, c_n
        out = stack(outs, 0)
        return (out.transpose(0, 1) if self.batch_first else out), h_n, c_n

    def _forward(self, input, hx):
        lstm = self.mode == "LSTM"
        input, batch_sizes, sizes, sorted_indices, unsorted_indices = self._unpack(input)
        is_batched, batch_dim = True, 0 if self.batch_first else 1
        if sizes is None:
            if input.dim() not in (2, 3):
                name, tail = {"LSTM": ("LSTM", ""), "GRU": ("GRU", "")}.get(self.mode, ("RNN", " tensor"))
                raise ValueError(f"{name}: Expected input to be 2D or 3D, got {input.dim()}D{tail} instead")
            is_batched = input.dim() == 3
            if not is_batched:
                input = input.unsqueeze(batch_dim)
            if hx is not None:
                want = 3 if is_batched else 2
                kind = "batched 3-D" if is_batched else "unbatched 2-D"
                if lstm and (hx[0].dim() != want or hx[1].dim() != want):
                    raise RuntimeError(f"For {kind} input, hx and cx should also be {want}-D but got "
                                       f"({hx[0].dim()}-D, {hx[1].dim()}-D) tensors")
                if not lstm and hx.dim() != want:
                    raise RuntimeError(f"For {kind} input, hx should also be {want}-D but got {hx.dim()}-D tensor")
                if not is_batched:
                    hx = (hx[0].unsqueeze(1), hx[1].unsqueeze(1)) if lstm else hx.unsqueeze(1)
        if hx is None:
            batch = sizes[0] if sizes is not None else input.size(batch_dim)
            hx = self._zeros_state(input, batch, self.proj_size or self.hidden_size)
            if lstm:
                hx = (hx, self._zeros_state(input, batch, self.hidden_size))
            self.check_forward_args(input, hx, batch_sizes)
        else:
            # checked before the permutation: a wrong batch size would otherwise fail inside index_select
            self.check_forward_args(input, hx, batch_sizes)
            hx = self.permute_hidden(hx, sorted_indices)
        output, h_n, c_n = self._run(input, sizes, hx)
        hidden = (h_n, c_n) if lstm else h_n
        if sizes is not None:
            return (PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices),
                    self.permute_hidden(hidden, unsorted_indices))
        if not is_batched:
            output = output.squeeze(batch_dim)
            hidden = (h_n.squeeze(1), c_n.squeeze(1)) if lstm else h_n.squeeze(1)
        return output, hidden


class RNN(RNNBase):
    """A multi-layer Elman RNN: ``h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh)`` (or relu).

    Args:
        input_size: features of the input ``x``.
        hidden_size: features of the hidden state ``h``.
        num_layers: stacked layers; layer k > 0 reads layer k - 1's output.
        nonlinearity: ``'tanh'`` or ``'relu'``.
        bias: with ``b_ih`` and ``b_hh``.
        batch_first: input and output are (batch, seq, feature) instead of (seq, batch, feature).
        dropout: in training, dropout on the output of every layer but the last.
        bidirectional: a second pass from the last step to the first; outputs are concatenated.

    Shape:
        - input: (L, N, H_in), (N, L, H_in) with ``batch_first``, (L, H_in) unbatched, or a PackedSequence.
        - h_0: (D * num_layers, N, H_out) or (D * num_layers, H_out); zeros when not given.
        - output: (L, N, D * H_out); h_n: (D * num_layers, N, H_out).

    Example::

        >>> import borch_webgpu as torch
        >>> rnn = torch.nn.RNN(10, 20, 2)
        >>> output, hn = rnn(torch.randn(5, 3, 10), torch.randn(2, 3, 20))
        >>> output.shape, hn.shape
        (torch.Size([5, 3, 20]), torch.Size([2, 3, 20]))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, nonlinearity: str = "tanh",
                 bias: bool = True, batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False,
                 device=None, dtype=None, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        if nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise ValueError(f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'.")
        super().__init__(mode, input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         device=device, dtype=dtype, **kwargs)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx: Tensor | None = None):
        """(output, h_n); a PackedSequence input gives a PackedSequence output."""
        return self._forward(input, hx)


class LSTM(RNNBase):
    """A multi-layer long short-term memory RNN. Per step, with σ the sigmoid::

        i, f, g, o = chunk(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh, 4)
        c_t = σ(f) * c_{t-1} + σ(i) * tanh(g)
        h_t = σ(o) * tanh(c_t)                 (then h_t W_hr^T when proj_size > 0)

    Arguments as :class:`RNN` (no ``nonlinearity``), plus ``proj_size``: when > 0, ``h`` is projected to
    ``proj_size`` features by ``weight_hr_l{k}`` (h_0 and h_n then have proj_size features, c stays
    hidden_size).

    Example::

        >>> import borch_webgpu as torch
        >>> lstm = torch.nn.LSTM(10, 20, 2)
        >>> output, (hn, cn) = lstm(torch.randn(5, 3, 10))
        >>> output.shape, hn.shape, cn.shape
        (torch.Size([5, 3, 20]), torch.Size([2, 3, 20]), torch.Size([2, 3, 20]))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0,
                 device=None, dtype=None) -> None:
        super().__init__("LSTM", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         proj_size, device=device, dtype=dtype)

    def get_expected_cell_size(self, input: Tensor, batch_sizes) -> tuple[int, int, int]:
        """(num_layers * num_directions, batch, hidden_size)."""
        mini_batch = int(batch_sizes[0]) if batch_sizes is not None else input.size(0 if self.batch_first else 1)
        return (self.num_layers * (2 if self.bidirectional else 1), mini_batch, self.hidden_size)

    def check_forward_args(self, input: Tensor, hidden, batch_sizes) -> None:
        """check_input, then the sizes of h and c."""
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes),
                               "Expected hidden[0] size {}, got {}")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes),
                               "Expected hidden[1] size {}, got {}")

    def forward(self, input, hx: tuple[Tensor, Tensor] | None = None):
        """(output, (h_n, c_n)); a PackedSequence input gives a PackedSequence output."""
        return self._forward(input, hx)


class GRU(RNNBase):
    """A multi-layer gated recurrent unit RNN. Per step, with σ the sigmoid::

        r = σ(x_t W_ir^T + b_ir + h W_hr^T + b_hr)
        z = σ(x_t W_iz^T + b_iz + h W_hz^T + b_hz)
        n = tanh(x_t W_in^T + b_in + r * (h W_hn^T + b_hn))
        h_t = (1 - z) * n + z * h

    Arguments as :class:`RNN` (no ``nonlinearity``).

    Example::

        >>> import borch_webgpu as torch
        >>> gru = torch.nn.GRU(10, 20, 2, batch_first=True)
        >>> output, hn = gru(torch.randn(3, 5, 10))
        >>> output.shape, hn.shape
        (torch.Size([3, 5, 20]), torch.Size([2, 3, 20]))
    """

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, device=None,
                 dtype=None, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise ValueError("proj_size argument is only supported for LSTM, not RNN or GRU")
        super().__init__("GRU", input_size, hidden_size, num_layers, bias, batch_first, dropout, bidirectional,
                         device=device, dtype=dtype, **kwargs)

    def forward(self, input, hx: Tensor | None = None):
        """(output, h_n); a PackedSequence input gives a PackedSequence output."""
        return self._forward(input, hx)
