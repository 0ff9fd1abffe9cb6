"""One interval vocabulary across the interval functions, and one meaning of "exact".

Reads the signatures of the functions that give confidence intervals or bands, the
vocabulary they validate against (``costchart._io.intervals``) and the glossary, and checks
that the words, their values and their defaults are the same everywhere; then that every
old spelling still works for one release, with a ``FutureWarning`` and the same result.
"""

import inspect
import itertools
import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import costchart as cc
from costchart._cost.expected_loss import THRESHOLD_CHOICES
from costchart._io import intervals as _intervals

GLOSSARY = (Path(__file__).parent.parent / "docs" / "glossary.md").read_text()

#: The functions that give an interval, and those that only pass ``interval=`` on.
INTERVAL_FUNCTIONS = [
    "auc_ci",
    "bootstrap_band",
    "confusion_band",
    "difference_band",
    "net_benefit",
]
FORWARDING = ["band_coverage", "difference_coverage"]

Y = np.array([1] * 12 + [0] * 12)
SCORES = np.r_[np.linspace(0.3, 0.95, 12), np.linspace(0.05, 0.7, 12)]
RAW = pd.DataFrame({"s": SCORES, "y": Y})
COUNTS = pd.DataFrame({"TP": [16], "FN": [4], "FP": [4], "TN": [6]})
PAIRED = pd.DataFrame(
    {
        "model": ["a"] * 24 + ["b"] * 24,
        "id": list(range(24)) * 2,
        "y": np.r_[Y, Y],
        "s": np.r_[SCORES, SCORES[::-1] * 0.5 + 0.25 * Y],
    }
)


def _call(name: str, **options):
    """Each interval function on small data, with ``options``."""
    if name == "auc_ci":
        return cc.auc_ci(RAW, score="s", label="y", **options)
    if name == "bootstrap_band":
        return cc.bootstrap_band(RAW, score="s", label="y", pc=[0.3, 0.5], **options)
    if name == "confusion_band":
        return cc.confusion_band(COUNTS, tp="TP", fn="FN", fp="FP", tn="TN", pc=[0.5], **options)
    if name == "difference_band":
        return cc.difference_band(
            PAIRED, score="s", label="y", classifier="model", instance="id", pc=[0.5], **options
        )
    assert name == "net_benefit"
    return cc.net_benefit(RAW, score="s", label="y", thresholds=[0.3, 0.5], **options)


def _parameters(name: str) -> dict[str, inspect.Parameter]:
    return dict(inspect.signature(getattr(cc, name)).parameters)


def _glossary_default(word: str) -> tuple[object, dict[str, object]]:
    row = next(line for line in GLOSSARY.splitlines() if line.startswith(f"| `{word}` |"))
    default = row.rstrip(" |").rsplit("|", 1)[1]
    first, *others = default.split(";")
    exceptions = {}
    for part in others:
        found = re.match(r"\s*`(\w+)`: `\"(\w+)\"`", part)
        assert found, part
        exceptions[found.group(1)] = found.group(2)
    return re.match(r"\s*`\"(\w+)\"`", first).group(1), exceptions


@pytest.mark.parametrize("name", INTERVAL_FUNCTIONS)
def test_every_interval_function_takes_both_words_with_the_glossarys_defaults(name):
    parameters = _parameters(name)
    for word in ("inference", "interval", "confidence_level"):
        assert word in parameters, f"{name} has no {word}="
        assert parameters[word].kind is inspect.Parameter.KEYWORD_ONLY
    for word in ("inference", "interval"):
        default, exceptions = _glossary_default(word)
        assert parameters[word].default == exceptions.get(name, default), (name, word)
    assert parameters["interval"].default == "auto"
    assert parameters["confidence_level"].default == 0.9
    # every one can resample, with the same two options
    assert parameters["n_resamples"].default == 2000
    assert parameters["rng"].default is None
    assert "bootstrap" in _intervals.SUPPORTED[name]
    # the old words are gone from the signature (they remain as deprecated aliases)
    assert not {"method", "distribution"} & set(parameters), name


@pytest.mark.parametrize("name", FORWARDING)
def test_the_coverage_experiments_forward_interval_by_the_same_word(name):
    parameters = _parameters(name)
    assert parameters["interval"].default == "auto"
    assert "distribution" not in parameters


