r"""``torch.utils.tensorboard``: ``SummaryWriter`` writes TensorBoard event files in pure Python (TFRecord
framing with crc32c, hand-encoded ``Event`` protocol buffers, PNG images through ``zlib``), so it works in
the browser too; point ``tensorboard --logdir`` at the files (download them from the page first).

Scalars, histograms, images and text are written as PyTorch 2.13 writes them (checked against its files
and read back by TensorBoard 2.21). ``add_graph`` raises ``NotImplementedError``: PyTorch converts the
TorchScript IR of ``torch.jit.trace`` into TensorBoard's GraphDef, and our ``torch.jit.trace`` records an fx
graph, not TorchScript IR.

Example::

    >>> import tempfile
    >>> from borch_webgpu.utils.tensorboard import SummaryWriter
    >>> with SummaryWriter(tempfile.mkdtemp(), comment="ignored") as writer:
    ...     writer.add_scalar("loss", 0.25, global_step=0)
"""
from . import summary
from .writer import FileWriter, SummaryWriter

__all__ = ["FileWriter", "SummaryWriter", "summary"]
