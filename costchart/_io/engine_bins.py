"""``bins=`` inside a lazy frame's engine: the rank rule without ranking every row.

The eager rule (:func:`costchart._roc.counting.bin_by_rank`) puts a score with ``above``
instances scoring higher, out of ``n`` in its group, in bin ``above * bins // n``. A window
rank over every row computes that in an engine, but costs a sort of all rows (46 s and
7-8 GB on 1e8 rows). Here the engine only ever runs group-bys, and Python applies the rule:

1. The range of the scores (parquet files keep it in their metadata).
2. The scores are cut into :data:`CELLS` equal-width *cells* over that range (fewer for
   polars), and the engine counts, per group, cell and label, the instances (and sums
   the weights and counts bad scores) and keeps each cell's lowest and highest score.
   A cell is an interval of scores, so it never splits a tie, and its counts are exact.
3. Python walks the cells of each group from the top, knowing exactly how many instances
   lie above each one. A cell whose scores all fall in one bin of the rank rule is done.
   A cell that holds several distinct scores *and* a bin boundary is cut again,
   :data:`FINER` times finer, in another pass over the rows of such cells only; once
   they hold few instances (:data:`DETAIL`), their distinct scores are fetched instead.
4. Each bin's instances are summed from its cells; the bin stands in for its lowest
   score.

So the bins are exactly the eager bins, each an exact point of the full curve, and the
engine returns a few rows per cell instead of ranking: smooth scores need two or three
to four passes of plain group-by, scores with few distinct values (rounded ones) one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

#: Cells over the range of the scores at the first level.
CELLS = 65536
#: How many finer cells a split cell is cut into at the next level.
FINER = 64
#: At most this many finer levels before the distinct scores of the remaining split cells
#: are fetched; fewer if the finest cells would pass 2**46 (still exact in float64).
LEVELS = 8
#: polars' streaming group-by keeps every group's keys per thread: with string keys and
#: 300,000 groups (65,536 cells of 3 models) it took 3.4 GB on 1e8 rows, with 40,000
#: groups under 0.5 GB. It gets fewer cells per pass, and more passes.
POLARS_CELLS, POLARS_FINER = 8192, 16
#: Up to this many groups, a finer pass reads only each group's own split cells.
GROUP_FILTERS = 32
#: Fetch distinct scores once the split cells hold at most this many instances.
DETAIL = 200_000

GROUP, PIECE, PARENT = "costchart_group", "costchart_piece", "costchart_parent"
LOW, HIGH, INSTANCES = "costchart_low", "costchart_high", "costchart_instances"
CELL, BAD = "costchart_cell", "costchart_bad_scores"

#: ``aggregate(frame, keys, helpers, extra)`` runs one group-by in the engine.
Aggregate = Callable[..., pd.DataFrame]


def cell_expression(nw, score, low: float, scale: float):
    """Cell of each instance: ``floor(score * scale - low * scale)``, as Int64.

    Rounding keeps this non-decreasing in the score, so a cell is an interval of scores
    (scores from ``low`` up give cells from 0; rounding may take the top score a cell
    past the last, which is harmless).
    """
    values = score if isinstance(score, nw.Expr) else nw.col(score)
    return (values.cast(nw.Float64) * scale - low * scale).floor().cast(nw.Int64)


def cell_scale(low: float, high: float, cells: int, finest: float) -> float:
    """Cells per unit of score so that [low, high] spans ``cells`` cells.

    0 (every score in one cell, whose distinct scores are then fetched) when there is
    one score only, or when the range is so narrow (subnormal numbers) that the scores
    scaled to the ``finest`` cells would overflow.
    """
    if not high > low:
        return 0.0
    with np.errstate(over="ignore"):
        span = high - low
        if not np.isfinite(span):  # e.g. -1e308 to 1e308: halve both ends first
            scale = (cells / 2) / (high / 2 - low / 2)
        else:
            scale = cells / span
        largest = max(abs(low), abs(high)) * scale * finest
    return scale if np.isfinite(scale) and np.isfinite(largest) else 0.0


def _sizes(nw, frame) -> tuple[int, int, int]:
    """Cells of the first pass, finer cells per split cell, and the most finer levels."""
    cells, finer = CELLS, FINER
    if frame.implementation is nw.Implementation.POLARS:
        cells, finer = min(cells, POLARS_CELLS), min(finer, POLARS_FINER)
    levels = int((46 - np.log2(cells)) // np.log2(finer)) if finer > 1 else 0
    return cells, finer, max(0, min(LEVELS, levels))


def engine_bins(
    nw, frame, score, label, by: Sequence[str], aggregate: Aggregate, bins: int, low, high, bad
) -> pd.DataFrame | None:
    """Rows per group, bin and label: the bin's lowest score, instances and sums.

    ``bad`` is an expression true for missing, NaN or infinite scores; the first pass
    counts them (in the returned rows' ``BAD`` column) and puts them in cell 0, so the
    caller can refuse them. Returns None if a finer pass disagrees with the pass before
    it on how many instances a cell holds (an engine that rounds one expression two
    ways); the caller then counts every distinct score instead.
    """
    cells, finer, levels = _sizes(nw, frame)
    scale = cell_scale(float(low), float(high), cells, float(finer) ** levels)
    base = float(low)
    level = 1

    def cells_at(level: int):
        """The cells of ``level``: ``cells`` over the range, each ``finer`` times finer."""
        return cell_expression(nw, score, base, scale * finer ** (level - 1))

    finite = nw.when(bad).then(nw.lit(base)).otherwise(nw.col(score))
    helpers = [bad.cast(nw.Int64).alias(BAD), cell_expression(nw, finite, base, scale).alias(CELL)]
    rows = aggregate(frame, [*by, CELL, label], helpers, [*_low_high(nw, score), nw.col(BAD).sum()])
    if rows[BAD].sum():
        return rows
    keys = rows[list(by)].drop_duplicates(ignore_index=True) if by else None
    rows = _with_pieces(rows, by, keys, [CELL], 0)
    while True:
        split = _split_pieces(rows, bins)
        if not split.any():
            return _bins_of(rows, by, keys, score, label, bins)
        is_split = rows[PIECE].isin(split[split].index)
        parents = rows[is_split].groupby([GROUP, CELL])[INSTANCES].sum()
        narrowed = _in_cells(
            nw, frame.with_columns(cells_at(level).alias(PARENT)), parents.index, by, keys
        )
        if int(parents.sum()) <= DETAIL or level > levels or scale == 0:
            refined = aggregate(narrowed, [*by, PARENT, score, label], [], _low_high(nw, score))
            piece_keys = [PARENT, score]
        else:
            child = cells_at(level + 1).alias(CELL)
            refined = aggregate(narrowed, [*by, PARENT, CELL, label], [child], _low_high(nw, score))
            piece_keys = [PARENT, CELL]
        level += 1
        refined = _with_pieces(refined, by, keys, piece_keys, int(rows[PIECE].max()) + 1)
        refined = refined.merge(
            parents.rename("parent_total"), left_on=[GROUP, PARENT], right_index=True
        )
        counted = refined.groupby([GROUP, PARENT])[INSTANCES].sum()
        expected = parents.reindex(counted.index).to_numpy(np.int64)
        if len(counted) != len(parents) or not np.array_equal(counted.to_numpy(), expected):
            return None
        refined = refined.drop(columns=["parent_total", PARENT])
        if CELL not in refined:
            refined[CELL] = -1  # distinct scores are never split again
        rows = pd.concat([rows[~is_split], refined], ignore_index=True)


def _in_cells(nw, frame, wanted: pd.MultiIndex, by, keys):
    """The rows of ``frame`` in the wanted (group, cell) pairs.

    Each group's own cells for a few groups, else the wanted cells of any group (Python
    drops the others). DuckDB gets an SQL ``IN`` list: its ``contains`` of a list literal,
    which narwhals' ``is_in`` becomes, scans the list for every row.
    """
    cells = wanted.get_level_values(CELL).astype(np.int64)
    groups = wanted.get_level_values(GROUP).to_numpy()
    per_group = bool(by) and len(np.unique(groups)) <= GROUP_FILTERS
    chosen = [(int(g), cells[groups == g]) for g in np.unique(groups)] if per_group else []
    if frame.implementation is nw.Implementation.DUCKDB:
        sql = _duckdb_condition(chosen, cells, by, keys)
        return nw.from_native(nw.to_native(frame).filter(sql))
    if not per_group:
        return frame.filter(nw.col(PARENT).is_in(sorted({int(c) for c in cells})))
    clauses = []
    for group, own in chosen:
        condition = nw.col(PARENT).is_in([int(c) for c in own])
        for column, value in zip(by, keys.iloc[group], strict=True):
            if pd.isna(value):
                condition = condition & nw.col(column).is_null()
            else:
                value = value.item() if isinstance(value, np.generic) else value
                condition = condition & (nw.col(column) == value)
        clauses.append(condition)
    return frame.filter(nw.any_horizontal(*clauses, ignore_nulls=True))


def _duckdb_condition(chosen, cells, by, keys) -> str:
    """An SQL condition for :func:`_in_cells`; any group's cells unless every key is plain."""

    def listed(values) -> str:
        return f"{PARENT} IN ({', '.join(str(int(c)) for c in sorted(set(values)))})"

    clauses = []
    for group, own in chosen:
        condition = [listed(own)]
        for column, value in zip(by, keys.iloc[group], strict=True):
            name = '"' + str(column).replace('"', '""') + '"'
            value = value.item() if isinstance(value, np.generic) else value
            plain = isinstance(value, (str, int)) or (
                isinstance(value, float) and not np.isinf(value)
            )
            if isinstance(column, tuple) or not (plain or value is None):
                return listed(cells)  # keys SQL cannot spell simply: any group's cells
            if pd.isna(value):
                condition.append(f"{name} IS NULL")
            elif isinstance(value, str):
                condition.append(f"{name} = '" + value.replace("'", "''") + "'")
            else:
                condition.append(f"{name} = {value!r}")
        clauses.append("(" + " AND ".join(condition) + ")")
    return " OR ".join(clauses) if clauses else listed(cells)


