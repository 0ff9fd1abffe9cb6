"""The compact band (``compact=True``): only the rows of a band that interpolation needs.

A band on a grid of ``pc`` has one row per group and ``pc`` (501 by default), so 10,000
groups make 5 million rows. Between two ``pc`` where the chosen threshold is the same, the
cost is linear in ``pc``, but the bounds are not: with the normal fit they are ``cost -+ z
se`` with ``se`` the square root of a quadratic in ``pc``. The compact band keeps, of the
full band's rows, those that linear interpolation needs:

- each group's first and last ``pc``, and the two grid points on either side of every
  change of the threshold used (so the cost is exact between kept rows);
- then, by bisection of each stretch between kept rows, the grid point in its middle,
  until interpolating linearly between the kept rows reproduces ``cost``, ``lower``,
  ``upper`` and ``se`` within :data:`TOLERANCE` at every ``pc`` of the grid (and
  ``degenerate``: it holds between kept rows exactly where it holds at both).

The kept rows are rows of the full band, to the last bit. For the normal fit to the exact
bootstrap's moments (``inference="exact_bootstrap"``, ``interval="normal"``) only the
rows tested are computed: ``se`` is convex in ``pc`` for fixed counts (a norm of
the cost weights, which are affine in ``pc``), so the chord's largest error over a
stretch is at most its error at the middle point times ``width / min(left, right)``, and
the unclipped lower bound ``cost - z se`` is concave: a stretch where it changes sign is
split down to neighbouring grid points, which makes ``max(0, cost - z se)`` within the
tolerance too. Every other band is computed in full and its rows tested one by one
(:func:`thinned`), as is the difference band of two classifiers: its ``difference``,
``lower``, ``upper`` and ``se`` within the tolerance, ``significant`` as ``degenerate``
(:func:`costchart._bands.difference.compact_difference` says where its runs change).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from costchart._bands.binomial import normal_quantile
from costchart._bands.counts import Counts, band_of_counts
from costchart._bands.options import Options
from costchart._bands.rows import envelope_runs, grouped_rows
from costchart._io import schema as col
from costchart._io.errors import CostchartError
from costchart._io.groups import Groups, assemble

__all__ = [
    "DIFFERENCE_VALUES",
    "TOLERANCE",
    "check_grid",
    "computes_kept_rows_only",
    "kept",
    "normal_fit",
    "thinned",
]

#: Largest difference, in cost units, between the compact band interpolated linearly and
#: the full band at any ``pc`` of the grid (``cost``, ``lower``, ``upper`` and ``se``).
TOLERANCE = 1e-4
#: The band columns interpolated, in order.
VALUES = (col.COST, col.LOWER, col.UPPER, col.SE)
#: The columns of a difference band interpolated, in order.
DIFFERENCE_VALUES = (col.DIFFERENCE, col.LOWER, col.UPPER, col.SE)


def check_grid(pc: np.ndarray) -> None:
    """Refuse a grid a compact band cannot interpolate along: it must increase."""
    if len(pc) > 1 and not np.all(np.diff(pc) > 0):
        msg = (
            "compact=True keeps the rows of the band that interpolation along pc needs, so "
            "pc must increase without repeats; pass np.unique(pc), or compact=False"
        )
        raise CostchartError(msg)


def computes_kept_rows_only(options: Options, simultaneous: bool) -> bool:
    """Whether the compact band computes only the rows it tests (the normal fit)."""
    return (
        options.inference == "exact_bootstrap" and options.interval == "normal" and not simultaneous
    )


def runs_of(rows: np.ndarray, n_pc: int) -> np.ndarray:
    """Flat positions where the row used changes (or a group starts), of flat ``rows``."""
    change = np.ones(len(rows), dtype=bool)
    change[1:] = rows[1:] != rows[:-1]
    change[::n_pc] = True
    return np.flatnonzero(change)


def kept(starts: np.ndarray, total: int, split: Callable, at_ends: Callable | None = None):
    """The flat positions kept, sorted, and the values there: the runs' ends, then middles.

    ``starts`` are the flat positions where runs of one row start (sorted, the first 0),
    of ``total``. ``split(a, m, b, run, at_a, at_b)`` says, per stretch from kept ``a`` to
    kept ``b`` (of run number ``run``), whether its middle ``m`` must be kept too, and
    gives the values at ``m`` (one column per stretch, or None). ``at_ends(a, b, run)``
    gives the values at the runs' ends; they ride along with each stretch, and the values
    at the kept positions are returned with them.
    """
    stops = np.append(starts[1:], total) - 1
    run = np.arange(len(starts))
    at_a, at_b = at_ends(starts, stops, run) if at_ends else (np.zeros((0, len(run))),) * 2
    longer = stops > starts  # a run of one pc is kept once
    found, values = [starts, stops[longer]], [at_a, at_b[:, longer]]
    wide = np.flatnonzero(stops - starts > 1)
    a, b, run, at_a, at_b = starts[wide], stops[wide], run[wide], at_a[:, wide], at_b[:, wide]
    while len(a):
        m = (a + b) // 2
        cut, at_m = split(a, m, b, run, at_a, at_b)
        if at_m is None:
            at_m = at_a
        cut = np.flatnonzero(cut)
        found.append(m[cut])
        values.append(at_m[:, cut])
        left, right = cut[m[cut] - a[cut] > 1], cut[b[cut] - m[cut] > 1]
        a, b = np.concatenate([a[left], m[right]]), np.concatenate([m[left], b[right]])
        run = np.concatenate([run[left], run[right]])
        at_a, at_b = (
            np.hstack([at_a[:, left], at_m[:, right]]),
            np.hstack([at_m[:, left], at_b[:, right]]),
        )
    flat = np.concatenate(found)
    order = np.argsort(flat)  # each position once
    return flat[order], np.hstack(values)[:, order]


def normal_fit(points, groups: Groups, selection, threshold, by, options: Options, read, own):
    """The compact band of the normal fit, computing only the rows it tests.

    The arguments are :func:`costchart._bands.bootstrap._bands`' (``own``: the points are
    :func:`~costchart.roc_points`' own, just made).
    """
    pc = options.pc
    runs = None
    if threshold is None and selection is None:
        runs = envelope_runs(points, groups, pc, read, own)
    if runs is None:
        rows = grouped_rows(points, groups, pc, selection, threshold, by, read=read).reshape(-1)
        starts = runs_of(rows, len(pc))
        runs = starts, rows[starts]
    flat, columns = _normal_rows(pc, *runs, read, options)
    columns = {col.PC: pc[flat % len(pc)], **columns}
    columns[col.DEGENERATE] = columns[col.UPPER] - columns[col.LOWER] <= 0
    return assemble(groups, np.bincount(flat // len(pc), minlength=len(groups)), columns)


def _normal_rows(pc: np.ndarray, run_starts: np.ndarray, run_rows, read, options: Options):
    """Kept flat positions and their band columns (rows of the points' columns ``read``)."""
    n_pc = len(pc)
    z = normal_quantile(options.levels[1])

    # Each run's counts, gathered once (a run's rows are far apart in the points' columns).
    of_runs = [read[c][run_rows] for c in (col.TP, col.FN, col.FP, col.TN)]

    def band(flat: np.ndarray, run: np.ndarray):
        counts = Counts(*(counts[run] for counts in of_runs))
        return band_of_counts(counts, pc[flat % n_pc], options)

    def at_ends(a, b, run):
        values = np.vstack(band(np.concatenate([a, b]), np.concatenate([run, run])))
        return values.reshape(4, 2, -1).transpose(1, 0, 2)

    def split(a, m, b, run, at_a, at_b):
        at_m = np.vstack(band(m, run))
        (cost_a, se_a), (cost_m, se_m), (cost_b, se_b) = at_a[::3], at_m[::3], at_b[::3]
        x_a, x_m, x_b = pc[a % n_pc], pc[m % n_pc], pc[b % n_pc]
        share = (x_m - x_a) / (x_b - x_a)
        # The chord's largest error, from the middle's (se convex, cost linear).
        reach = (x_b - x_a) / np.minimum(x_m - x_a, x_b - x_m)
        se_error = np.abs(se_a + share * (se_b - se_a) - se_m) * reach
        cost_error = np.abs(cost_a + share * (cost_b - cost_a) - cost_m) * reach
        error = cost_error + max(z, 1.0) * se_error
        crosses = (cost_a - z * se_a >= 0) != (cost_b - z * se_b >= 0)  # lower clipped at 0
        return (error > TOLERANCE) | crosses, at_m

    total = len(pc) * _groups(run_starts, n_pc)
    flat, (cost, lower, upper, se) = kept(run_starts, total, split, at_ends)
    return flat, {col.COST: cost, col.LOWER: lower, col.UPPER: upper, col.SE: se}


def _groups(run_starts: np.ndarray, n_pc: int) -> int:
    return int(run_starts[-1] // n_pc) + 1 if len(run_starts) else 0


def thinned(
    groups: Groups,
    columns: dict[str, np.ndarray],
    rows: np.ndarray,
    n_pc: int,
    values: tuple[str, ...] = VALUES,
    flag: str = col.DEGENERATE,
):
    """The compact band of a band computed in full (``columns``, flat; ``rows`` used).

    ``rows`` tells runs apart (a new run wherever it changes, or a group starts: the rows
    on both sides are kept); ``values`` are the columns interpolated within
    :data:`TOLERANCE`, ``flag`` the boolean column that must hold between kept rows
    exactly where it holds at both (a difference band: :data:`DIFFERENCE_VALUES`,
    ``significant``).
    """
    flat = _thin(columns, rows, n_pc, values, flag)
    lengths = np.bincount(flat // n_pc, minlength=len(groups))
    return assemble(groups, lengths, {name: v[flat] for name, v in columns.items()})


def _thin(columns: dict[str, np.ndarray], rows: np.ndarray, n_pc: int, values, flag) -> np.ndarray:
    """Kept flat positions of a band computed in full."""
    grid = columns[col.PC]
    flags = columns[flag]

    def split(a, m, b, run, at_a, at_b):
        inside = b - a - 1
        stretch = np.repeat(np.arange(len(a)), inside)
        first = np.cumsum(inside) - inside
        at = np.arange(len(stretch)) - first[stretch] + a[stretch] + 1
        a, b = a[stretch], b[stretch]
        share = (grid[at] - grid[a]) / (grid[b] - grid[a])
        error = np.zeros(len(at))
        for name in values:
            v = columns[name]
            np.maximum(error, np.abs(v[a] + share * (v[b] - v[a]) - v[at]), out=error)
        error[flags[at] != (flags[a] & flags[b])] = np.inf
        return np.maximum.reduceat(error, first) > TOLERANCE, None

    return kept(runs_of(rows, n_pc), len(rows), split)[0]
