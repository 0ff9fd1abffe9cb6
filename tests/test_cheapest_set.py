"""cheapest_set: the classifiers that could be the cheapest at each pc, with confidence."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._io import schema as col
from costchart._select.confidence_set import members

GRID = np.linspace(0.05, 0.95, 19)


def paired(rng, separations, n=100, *, copies=False):
    """Long data: one binormal classifier per separation, on the same 2n instances."""
    y = np.repeat([1, 0], n)
    scores = [s * y + rng.normal(size=2 * n) for s in separations]
    if copies:
        scores = [scores[0]] * len(separations)
    names = [f"m{k}" for k in range(len(separations))]
    return pd.DataFrame(
        {
            "id": np.tile(np.arange(2 * n), len(names)),
            "y": np.tile(y, len(names)),
            "model": np.repeat(names, 2 * n),
            "s": np.concatenate(scores),
        }
    )


#: Small test data can ask the calibration for more than the resamples resolve; the
#: warning that says so has its own test, and the other tests read the table.
UNRESOLVED = "ignore:cheapest_set. the double bootstrap:costchart.CostchartWarning"


def call(data, **options):
    kw = {"score": "s", "label": "y", "classifier": "model", "instance": "id"}
    return cc.cheapest_set(data, **{**kw, "pc": GRID, "n_resamples": 400, "rng": 0, **options})


def members_at(table, model):
    """The pc of GRID where ``model`` is in the set."""
    rows = table[table["model"] == model]
    return np.array([((rows.pc_lo <= p) & (p <= rows.pc_hi)).any() for p in GRID])


def test_a_far_better_classifier_is_alone_in_the_set(rng):
    table = call(paired(rng, [4.0, 0.5, 0.0]))
    assert members_at(table, "m0").all()
    assert not members_at(table, "m1").any()
    assert not members_at(table, "m2").any()
    assert table["cheapest"].all()


def test_two_copies_are_both_in_the_set_everywhere(rng):
    table = cc.cheapest_set(
        paired(rng, [1.0, 1.0], copies=True),
        score="s",
        label="y",
        classifier="model",
        instance="id",
        n_resamples=100,
        rng=1,
    )  # the default pc grid, 0 to 1
    assert list(table[["pc_lo", "pc_hi"]].drop_duplicates().itertuples(index=False)) == [(0, 1)]
    assert sorted(table["model"]) == ["m0", "m1"]
    assert table["cheapest"].all()
    assert (table[["difference", "lower", "upper"]] == 0).all().all()


@pytest.mark.filterwarnings(UNRESOLVED)
def test_the_table(rng):
    data = paired(rng, [2.0, 1.6, 0.3], n=60)
    table = call(data)
    assert list(table.columns) == ["pc_lo", "pc_hi", "model", *col.CHEAPEST_SET_TABLE[2:]]
    assert table.attrs[cc._io.kinds.KIND] == "cheapest_set"
    # Intervals tile the grid in order; the cheapest classifier of the data is in each.
    spans = table[["pc_lo", "pc_hi"]].drop_duplicates()
    assert spans.pc_lo.iloc[0] == GRID[0] and spans.pc_hi.iloc[-1] == GRID[-1]
    position = {round(p, 12): k for k, p in enumerate(GRID)}
    starts = [position[round(p, 12)] for p in spans.pc_lo]
    stops = [position[round(p, 12)] for p in spans.pc_hi]
    assert starts[1:] == [s + 1 for s in stops[:-1]]
    assert table.groupby(["pc_lo"])["cheapest"].any().all()
    assert (table["lower"] <= 1e-12).all()
    assert (table["lower"] <= table["difference"]).all()
    assert (table["difference"] <= table["upper"]).all()
    assert (table.loc[table["cheapest"], "difference"].abs() < 1e-12).all()
    # The estimated costs are the classifiers' own lower envelopes.
    points = cc.roc_points(data, score="s", label="y", by="model")
    envelope = cc.cost_at(cc.lower_envelope(points), pc=GRID)
    least = envelope.groupby(col.PC)[col.COST].min()
    for row in table.itertuples():
        at = envelope[np.isclose(envelope[col.PC], row.pc)]
        own = at.loc[at["model"] == row.model, col.COST].item()
        assert own - least[at[col.PC].iloc[0]] == pytest.approx(row.difference, abs=1e-12)


def test_data_are_not_changed_and_every_frame_kind_is_read(rng):
    data = paired(rng, [1.0, 0.5], n=30)
    before = data.copy()
    table = call(data)
    pd.testing.assert_frame_equal(data, before)
    as_dict = call({c: data[c].to_numpy() for c in data.columns})
    pd.testing.assert_frame_equal(as_dict, table)


def test_groups_draw_from_one_generator_in_group_order(rng):
    """With by=, each group's set is what a call on its rows alone gives, drawing on."""
    a, b = paired(rng, [1.5, 1.0], n=40), paired(rng, [0.5, 1.5], n=50)
    both = pd.concat([a.assign(data="a"), b.assign(data="b")], ignore_index=True)
    grouped = call(both, by="data", rng=np.random.default_rng(3))
    generator = np.random.default_rng(3)
    alone = [call(part, rng=generator) for part in (a, b)]
    for key, part in zip("ab", alone, strict=True):
        rows = grouped[grouped["data"] == key].drop(columns="data").reset_index(drop=True)
        pd.testing.assert_frame_equal(rows, part, check_like=False)


