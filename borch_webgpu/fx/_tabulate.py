"""The one table layout ``Graph.print_tabular`` needs: the ``tabulate`` package's default ("simple")
format for text cells (PyTorch prints with ``tabulate``, which Pyodide does not ship). Columns are as
wide as their widest cell or header + 2, cells left-aligned, two spaces between columns, lines
right-stripped."""
from __future__ import annotations

__all__ = ["tabulate"]


def tabulate(rows: list[list[object]], headers: list[str]) -> str:
    cells = [[str(c) for c in row] for row in rows]
    widths = [max([len(h) + 2] + [len(r[i]) for r in cells]) for i, h in enumerate(headers)]

    def line(values: list[str]) -> str:
        return "  ".join(v.ljust(w) for v, w in zip(values, widths)).rstrip()
    out = [line(list(headers)), "  ".join("-" * w for w in widths)]
    out.extend(line(r) for r in cells)
    return "\n".join(out)