@pytest.mark.parametrize("name", INTERVAL_FUNCTIONS)
@pytest.mark.parametrize("word", ["inference", "interval"])
def test_every_function_accepts_the_same_values(name, word):
    """A wrong value is refused with the whole vocabulary, the same list everywhere."""
    values = _intervals.INFERENCES if word == "inference" else _intervals.INTERVALS
    listed = ", ".join(repr(v) for v in values)
    with pytest.raises(
        cc.CostchartError, match=re.escape(f"{word}='exact' is not an option; pass one of {listed}")
    ):
        _call(name, **{word: "exact"})


@pytest.mark.parametrize("name", INTERVAL_FUNCTIONS)
def test_each_pair_is_computed_or_refused_with_a_fix(name):
    """Every (inference, interval) pair: computed as SUPPORTED says, or refused naming one."""
    supported = _intervals.SUPPORTED[name]
    computed = 0
    # bootstrap_band's "auto" is the smoothed bootstrap for its default (envelope) thresholds.
    resolved = {"auto": "smoothed_bootstrap"} if name == "bootstrap_band" else {}
    for inference, interval in itertools.product(_intervals.INFERENCES, _intervals.INTERVALS):
        auto, shapes = supported.get(resolved.get(inference, inference), (None, ()))
        options = {"inference": inference, "interval": interval}
        if inference in ("bootstrap", "smoothed_bootstrap", "auto"):
            # 1,000: at 200 the default band's calibrated level is capped, and it warns.
            options |= {"n_resamples": 1000, "rng": 0}
        if (auto or shapes) and (interval == "auto" or interval in shapes):
            table = _call(name, **options)
            recorded = table.attrs["costchart"]
            assert recorded["inference"] == resolved.get(inference, inference)
            assert recorded["interval"] == (auto if interval == "auto" else interval)
            computed += 1
        else:
            with pytest.raises(
                cc.CostchartError, match=r"is not available .*; pass (inference|interval)="
            ):
                _call(name, **options)
    expected = sum(1 + len(shapes) for _, shapes in supported.values())
    assert computed == expected + sum(1 + len(supported[r][1]) for r in resolved.values())


def test_the_same_value_means_the_same_in_auc_ci_and_the_bands():
    """The exact bootstrap's standard error is the resampled one's limit, in both."""
    exact_auc = _call("auc_ci", inference="exact_bootstrap")["se"].item()
    resampled_auc = _call("auc_ci", inference="bootstrap", n_resamples=20_000, rng=1)
    exact_band = _call("confusion_band", inference="exact_bootstrap")["se"].item()
    resampled_band = _call("confusion_band", inference="bootstrap", n_resamples=20_000, rng=1)
    assert resampled_auc["se"].item() == pytest.approx(exact_auc, rel=1e-12)  # auc_ci: exact se
    assert resampled_band["se"].item() == pytest.approx(exact_band, rel=0.03)
    assert resampled_auc.attrs["costchart"]["interval"] == "percentile"
    assert resampled_band.attrs["costchart"]["interval"] == "percentile"


def test_exact_has_one_meaning():
    """ "exact" is part of one value of one word only, and never a value by itself."""
    vocabularies = {
        "inference": tuple(_intervals.INFERENCES),
        "interval": tuple(_intervals.INTERVALS),
        "threshold_choice": THRESHOLD_CHOICES,
        "sampling": ("stratified", "full"),
    }
    with_exact = {
        (word, value)
        for word, values in vocabularies.items()
        for value in values
        if "exact" in value.split("_")
    }
    assert with_exact == {("inference", "exact_bootstrap")}
    for name in INTERVAL_FUNCTIONS + FORWARDING + ["expected_loss"]:
        for parameter in _parameters(name).values():
            assert parameter.default != "exact", (name, parameter.name)


def test_no_value_is_a_parameter_name():
    names = {
        parameter
        for name in cc.__all__
        if callable(getattr(cc, name)) and not isinstance(getattr(cc, name), type)
        for parameter, kind in (
            (p.name, p.kind) for p in inspect.signature(getattr(cc, name)).parameters.values()
        )
        if kind not in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    }
    values = {*_intervals.INFERENCES, *_intervals.INTERVALS, *THRESHOLD_CHOICES}
    assert "score" in names and "threshold" in names  # the check can see a clash
    assert not values & names


def test_expected_loss_takes_threshold_choice():
    parameters = _parameters("expected_loss")
    assert parameters["threshold_choice"].default == "optimal"
    assert "method" not in parameters
    for value in THRESHOLD_CHOICES:
        assert f'`"{value}"`' in GLOSSARY