def test_progress_is_reported_group_by_group_and_changes_nothing(rng, capsys):
    a, b = paired(rng, [1.5, 1.0], n=40), paired(rng, [0.5, 1.5], n=50)
    both = pd.concat([a.assign(data="a"), b.assign(data="b")], ignore_index=True)
    told: list[str] = []
    reported = call(both, by="data", progress=told.append)
    pd.testing.assert_frame_equal(reported, call(both, by="data"))
    assert told[0].startswith("group 1 of 2: resampled ")
    # 400 resamples, and 50 inner resamples of each of the first 200 (the calibration)
    assert told[-1] == "group 2 of 2: resampled 10,400 of 10,400"
    assert all(m.startswith(("group 1 of 2: ", "group 2 of 2: ")) for m in told)
    call(a, progress=True)  # to standard error, without a group for one group
    assert capsys.readouterr().err.splitlines()[-1] == "costchart: resampled 10,400 of 10,400"


def test_progress_must_take_a_message(rng):
    data = paired(rng, [1.5, 1.0], n=20)
    with pytest.raises(cc.CostchartError, match=r"progress=.* must be True, False or a callable"):
        call(data, progress=lambda: None)  # it was called with a message: a TypeError


@pytest.mark.filterwarnings(UNRESOLVED)
def test_rows_order_and_scores_order_do_not_matter(rng):
    data = paired(rng, [1.2, 1.0, 0.8], n=40)
    shuffled = data.sample(frac=1.0, random_state=1).reset_index(drop=True)
    monotone = data.assign(s=np.exp(data["s"]))  # a monotone rescaling: the same curves
    reference = call(data)
    pd.testing.assert_frame_equal(call(monotone), reference)
    # Shuffled rows change the order of first appearance only.
    again = call(shuffled)
    key = ["pc_lo", "model"]
    pd.testing.assert_frame_equal(
        again.sort_values(key).reset_index(drop=True),
        reference.sort_values(key).reset_index(drop=True),
    )


def test_classifiers_tied_for_the_cheapest_give_bounds_whatever_their_order():
    # Two classifiers tie for the cheapest at the ends of pc (both the trivial classifier
    # there); each row's bounds must not depend on which of them the data list first.
    data = paired(np.random.default_rng(0), [2.5, 2.0, 0.5], n=30)
    grid = np.linspace(0, 1, 21)
    key = ["pc_lo", "model"]
    reference = call(data, pc=grid).sort_values(key).reset_index(drop=True)
    for order in (["m1", "m0", "m2"], ["m2", "m1", "m0"]):
        swapped = pd.concat([data[data.model == m] for m in order], ignore_index=True)
        table = call(swapped, pc=grid).sort_values(key).reset_index(drop=True)
        pd.testing.assert_frame_equal(table, reference)
    # A classifier among the cheapest is its own reference: no difference, no width.
    cheapest = reference[reference["cheapest"]]
    assert (cheapest[["difference", "lower", "upper"]] == 0).all().all()
    tied = reference.groupby(["pc_lo"])["cheapest"].sum()
    assert (tied >= 2).any()  # the case has ties


