"""``torch.utils.data``: Dataset, TensorDataset, Subset, ConcatDataset, random_split, samplers, DataLoader."""
from .dataloader import DataLoader, default_collate
from .dataset import ConcatDataset, Dataset, IterableDataset, Subset, TensorDataset, random_split
from .sampler import BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler

__all__ = ["DataLoader", "default_collate", "Dataset", "IterableDataset", "TensorDataset", "Subset", "ConcatDataset",
           "random_split", "Sampler", "SequentialSampler", "RandomSampler", "SubsetRandomSampler", "BatchSampler"]
