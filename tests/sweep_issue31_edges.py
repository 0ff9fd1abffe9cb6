"""Sweep cases of issue 31 items 5, 6 and 9 (imported by ``tests/sweep_bad_inputs.py``).

Each case is a bad input that must give a clear ``CostchartError``, or a valid one whose
answer is checked.
"""

from __future__ import annotations

ERROR, RESULT = "error", "result"


def issue31_edge_cases(add) -> None:
    """Grouping columns named like written ones, the coverage helpers, thinned points."""
    import numpy as np
    import pandas as pd

    import costchart as cc

    rng = np.random.default_rng(3)
    data = pd.DataFrame(
        {
            "g": ["a"] * 30 + ["b"] * 30,
            "id": list(range(30)) * 2,
            "y": list(rng.integers(0, 2, 30)) * 2,
            "s": rng.random(60),
        }
    )

    # -- item 5: a grouping column named like a column the function writes
    add(
        "auc_ci: by='direction' with direction='auto'",
        lambda: cc.auc_ci(
            data.rename(columns={"g": "direction"}),
            score="s",
            label="y",
            by="direction",
            direction="auto",
        ),
        message_must="includes 'direction'",
    )
    band = cc.difference_band(
        data, score="s", label="y", classifier="g", instance="id", n_resamples=20, rng=0
    )
    for name in ("cheaper", "pc_lo"):
        add(
            f"significant_regions: by={name!r}",
            lambda n=name: cc.significant_regions(band.assign(**{n: "x"}), by=n),
            message_must=f"includes '{name}'",
        )

    # -- item 6: the coverage helpers
    fixed = {"mu": 3, "n_per_class": 30, "simulations": 8, "rng": 1}

    def same_as_sorted(result):
        sorted_ = cc.band_coverage(pc=[0.2, 0.8], **fixed)
        assert result["pc"].tolist() == [0.8, 0.2], result
        assert result["coverage"].tolist() == sorted_["coverage"].tolist()[::-1], result

    def one_row(result):
        assert result["pc"].tolist() == [0.5] and 0 <= result["coverage"].iat[0] <= 1, result

    add("band_coverage: pc=0.5", lambda: cc.band_coverage(pc=0.5, **fixed), RESULT, one_row)
    add(
        "band_coverage: pc=[0.8, 0.2]",
        lambda: cc.band_coverage(pc=[0.8, 0.2], **fixed),
        RESULT,
        same_as_sorted,
    )
    for sigma in (0, -1, float("nan"), float("inf"), "3"):
        add(
            f"band_coverage: sigma={sigma!r}",
            lambda v=sigma: cc.band_coverage(pc=[0.5], sigma=v, **fixed),
            message_must="sigma=",
        )
        add(
            f"difference_coverage: sigma={sigma!r}",
            lambda v=sigma: cc.difference_coverage(
                pc=[0.5], sigma=v, shift=1, correlation=0.5, **fixed
            ),
            message_must="sigma=",
        )
    for pc in ({"a": 0.5}, [], [[0.2, 0.5]], 1.5, "0.5"):
        add(
            f"band_coverage: pc={pc!r}",
            lambda v=pc: cc.band_coverage(pc=v, **fixed),
            message_must="pc=",
        )
    grid_fixed = {"n_per_class": 30, "simulations": 4, "rng": 0}
    bad_settings = {
        "a setting named pc": {"pc": [0.3, 0.5]},
        "a setting named coverage": {"coverage": [1]},
        "an unknown setting": {"bogus": [1]},
        "a setting that is not a list": {"mu": 3},
        "a setting that is text": {"interval": "normal"},
        "an empty setting": {"mu": []},
    }
    for label, settings in bad_settings.items():
        add(
            f"coverage_grid: {label}",
            lambda s=settings: cc.coverage_grid(
                cc.band_coverage, settings=s, pc=[0.5], **grid_fixed
            ),
            message_must="settings",
        )
    add(
        "coverage_grid: a setting also fixed",
        lambda: cc.coverage_grid(
            cc.band_coverage, settings={"mu": [3]}, mu=2, pc=[0.5], **grid_fixed
        ),
        message_must="both a setting and a fixed argument",
    )
    add(
        "coverage_grid: experiment=3",
        lambda: cc.coverage_grid(3, settings={"mu": [3]}),
        message_must="experiment=",
    )
    table = cc.coverage_grid(
        cc.band_coverage, settings={"mu": [1.5, 3.0]}, pc=[0.3, 0.5], **grid_fixed
    )
    chart_bad = {
        "confidence_level=nan": {"confidence_level": float("nan")},
        "confidence_level=5": {"confidence_level": 5},
        "columns=0": {"columns": 0},
        "color='missing'": {"color": "missing"},
        "color=3": {"color": 3},
    }
    for label, kwargs in chart_bad.items():
        options = {"color": "mu", "facet": "mu", **kwargs}
        add(
            f"coverage_chart: {label}",
            lambda k=options, t=table: cc.coverage_chart(t, **k),
            message_must=label.split("=")[0],
        )
    add(
        "coverage_chart: a table with no coverage column",
        lambda t=table: cc.coverage_chart(t.drop(columns="coverage"), color="mu", facet="mu"),
        message_must="'coverage'",
    )
    huge = data.assign(w=1.0)
    huge.loc[0, "w"] = 2.0**50
    add(
        "bootstrap_band: one whole weight of 2**50 (the default band)",
        lambda d=huge: cc.bootstrap_band(d, score="s", label="y", by="g", weight="w", rng=0),
        RESULT,
    )
    past = huge.assign(w=huge["w"].where(huge.index != 0, 1e20))
    add(
        "bootstrap_band: weights past 2**53 in sum (the default band)",
        lambda d=past: cc.bootstrap_band(d, score="s", label="y", by="g", weight="w", rng=0),
        message_must="2\\*\\*53",
    )
    add(
        "coverage_chart: a further column named 0 (not drawn)",
        lambda t=table: cc.coverage_chart(
            t.assign(**{"0": 1}).rename(columns={"0": 0}), color="mu", facet="mu"
        ),
        expect=RESULT,
    )
    add(
        "coverage_chart: text coverage",
        lambda t=table: cc.coverage_chart(t.assign(coverage="x"), color="mu", facet="mu"),
        message_must="'coverage'",
    )
    for kind, value in (("polars", "polars"), ("dict", "dict")):
        if kind == "polars":
            import polars as pl

            converted = pl.from_pandas(table)
        else:
            converted = table.to_dict("list")
        add(
            f"coverage_chart: a {value} table",
            lambda t=converted: cc.coverage_chart(t, color="mu", facet="mu"),
            RESULT,
        )

    # -- item 9: thinned points, through polars, pyarrow or a dict
    import polars as pl
    import pyarrow as pa

    y = rng.random(2000) < 0.4
    scores = np.clip(rng.normal(0.3 + 0.3 * y, 0.2), 0, 1)
    points = cc.roc_points({"s": scores, "y": y}, score="s", label="y")
    thinned = cc.thin_points(points, max_points=20)
    kinds = {
        "polars": pl.from_pandas(thinned),
        "pyarrow": pa.Table.from_pandas(thinned, preserve_index=False),
        "dict": thinned.to_dict("list"),
    }
    for kind, frame in kinds.items():
        for choice in ("score_driven", "fixed"):
            add(
                f"expected_loss: thinned points through {kind}, {choice}",
                lambda t=frame, c=choice: cc.expected_loss(
                    t, threshold_choice=c, threshold=0.5 if c == "fixed" else None
                ),
                message_must="were thinned",
            )
