"""SummaryWriter's methods for the audio, pr_curves, custom_scalars, mesh and projector plugins, and the
ones that are not available here (they raise ``NotImplementedError`` saying why). Plain functions of the
writer: ``writer.py`` binds them as SummaryWriter's methods under the same names."""
from __future__ import annotations

import os

from . import _embedding, summary


def add_audio(self, tag, snd_tensor, global_step=None, sample_rate=44100, walltime=None) -> None:
    """Add mono audio, ``(1, L)`` values in [-1, 1], as 16-bit WAV.

    Example::

        >>> import tempfile
        >>> from borch_webgpu.utils.tensorboard import SummaryWriter
        >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
        ...     writer.add_audio("tone", torch.sin(torch.arange(800) * 0.1).unsqueeze(0), 0, sample_rate=8000)
    """
    self._get_file_writer().add_summary(summary.audio(tag, snd_tensor, sample_rate=sample_rate),
                                        global_step, walltime)


def add_pr_curve(self, tag, labels, predictions, global_step=None, num_thresholds=127, weights=None,
                 walltime=None) -> None:
    """Add a precision-recall curve of binary ``labels`` against ``predictions`` in [0, 1].

    Example::

        >>> import tempfile
        >>> from borch_webgpu.utils.tensorboard import SummaryWriter
        >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
        ...     writer.add_pr_curve("pr", torch.tensor([1, 0, 1, 1]), torch.tensor([0.9, 0.4, 0.6, 0.2]), 0)
    """
    labels, predictions = summary.make_np(labels), summary.make_np(predictions)
    self._get_file_writer().add_summary(
        summary.pr_curve(tag, labels, predictions, num_thresholds, weights), global_step, walltime)


def add_pr_curve_raw(self, tag, true_positive_counts, false_positive_counts, true_negative_counts,
                     false_negative_counts, precision, recall, global_step=None, num_thresholds=127,
                     weights=None, walltime=None) -> None:
    """Add a precision-recall curve given by its counts, precision and recall per threshold.

    Example::

        >>> import tempfile
        >>> from borch_webgpu.utils.tensorboard import SummaryWriter
        >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
        ...     writer.add_pr_curve_raw("pr", [2, 1], [1, 0], [0, 1], [0, 1], [0.6, 1.0], [1.0, 0.5],
        ...                             0, num_thresholds=2)
    """
    self._get_file_writer().add_summary(
        summary.pr_curve_raw(tag, true_positive_counts, false_positive_counts, true_negative_counts,
                              false_negative_counts, precision, recall, num_thresholds, weights),
        global_step, walltime)


def add_custom_scalars_multilinechart(self, tags, category="default", title="untitled") -> None:
    """A custom-scalars chart with one line per tag of ``tags``.

    Example::

        >>> import tempfile
        >>> from borch_webgpu.utils.tensorboard import SummaryWriter
        >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
        ...     writer.add_custom_scalars_multilinechart(["loss/train", "loss/val"])
    """
    layout = {category: {title: ["Multiline", tags]}}
    self._get_file_writer().add_summary(summary.custom_scalars(layout))


def add_custom_scalars_marginchart(self, tags, category="default", title="untitled") -> None:
    """A custom-scalars chart of a value and its lower and upper bounds (exactly 3 tags).

    Example::

        >>> import tempfile
        >>> from borch_webgpu.utils.tensorboard import SummaryWriter
        >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
        ...     writer.add_custom_scalars_marginchart(["acc", "acc/low", "acc/high"])
    """
    if len(tags) != 3:
        raise AssertionError(f"Expected 3 tags, got {len(tags)}.")
    layout = {category: {title: ["Margin", tags]}}
    self._get_file_writer().add_summary(summary.custom_scalars(layout))


def add_custom_scalars(self, layout) -> None:
    """Charts that gather tags written by ``add_scalar``: ``{category: {chart: ["Multiline" or
    "Margin", [tags]]}}``.

    Example::

        >>> import tempfile
        >>> from borch_webgpu.utils.tensorboard import SummaryWriter
        >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
        ...     writer.add_custom_scalars({"Taiwan": {"twse": ["Multiline", ["twse/0050", "twse/2330"]]}})
    """
    self._get_file_writer().add_summary(summary.custom_scalars(layout))


def add_mesh(self, tag, vertices, colors=None, faces=None, config_dict=None, global_step=None,
             walltime=None) -> None:
    """Add a mesh or point cloud for TensorBoard's Mesh tab: ``vertices`` ``(B, N, 3)``, ``colors``
    ``(B, N, 3)`` (0-255), ``faces`` ``(B, F, 3)`` (vertex indices); ``config_dict`` holds the
    ThreeJS settings.

    Example::

        >>> import tempfile
        >>> from borch_webgpu.utils.tensorboard import SummaryWriter
        >>> vertices = torch.tensor([[[1.0, 1, 1], [-1, -1, 1], [1, -1, -1], [-1, 1, -1]]])
        >>> faces = torch.tensor([[[0, 2, 3], [0, 3, 1], [0, 1, 2], [1, 3, 2]]], dtype=torch.int)
        >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
        ...     writer.add_mesh("my_mesh", vertices=vertices, faces=faces)
    """
    self._get_file_writer().add_summary(summary.mesh(tag, vertices, colors, faces, config_dict),
                                        global_step, walltime)


