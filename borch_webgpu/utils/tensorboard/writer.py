"""``SummaryWriter`` and ``FileWriter`` with PyTorch 2.13's signatures, defaults and file layout."""
from __future__ import annotations

import os
import time

from . import _record, _writer_plugins, summary as _summary

__all__ = ["FileWriter", "SummaryWriter"]


class FileWriter:
    """Writes Summaries to one event file in ``log_dir`` (created if missing).

    Example::

        >>> import tempfile
        >>> from borch_webgpu.utils.tensorboard import FileWriter
        >>> fw = FileWriter(tempfile.mkdtemp())
        >>> fw.add_summary(torch.utils.tensorboard.summary.scalar("loss", 0.5), global_step=1)
        >>> fw.close()
    """

    def __init__(self, log_dir, max_queue=10, flush_secs=120, filename_suffix="") -> None:
        log_dir = str(log_dir)
        self.event_writer = _record.EventFileWriter(log_dir, max_queue, flush_secs, filename_suffix)

    def get_logdir(self):
        """The directory the event file is in."""
        return self.event_writer.get_logdir()

    def add_event(self, event: bytes, step=None, walltime=None) -> None:
        """Append an event given as the encoded fields of ``Event`` other than wall_time and step
        (``b""`` for none); ``walltime`` defaults to ``time.time()``."""
        wall_time = time.time() if walltime is None else walltime
        head = _record.event(wall_time, None if step is None else int(step))
        self.event_writer.add_event(head + event)

    def add_summary(self, summary: bytes, global_step=None, walltime=None) -> None:
        """Append an event holding the encoded ``Summary`` ``summary``."""
        self.add_event(_record._proto.message_field(5, summary), global_step, walltime)

    def flush(self) -> None:
        """Write the pending events to the file."""
        self.event_writer.flush()

    def close(self) -> None:
        """Write the pending events and close the file."""
        self.event_writer.close()


_NO_GRAPH = ("add_graph: PyTorch builds the GraphDef TensorBoard draws from the TorchScript IR of "
             "torch.jit.trace; borch_webgpu's torch.jit.trace records an fx graph (print(torch.jit.trace(model, "
             "x).graph) shows it), not TorchScript IR, so no graph is written; log scalars, histograms, images and text instead (or export "
             "the model with torch.onnx.export and open the file in an ONNX viewer)")