def test_the_glossary_lists_the_vocabulary():
    section = GLOSSARY.split("## Intervals", 1)[1].split("\n## ", 1)[0]
    tables = section.split("\n\n| `interval=`")
    for table, words in zip(tables, (_intervals.INFERENCES, _intervals.INTERVALS), strict=True):
        rows = re.findall(r'^\| `"(\w+)"` \|', table, flags=re.MULTILINE)
        assert sorted(rows) == sorted(words)
    assert "| `distribution` |" not in GLOSSARY.split("## Words", 1)[1].split("\n## ", 1)[0]


#: Every deprecated spelling: (function, old options, new options).
ALIASES = [
    ("auc_ci", {"method": "delong"}, {"inference": "delong"}),
    ("auc_ci", {"method": "bootstrap"}, {"inference": "exact_bootstrap"}),
    (
        "auc_ci",
        {"method": "bootstrap", "interval": "percentile", "n_resamples": 400, "rng": 2},
        {"inference": "bootstrap", "n_resamples": 400, "rng": 2},
    ),
    *[
        (name, old, new)
        for name in ("bootstrap_band", "confusion_band", "difference_band")
        for old, new in (
            ({"method": "exact"}, {"inference": "exact_bootstrap"}),
            (
                {"method": "resample", "n_resamples": 300, "rng": 4},
                {"inference": "bootstrap", "n_resamples": 300, "rng": 4},
            ),
            # distribution= was the exact bootstrap's shape: it keeps that inference.
            ({"distribution": "auto"}, {"interval": "auto", "inference": "exact_bootstrap"}),
            ({"distribution": "normal"}, {"interval": "normal", "inference": "exact_bootstrap"}),
            ({"distribution": "exact"}, {"interval": "discrete", "inference": "exact_bootstrap"}),
        )
    ],
]


@pytest.mark.parametrize(("name", "old", "new"), ALIASES, ids=str)
def test_old_spelling_warns_and_gives_the_same_result(name, old, new):
    renamed = [key for key in old if key not in new]
    with pytest.warns(FutureWarning, match=rf"{name}\({renamed[0]}=.* is deprecated .*; pass "):
        before = _call(name, **old)
    after = _call(name, **new)
    pd.testing.assert_frame_equal(before, after)
    assert before.attrs == after.attrs


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("optimal", "optimal"),
        ("score", "score_driven"),
        ("rate", "rate_driven"),
        (
            ["optimal", "score", "rate", "fixed"],
            ["optimal", "score_driven", "rate_driven", "fixed"],
        ),
    ],
)
def test_expected_loss_method_warns_and_gives_the_same_result(old, new):
    fixed = {"threshold": 0.5} if "fixed" in old else {}
    with pytest.warns(FutureWarning, match=r"expected_loss\(method=.*pass threshold_choice="):
        before = cc.expected_loss(RAW, score="s", label="y", method=old, **fixed)
    after = cc.expected_loss(RAW, score="s", label="y", threshold_choice=new, **fixed)
    pd.testing.assert_frame_equal(before, after)


@pytest.mark.parametrize("experiment", ["band_coverage", "difference_coverage"])
def test_coverage_distribution_warns_and_gives_the_same_result(experiment):
    common = {"mu": 1.5, "n_per_class": 20, "simulations": 4, "pc": [0.5], "rng": 1}
    if experiment == "difference_coverage":
        common |= {"shift": 1.0, "correlation": 0.5}
    function = getattr(cc, experiment)
    with pytest.warns(
        FutureWarning, match=rf"{experiment}\(distribution='exact'\).*interval='discrete'"
    ):
        before = function(**common, distribution="exact")
    pd.testing.assert_frame_equal(before, function(**common, interval="discrete"))


def test_old_and_new_name_together_are_refused():
    with pytest.raises(
        cc.CostchartError,
        match=r"method= is the deprecated name of inference=; pass inference= only",
    ):
        _call("bootstrap_band", method="exact", inference="bootstrap")
    with pytest.raises(cc.CostchartError, match=r"pass threshold_choice= only"):
        cc.expected_loss(RAW, score="s", label="y", method="rate", threshold_choice="rate_driven")


def test_a_wrong_old_value_names_the_new_word():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(
            cc.CostchartError,
            match=r"method='jackknife' is not an option; pass one of 'exact', 'resample' \(or, better, inference=",
        ):
            _call("bootstrap_band", method="jackknife")
