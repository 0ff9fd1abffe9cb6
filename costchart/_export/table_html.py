"""Tables in a report: a pandas DataFrame as an escaped, styled HTML table.

Every header and cell is text (escaped), so a classifier named ``<img onerror=...>`` is
shown, never run. A meaningful index (named, or not ``0 .. n-1``) is shown as row headers;
the default ``RangeIndex`` is left out. Numbers are right-aligned: whole numbers in full
(exact past 2**53), other floats with 6 significant digits, missing values as ``NaN``,
infinities as ``inf`` and ``-inf``. A wide or long table scrolls inside its box.
"""

from __future__ import annotations

import html
import math
import numbers

import numpy as np
import pandas as pd

__all__ = ["TABLE_STYLE", "as_frame", "cell_text", "table_html"]


#: The page's style rules for tables (inside the page's one ``<style>`` element).
TABLE_STYLE = """\
.costchart-table { overflow: auto; width: fit-content; max-width: 100%; max-height: 36rem; \
border: 1px solid #ddd; }
.costchart-table table { border-collapse: collapse; font-size: 0.9rem; }
.costchart-table th, .costchart-table td { padding: 0.25rem 0.6rem; \
border-bottom: 1px solid #eee; white-space: nowrap; text-align: left; }
.costchart-table thead th { position: sticky; top: 0; background: #f4f4f4; \
border-bottom: 1px solid #ccc; }
.costchart-table tbody th { font-weight: normal; color: #555; background: #fafafa; }
.costchart-table td.num { text-align: right; font-variant-numeric: tabular-nums; }
.costchart-table td.missing { color: #999; }
"""


def as_frame(item) -> pd.DataFrame | None:
    """``item`` as a pandas DataFrame if it is a table (pandas, or with ``to_pandas``)."""
    if isinstance(item, pd.DataFrame):
        return item
    if isinstance(item, pd.Series):
        return item.to_frame()
    to_pandas = getattr(item, "to_pandas", None)
    if callable(to_pandas) and type(item).__module__.split(".")[0] in ("polars", "pyarrow"):
        frame = to_pandas()
        return frame if isinstance(frame, pd.DataFrame) else None
    return None


def table_html(frame: pd.DataFrame) -> str:
    """The table as HTML, inside a scrolling box; ``frame`` is not changed."""
    show_index = not _default_index(frame.index)
    index_names = [_label(name) for name in frame.index.names] if show_index else []
    header = "".join(f'<th scope="col">{html.escape(name)}</th>' for name in index_names)
    header += "".join(f'<th scope="col">{html.escape(_label(name))}</th>' for name in frame.columns)
    # Column by column as Python values (one conversion each, not one lookup per cell).
    columns = [frame.iloc[:, number].tolist() for number in range(frame.shape[1])]
    keys = frame.index.tolist() if show_index else [()] * len(frame)
    records = list(zip(*columns, strict=True)) if columns else [()] * len(frame)
    rows = []
    for key, values in zip(keys, records, strict=True):
        cells = []
        if show_index:
            parts = key if isinstance(frame.index, pd.MultiIndex) else (key,)
            cells += [f'<th scope="row">{html.escape(cell_text(k)[0])}</th>' for k in parts]
        for value in values:
            text, kind = cell_text(value)
            attribute = f' class="{kind}"' if kind else ""
            cells.append(f"<td{attribute}>{html.escape(text)}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return (
        '<div class="costchart-table"><table>'
        f"<thead><tr>{header}</tr></thead>"
        "<tbody>" + "\n".join(rows) + "</tbody></table></div>"
    )


def _default_index(index: pd.Index) -> bool:
    """Whether the index is the unnamed ``0 .. n-1`` pandas gives a frame by default."""
    if index.name is not None or isinstance(index, pd.MultiIndex):
        return False
    if isinstance(index, pd.RangeIndex):
        return index.start == 0 and index.step == 1
    return bool(index.equals(pd.RangeIndex(len(index))))


def _label(name) -> str:
    """A column or index name as text; the levels of a tuple joined by " / "."""
    if name is None:
        return ""
    if isinstance(name, tuple):
        return " / ".join(_label(part) for part in name)
    return str(name)


def cell_text(value) -> tuple[str, str]:
    """A cell's text and its class: ``"num"`` for numbers, ``"missing"``, or ``""``."""
    if value is None or value is pd.NA or value is pd.NaT:
        return str(value), "missing"
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value)), ""
    if isinstance(value, numbers.Integral):
        return str(int(value)), "num"
    if isinstance(value, numbers.Real):
        number = float(value)
        if math.isnan(number):
            return "NaN", "missing"
        if math.isinf(number):
            return ("inf" if number > 0 else "-inf"), "num"
        return f"{number:.6g}", "num"
    if isinstance(value, bytes):
        return value.decode("utf-8", errors="replace"), ""
    return str(value), ""