class SummaryWriter:
    """Writes TensorBoard event files: ``events.out.tfevents.<time>.<host>.<pid>.<n>`` in ``log_dir``,
    TFRecord-framed ``Event`` protocol buffers, readable by TensorBoard 2.x.

    Args:
        log_dir (str): where the event file goes. Default ``runs/<Mon-DD_HH-MM-SS>_<hostname><comment>``.
        comment (str): suffix of the default ``log_dir``; no effect when ``log_dir`` is given.
        purge_step (int): writes a ``file_version`` and a ``SessionLog.START`` event at this step first,
            so TensorBoard hides events of a crashed run from this step on.
        max_queue (int): events kept in memory before they are written. Default 10.
        flush_secs (int): events older than this are written at the next ``add_*`` call (there is no
            background thread). Default 120.
        filename_suffix (str): appended to the event file's name.

    Values are this library's tensors (``cpu`` or ``webgpu``: read back once), numpy arrays or Python
    numbers. Not here, each raising ``NotImplementedError`` with the reason: ``add_graph`` (it needs
    TorchScript IR), ``add_figure`` (matplotlib), ``add_video`` (moviepy), ``add_image_with_boxes``
    (Pillow's drawing) and ``add_onnx_graph`` (the ``onnx`` package's GraphDef conversion).

    Example::

        >>> import os, tempfile
        >>> from borch_webgpu.utils.tensorboard import SummaryWriter
        >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
        ...     for step in range(3):
        ...         writer.add_scalar("loss", torch.tensor(1.0 / (step + 1)), step)
        ...     writer.add_histogram("weights", torch.randn(100), 0)
        ...     writer.add_image("image", torch.rand(3, 8, 8), 0)
        ...     writer.add_text("note", "hello", 0)
        >>> [f.startswith("events.out.tfevents.") for f in os.listdir(writer.get_logdir())]
        [True]
    """

    def __init__(self, log_dir=None, comment="", purge_step=None, max_queue=10, flush_secs=120,
                 filename_suffix="") -> None:
        if not log_dir:
            from datetime import datetime

            current_time = datetime.now().strftime("%b%d_%H-%M-%S")
            log_dir = os.path.join("runs", current_time + "_" + _record.hostname() + comment)
        self.log_dir = log_dir
        self.purge_step = purge_step
        self.max_queue = max_queue
        self.flush_secs = flush_secs
        self.filename_suffix = filename_suffix
        self.file_writer = self.all_writers = None
        self._get_file_writer()
        v = 1e-12
        buckets, neg_buckets = [], []
        while v < 1e20:
            buckets.append(v)
            neg_buckets.append(-v)
            v *= 1.1
        self.default_bins = neg_buckets[::-1] + [0] + buckets

    def _get_file_writer(self) -> FileWriter:
        """The default FileWriter, made again after ``close()``."""
        if self.all_writers is None or self.file_writer is None:
            self.file_writer = FileWriter(self.log_dir, self.max_queue, self.flush_secs, self.filename_suffix)
            self.all_writers = {self.file_writer.get_logdir(): self.file_writer}
            if self.purge_step is not None:
                most_recent_step = self.purge_step
                self.file_writer.add_event(_record._proto.bytes_field(3, "brain.Event:2", force=True),
                                           most_recent_step)
                self.file_writer.add_event(_record._proto.message_field(7, _record._proto.int_field(1, 1)),
                                           most_recent_step)   # SessionLog{status: START}
                self.purge_step = None
        return self.file_writer

    def get_logdir(self):
        """Return the directory where event files will be written."""
        return self.log_dir

    def add_hparams(self, hparam_dict, metric_dict, hparam_domain_discrete=None, run_name=None,
                    global_step=None) -> None:
        """Add hyperparameters and their metrics for TensorBoard's HParams tab: a writer in
        ``<log_dir>/<run_name>`` (default ``str(time.time())``) gets the three hparams summaries and
        one scalar per metric.

        Example::

            >>> import tempfile
            >>> from borch_webgpu.utils.tensorboard import SummaryWriter
            >>> with SummaryWriter(tempfile.mkdtemp()) as w:
            ...     w.add_hparams({"lr": 0.1, "bsize": 4}, {"hparam/accuracy": 0.9}, run_name="trial")
        """
        if type(hparam_dict) is not dict or type(metric_dict) is not dict:
            raise TypeError("hparam_dict and metric_dict should be dictionary.")
        exp, ssi, sei = _summary.hparams(hparam_dict, metric_dict, hparam_domain_discrete)
        if not run_name:
            run_name = str(time.time())
        logdir = os.path.join(self._get_file_writer().get_logdir(), run_name)
        with SummaryWriter(log_dir=logdir) as w_hp:
            w_hp.file_writer.add_summary(exp, global_step)
            w_hp.file_writer.add_summary(ssi, global_step)
            w_hp.file_writer.add_summary(sei, global_step)
            for k, v in metric_dict.items():
                w_hp.add_scalar(k, v, global_step)

    def add_scalar(self, tag, scalar_value, global_step=None, walltime=None, new_style=False,
                   double_precision=False) -> None:
        """Add one scalar (stored as float32 ``simple_value``; ``new_style=True`` stores a tensor
        under the scalars plugin, float64 with ``double_precision=True``).

        Example::

            >>> import tempfile
            >>> from borch_webgpu.utils.tensorboard import SummaryWriter
            >>> writer = SummaryWriter(tempfile.mkdtemp())
            >>> for i in range(10):
            ...     writer.add_scalar("y=2x", i * 2, i)
            >>> writer.close()
        """
        summary = _summary.scalar(tag, scalar_value, new_style=new_style, double_precision=double_precision)
        self._get_file_writer().add_summary(summary, global_step, walltime)

    def add_scalars(self, main_tag, tag_scalar_dict, global_step=None, walltime=None) -> None:
        """Add several scalars to one chart: each goes to its own writer in the subdirectory
        ``<log_dir>/<main_tag with / as _>_<tag>``, under the tag ``main_tag``.

        Example::

            >>> import tempfile
            >>> from borch_webgpu.utils.tensorboard import SummaryWriter
            >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
            ...     writer.add_scalars("loss", {"train": 0.5, "val": 0.7}, 0)
        """
        walltime = time.time() if walltime is None else walltime
        fw_logdir = self._get_file_writer().get_logdir()
        for tag, scalar_value in tag_scalar_dict.items():
            fw_tag = fw_logdir + "/" + main_tag.replace("/", "_") + "_" + tag
            if self.all_writers is None:
                raise AssertionError("self.all_writers is None")
            if fw_tag in self.all_writers:
                fw = self.all_writers[fw_tag]
            else:
                fw = FileWriter(fw_tag, self.max_queue, self.flush_secs, self.filename_suffix)
                self.all_writers[fw_tag] = fw
            fw.add_summary(_summary.scalar(main_tag, scalar_value), global_step, walltime)

    def add_histogram(self, tag, values, global_step=None, bins="tensorflow", walltime=None,
                      max_bins=None) -> None:
        """Add a histogram of ``values``. ``bins="tensorflow"`` (the default) uses TensorBoard's
        exponential bucket edges (±1e-12 growing by 1.1 up to 1e20, and 0); any other value is
        numpy's ``bins`` (a count, edges, or a rule such as ``"auto"`` or ``"fd"``).

        Example::

            >>> import tempfile
            >>> from borch_webgpu.utils.tensorboard import SummaryWriter
            >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
            ...     writer.add_histogram("weights", torch.randn(1000), 0)
            ...     writer.add_histogram("weights/auto", torch.randn(1000), 0, bins="auto")
        """
        if isinstance(bins, str) and bins == "tensorflow":
            bins = self.default_bins
        self._get_file_writer().add_summary(_summary.histogram(tag, values, bins, max_bins=max_bins),
                                            global_step, walltime)

    def add_histogram_raw(self, tag, min, max, num, sum, sum_squares, bucket_limits, bucket_counts,  # noqa: A002
                          global_step=None, walltime=None) -> None:
        """Add a histogram given by its statistics and its buckets (``bucket_limits`` are the right
        edges, one per count).

        Example::

            >>> import tempfile
            >>> from borch_webgpu.utils.tensorboard import SummaryWriter
            >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
            ...     writer.add_histogram_raw("raw", min=0.0, max=2.0, num=3, sum=3.0, sum_squares=5.0,
            ...                              bucket_limits=[1.0, 2.0], bucket_counts=[1, 2], global_step=0)
        """
        if len(bucket_limits) != len(bucket_counts):
            raise ValueError("len(bucket_limits) != len(bucket_counts), see the document.")
        self._get_file_writer().add_summary(
            _summary.histogram_raw(tag, min, max, num, sum, sum_squares, bucket_limits, bucket_counts),
            global_step, walltime)

    def add_tensor(self, tag, tensor, global_step=None, walltime=None) -> None:
        """Add a whole tensor (its dtype's TensorProto field and its shape) under the tensor plugin.

        Example::

            >>> import tempfile
            >>> from borch_webgpu.utils.tensorboard import SummaryWriter
            >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
            ...     writer.add_tensor("x", torch.tensor([1.0, 2.0, 3.0]), 0)
        """
        self._get_file_writer().add_summary(_summary.tensor_proto(tag, tensor), global_step, walltime)

    def add_image(self, tag, img_tensor, global_step=None, walltime=None, dataformats="CHW") -> None:
        """Add an image, ``(3, H, W)`` by default (``dataformats`` ``CHW``, ``HWC``, ``HW``, ...),
        written as a PNG. Floats are taken as [0, 1], uint8 as [0, 255].

        Example::

            >>> import tempfile
            >>> from borch_webgpu.utils.tensorboard import SummaryWriter
            >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
            ...     writer.add_image("chw", torch.rand(3, 16, 16), 0)
            ...     writer.add_image("hw", torch.rand(16, 16), 0, dataformats="HW")
        """
        self._get_file_writer().add_summary(_summary.image(tag, img_tensor, dataformats=dataformats),
                                            global_step, walltime)

    def add_images(self, tag, img_tensor, global_step=None, walltime=None, dataformats="NCHW") -> None:
        """Add a batch of images, ``(N, 3, H, W)`` by default, as one PNG grid of up to 8 columns.

        Example::

            >>> import tempfile
            >>> from borch_webgpu.utils.tensorboard import SummaryWriter
            >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
            ...     writer.add_images("batch", torch.rand(10, 3, 8, 8), 0)
        """
        self._get_file_writer().add_summary(_summary.image(tag, img_tensor, dataformats=dataformats),
                                            global_step, walltime)

    def add_text(self, tag, text_string, global_step=None, walltime=None) -> None:
        """Add text (Markdown, shown in TensorBoard's Text tab) under ``<tag>/text_summary``.

        Example::

            >>> import tempfile
            >>> from borch_webgpu.utils.tensorboard import SummaryWriter
            >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
            ...     writer.add_text("lstm", "This is an lstm", 0)
        """
        self._get_file_writer().add_summary(_summary.text(tag, text_string), global_step, walltime)

    # the plugin methods and the unavailable ones live in _writer_plugins.py
    add_audio = _writer_plugins.add_audio
    add_pr_curve = _writer_plugins.add_pr_curve
    add_pr_curve_raw = _writer_plugins.add_pr_curve_raw
    add_custom_scalars_multilinechart = _writer_plugins.add_custom_scalars_multilinechart
    add_custom_scalars_marginchart = _writer_plugins.add_custom_scalars_marginchart
    add_custom_scalars = _writer_plugins.add_custom_scalars
    add_mesh = _writer_plugins.add_mesh
    add_embedding = _writer_plugins.add_embedding
    add_image_with_boxes = _writer_plugins.add_image_with_boxes
    add_figure = _writer_plugins.add_figure
    add_video = _writer_plugins.add_video
    add_onnx_graph = _writer_plugins.add_onnx_graph

    @staticmethod
    def _encode(rawstr):
        return rawstr.replace("%", f"%{ord('%'):02x}").replace("/", f"%{ord('/'):02x}").replace(
            "\\", "%%%02x" % ord("\\"))

    def add_graph(self, model, input_to_model=None, verbose=False, use_strict_trace=True) -> None:
        """Not available: raises ``NotImplementedError``. PyTorch builds the graph from the TorchScript IR
        of ``torch.jit.trace``; ours records an fx graph instead.

        Example::

            >>> import tempfile
            >>> from borch_webgpu.utils.tensorboard import SummaryWriter
            >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
            ...     writer.add_graph(torch.nn.Linear(2, 2), torch.zeros(1, 2))
            Traceback (most recent call last):
            ...
            NotImplementedError: add_graph: PyTorch builds the GraphDef ...
        """
        raise NotImplementedError(_NO_GRAPH)

    def flush(self) -> None:
        """Flushes the event file to disk: every pending event of every writer is written."""
        if self.all_writers is None:
            return
        for writer in self.all_writers.values():
            writer.flush()

    def close(self) -> None:
        """Write everything and close the files; a later ``add_*`` call opens a new event file."""
        if self.all_writers is None:
            return
        for writer in self.all_writers.values():
            writer.flush()
            writer.close()
        self.file_writer = self.all_writers = None

    def __enter__(self):
        return self

    def __exit__(self, exc_type, exc_val, exc_tb):
        self.close()