def _low_high(nw, score: str) -> list:
    return [nw.col(score).min().alias(LOW), nw.col(score).max().alias(HIGH)]


def _with_pieces(rows, by, keys, piece_keys, first) -> pd.DataFrame:
    """Number the groups (as in ``keys``) and the pieces (cells or scores) of ``rows``."""
    rows = rows.copy()
    if by:
        both = pd.concat([keys, rows[list(by)]], ignore_index=True)
        ids = both.groupby(list(by), dropna=False, sort=False, observed=True).ngroup()
        rows[GROUP] = ids.to_numpy()[len(keys) :]
    else:
        rows[GROUP] = 0
    pieces = rows.groupby([GROUP, *piece_keys], dropna=False, sort=False).ngroup()
    rows[PIECE] = pieces.to_numpy() + first
    return rows


def _piece_table(rows) -> pd.DataFrame:
    """One row per piece, sorted by group and decreasing scores, with ``above`` and ``n``."""
    table = rows.groupby(PIECE, sort=False).agg(
        group=(GROUP, "first"), total=(INSTANCES, "sum"), low=(LOW, "min"), high=(HIGH, "max")
    )
    table = table.sort_values(["group", "low"], ascending=[True, False], kind="stable")
    totals = table["total"].to_numpy(np.int64)
    sums = table.groupby("group", sort=False)["total"]
    table["above"] = sums.cumsum().to_numpy(np.int64) - totals
    table["n"] = sums.transform("sum").to_numpy(np.int64)
    return table