def test_a_level_the_resamples_cannot_resolve_is_said_with_the_resamples_it_needs():
    data = paired(np.random.default_rng(4), [1.0, 1.0], n=50)
    with pytest.warns(cc.CostchartWarning, match="calibrated its critical value") as caught:
        call(data, n_resamples=100, pc=np.linspace(0, 1, 51))
    # The level and the resamples it names are those of the kernel on the same draws.
    wide = data.pivot(index="id", columns="model", values="s").to_numpy()
    found = members(
        wide,
        np.repeat([True, False], 50),
        np.linspace(0, 1, 51),
        confidence_level=0.9,
        n_resamples=100,
        rng=np.random.default_rng(0),
    )
    assert found.calibrated > found.level == pytest.approx(0.9)
    message = str(caught[0].message)
    assert f"level {found.calibrated:.3g}" in message
    needed = int(np.ceil(10 / (1 - found.calibrated) - 1e-9))
    assert message.endswith(f"pass n_resamples >= {needed:,}")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        call(data, n_resamples=needed + 200, pc=np.linspace(0, 1, 51))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.iloc[1:], "do not share their instances"),
        (lambda d: pd.concat([d, d.iloc[:1]]), "more than once"),
        (lambda d: d[d.model == "m0"], "one classifier"),
        (lambda d: d.assign(y=np.where(np.arange(len(d)) == 0, 1 - d.y, d.y)), "disagree"),
        (lambda d: d.assign(y=1), "one class only"),
        (lambda d: d.assign(model=[None, *d.model.iloc[1:]]), "missing values"),
    ],
)
def test_data_that_cannot_be_paired_are_refused(rng, change, message):
    with pytest.raises(cc.CostchartError, match=message):
        call(change(paired(rng, [1.0, 0.5], n=20)))


@pytest.mark.filterwarnings(UNRESOLVED)
@pytest.mark.parametrize(("cls", "other"), [(1, 0), (0, 1)])
def test_a_group_with_one_instance_of_a_class_is_refused(rng, cls, other):
    """One instance of a class: the resamples never vary it, so the bounds are too narrow."""
    data = paired(rng, [1.0, 0.5], n=20)
    lone = data["id"].isin([0, 20]) | (data["y"] == other)  # one of cls, all of the other
    data = data[lone].assign(y=lambda d: np.where(d["id"] == (0 if cls else 20), cls, other))
    data = pd.concat([paired(rng, [1.0, 0.5], n=20).assign(data="ok"), data.assign(data="x")])
    short = "positives" if cls else "negatives"
    counts = "1 positive and 20 negatives" if cls else "20 positives and 1 negative"
    with pytest.raises(cc.CostchartError) as caught:
        call(data, by="data")
    message = str(caught.value)
    assert f"{counts} in group {{'data': 'x'}}" in message, message
    assert "needs at least 2 of each class" in message
    assert f"add {short}, or pass by= columns" in message
    two = data[data["data"] == "ok"]
    keep = (two["y"] == other) | two["id"].isin([0, 1, 20, 21])  # two of cls: answered
    assert len(call(two[keep], by="data"))


def test_empty_data_are_refused_as_roc_points_refuses_them(rng):
    data = paired(rng, [1.0, 0.5], n=20)
    for by in (None, "model2"):
        empty = data.iloc[:0].assign(model2=pd.Series(dtype=str))
        with pytest.raises(cc.CostchartError, match="data has no rows") as caught:
            call(empty, by=by)
        with pytest.raises(cc.CostchartError) as points:
            cc.roc_points(empty, score="s", label="y", by=by or ())
        assert str(caught.value) == str(points.value)