def add_embedding(self, mat, metadata=None, label_img=None, global_step=None, tag="default",
                  metadata_header=None) -> None:
    """Add data for TensorBoard's projector: ``mat`` ``(N, D)`` (one row a point) as
    ``<log_dir>/<step:05d>/<tag>/tensors.tsv``, ``metadata`` (N labels, or N rows under
    ``metadata_header``) as ``metadata.tsv``, ``label_img`` ``(N, C, H, W)`` as ``sprite.png``, and
    the list of embeddings in ``<log_dir>/projector_config.pbtxt``.

    Example::

        >>> import tempfile
        >>> from borch_webgpu.utils.tensorboard import SummaryWriter
        >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
        ...     writer.add_embedding(torch.randn(4, 3), metadata=["a", "b", "c", "d"],
        ...                          label_img=torch.rand(4, 1, 2, 2))
    """
    mat = summary.make_np(mat)
    if global_step is None:
        global_step = 0
    subdir = f"{str(global_step).zfill(5)}/{self._encode(tag)}"
    save_path = os.path.join(self._get_file_writer().get_logdir(), subdir)
    if os.path.exists(save_path):
        if os.path.isdir(save_path):
            print("warning: Embedding dir exists, did you set global_step for add_embedding()?")
        else:
            raise NotADirectoryError(f"Path: `{save_path}` exists, but is a file. Cannot proceed.")
    else:
        os.makedirs(save_path)
    if metadata is not None:
        if mat.shape[0] != len(metadata):
            raise AssertionError("#labels should equal with #data points")
        _embedding.make_tsv(metadata, save_path, metadata_header=metadata_header)
    if label_img is not None:
        if mat.shape[0] != label_img.shape[0]:
            raise AssertionError("#images should equal with #data points")
        _embedding.make_sprite(label_img, save_path, summary._make_grid)
    if mat.ndim != 2:
        raise AssertionError("mat should be 2D, where mat.size(0) is the number of data points")
    _embedding.make_mat(mat, save_path)
    if not hasattr(self, "_projector_config"):
        self._projector_config = []
    self._projector_config.append(_embedding.embedding_info(metadata, label_img, subdir, global_step, tag))
    with open(os.path.join(self._get_file_writer().get_logdir(), "projector_config.pbtxt"), "wb") as f:
        f.write("".join(self._projector_config).encode("utf-8"))


def add_image_with_boxes(self, tag, img_tensor, box_tensor, global_step=None, walltime=None, rescale=1,
                         dataformats="CHW", labels=None) -> None:
    """Not available: raises ``NotImplementedError`` (PyTorch draws the boxes and labels with
    Pillow's ImageDraw and fonts, which borch_webgpu does not have).

    Example::

        >>> import tempfile
        >>> from borch_webgpu.utils.tensorboard import SummaryWriter
        >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
        ...     writer.add_image_with_boxes("b", torch.zeros(3, 4, 4), torch.tensor([[0, 0, 2, 2]]))
        Traceback (most recent call last):
        ...
        NotImplementedError: add_image_with_boxes: ...
    """
    raise NotImplementedError("add_image_with_boxes: drawing boxes and labels needs Pillow's ImageDraw, "
                              "which borch_webgpu does not have; draw them into the image tensor and call "
                              "add_image")


def add_figure(self, tag, figure, global_step=None, close=True, walltime=None) -> None:
    """Not available: raises ``NotImplementedError`` (a matplotlib figure is rendered with
    matplotlib's Agg canvas; borch_webgpu does not load matplotlib).

    Example::

        >>> import tempfile
        >>> from borch_webgpu.utils.tensorboard import SummaryWriter
        >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
        ...     writer.add_figure("fig", None)
        Traceback (most recent call last):
        ...
        NotImplementedError: add_figure: ...
    """
    raise NotImplementedError("add_figure: rendering a matplotlib figure is not supported here; render it "
                              "to an (H, W, 3) array yourself and call add_image(..., dataformats='HWC')")


def add_video(self, tag, vid_tensor, global_step=None, fps=4, walltime=None) -> None:
    """Not available: raises ``NotImplementedError`` (PyTorch encodes the GIF with moviepy).

    Example::

        >>> import tempfile
        >>> from borch_webgpu.utils.tensorboard import SummaryWriter
        >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
        ...     writer.add_video("v", torch.zeros(1, 2, 3, 4, 4))
        Traceback (most recent call last):
        ...
        NotImplementedError: add_video: ...
    """
    raise NotImplementedError("add_video: PyTorch encodes the video as a GIF with moviepy, which "
                              "borch_webgpu does not have; log frames with add_images instead")


def add_onnx_graph(self, prototxt) -> None:
    """Not available: raises ``NotImplementedError`` (PyTorch converts the ONNX graph to a GraphDef
    with the ``onnx`` package).

    Example::

        >>> import tempfile
        >>> from borch_webgpu.utils.tensorboard import SummaryWriter
        >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
        ...     writer.add_onnx_graph("model.onnx")
        Traceback (most recent call last):
        ...
        NotImplementedError: add_onnx_graph: ...
    """
    raise NotImplementedError("add_onnx_graph: converting an ONNX graph to TensorBoard's GraphDef is not "
                              "supported here; open the file from torch.onnx.export in an ONNX viewer")