def _rank_bin(above: np.ndarray, n: np.ndarray, bins: int) -> np.ndarray:
    """``above * min(bins, n) // n`` exactly, in Python integers where int64 could overflow."""
    within = np.minimum(bins, n)
    if int(np.max(n, initial=0)) * bins <= np.iinfo(np.int64).max:
        return above * within // np.maximum(n, 1)
    return np.array(
        [int(a) * int(b) // max(int(m), 1) for a, b, m in zip(above, within, n, strict=True)],
        dtype=np.int64,
    )


def _split_pieces(rows, bins: int) -> pd.Series:
    """Per piece, whether it holds distinct scores that the rank rule puts in two bins."""
    table = _piece_table(rows)
    above, n = table["above"].to_numpy(), table["n"].to_numpy()
    first = _rank_bin(above, n, bins)
    last = _rank_bin(above + table["total"].to_numpy(np.int64) - 1, n, bins)
    several = (table["low"] < table["high"]).to_numpy()
    return pd.Series(several & (first != last), index=table.index)


def _bins_of(rows, by, keys, score, label, bins) -> pd.DataFrame:
    """Sum the pieces of each bin; the bin stands in for its lowest score."""
    table = _piece_table(rows)
    table["bin"] = _rank_bin(table["above"].to_numpy(), table["n"].to_numpy(), bins)
    table["bin_low"] = table.groupby(["group", "bin"], sort=False)["low"].transform("min")
    rows = rows.merge(table[["bin", "bin_low"]], left_on=PIECE, right_index=True)
    sums = {INSTANCES: "sum", LOW: "first"}
    for column in rows.columns:
        if isinstance(column, str) and column.endswith(("__sum", "__missing", "__nonfinite")):
            sums[column] = "sum"
        elif isinstance(column, str) and column.endswith("__min"):
            sums[column] = "min"
    rows[LOW] = rows["bin_low"]
    out = rows.groupby([GROUP, "bin", label], dropna=False, sort=False).agg(sums)
    out = out.reset_index().rename(columns={LOW: score})
    if by:
        out = pd.concat([keys.iloc[out[GROUP].to_numpy()].reset_index(drop=True), out], axis=1)
    return out.drop(columns=[GROUP, "bin"])