@pytest.mark.parametrize(("true", "number"), [(True, 1), (False, 0), (np.True_, 1.0), (False, 0.0)])
def test_a_bool_and_an_equal_number_as_names_or_keys_are_refused(rng, true, number):
    """pandas takes True for 1: the names would merge, and the message spoke of one classifier."""
    data = paired(rng, [1.0, 0.5], n=20)
    names = data["model"].map({"m0": true, "m1": number}).astype(object)
    with pytest.raises(cc.CostchartError) as caught:
        call(data.assign(model=names))
    message = str(caught.value)
    assert f"column 'model' (the classifier names) holds {bool(true)!r} (row 0)" in message
    assert f"and {number!r} (row 40), which pandas takes for one value" in message
    assert ".astype(str)" in message
    keys = np.array([true] * len(data) + [number] * len(data), dtype=object)
    both = pd.concat([data, data], ignore_index=True).assign(g=keys)
    with pytest.raises(
        cc.CostchartError, match=r"column 'g' \(a grouping column\) holds .* \(row 0\) and"
    ):
        call(both, by="g")
    as_text = call(both.assign(g=both["g"].astype(str)), by="g")
    assert as_text["g"].unique().tolist() == [str(true), str(number)]
    assert len(call(data.assign(model=names.astype(str))))  # as text, two classifiers


def test_options_are_checked(rng):
    data = paired(rng, [1.0, 0.5], n=20)
    with pytest.raises(cc.CostchartError, match="n_resamples >= 100"):
        call(data, n_resamples=50)
    with pytest.raises(cc.CostchartError, match="classifier= and label="):
        call(data, classifier="y")
    with pytest.raises(cc.CostchartError, match="by="):
        call(data, by="model")
    with pytest.raises(cc.CostchartError, match="confidence_level"):
        call(data, confidence_level=1.0)


class _Recorded:
    """A stand-in generator handing out given multinomial draws, in order."""

    def __init__(self, draws):
        self.draws = list(draws)

    def multinomial(self, n, pvals, size=None):
        drawn = self.draws.pop(0)
        rows = size if size is not None else len(pvals)
        assert drawn.shape == (rows, np.shape(pvals)[-1]) and (drawn.sum(axis=1) == n).all()
        return drawn


def _least_cost(scores, positive, weights, pc):
    """Brute force: the least cost over every threshold, weights counting copies."""
    thresholds = [np.inf, *np.unique(scores)]
    n_pos, n_neg = weights[positive].sum(), weights[~positive].sum()
    costs = []
    for t in thresholds:
        fn = weights[positive & (scores < t)].sum() / n_pos
        fp = weights[~positive & (scores >= t)].sum() / n_neg
        costs.append(pc * fn + (1 - pc) * fp)
    return np.min(costs, axis=0)


def _floored(spread):
    """Brute force: each pair's standard errors at least half their median over live pc."""
    floored = np.zeros_like(spread)
    for p, row in enumerate(spread):
        live = row > 1e-12
        if live.any():
            floored[p] = np.where(live, np.maximum(row, 0.5 * np.median(row[live])), 0.0)
    return floored


def _resampled(scores, positive, pc, pos_draws, neg_draws):
    """Brute force: every classifier's least cost on each resample (resamples x k x pc)."""
    out = np.empty((len(pos_draws), scores.shape[1], len(pc)))
    for b in range(len(pos_draws)):
        weights = np.r_[pos_draws[b], neg_draws[b]].astype(float)
        for j in range(scores.shape[1]):
            out[b, j] = _least_cost(scores[:, j], positive, weights, pc)
    return out


def _largest(resampled, centre, pairs, se):
    """Brute force: each resample's largest |d* - centre| / se over pairs and live pc."""
    largest = np.zeros(len(resampled))
    for b in range(len(resampled)):
        for p, (i, j) in enumerate(pairs):
            live = se[p] > 0
            deviation = np.abs(resampled[b, i] - resampled[b, j] - centre[p])[live] / se[p][live]
            largest[b] = max(largest[b], deviation.max(initial=0.0))
    return largest


