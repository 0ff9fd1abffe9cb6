"""The check every compact band test makes: the full band's own rows, and it between them.

``compact`` (a band made with ``compact=True``) against ``full`` (the same call without):
each kept row equals the full band's row at its ``pc`` to the last bit; each group keeps
its first and last ``pc``; interpolating linearly between kept rows gives the ``linear``
column within rounding and the other ``values`` within ``TOLERANCE`` at every ``pc`` of
the grid; and the boolean ``flag`` holds between kept rows exactly where it holds at both.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from costchart._bands.compact import TOLERANCE
from costchart._io import schema as col


def check_compact_agreement(
    full: pd.DataFrame,
    compact: pd.DataFrame,
    by: list[str],
    *,
    values: list[str],
    linear: str,
    flag: str,
) -> None:
    """Assert that ``compact`` is ``full`` at its rows and between them (see above)."""
    assert list(compact.columns) == list(full.columns)
    assert compact.dtypes.equals(full.dtypes)
    # Every kept row is the full band's row at its pc, to the last bit.
    kept = compact.merge(full, on=[*by, col.PC], suffixes=("", "_full"), validate="1:1")
    assert len(kept) == len(compact)
    for name in [*values, flag]:
        np.testing.assert_array_equal(kept[name], kept[f"{name}_full"], err_msg=name)
    for key, whole in full.groupby(by, sort=False) if by else [((), full)]:
        part = compact[(compact[by] == np.atleast_1d(key)).all(axis=1)] if by else compact
        pc = part[col.PC].to_numpy()
        assert np.all(np.diff(pc) > 0)
        assert pc[0] == whole[col.PC].iloc[0] and pc[-1] == whole[col.PC].iloc[-1]
        grid = whole[col.PC].to_numpy()
        for name in values:
            drawn = np.interp(grid, pc, part[name].to_numpy())
            error = np.abs(drawn - whole[name].to_numpy()).max()
            # The linear column is straight between kept rows: exact up to rounding.
            limit = 1e-12 if name == linear else TOLERANCE * (1 + 1e-9)
            assert error <= limit, f"{key}: {name} off by {error:.3g}"
        # The flag between kept rows exactly where it is at both of them.
        where = np.searchsorted(pc, grid, side="right") - 1
        after = np.minimum(where + 1, len(pc) - 1)
        flags = part[flag].to_numpy()
        expected = np.where(np.isin(grid, pc), flags[where], flags[where] & flags[after])
        np.testing.assert_array_equal(whole[flag].to_numpy(), expected)
