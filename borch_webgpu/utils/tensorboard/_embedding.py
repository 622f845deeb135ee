"""The projector plugin's files, as ``torch.utils.tensorboard._embedding`` writes them: ``tensors.tsv``,
``metadata.tsv``, ``sprite.png`` in ``<log_dir>/<step:05d>/<tag>/`` and ``projector_config.pbtxt`` (protobuf
text format, written here by hand) in ``log_dir``."""
from __future__ import annotations

import math
import os

import numpy as np

from ._base import make_np
from ._png import encode_png


def make_tsv(metadata, save_path, metadata_header=None) -> None:
    if not metadata_header:
        metadata = [str(x) for x in metadata]
    else:
        if len(metadata_header) != len(metadata[0]):
            raise AssertionError("len of header must be equal to the number of columns in metadata")
        metadata = ["\t".join(str(e) for e in row) for row in [metadata_header] + metadata]
    with open(os.path.join(save_path, "metadata.tsv"), "wb") as f:
        f.write(("\n".join(metadata) + "\n").encode("utf-8"))


def make_sprite(label_img, save_path, make_grid) -> None:
    """The label images in a square grid, each padded to a square of the grid's width."""
    nrow = math.ceil(label_img.size(0) ** 0.5)
    arranged_chw = make_grid(make_np(label_img), ncols=nrow)
    square = np.zeros((arranged_chw.shape[2], arranged_chw.shape[2], 3))
    arranged_hwc = arranged_chw.transpose(1, 2, 0)
    square[:arranged_hwc.shape[0], :, :] = arranged_hwc
    with open(os.path.join(save_path, "sprite.png"), "wb") as f:
        f.write(encode_png(np.uint8((square * 255).clip(0, 255))))


def make_mat(matlist, save_path) -> None:
    with open(os.path.join(save_path, "tensors.tsv"), "wb") as f:
        for x in matlist:
            f.write(("\t".join(str(i.item()) for i in x) + "\n").encode("utf-8"))


def _text_escape(s: str) -> str:
    """protobuf text_format's string escaping (``as_utf8=True``, its default in protobuf 7): C escapes
    for tab, newline, return and quotes, other ASCII control characters as three octal digits;
    non-ASCII text stays as it is."""
    special = {"\t": r"\t", "\n": r"\n", "\r": r"\r", '"': r'\"', "'": r"\'", "\\": r"\\"}
    return "".join(special.get(c) or ("\\%03o" % ord(c) if ord(c) < 32 or ord(c) == 127 else c) for c in s)


def embedding_info(metadata, label_img, subdir, global_step, tag) -> str:
    """One ``embeddings { ... }`` block of ProjectorConfig, fields in field-number order (tensor_name 1,
    metadata_path 2, sprite 5, tensor_path 8) as text_format prints them."""
    lines = [f'  tensor_name: "{_text_escape(f"{tag}:{str(global_step).zfill(5)}")}"']
    if metadata is not None:
        lines.append(f'  metadata_path: "{_text_escape(os.path.join(subdir, "metadata.tsv"))}"')
    if label_img is not None:
        lines += ["  sprite {", f'    image_path: "{_text_escape(os.path.join(subdir, "sprite.png"))}"',
                  f"    single_image_dim: {label_img.size(3)}", f"    single_image_dim: {label_img.size(2)}", "  }"]
    lines.append(f'  tensor_path: "{_text_escape(os.path.join(subdir, "tensors.tsv"))}"')
    return "embeddings {\n" + "\n".join(lines) + "\n}\n"
