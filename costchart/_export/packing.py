"""Compact inline data for HTML pages: rows stored column by column, keys stored once.

A spec's inline rows repeat every field name and, for charts of many curves, every
curve's grouping values (data set, classifier, fold) on every row: most of the bytes of
such a page. :func:`pack_datasets` stores each run of rows that share their fields as
columns; a column that repeats few values stores them once, with each row's position in
that list, or as runs of (position, length) where neighbouring rows share a value. The
page unpacks them into the very same rows before Vega-Lite sees the spec
(:data:`UNPACK_SCRIPT`), so the chart is unchanged; the ``.json`` export is not packed.
"""

from __future__ import annotations

import math
from typing import Any

__all__ = ["UNPACK_SCRIPT", "pack_datasets", "pack_rows", "unpack_rows"]

#: Marks a packed data set in the page's JSON.
PACKED = "costchart_packed"


def pack_datasets(spec: dict) -> dict:
    """``spec`` with each top-level inline data set packed (:func:`pack_rows`).

    Only lists of plain rows (dicts) are packed; anything else stays as it is.
    """
    datasets = spec.get("datasets")
    if not isinstance(datasets, dict):
        return spec
    packed = {name: pack_rows(rows) if _is_rows(rows) else rows for name, rows in datasets.items()}
    return {**spec, "datasets": packed}


def _is_rows(rows) -> bool:
    return isinstance(rows, list) and bool(rows) and all(isinstance(r, dict) for r in rows)


def pack_rows(rows: list[dict]) -> dict:
    """Rows as blocks of columns: each run of rows with the same fields is one block.

    Returns ``{"costchart_packed": [block, ...]}``; a block is ``{"fields": [...],
    "rows": n, "columns": [...]}`` and each column is a plain list, or
    ``{"values": [...], "codes": [...]}``, or ``{"values": [...], "runs": [code, length,
    ...]}``. :func:`unpack_rows` (and the page's script) gives the rows back, in order.

    Examples
    --------
    >>> rows = [{"curve": c, "x": x} for c, x in zip("aaaab", [0.1, 0.2, 0.3, 0.4, 0.5])]
    >>> packed = pack_rows(rows)
    >>> packed["costchart_packed"][0]["columns"]
    [{'values': ['a', 'b'], 'runs': [0, 4, 1, 1]}, [0.1, 0.2, 0.3, 0.4, 0.5]]
    >>> unpack_rows(packed) == rows
    True
    """
    blocks = []
    start = 0
    while start < len(rows):
        fields = list(rows[start])
        stop = start + 1
        while stop < len(rows) and list(rows[stop]) == fields:
            stop += 1
        block = rows[start:stop]
        columns = [_pack_column([row[f] for row in block]) for f in fields]
        blocks.append({"fields": fields, "rows": stop - start, "columns": columns})
        start = stop
    return {PACKED: blocks}


def _identity(value) -> tuple:
    """A dict key telling apart values Python finds equal (1, 1.0, True; 0.0 and -0.0)."""
    if isinstance(value, float):
        return (float, value, math.copysign(1.0, value))
    return (type(value), value)


def _pack_column(values: list) -> Any:
    """One column: plain, or its distinct values once with codes or runs of codes."""
    try:
        # Python's equality merges values told apart here (1, 1.0, True; 0.0, -0.0), so
        # a column of mostly distinct values by it has mostly distinct values: plain.
        if len(set(values)) * 2 > len(values):
            return values
    except TypeError:  # lists or dicts in cells: stored as they are
        return values
    if all(type(value) is str for value in values):  # text: equal only if identical
        text: dict[str, int] = {}
        codes = [text.setdefault(value, len(text)) for value in values]
        table: list = list(text)
    else:
        distinct: dict[tuple, int] = {}
        codes = [distinct.setdefault(_identity(value), len(distinct)) for value in values]
        if len(distinct) * 2 > len(values):
            return values
        table = [None] * len(distinct)
        for (_, value, *_rest), code in distinct.items():
            table[code] = value
    runs: list[int] = []
    for code in codes:
        if runs and runs[-2] == code:
            runs[-1] += 1
        else:
            runs += [code, 1]
    if len(runs) < len(codes):
        return {"values": table, "runs": runs}
    return {"values": table, "codes": codes}


def unpack_rows(packed: dict) -> list[dict]:
    """The rows :func:`pack_rows` packed, in order (what the page's script does)."""
    rows: list[dict] = []
    for block in packed[PACKED]:
        columns = [_unpack_column(c, block["rows"]) for c in block["columns"]]
        rows.extend(
            dict(zip(block["fields"], values, strict=True)) for values in zip(*columns, strict=True)
        )
    return rows


def _unpack_column(column, n: int) -> list:
    if isinstance(column, list):
        return column
    table = column["values"]
    if "codes" in column:
        return [table[code] for code in column["codes"]]
    out: list = []
    runs = column["runs"]
    for code, length in zip(runs[::2], runs[1::2], strict=True):
        out.extend([table[code]] * length)
    return out


#: Unpacks the page's specs before they are embedded: the same steps as unpack_rows.
UNPACK_SCRIPT = """
function costchartColumn(column, n) {
  if (Array.isArray(column)) return column;
  const table = column.values;
  const out = new Array(n);
  if (column.codes) {
    for (let i = 0; i < n; i++) out[i] = table[column.codes[i]];
    return out;
  }
  let at = 0;
  for (let r = 0; r < column.runs.length; r += 2) {
    const value = table[column.runs[r]];
    for (let k = 0; k < column.runs[r + 1]; k++) out[at++] = value;
  }
  return out;
}
function costchartUnpack(spec) {
  const sets = spec.datasets;
  if (!sets) return spec;
  for (const name of Object.keys(sets)) {
    const packed = sets[name];
    if (!packed || !packed.costchart_packed) continue;
    const rows = [];
    for (const block of packed.costchart_packed) {
      const columns = block.columns.map((column) => costchartColumn(column, block.rows));
      for (let i = 0; i < block.rows; i++) {
        const row = {};
        block.fields.forEach((field, j) => { row[field] = columns[j][i]; });
        rows.push(row);
      }
    }
    sets[name] = rows;
  }
  return spec;
}
"""
