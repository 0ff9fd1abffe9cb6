import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costchart as cc


def _brute_regions(table, names=("a", "b")):
    """The regions by a plain loop over groups and grid points."""
    rows = []
    by = [c for c in table.columns if c not in ("pc", "difference", "significant")]
    groups = table.groupby(by, sort=False) if by else [((), table)]
    for key, part in groups:
        key = key if isinstance(key, tuple) else (key,)
        part = part.sort_values("pc")
        pc, diff = part.pc.to_numpy(), part.difference.to_numpy()
        flag = [v is True or v == 1.0 for v in part.significant.tolist()]
        i = 0
        while i < len(pc):
            if not flag[i]:
                i += 1
                continue
            j = i
            while j + 1 < len(pc) and flag[j + 1]:
                j += 1
            lo = pc[i] if i == 0 else (pc[i - 1] + pc[i]) / 2
            hi = pc[j] if j == len(pc) - 1 else (pc[j] + pc[j + 1]) / 2
            cheaper = names[0] if diff[i : j + 1].sum() < 0 else names[1]
            rows.append((*key, lo, hi, cheaper))
            i = j + 1
    return pd.DataFrame(rows, columns=[*by, "pc_lo", "pc_hi", "cheaper"])


@settings(max_examples=60, deadline=None)
@given(
    flags=st.lists(st.sampled_from([True, False, np.nan]), min_size=1, max_size=25),
    groups=st.integers(1, 3),
    seed=st.integers(0, 1000),
)
def test_regions_match_a_brute_force_loop(flags, groups, seed):
    rng = np.random.default_rng(seed)
    parts = []
    for g in range(groups):
        n = len(flags)
        parts.append(
            pd.DataFrame(
                {
                    "dataset": f"d{g}",
                    "pc": np.sort(rng.random(n)),
                    "difference": rng.normal(size=n),
                    "significant": rng.permutation(np.array(flags, dtype=object)),
                }
            )
        )
    table = pd.concat(parts, ignore_index=True).sample(frac=1, random_state=seed)
    mine = cc.significant_regions(table, a="x", b="y", by="dataset")
    expected = _brute_regions(table, names=("x", "y"))
    pd.testing.assert_frame_equal(
        mine.sort_values(["dataset", "pc_lo"]).reset_index(drop=True),
        expected.sort_values(["dataset", "pc_lo"]).reset_index(drop=True),
        check_dtype=False,
    )


def test_names_come_from_the_band_the_argument_or_default():
    band = pd.DataFrame(
        {"pc": [0.0, 0.5, 1.0], "difference": [0.1, 0.2, 0.0], "significant": [True, True, False]}
    )
    with pytest.warns(cc.CostchartWarning, match=r"pass a= and b= to name them"):
        assert cc.significant_regions(band).cheaper.tolist() == ["b"]
    band.attrs["costchart"] = {"a": "logistic", "b": "tree"}
    assert cc.significant_regions(band).cheaper.tolist() == ["tree"]
    assert cc.significant_regions(band, a="p", b="q").cheaper.tolist() == ["q"]
    # The recorded two the other way round would call the wrong classifier cheaper.
    with pytest.raises(cc.CostchartError, match=r"a='tree' and b='logistic' swap the"):
        cc.significant_regions(band, a="tree", b="logistic")
    full = band.assign(lower=band.difference - 0.05, upper=band.difference + 0.05, se=0.02)
    with (
        pytest.warns(cc.CostchartWarning, match=r"does not record its level"),
        pytest.raises(cc.CostchartError, match=r"swap the classifiers the band compares"),
    ):
        cc.difference_chart(full, a="tree", b="logistic")


@pytest.mark.parametrize(
    ("names", "message"),
    [
        ({"a": "ab"}, r"b=None must be a non-empty string"),
        ({"a": "x", "b": ""}, r"b='' must be a non-empty string"),
        ({"a": "x", "b": "x"}, r"a='x' and b='x' must be two distinct names"),
        ({"a": 3, "b": "x"}, r"a=3 must be a non-empty string"),
    ],
)
def test_bad_names_are_refused(names, message):
    band = pd.DataFrame({"pc": [0.5], "difference": [0.1], "significant": [True]})
    with pytest.raises(cc.CostchartError, match=message):
        cc.significant_regions(band, **names)


