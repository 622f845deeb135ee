"""The named tuples that ``max(dim)``, ``min(dim)``, ``median``, ``mode``, ``sort``, ``topk``, ``kthvalue``,
``aminmax``, ``cummax`` and ``cummin`` return: PyTorch's
``torch.return_types`` structseqs (a tuple subclass with read-only fields, built from one sequence), which
print as ``torch.return_types.max(\\nvalues=tensor(...),\\nindices=tensor(...))``."""
from __future__ import annotations

__all__ = ["max", "min", "median", "mode", "sort", "topk", "kthvalue", "aminmax", "cummax", "cummin", "nanmedian", "histogram", "histogramdd"]


class _StructSeq(tuple):
    """A tuple of ``n_fields`` values, each also read by name (``r.values``); built as ``type(r)((a, b))``."""

    __slots__ = ()
    _names: tuple[str, ...] = ()
    n_fields = n_sequence_fields = 2
    n_unnamed_fields = 0

    def __new__(cls, sequence, dict=None):  # noqa: A002 - structseq's own parameter name
        items = tuple(sequence)
        if len(items) != cls.n_fields:
            raise TypeError(f"torch.return_types.{cls.__name__}() takes a {cls.n_fields}-sequence "
                            f"({len(items)}-sequence given)")
        return super().__new__(cls, items)

    def __repr__(self) -> str:
        fields = ",\n".join(f"{name}={value!r}" for name, value in zip(self._names, self))
        return f"torch.return_types.{type(self).__name__}(\n{fields})"

    __str__ = __repr__

    def __reduce__(self):
        return type(self), (tuple(self),)


class _Field:
    """A read-only named field: item ``index`` of the tuple."""

    def __init__(self, index: int) -> None:
        self.index = index

    def __get__(self, obj, cls=None):
        return self if obj is None else tuple.__getitem__(obj, self.index)

    def __set__(self, obj, value) -> None:
        raise AttributeError("readonly attribute")

    def __delete__(self, obj) -> None:
        raise AttributeError("readonly attribute")


def _structseq(name: str, fields: tuple[str, ...]) -> type:
    body = {"__slots__": (), "_names": fields, "__module__": "borch_webgpu.return_types", "__qualname__": name,
            "__doc__": f"``torch.return_types.{name}``: the ({', '.join(fields)}) that ``{name}`` returns.",
            "n_fields": len(fields), "n_sequence_fields": len(fields)}
    body.update({f: _Field(i) for i, f in enumerate(fields)})
    return type(name, (_StructSeq,), body)


max = _structseq("max", ("values", "indices"))  # noqa: A001 - PyTorch's names
min = _structseq("min", ("values", "indices"))  # noqa: A001
median = _structseq("median", ("values", "indices"))
mode = _structseq("mode", ("values", "indices"))
sort = _structseq("sort", ("values", "indices"))
topk = _structseq("topk", ("values", "indices"))
kthvalue = _structseq("kthvalue", ("values", "indices"))
aminmax = _structseq("aminmax", ("min", "max"))
cummax = _structseq("cummax", ("values", "indices"))
cummin = _structseq("cummin", ("values", "indices"))
frexp = _structseq("frexp", ("mantissa", "exponent"))
nanmedian = _structseq("nanmedian", ("values", "indices"))
histogram = _structseq("histogram", ("hist", "bin_edges"))
histogramdd = _structseq("histogramdd", ("hist", "bin_edges"))
# torch.linalg's results
linalg_inv_ex = _structseq("linalg_inv_ex", ("inverse", "info"))
linalg_cholesky_ex = _structseq("linalg_cholesky_ex", ("L", "info"))
linalg_slogdet = _structseq("linalg_slogdet", ("sign", "logabsdet"))
slogdet = _structseq("slogdet", ("sign", "logabsdet"))
linalg_qr = _structseq("linalg_qr", ("Q", "R"))
linalg_eig = _structseq("linalg_eig", ("eigenvalues", "eigenvectors"))
linalg_eigh = _structseq("linalg_eigh", ("eigenvalues", "eigenvectors"))
linalg_svd = _structseq("linalg_svd", ("U", "S", "Vh"))
linalg_lstsq = _structseq("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))
linalg_solve_ex = _structseq("linalg_solve_ex", ("result", "info"))
svd = _structseq("svd", ("U", "S", "V"))
linalg_lu_factor = _structseq("linalg_lu_factor", ("LU", "pivots"))
linalg_lu_factor_ex = _structseq("linalg_lu_factor_ex", ("LU", "pivots", "info"))
linalg_lu = _structseq("linalg_lu", ("P", "L", "U"))
lu_unpack = _structseq("lu_unpack", ("P", "L", "U"))
geqrf = _structseq("geqrf", ("a", "tau"))
