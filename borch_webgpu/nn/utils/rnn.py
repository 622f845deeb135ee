"""``torch.nn.utils.rnn``: padding and packing variable-length sequences for RNN, LSTM and GRU.

A :class:`PackedSequence` holds the time steps of a batch of sequences one after the other, longest
sequences first: ``data`` (sum of the lengths, *), ``batch_sizes`` (how many sequences are still
running at each step: a cpu int64 tensor, host bookkeeping as in PyTorch) and the permutation that
sorted the batch by length. Packing and unpacking are one ``index_select`` each (indices built on the
host from the lengths), so they are differentiable and cost one gather forward and one scatter-add
backward, however long the sequences.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple

import numpy as np

from ... import _dtype
from ...ops.creation import arange, as_tensor, full, tensor, zeros
from ...ops.scan_sort import sort
from ...ops.shape import cat, stack
from ...tensor import Tensor

__all__ = ["PackedSequence", "invert_permutation", "pack_padded_sequence", "pad_packed_sequence", "pad_sequence",
           "unpad_sequence", "pack_sequence", "unpack_sequence"]

_TYPE_NAMES = {"float32": "Float", "float16": "Half", "bfloat16": "BFloat16", "int64": "Long", "int32": "Int", "bool": "Bool"}


class PackedSequence_(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


class PackedSequence(PackedSequence_):
    """A batch of variable-length sequences packed time step by time step (a namedtuple of ``data``,
    ``batch_sizes``, ``sorted_indices``, ``unsorted_indices``). Made by :func:`pack_padded_sequence` and
    :func:`pack_sequence`, not by hand; RNN, LSTM and GRU accept it as input and return one.

    ``data[batch_sizes[:t].sum() + b]`` is step ``t`` of the ``b``-th longest sequence; ``batch_sizes``
    stays on the cpu device wherever ``data`` lives.

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu.nn.utils.rnn import pack_sequence
        >>> p = pack_sequence([torch.tensor([1, 2, 3]), torch.tensor([4, 5])])
        >>> p.data.tolist(), p.batch_sizes.tolist()
        ([1, 4, 2, 5, 3], [2, 2, 1])
    """

    def __new__(cls, data: Tensor, batch_sizes: Tensor | None = None, sorted_indices: Tensor | None = None,
                unsorted_indices: Tensor | None = None) -> "PackedSequence":
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is not None:
            if batch_sizes.device.type != "cpu":
                raise ValueError(
                    "batch_sizes should always be on CPU. Instances of PackedSequence should never be created "
                    "manually. They should be instantiated by functions like pack_sequence and "
                    "pack_padded_sequences in nn.utils.rnn. "
                    "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence")
            return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)
        if not (isinstance(data, (list, tuple)) and len(data) == 2):
            raise AssertionError("Expected data to be a list or tuple of length 2")
        return super().__new__(cls, data[0], data[1], sorted_indices, unsorted_indices)

    def to(self, *args, **kwargs) -> "PackedSequence":
        """``data.to(...)``; the indices follow data's device, ``batch_sizes`` stays on the cpu."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self

        def call_to(t):
            return None if t is None else t.to(data.device)
        return type(self)(data, self.batch_sizes, call_to(self.sorted_indices), call_to(self.unsorted_indices))

    def cuda(self, *args, **kwargs) -> "PackedSequence":
        """The sequence on the GPU (the WebGPU device)."""
        kwargs.setdefault("device", "cuda")
        return self.to(*args, **kwargs)

    def cpu(self, *args, **kwargs) -> "PackedSequence":
        """The sequence on the cpu device."""
        kwargs.setdefault("device", "cpu")
        return self.to(*args, **kwargs)

    def double(self) -> "PackedSequence":
        """``to(torch.float64)``."""
        return self.to(dtype=_dtype.float64)

    def float(self) -> "PackedSequence":
        """``to(torch.float32)``."""
        return self.to(dtype=_dtype.float32)

    def half(self) -> "PackedSequence":
        """``to(torch.float16)``."""
        return self.to(dtype=_dtype.float16)

    def long(self) -> "PackedSequence":
        """``to(torch.int64)``."""
        return self.to(dtype=_dtype.int64)

    def int(self) -> "PackedSequence":
        """``to(torch.int32)``."""
        return self.to(dtype=_dtype.int32)

    @property
    def is_cuda(self) -> bool:
        """True when ``data`` is on the GPU (the WebGPU device)."""
        return self.data.is_cuda

    def is_pinned(self) -> bool:
        """Always False (there is no pinned host memory here)."""
        return False


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The inverse of a permutation (``out[permutation[i]] = i``), or None for None.

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu.nn.utils.rnn import invert_permutation
        >>> invert_permutation(torch.tensor([2, 0, 1])).tolist()
        [1, 2, 0]
    """
    if permutation is None:
        return None
    n = permutation.numel()
    return zeros(n, dtype=permutation.dtype, device=permutation.device).scatter(
        0, permutation, arange(n, dtype=permutation.dtype, device=permutation.device))


def _host_lengths(op: str, lengths) -> np.ndarray:
    if not isinstance(lengths, Tensor):
        return np.asarray(as_tensor(lengths, dtype=_dtype.int64, device="cpu").tolist(), dtype=np.int64)
    if lengths.device.type != "cpu" or lengths.dim() != 1:
        raise RuntimeError(f"'lengths' argument should be a 1D CPU int64 tensor, but got {lengths.dim()}D "
                           f"{lengths.device} {_TYPE_NAMES.get(lengths.dtype.name, lengths.dtype.name)} tensor")
    return np.asarray(lengths.to(dtype=_dtype.int64).tolist(), dtype=np.int64).reshape(-1)


def _batch_sizes(lengths: np.ndarray) -> list[int]:
    return [int((lengths > t).sum()) for t in range(int(lengths[0]))]


def pack_padded_sequence(input: Tensor, lengths, batch_first: bool = False,
                         enforce_sorted: bool = True) -> PackedSequence:
    """Pack a padded batch ``input`` (T, B, *) (or (B, T, *) with ``batch_first``) of sequences with the
    given ``lengths`` (a list or a 1-D cpu tensor). With ``enforce_sorted`` the lengths must be in
    decreasing order; otherwise the batch is sorted here and the permutation kept in the result.

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu.nn.utils.rnn import pack_padded_sequence
        >>> x = torch.tensor([[1, 4], [2, 5], [3, 0]])        # (T=3, B=2), the second of length 2
        >>> p = pack_padded_sequence(x, [3, 2])
        >>> p.data.tolist(), p.batch_sizes.tolist()
        ([1, 4, 2, 5, 3], [2, 2, 1])
    """
    lens = _host_lengths("pack_padded_sequence", lengths)
    sorted_indices = None
    if not enforce_sorted:
        order = sort(tensor(lens, dtype=_dtype.int64, device="cpu"), descending=True).indices
        lens = lens[np.asarray(order.tolist(), dtype=np.int64)]
        sorted_indices = order.to(input.device)
        input = input.index_select(0 if batch_first else 1, sorted_indices)
    if input.numel() == 0:
        raise RuntimeError("Cannot pack empty tensors.")
    if batch_first:
        input = input.transpose(0, 1)
    steps, batch = input.shape[0], input.shape[1]
    if lens.shape[0] != batch:
        raise RuntimeError(f"Expected `len(lengths)` to be equal to batch_size, but got {lens.shape[0]} "
                           f"(batch_size={batch})")
    if lens[-1] <= 0:
        raise RuntimeError("Length of all samples has to be greater than 0, but found an element in 'lengths' that "
                           "is <= 0")
    if np.any(lens[1:] > lens[:-1]):
        raise RuntimeError("`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can "
                           "pass `enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this "
                           "requirement if you do not need ONNX exportability.")
    if lens[0] > steps:
        # PyTorch reads past the end of the input here; a clear error instead of made-up steps
        raise RuntimeError(f"pack_padded_sequence: the longest length is {int(lens[0])} but the padded input has only "
                           f"{steps} time steps (input.size({1 if batch_first else 0}))")
    sizes = _batch_sizes(lens)
    rows = np.concatenate([t * batch + np.arange(b) for t, b in enumerate(sizes)])
    flat = input.reshape(steps * batch, *input.shape[2:])
    data = flat.index_select(0, tensor(rows, dtype=_dtype.int64, device=input.device))
    return PackedSequence(data, tensor(sizes, dtype=_dtype.int64, device="cpu"), sorted_indices, None)


def pad_packed_sequence(sequence: PackedSequence, batch_first: bool = False, padding_value: float = 0.0,
                        total_length: int | None = None) -> tuple[Tensor, Tensor]:
    """The inverse of :func:`pack_padded_sequence`: (padded (T, B, *) or (B, T, *), lengths (B,) on the cpu),
    in the batch order the sequences had before packing. ``total_length`` pads to that many steps.

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu.nn.utils.rnn import pack_sequence, pad_packed_sequence
        >>> p = pack_sequence([torch.tensor([1, 2]), torch.tensor([3, 4, 5])], enforce_sorted=False)
        >>> padded, lengths = pad_packed_sequence(p, batch_first=True)
        >>> padded.tolist(), lengths.tolist()
        ([[1, 2, 0], [3, 4, 5]], [2, 3])
    """
    sizes = [int(b) for b in sequence.batch_sizes.tolist()]
    max_len = len(sizes)
    if total_length is not None:
        if total_length < max_len:
            raise ValueError("Expected total_length to be at least the length of the longest sequence in input, but "
                             f"got total_length={total_length} and max sequence length being {max_len}")
        max_len = total_length
    data = sequence.data
    batch, n = sizes[0], data.shape[0]
    lens = np.array([sum(1 for b in sizes if b > i) for i in range(batch)], dtype=np.int64)
    # row of data for each (step, sequence); n (the extra padding row) where the sequence has ended
    rows = np.full((max_len, batch), n, dtype=np.int64)
    offset = 0
    for t, b in enumerate(sizes):
        rows[t, :b] = offset + np.arange(b)
        offset += b
    if batch_first:
        rows = rows.T
    pad_row = full((1, *data.shape[1:]), padding_value, dtype=data.dtype, device=data.device)
    src = cat([data, pad_row], 0)
    out = src.index_select(0, tensor(rows.reshape(-1), dtype=_dtype.int64, device=data.device))
    out = out.reshape(*rows.shape, *data.shape[1:])
    lengths = tensor(lens, dtype=_dtype.int64, device="cpu")
    if sequence.unsorted_indices is not None:
        order = sequence.unsorted_indices
        out = out.index_select(0 if batch_first else 1, order)
        lengths = lengths.index_select(0, order.to("cpu"))
    return out, lengths


def _broadcast_check(dest: tuple, src: tuple) -> None:
    """PyTorch's errors for copying ``src`` into a slice of shape ``dest`` (copy_ broadcasts)."""
    n = max(len(dest), len(src))
    a, b = (1,) * (n - len(dest)) + tuple(dest), (1,) * (n - len(src)) + tuple(src)
    out = []
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y and x != 1 and y != 1:
            raise RuntimeError(f"The size of tensor a ({x}) must match the size of tensor b ({y}) at non-singleton "
                               f"dimension {i}")
        out.append(y if x == 1 else x)
    if tuple(out) != tuple(dest):
        raise RuntimeError(f"output with shape {list(dest)} doesn't match the broadcast shape {out}")