@pytest.mark.parametrize(
    ("names", "message"),
    [("ab", r"names='ab' must be two names"), (("a",), r"names=\('a',\) must be two names")],
)
def test_bad_old_names_are_refused(names, message):
    band = pd.DataFrame({"pc": [0.5], "difference": [0.1], "significant": [True]})
    with pytest.warns(FutureWarning), pytest.raises(cc.CostchartError, match=message):
        cc.significant_regions(band, names=names)


def test_a_table_without_the_columns_is_refused():
    with pytest.raises(cc.CostchartError, match=r"no column 'significant'.*difference_band"):
        cc.significant_regions(pd.DataFrame({"pc": [0.5], "difference": [0.1]}))


def test_empty_and_missing_flags_give_no_regions():
    empty = pd.DataFrame({"pc": [], "significant": [], "difference": []})
    assert cc.significant_regions(empty).empty
    table = pd.DataFrame(
        {"pc": [0.1, 0.2, 0.3], "significant": [np.nan, 0.0, np.nan], "difference": [1.0] * 3}
    )
    assert cc.significant_regions(table).empty
    assert cc.layers.significance(table).data.empty


def _band():
    return pd.DataFrame(
        {
            "pc": [0.2, 0.4, 0.6],
            "difference": [-0.1, -0.05, 0.0],
            "lower": [-0.15, -0.1, -0.02],
            "upper": [-0.05, 0.01, 0.02],
            "significant": [True, False, False],
        }
    )


def test_flags_are_checked_against_the_band():
    assert cc.significant_regions(_band(), a="a", b="b").pc_lo.tolist() == [0.2]
    edited = _band().assign(significant=[True, True, False])  # the band at 0.4 holds 0
    with pytest.raises(
        cc.CostchartError, match=r"flags pc=0\.4 significant, but its band \[-0\.1, 0\.01\] holds 0"
    ):
        cc.significant_regions(edited)
    # The minimum-evidence rule may leave a band that excludes 0 unflagged.
    assert len(cc.significant_regions(_band().assign(significant=False))) == 0


def test_nan_bounds_are_refused():
    band = _band().assign(upper=[-0.05, np.nan, 0.02])
    with pytest.raises(
        cc.CostchartError, match=r"column 'upper' of difference is NaN at position 1"
    ):
        cc.significant_regions(band)


def test_flags_must_be_true_false_or_missing_and_differences_known():
    band = pd.DataFrame({"pc": [0.0, 0.5, 1.0], "difference": [0.0, -0.1, 0.0]})
    missing = band.assign(significant=pd.array([pd.NA, True, False], dtype="boolean"))
    regions = cc.significant_regions(missing, a="a", b="b")
    assert regions.cheaper.tolist() == ["a"]
    with pytest.raises(cc.CostchartError, match=r"must hold True or False, but has .*2"):
        cc.significant_regions(band.assign(significant=[0, 2, 1]), a="a", b="b")
    unknown = band.assign(difference=[0.0, np.nan, 0.0], significant=[False, True, False])
    with pytest.raises(cc.CostchartError, match=r"'difference' of difference is NaN where"):
        cc.significant_regions(unknown, a="a", b="b")


def test_the_cheaper_classifier_reads_only_its_region_s_rows():
    # A difference unknown outside the regions (NaN where not significant) does not
    # decide which classifier is cheaper where it is.
    band = pd.DataFrame(
        {
            "pc": [0.0, 0.25, 0.5, 0.75, 1.0],
            "difference": [np.nan, -0.1, -0.2, np.nan, 0.0],
            "significant": [False, True, True, False, False],
        }
    )
    regions = cc.significant_regions(band, a="logistic", b="tree")
    assert regions.to_dict("list") == {
        "pc_lo": [0.125],
        "pc_hi": [0.625],
        "cheaper": ["logistic"],
    }
    # Tiny differences after large ones keep their sign (no running sum across regions).
    band = pd.DataFrame(
        {
            "pc": np.linspace(0, 1, 5),
            "difference": [1e6, 1e6, 0.0, -3e-11, 0.0],
            "significant": [True, True, False, True, False],
        }
    )
    assert cc.significant_regions(band, a="a", b="b").cheaper.tolist() == ["b", "a"]