def test_the_kernel_agrees_with_a_brute_force_resampling_reference(rng):
    """Costs, floored standard errors, the double bootstrap's level and the set, by loops."""
    n_pos, n_neg, k, draws, inner, level = 7, 9, 3, 60, 50, 0.8
    positive = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    scores = np.stack(
        [np.round(s * positive + rng.normal(size=len(positive)), 1) for s in (1.5, 1.0, 0.2)], 1
    )
    pc = np.linspace(0, 1, 11)
    pos_draws = rng.multinomial(n_pos, np.full(n_pos, 1 / n_pos), size=draws)
    neg_draws = rng.multinomial(n_neg, np.full(n_neg, 1 / n_neg), size=draws)
    # Every one of the 60 resamples is calibrated on (fewer than 200), 50 times each.
    inner_pos = np.concatenate([rng.multinomial(n_pos, d / n_pos, size=inner) for d in pos_draws])
    inner_neg = np.concatenate([rng.multinomial(n_neg, d / n_neg, size=inner) for d in neg_draws])
    found = members(
        scores,
        positive,
        pc,
        confidence_level=level,
        n_resamples=draws,
        rng=_Recorded([pos_draws, neg_draws, inner_pos, inner_neg]),
    )
    ones = np.ones(len(positive))
    cost = np.stack([_least_cost(scores[:, j], positive, ones, pc) for j in range(k)])
    np.testing.assert_allclose(found.cost, cost, atol=1e-12)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    estimate = np.stack([cost[i] - cost[j] for i, j in pairs])
    resampled = _resampled(scores, positive, pc, pos_draws, neg_draws)
    spread = np.stack([(resampled[:, i] - resampled[:, j]).std(axis=0) for i, j in pairs])
    se = _floored(spread)
    assert (se > spread).any()  # the floor acts in this case
    for p, (i, j) in enumerate(pairs):
        np.testing.assert_allclose(found.se[i, j], se[p], atol=1e-12)
        np.testing.assert_allclose(found.se[j, i], se[p], atol=1e-12)
    # The double bootstrap: each resample as the sample, the sample as the truth.
    placed = np.empty(draws)
    for b in range(draws):
        rows = slice(b * inner, (b + 1) * inner)
        again = _resampled(scores, positive, pc, inner_pos[rows], inner_neg[rows])
        centre = np.stack([resampled[b, i] - resampled[b, j] for i, j in pairs])
        inner_se = np.stack([_floored((again[:, i] - again[:, j]).std(axis=0)) for i, j in pairs])
        spreads = _largest(again, centre, pairs, inner_se)
        own = _largest(resampled[b : b + 1], estimate, pairs, inner_se)[0]
        placed[b] = np.mean(spreads < own) + 0.5 * np.mean(spreads == own)
    calibrated = min(max(np.quantile(placed, level), level), max(level, 1 - 10 / draws))
    assert found.level == pytest.approx(calibrated, abs=1e-12)
    assert found.level > level  # the calibration acts in this case
    largest = _largest(resampled, estimate, pairs, se)
    critical = np.sort(largest)[int(np.ceil(calibrated * (draws - 1) - 1e-9))]
    assert found.critical == pytest.approx(critical, abs=1e-12)
    member = np.ones((k, len(pc)), bool)
    for p, (i, j) in enumerate(pairs):
        member[j] &= ~(estimate[p] + critical * se[p] < -1e-12)  # i surely cheaper
        member[i] &= ~(-estimate[p] + critical * se[p] < -1e-12)  # j surely cheaper
    np.testing.assert_array_equal(found.member, member)
    assert not member.all()  # the case tells something apart


def test_resamples_beyond_memory_are_refused_with_what_to_pass(rng):
    data = paired(rng, [1.0, 0.5], n=20)
    with pytest.raises(cc.CostchartError, match=r"pass n_resamples <= [\d,]+ or fewer pc values$"):
        call(data, n_resamples=10**8)
