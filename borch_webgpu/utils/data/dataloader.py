"""DataLoader: batches from a dataset, in order or shuffled by a generator, collated into tensors.

It runs in the calling thread (``num_workers`` other than 0 is accepted and ignored: a browser page
has no worker processes). Samples that are tensors on the cpu device (or numpy arrays, numbers)
are stacked on the host and each batch is uploaded to the default device with one copy.
"""
from __future__ import annotations

import numbers

import numpy as np

from ...tensor import Tensor
from .dataset import IterableDataset, Subset, TensorDataset
from .sampler import BatchSampler, RandomSampler, SequentialSampler

__all__ = ["DataLoader", "default_collate"]


def _stack(items):
    from ...ops.creation import tensor
    from ...ops.shape import stack
    first = items[0]
    if isinstance(first, Tensor):
        if all(t.device.type == "cpu" for t in items):
            return tensor(np.stack([t.detach()._host("collate") for t in items]), dtype=first.dtype)
        return stack(items)
    if isinstance(first, np.ndarray):
        return tensor(np.stack(items))
    if isinstance(first, bool):
        return tensor(items)
    if isinstance(first, numbers.Number):
        return tensor(items)
    return None


def default_collate(batch):
    """Stack a list of samples: tensors, arrays and numbers become tensors with a batch dim;
    tuples, lists and dicts are collated field by field; strings stay lists."""
    first = batch[0]
    stacked = _stack(batch)
    if stacked is not None:
        return stacked
    if isinstance(first, str):
        return list(batch)
    if isinstance(first, dict):
        return {k: default_collate([b[k] for b in batch]) for k in first}
    if isinstance(first, tuple) and hasattr(first, "_fields"):
        return type(first)(*(default_collate(list(s)) for s in zip(*batch)))
    if isinstance(first, (tuple, list)):
        if any(len(b) != len(first) for b in batch):
            raise RuntimeError("each element in list of batch should be of equal size")
        return [default_collate(list(s)) for s in zip(*batch)]
    raise TypeError(f"default_collate: batch must contain tensors, numpy arrays, numbers, dicts or lists; found "
                    f"{type(first).__name__}")


def _gathers_batches(ds) -> bool:
    """A plain TensorDataset (or a plain Subset of one): its batches can be gathered at once.
    Subclasses may override __getitem__, so they take the per-sample path."""
    while type(ds) is Subset:
        ds = ds.dataset
    return type(ds) is TensorDataset


class DataLoader:
    """Iterate over ``dataset`` in batches (``batch_size``, ``shuffle``, ``drop_last``, ``generator``...)."""

    def __init__(self, dataset, batch_size=1, shuffle=None, sampler=None, batch_sampler=None, num_workers=0,
                 collate_fn=None, pin_memory=False, drop_last=False, timeout=0, worker_init_fn=None,
                 multiprocessing_context=None, generator=None, *, prefetch_factor=None, persistent_workers=False,
                 pin_memory_device=""):
        self.dataset = dataset
        self.batch_size = batch_size
        self.drop_last = drop_last
        self.generator = generator
        self.num_workers = num_workers
        self.collate_fn = collate_fn or default_collate
        if isinstance(dataset, IterableDataset):
            if shuffle:
                raise ValueError("DataLoader with IterableDataset: expected unspecified shuffle option, but got "
                                 f"shuffle={shuffle}")
            self.sampler = self.batch_sampler = None
            return
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise ValueError("batch_sampler option is mutually exclusive with batch_size, shuffle, sampler, and "
                                 "drop_last")
            self.batch_size = None
        elif sampler is not None and shuffle:
            raise ValueError("sampler option is mutually exclusive with shuffle")
        if sampler is None:
            sampler = RandomSampler(dataset, generator=generator) if shuffle else SequentialSampler(dataset)
        if batch_sampler is None and batch_size is not None:
            batch_sampler = BatchSampler(sampler, batch_size, drop_last)
        self.sampler = sampler
        self.batch_sampler = batch_sampler

    def __iter__(self):
        if isinstance(self.dataset, IterableDataset):
            batch = []
            for sample in self.dataset:
                if self.batch_size is None:
                    yield sample
                    continue
                batch.append(sample)
                if len(batch) == self.batch_size:
                    yield self.collate_fn(batch)
                    batch = []
            if batch and not self.drop_last and self.batch_size is not None:
                yield self.collate_fn(batch)
            return
        if self.batch_sampler is None:
            for idx in self.sampler:
                yield self.dataset[idx]
            return
        if self.collate_fn is default_collate and _gathers_batches(self.dataset):
            for indices in self.batch_sampler:  # one gather per tensor, not one op per sample
                yield self.dataset._collated(indices)
            return
        fetch = getattr(self.dataset, "__getitems__", None)
        for indices in self.batch_sampler:
            samples = fetch(indices) if fetch else [self.dataset[i] for i in indices]
            yield self.collate_fn(samples)

    def __len__(self) -> int:
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        return len(self.sampler)