def pad_sequence(sequences, batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right") -> Tensor:
    """Stack sequences of different lengths (L_i, *) into one tensor (T, B, *) (or (B, T, *) with
    ``batch_first``), T the longest length, filling with ``padding_value`` on the right (or the left).

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu.nn.utils.rnn import pad_sequence
        >>> pad_sequence([torch.tensor([1, 2, 3]), torch.tensor([4])], batch_first=True).tolist()
        [[1, 2, 3], [4, 0, 0]]
    """
    if not isinstance(sequences, Iterable):
        raise RuntimeError(f"pad_sequence: Expected iterable for input sequences, but got arg of type: "
                           f"{type(sequences)}")
    sequences = tuple(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    first = sequences[0]
    trailing = tuple(first.shape[1:])
    max_len = max(s.shape[0] for s in sequences)
    padded = []
    for s in sequences:
        n = s.shape[0]
        _broadcast_check((n, *trailing), tuple(s.shape))
        s = s.to(first.dtype)
        if tuple(s.shape) != (n, *trailing):
            s = s.expand(n, *trailing)
        if n < max_len:
            fill = full((max_len - n, *trailing), padding_value, dtype=first.dtype, device=first.device)
            s = cat([s, fill] if padding_side == "right" else [fill, s], 0)
        padded.append(s)
    return stack(padded, 0 if batch_first else 1)


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor, batch_first: bool = False) -> list[Tensor]:
    """The list of sequences inside a padded batch (the inverse of :func:`pad_sequence`). Unlike PyTorch,
    ``padded_sequences`` is not transposed in place when ``batch_first`` is False.

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu.nn.utils.rnn import unpad_sequence
        >>> [s.tolist() for s in unpad_sequence(torch.tensor([[1, 3], [2, 0]]), torch.tensor([2, 1]))]
        [[1, 2], [3]]
    """
    x = padded_sequences if batch_first else padded_sequences.transpose(0, 1)
    return [x[i].narrow(0, 0, int(n)) for i, n in enumerate(lengths.tolist())]


def pack_sequence(sequences, enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of sequences (L_i, *): ``pack_padded_sequence(pad_sequence(sequences), lengths)``.

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu.nn.utils.rnn import pack_sequence
        >>> pack_sequence([torch.tensor([1]), torch.tensor([2, 3])], enforce_sorted=False).data.tolist()
        [2, 1, 3]
    """
    lengths = [v.size(0) for v in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpack_sequence(packed_sequences: PackedSequence) -> list[Tensor]:
    """The list of sequences inside a :class:`PackedSequence` (the inverse of :func:`pack_sequence`).

    Example::

        >>> import borch_webgpu as torch
        >>> from borch_webgpu.nn.utils.rnn import pack_sequence, unpack_sequence
        >>> p = pack_sequence([torch.tensor([1]), torch.tensor([2, 3])], enforce_sorted=False)
        >>> [s.tolist() for s in unpack_sequence(p)]
        [[1], [2, 3]]
    """
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)
