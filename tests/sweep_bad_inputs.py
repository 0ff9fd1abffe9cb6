"""A sweep of about 500 bad inputs across costchart's public API, tried as a new user would.

Run it from the repository root (it is not a test module; pytest does not collect it)::

    python tests/sweep_bad_inputs.py            # the summary
    python tests/sweep_bad_inputs.py -v         # and every raw exception / wrong result
    python tests/sweep_bad_inputs.py -k band    # only the cases whose label contains "band"

Each call runs in-process with a timeout. It ends in one of:

- a clear ``CostchartError`` (what a bad input should give);
- a raw exception (any other type: a bug);
- a returned result, checked: wrong or NaN (a bug, the worst kind), or plausible (accepted
  input that arguably should have been refused; listed with ``-v``);
- a valid input refused with a ``CostchartError`` (a bug: e.g. a pyarrow table);
- a timeout, or -- for the calls that can kill Python (huge PNGs, huge exact
  distributions), which run in a subprocess with a memory watchdog -- a dead process.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

#: Expected outcome of a case.
ERROR, RESULT, EITHER = "error", "result", "either"
#: In-process time limit of one call (seconds); subprocess limit below.
TIMEOUT = 60
SUBPROCESS_TIMEOUT = 240
#: A subprocess using more memory than this is killed and counted as a dead process.
MEMORY_LIMIT_KB = 6_000_000


@dataclass
class Case:
    label: str
    call: object  # a thunk, or the code of a subprocess (a string)
    expect: str = ERROR
    check: object = None  # raises AssertionError when a returned result is wrong
    #: For a refusal: a regex its message must match (e.g. the fix), or must not match.
    message_must: str = ""
    message_must_not: str = ""


class Timeout(Exception):
    pass


# -- judging results ----------------------------------------------------------------------------


def judge(result) -> None:
    """Raise AssertionError if ``result`` breaks costchart's contract (NaN, out of range)."""
    import altair as alt
    import numpy as np
    import pandas as pd

    import costchart as cc
    from costchart._io import schema as col

    if isinstance(result, pd.DataFrame):
        names = list(result.columns)
        assert len(set(names)) == len(names), f"duplicated column names {names}"
        assert isinstance(result.index, pd.RangeIndex), "index is not a RangeIndex"
        may_be_nan = {
            col.THRESHOLD,
            col.THRESHOLD_2,  # cheapest_regions: only mixtures have a second threshold
            col.COST_SD,
            col.FPR_SD,
            col.TPR_SD,
            col.SLOPE_LO,
            col.SLOPE_HI,
        }
        if list(result.columns[-2:]) == [col.PC_LO, col.PC_HI] and col.LINE not in names:
            may_be_nan |= {col.PC_LO, col.PC_HI}  # operating ranges: NaN when never useful
        unit = {
            col.FPR,
            col.TPR,
            col.PC,
            col.PC_LO,
            col.PC_HI,
            col.COST,
            col.COST_LO,
            col.COST_HI,
            col.AUC,
            col.EXPECTED_COST,
        }
        for name in names:
            if name in col.RESERVED or name in ("cost_a", "cost_b", "max_advantage"):
                values = result[name]
                if values.dtype == object or isinstance(values.dtype, pd.StringDtype):
                    if name not in col.TEXT_COLUMNS:
                        assert not values.map(lambda v: isinstance(v, str)).any(), (
                            f"strings in column {name!r}"
                        )
                    continue
                values = values.to_numpy(dtype=np.float64, na_value=np.nan)
                if name not in may_be_nan:
                    assert not np.isnan(values).any(), f"NaN in column {name!r}"
                finite = values[~np.isnan(values)]
                if name in unit:
                    assert ((finite >= 0) & (finite <= 1)).all(), (
                        f"column {name!r} leaves [0, 1]: {finite.min()!r}..{finite.max()!r}"
                    )
        if {col.LOWER, col.UPPER} <= set(names):
            assert (result[col.LOWER] <= result[col.UPPER] + 1e-12).all(), "lower > upper"
        return
    if isinstance(result, cc.Comparison):
        for table in (result.difference, result.better, result.advantage):
            judge(table)
        assert math.isfinite(result.expected_difference), "expected_difference is NaN"
        return
    if isinstance(result, cc.PerformanceIndependent):
        for table in (result.curve, result.envelope, result.extra_cost):
            judge(table)
        return
    if isinstance(result, cc.Band):
        for name in ("pc", "cost", "lower", "upper", "se"):
            assert math.isfinite(getattr(result, name)), f"Band.{name} is not finite"
        assert result.lower <= result.upper
        return
    if isinstance(result, alt.TopLevelMixin):
        result.to_dict(validate=True)
        return
    if isinstance(result, Path):
        assert result.is_file() and result.stat().st_size > 0, f"{result} was not written"
        return
    if isinstance(result, pd.Series):
        values = result.to_numpy(dtype=np.float64)
        assert np.isfinite(values).all() and (values > 0).all(), "costs not finite and > 0"
        return
    parts = result if isinstance(result, tuple) else (result,)
    if all(isinstance(part, str) for part in parts):
        return  # messages (warnings), judged by the case's own check
    for part in parts:
        values = np.asarray(part, dtype=np.float64)
        assert not np.isnan(values).any(), f"NaN in {result!r}"


# -- running ------------------------------------------------------------------------------------


def _alarm(signum, frame):
    raise Timeout


#: The case running in-process, for the memory guard's message.
CURRENT = {"label": ""}


def guard_memory(limit_kb: int = 2 * MEMORY_LIMIT_KB) -> None:
    """Stop the sweep (not the machine) if an in-process call eats more than ``limit_kb``."""
    import threading

    def watch():
        while True:
            if _rss_kb(os.getpid()) > limit_kb:
                print(
                    f"sweep stopped: {CURRENT['label']!r} used more than {limit_kb} kB; "
                    "move it to the subprocess cases",
                    file=sys.stderr,
                    flush=True,
                )
                os._exit(3)
            time.sleep(0.1)

    threading.Thread(target=watch, daemon=True).start()


def _where(error: BaseException) -> str:
    """The innermost costchart line an exception passed through."""
    import traceback

    frames = [f for f in traceback.extract_tb(error.__traceback__) if "/costchart/" in f.filename]
    frame = frames[-1] if frames else traceback.extract_tb(error.__traceback__)[-1]
    return f"{Path(frame.filename).name}:{frame.lineno}"


def run_in_process(case: Case):
    """Return ``(outcome, detail)``."""
    import costchart as cc

    CURRENT["label"] = case.label

    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = case.call()
    except cc.CostchartError as error:
        signal.alarm(0)
        if case.expect == RESULT:
            return "refused", f"CostchartError: {error}"
        message = str(error)
        misleading = (case.message_must and not re.search(case.message_must, message)) or (
            case.message_must_not and re.search(case.message_must_not, message)
        )
        if misleading:
            return "wrong", f"misleading message: {message[:180]}"
        return "clear", message
    except Timeout:
        return "timeout", f"more than {TIMEOUT} s"
    except BaseException as error:
        signal.alarm(0)
        if isinstance(error, KeyboardInterrupt):
            raise
        return "raw", f"{type(error).__name__} at {_where(error)}: {str(error)[:200]}"
    finally:
        signal.alarm(0)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            judge(result)
            if case.check is not None:
                case.check(result)
    except AssertionError as error:
        return "wrong", str(error)[:200] or "check failed"
    except Exception as error:
        where = _where(error)
        return "wrong", f"{type(error).__name__} while checking ({where}): {str(error)[:160]}"
    return ("ok" if case.expect != ERROR else "accepted"), ""


_CHILD = """
import json, sys, warnings
warnings.simplefilter("ignore")
def _outcome(kind, detail=""):
    print("SWEEP-OUTCOME " + json.dumps([kind, detail[:300]]), flush=True)
try:
    import costchart as cc
    {body}
except cc.CostchartError as error:
    _outcome("clear", str(error))
except BaseException as error:
    _outcome("raw", type(error).__name__ + ": " + str(error))
else:
    _outcome(globals().get("OUTCOME", "accepted"), globals().get("DETAIL", ""))
"""


def _rss_kb(pid: int) -> int:
    with contextlib.suppress(OSError), open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def run_in_subprocess(case: Case):
    """Run ``case.call`` (code) in a fresh Python; a crash or a memory blow-up is 'dead'."""
    code = _CHILD.replace("{body}", textwrap.indent(textwrap.dedent(case.call), "    ").strip())
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    env = {**os.environ, "PYTHONWARNINGS": "ignore", "PYTHONPATH": path}
    process = subprocess.Popen(
        [sys.executable, "-c", code],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    start = time.monotonic()
    killed = None
    while process.poll() is None:
        if _rss_kb(process.pid) > MEMORY_LIMIT_KB:
            process.kill()
            killed = f"killed by the sweep above {MEMORY_LIMIT_KB // 1_000_000} GB of memory"
        elif time.monotonic() - start > SUBPROCESS_TIMEOUT:
            process.kill()
            killed = "timeout"
        time.sleep(0.05)
    out, err = process.communicate()
    if killed == "timeout":
        return "timeout", f"more than {SUBPROCESS_TIMEOUT} s"
    for line in out.splitlines():
        if line.startswith("SWEEP-OUTCOME "):
            kind, detail = json.loads(line[len("SWEEP-OUTCOME ") :])
            if kind == "clear" and case.expect == RESULT:
                return "refused", detail
            return kind, detail
    last = (err.strip().splitlines() or ["(no output)"])[-1]
    return "dead", killed or f"exit code {process.returncode}: {last[:200]}"


# -- the cases ----------------------------------------------------------------------------------


def _offline_twice(cc):
    """Enable the offline renderer twice, undoing each (the sweep leaves Altair as it was)."""
    for _ in range(2):
        with cc.enable_offline() as enabled:
            name = enabled.name
    return name


def build_cases(tmp: Path) -> list[Case]:
    import numpy as np
    import pandas as pd
    import polars as pl
    import pyarrow as pa
    from scipy import stats

    import costchart as cc

    rng = np.random.default_rng(10)
    frames = []
    labels = (rng.random((3, 120)) < 0.4).astype(int)  # one true class per instance
    for name in ("logistic", "tree"):
        for fold in range(3):
            label = labels[fold]
            score = np.round(rng.normal(size=120) + 1.2 * label, 2)
            frames.append(
                pd.DataFrame(
                    {
                        "classifier": name,
                        "fold": fold,
                        "instance": np.arange(120) + 120 * fold,
                        "score": score,
                        "label": label,
                        "amount": rng.uniform(1, 10, 120).round(2),
                    }
                )
            )
    data = pd.concat(frames, ignore_index=True)
    one = data[(data.classifier == "logistic") & (data.fold == 0)].reset_index(drop=True)
    paired = data[data.fold == 0].reset_index(drop=True)
    points = cc.roc_points(data, score="score", label="label", by=["classifier", "fold"])
    one_points = cc.roc_points(one, score="score", label="label")
    lines = cc.to_cost_lines(points)
    envelope = cc.lower_envelope(points)
    one_envelope = cc.lower_envelope(one_points)
    tree = data[(data.classifier == "tree") & (data.fold == 0)]
    tree_envelope = cc.lower_envelope(cc.roc_points(tree, score="score", label="label"))
    selection = cc.selection_table(envelope)
    rociv_points = cc.rociv(data, score="score", label="label", amount="amount", by="classifier")
    band = cc.bootstrap_band(one, score="score", label="label", pc=np.linspace(0, 1, 11))
    counts = pd.DataFrame(
        {"name": ["a", "b"], "TP": [16, 30], "FN": [4, 10], "FP": [4, 8], "TN": [6, 40]}
    )
    difference = cc.difference_band(
        paired,
        score="score",
        label="label",
        classifier="classifier",
        instance="instance",
        pc=np.linspace(0, 1, 11),
    )
    classifiers = pd.DataFrame(
        {"trained": [0.2, 0.5, 0.8], "fpr": [0.05, 0.2, 0.5], "tpr": [0.4, 0.7, 0.95]}
    )
    chart = cc.roc_chart(one_points)
    cases: list[Case] = []

    def add(label, call, expect=ERROR, check=None, **messages):
        cases.append(Case(label, call, expect, check, **messages))

    def fail(message):
        raise AssertionError(message)

    def with_column(frame, column, values):
        frame = frame.copy()
        frame[column] = values
        return frame

    def set_at(frame, column, position, value):
        frame = frame.copy()
        values = (
            frame[column].astype(object if isinstance(value, str) else float).to_numpy(copy=True)
        )
        values[position] = value
        frame[column] = values
        return frame

    # -- 1. raw data: roc_points, pr_points, rociv, auciv, bootstrap_band, apply_selection-----------
    raw_functions = {
        "roc_points": lambda d, **k: cc.roc_points(d, **{"score": "score", "label": "label", **k}),
        "pr_points": lambda d, **k: cc.pr_points(d, **{"score": "score", "label": "label", **k}),
        "rociv": lambda d, **k: cc.rociv(
            d, **{"score": "score", "label": "label", "amount": "amount", **k}
        ),
        "auciv": lambda d, **k: cc.auciv(
            d, **{"score": "score", "label": "label", "amount": "amount", **k}
        ),
        "bootstrap_band": lambda d, **k: cc.bootstrap_band(
            d, **{"score": "score", "label": "label", "pc": [0.2, 0.5], **k}
        ),
        "apply_selection": lambda d, **k: cc.apply_selection(
            d, selection, **{"score": "score", "label": "label", "by": ["classifier", "fold"], **k}
        ),
    }
    n = len(data)
    bad_data = {
        "score=<a Series>": ({}, {"score": data["score"]}),
        "score='nope'": ({}, {"score": "nope"}),
        "score=None": ({}, {"score": None}),
        "score=0": ({}, {"score": 0}),
        "label='nope'": ({}, {"label": "nope"}),
        "label=['label']": ({}, {"label": ["label"]}),
        "by='nope'": ({}, {"by": "nope"}),
        "by=[['classifier']] (unhashable)": ({}, {"by": [["classifier"]]}),
        "by={'classifier': 1}": ({}, {"by": {"classifier": 1}}),
        "by=<a Series>": ({}, {"by": data["classifier"]}),
        "by=['classifier', 'classifier']": ({}, {"by": ["classifier", "classifier"]}),
        "by='pc' (a costchart column)": ({"pc": 0.5}, {"by": "pc"}),
        "NaN score": ({"score": set_at(data, "score", 5, np.nan)["score"]}, {}),
        "inf score": ({"score": set_at(data, "score", 5, np.inf)["score"]}, {}),
        "string scores": ({"score": data["score"].astype(str)}, {}),
        "one string among scores": ({"score": set_at(data, "score", 3, "x")["score"]}, {}),
        "bool scores": ({"score": data["score"] > 0}, {}),
        "three label values": ({"label": data["label"] + (data.index % 3 == 0)}, {}),
        "one class only": ({"label": np.ones(n, int)}, {}),
        "NaN label": ({"label": set_at(data, "label", 2, np.nan)["label"]}, {}),
        "string labels, no pos_label": ({"label": data["label"].map({0: "neg", 1: "pos"})}, {}),
        "labels 1/2, pos_label=2 as str": ({"label": data["label"] + 1}, {"pos_label": "2"}),
        "pos_label=5 (absent)": ({}, {"pos_label": 5}),
        "pos_label=[1]": ({}, {"pos_label": [1]}),
        "group key None": ({"classifier": data["classifier"].where(data.index != 4, None)}, {}),
        "unhashable group values": ({"classifier": pd.Series([[1]] * n, dtype=object)}, {}),
        "negative amount": ({"amount": set_at(data, "amount", 1, -5.0)["amount"]}, {}),
        "NaN amount": ({"amount": set_at(data, "amount", 1, np.nan)["amount"]}, {}),
        "amount 1e308": ({"amount": np.full(n, 1e308)}, {}),
        "zero amounts": ({"amount": np.zeros(n)}, {}),
        "categorical scores": ({"score": data["score"].astype("category")}, {}),
    }
    # Every bad input for roc_points; for the others those that reach their own code.
    shared_labels = (
        "score=<a Series>",
        "score='nope'",
        "label=['label']",
        "by=[['classifier']] (unhashable)",
        "by=<a Series>",
        "by='pc' (a costchart column)",
        "NaN score",
        "string scores",
        "one class only",
        "string labels, no pos_label",
        "pos_label=[1]",
        "group key None",
        "unhashable group values",
        "negative amount",
        "NaN amount",
        "amount 1e308",
        "zero amounts",
    )
    for fname, function in raw_functions.items():
        for label, (columns, kwargs) in bad_data.items():
            if fname != "roc_points" and label not in shared_labels:
                continue
            if "amount" in label and fname not in ("rociv", "auciv"):
                continue
            frame = data.assign(**columns) if columns else data
            if fname == "apply_selection":
                kwargs = {"by": ["classifier", "fold"], **kwargs}
            add(f"{fname}: {label}", lambda f=function, d=frame, k=kwargs: f(d, **k))
        not_tables = {
            "data=None": None,
            "data='data.csv'": "data.csv",
            "data=<list of dicts>": data.head(20).to_dict("records"),
            "data=<2-D numpy array>": data[["score", "label"]].to_numpy(),
            "data=<dict of 2-D arrays>": {
                "score": np.zeros((5, 2)),
                "label": np.ones((5, 2)),
                "amount": np.ones((5, 2)),
            },
            "data=<dict of scalars>": {"score": 0.5, "label": 1, "amount": 1.0},
            "data=<dict, unequal lengths>": {
                "score": [0.1, 0.2, 0.3],
                "label": [1, 0],
                "amount": [1.0, 1.0, 1.0],
            },
            "empty frame": data.iloc[:0],
            "duplicated column names": pd.concat([data, data[["score"]]], axis=1),
            "polars lazy frame": pl.from_pandas(data).lazy(),
        }
        for label, value in not_tables.items():
            if fname not in ("roc_points", "bootstrap_band") and "dict" not in label:
                continue
            kwargs = {"by": ["classifier", "fold"]} if fname == "apply_selection" else {}
            expect = RESULT if "lazy" in label else ERROR  # both read lazy frames
            add(f"{fname}: {label}", lambda f=function, d=value, k=kwargs: f(d, **k), expect)
        if fname == "roc_points":
            for label, value in {
                "weight='nope'": "nope",
                "weight=<Series>": data["amount"],
            }.items():
                add(f"roc_points: {label}", lambda v=value, f=function: f(data, weight=v))
            for label, weights in {
                "negative weight": set_at(data, "amount", 0, -1.0)["amount"],
                "NaN weight": set_at(data, "amount", 0, np.nan)["amount"],
                "weights 1e308": np.full(n, 1e308),
                "all-zero weights": np.zeros(n),
            }.items():
                frame = data.assign(w=weights)
                add(f"roc_points: {label}", lambda d=frame, f=function: f(d, weight="w"))
            for bins in (0, 1, -3, math.nan, "5", 2.5, 10**30, True, [5]):
                add(f"roc_points: bins={bins!r}", lambda b=bins, f=function: f(data, bins=b))

    # -- 2. bands: options ------------------------------------------------------------------------
    band_calls = {
        "bootstrap_band": lambda **k: cc.bootstrap_band(
            one, score="score", label="label", **{"pc": [0.2, 0.5], **k}
        ),
        "confusion_band": lambda **k: cc.confusion_band(
            counts, tp="TP", fn="FN", fp="FP", tn="TN", by="name", **{"pc": [0.2, 0.5], **k}
        ),
        "difference_band": lambda **k: cc.difference_band(
            paired,
            score="score",
            label="label",
            classifier="classifier",
            instance="instance",
            **{"pc": [0.2, 0.5], **k},
        ),
    }
    band_options = {
        "confidence_level": [1, 0, 1.5, -0.1, math.nan, "0.9", None, [0.9], 90],
        "inference": ["delong", None, 1, ["exact_bootstrap"], "exact", "resample"],
        "sampling": ["stratify", None, True],
        "interval": ["gaussian", None, ["discrete"], np.array(["discrete", "normal"]), "exact"],
        # the deprecated names refuse what they always refused
        "method": ["bootstrap", None, 1],
        "distribution": ["discrete", None],
        "pc": [2, -0.1, math.nan, "0.5", [], [[0.1, 0.2]], [0.1, math.inf], {"a": 0.5}, None],
        "progress": ["yes", 1],
    }
    resample_options = {
        "n_resamples": [math.nan, "100", None, 10**30, -1, 2.5, 10, [100], True],
        "rng": ["x", -1, 1.5, object(), [1, 2], math.nan],
    }
    for fname, function in band_calls.items():
        for option, values in band_options.items():
            for value in values if fname == "bootstrap_band" else values[:3]:
                expect = EITHER if (option, value) == ("pc", None) else ERROR
                add(
                    f"{fname}: {option}={value!r}",
                    lambda f=function, o=option, v=value: f(**{o: v}),
                    expect,
                )
        for option, values in resample_options.items():
            for value in values if fname == "bootstrap_band" else values[:4]:
                add(
                    f"{fname}: inference='bootstrap', {option}={value!r}",
                    lambda f=function, o=option, v=value: f(inference="bootstrap", **{o: v}),
                )
    for fname in ("bootstrap_band", "confusion_band", "difference_band"):
        for value in ("yes", 1, 0.5, [True]):
            add(
                f"{fname}: compact={value!r}",
                lambda f=band_calls[fname], v=value: f(compact=v),
            )
        for grid in ([0.5, 0.2], [0.2, 0.2, 0.5]):
            add(
                f"{fname}: compact=True, pc={grid!r}",
                lambda f=band_calls[fname], g=grid: f(compact=True, pc=g),
            )
    for value in (math.nan, "x", [0.5], None, math.inf):
        expect = EITHER if value is None else ERROR
        add(
            f"bootstrap_band: threshold={value!r}",
            lambda v=value: band_calls["bootstrap_band"](threshold=v),
            expect,
        )
    for label, value in {
        "selection=<dict>": selection.to_dict(),
        "selection=<pyarrow>": pa.Table.from_pandas(selection[selection.classifier == "logistic"]),
        "selection that does not tile [0, 1]": selection.iloc[1:3].drop(
            columns=["classifier", "fold"]
        ),
        "selection with NaN threshold": set_at(selection, "threshold", 0, np.nan)
        .iloc[:3]
        .drop(columns=["classifier", "fold"]),
        "selection and threshold": selection,
    }.items():
        kwargs = {"threshold": 1.0} if "and threshold" in label else {}
        expect = RESULT if "pyarrow" in label else ERROR
        if "pyarrow" in label:
            value = pa.Table.from_pandas(
                selection[(selection.classifier == "logistic") & (selection.fold == 0)]
                .drop(columns=["classifier", "fold"])
                .reset_index(drop=True)
            )
        add(
            f"bootstrap_band: {label}",
            lambda v=value, k=kwargs: band_calls["bootstrap_band"](selection=v, **k),
            expect,
        )
    for value in ((math.nan, 0.5), (0.5,), ("x", 1), (0.5, 0.5, 0.5), 0.5, (math.inf, 0.5)):
        add(
            f"difference_band: threshold={value!r}",
            lambda v=value: band_calls["difference_band"](threshold=v),
        )
    add(
        "difference_band: a='logistic' without b",
        lambda: band_calls["difference_band"](a="logistic"),
    )
    add(
        "difference_band: a='nope', b='tree'",
        lambda: band_calls["difference_band"](a="nope", b="tree"),
    )
    add(
        "difference_band: instance repeated (no by=)",
        lambda: cc.difference_band(
            data,
            score="score",
            label="label",
            classifier="classifier",
            instance="instance",
            pc=[0.5],
        ),
    )
    # The paired columns and quick options cheapest_set and its chart share.
    set_options = {
        "score": "score",
        "label": "label",
        "classifier": "classifier",
        "instance": "instance",
        "pc": [0.2, 0.5],
        "n_resamples": 100,
        "rng": 0,
    }
    set_call = functools.partial(cc.cheapest_set, **set_options)
    add("cheapest_set: paired classifiers", lambda: set_call(paired), RESULT)
    add("cheapest_set: every row twice", lambda: set_call(pd.concat([paired, paired])))
    add("cheapest_set: one classifier", lambda: set_call(paired[paired.classifier == "tree"]))
    add("cheapest_set: an instance one classifier lacks", lambda: set_call(paired.iloc[1:]))
    add(
        "cheapest_set: labels disagree",
        lambda: set_call(set_at(paired, "label", 0, 1 - paired["label"].iloc[0])),
    )
    add(
        "cheapest_set: a missing instance id", lambda: set_call(set_at(paired, "instance", 0, None))
    )
    add(
        "cheapest_set: a missing classifier",
        lambda: set_call(with_column(paired, "classifier", [None, *paired.classifier.iloc[1:]])),
    )
    add("cheapest_set: one class", lambda: set_call(paired.assign(label=1)))
    add("cheapest_set: classifier='label'", lambda: set_call(paired, classifier="label"))
    add("cheapest_set: by= the classifier", lambda: set_call(paired, by="classifier"))
    add(
        "cheapest_set: a classifier column named 'pc'",
        lambda: set_call(paired.rename(columns={"classifier": "pc"}), classifier="pc"),
    )
    add("cheapest_set: classifier=<Series>", lambda: set_call(paired, classifier=paired["label"]))
    for value in (10, 0, 2.5, "100", 2**63):
        add(f"cheapest_set: n_resamples={value!r}", lambda v=value: set_call(paired, n_resamples=v))
    for value in (1, 0, math.nan, "0.9", None):
        add(
            f"cheapest_set: confidence_level={value!r}",
            lambda v=value: set_call(paired, confidence_level=v),
        )
    for value in ([], [1.5], "0.5", [[0.2, 0.3]]):
        add(f"cheapest_set: pc={value!r}", lambda v=value: set_call(paired, pc=v))
    add("cheapest_set: rng='seed'", lambda: set_call(paired, rng="seed"))
    add("cheapest_set: no rows", lambda: set_call(paired.iloc[:0]))
    add("cheapest_set: no rows, by=", lambda: set_call(paired.iloc[:0], by="label"))
    first_positive = paired["instance"] == paired.loc[paired["label"] == 1, "instance"].iloc[0]
    add(
        "cheapest_set: one positive",
        lambda: set_call(paired[(paired["label"] == 0) | first_positive]),
    )
    mixed = paired["classifier"].map(dict(zip(paired["classifier"].unique(), [True, 1])))
    add("cheapest_set: classifiers True and 1", lambda: set_call(paired.assign(classifier=mixed)))
    keys = np.array([False, 0.0] * (len(paired) // 2) + [0.0] * (len(paired) % 2), dtype=object)
    add("cheapest_set: by= keys False and 0.0", lambda: set_call(paired.assign(k=keys), by="k"))
    # The same edges in the bands and the other grouping functions.
    diff_call = functools.partial(
        cc.difference_band,
        score="score",
        label="label",
        classifier="classifier",
        instance="instance",
        pc=[0.2, 0.5],
    )
    add("difference_band: no rows", lambda: diff_call(paired.iloc[:0]))
    add("difference_band: no rows, by=", lambda: diff_call(paired.iloc[:0], by="fold"))
    one_positive = paired[(paired["label"] == 0) | first_positive]
    add("difference_band: one positive", lambda: diff_call(one_positive), RESULT)
    for options in ({"interval": "normal"}, {"interval": "discrete"}, {"inference": "bootstrap"}):
        add(
            f"difference_band: one positive, {options}",
            lambda o=options: diff_call(one_positive, rng=0, **o),
        )
    one_alone = one[(one["label"] == 0) | (one.index == one.index[one["label"] == 1][0])]
    band_call = functools.partial(cc.bootstrap_band, score="score", label="label", pc=[0.5])
    add("bootstrap_band: one positive", lambda: band_call(one_alone, rng=0))
    add(
        "bootstrap_band: one positive, exact bootstrap",
        lambda: band_call(one_alone, inference="exact_bootstrap"),
        RESULT,
    )
    add(
        "confusion_band: a class of one, interval='normal'",
        lambda: cc.confusion_band(
            with_column(with_column(counts, "TP", [1, 30]), "FN", [0, 10]),
            tp="TP",
            fn="FN",
            fp="FP",
            tn="TN",
            by="name",
            pc=[0.5],
            interval="normal",
        ),
    )
    keyed = data.assign(k=np.array([True, 1] * (len(data) // 2), dtype=object))
    add(
        "roc_points: by= keys True and 1",
        lambda: cc.roc_points(keyed, score="score", label="label", by="k"),
    )
    add("bootstrap_band: by= keys True and 1", lambda: band_call(keyed, by="k"))
    add("difference_band: by= keys True and 1", lambda: diff_call(keyed, by="k"))
    keyed_points = points.assign(classifier=points["classifier"].map({"logistic": True, "tree": 1}))
    add("to_cost_lines: by= keys True and 1", lambda: cc.to_cost_lines(keyed_points))

    def no_numpy_warning(call):
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)  # a leaked warning: a raw error
            return call()

    huge = one.assign(amount=1e300)
    for inference, expect in (("exact_bootstrap", RESULT), ("bootstrap", ERROR)):
        add(
            f"auc_ci: weights 1e300, inference={inference!r}",
            lambda i=inference: no_numpy_warning(
                lambda: cc.auc_ci(
                    huge, score="score", label="label", weight="amount", inference=i, rng=0
                )
            ),
            expect,
        )
    # Options passed by position: refused with the signature, never a raw TypeError.
    add("compare: an option by position", lambda: cc.compare(envelope, envelope, None))
    add("palette: colors by position", lambda: cc.palette(["a"], {"a": "red"}))
    add("coverage_grid: settings by position", lambda: cc.coverage_grid(print, {"n": [1]}))
    add(
        "difference_band: classifier=<Series>",
        lambda: cc.difference_band(
            paired,
            score="score",
            label="label",
            classifier=paired["classifier"],
            instance="instance",
            pc=[0.5],
        ),
    )
    for label, frame in {
        "count NaN": set_at(counts, "TP", 0, np.nan),
        "count negative": set_at(counts, "TP", 0, -1.0),
        "count string": set_at(counts, "TP", 0, "x"),
        "count 2**62": with_column(counts, "TP", [2**62, 2**62]),
        "count 1e308": with_column(counts, "TP", [1e308, 1e308]),
        "no positives": with_column(with_column(counts, "TP", [0, 0]), "FN", [0, 0]),
        "all zero": counts.assign(TP=0, FN=0, FP=0, TN=0),
        "fractional counts": with_column(counts, "TP", [16.5, 30.25]),
    }.items():
        add(
            f"from_confusion: {label}",
            lambda f=frame: cc.from_confusion(f, tp="TP", fn="FN", fp="FP", tn="TN", by="name"),
            EITHER if label in ("fractional counts", "count 2**62", "count 1e308") else ERROR,
        )
        if label != "count 2**62":
            add(
                f"confusion_band: {label}",
                lambda f=frame: cc.confusion_band(
                    f, tp="TP", fn="FN", fp="FP", tn="TN", by="name", pc=[0.5]
                ),
                EITHER if label in ("fractional counts", "count 1e308") else ERROR,
            )
    add(
        "from_confusion: tp= and fn= the same column",
        lambda: cc.from_confusion(counts, tp="TP", fn="TP", fp="FP", tn="TN", by="name"),
        message_must=r"tp= and fn= are both column 'TP'",
    )
    add(
        "confusion_band: tp= and fn= the same column",
        lambda: cc.confusion_band(counts, tp="TP", fn="TP", fp="FP", tn="TN", by="name", pc=[0.5]),
        message_must=r"tp= and fn= are both column 'TP'",
    )
    for fname, counts_of in (
        ("from_confusion", cc.from_confusion),
        ("confusion_band", cc.confusion_band),
    ):
        add(
            f"{fname}: a column of booleans as counts",
            lambda f=counts_of: f(
                counts.assign(TP=[True, False]),
                tp="TP",
                fn="FN",
                fp="FP",
                tn="TN",
                by="name",
                **({"pc": [0.5]} if f is cc.confusion_band else {}),
            ),
            message_must=r"column 'TP' \(tp=\) holds booleans",
        )
        add(
            f"{fname}: no positives (names the count columns, not pos_label)",
            lambda f=counts_of: f(
                counts.iloc[:1].assign(TP=0, FN=0),
                tp="TP",
                fn="FN",
                fp="FP",
                tn="TN",
                **({"pc": [0.5]} if f is cc.confusion_band else {}),
            ),
            message_must=r"the counts 'TP' \+ 'FN' are 0",
            message_must_not="pos_label",
        )
    add(
        "roc_points: every positive of weight 0 (names the weights, not pos_label)",
        lambda: cc.roc_points(
            one.assign(w=(one["label"] == 0).astype(float)),
            score="score",
            label="label",
            weight="w",
        ),
        message_must=r"the positives of column 'label' all have weight 0 in column 'w'",
        message_must_not="pos_label",
    )
    numbered = paired.assign(classifier=np.where(paired["classifier"] == "logistic", 1, 2))
    add(
        "difference_band: a='1' for a column of numbers (values listed as typed)",
        lambda: cc.difference_band(
            numbered,
            score="score",
            label="label",
            classifier="classifier",
            instance="instance",
            a="1",
            b=2,
            pc=[0.5],
        ),
        message_must=r"classifiers present: 1, 2; pass a=1, not '1'",
        message_must_not=r"np\.int",
    )
    add(
        "roc_points: a file of semicolons read with commas (one column 'score;label')",
        lambda: cc.roc_points(
            pd.DataFrame({"score;label": ["0.1;0", "0.9;1"]}), score="score", label="label"
        ),
        message_must=r"the file seems to separate its columns by it; read it with sep=';'",
    )
    add(
        "from_confusion: two rows, no by=",
        lambda: cc.from_confusion(counts, tp="TP", fn="FN", fp="FP", tn="TN"),
    )
    add(
        "from_confusion: tp=<Series>",
        lambda: cc.from_confusion(counts, tp=counts["TP"], fn="FN", fp="FP", tn="TN", by="name"),
    )

    # -- 3. costchart tables read back --------------------------------------------------------------
    table_functions = {
        "roc_hull": lambda t, **k: cc.roc_hull(t, **k),
        "to_cost_lines": lambda t, **k: cc.to_cost_lines(t, **k),
        "lower_envelope": lambda t, **k: cc.lower_envelope(t, **k),
        "envelope_gap": lambda t, **k: cc.envelope_gap(t, **k),
        "operating_range": lambda t, **k: cc.operating_range(t, **k),
        "operating_range(of='envelope')": lambda t, **k: cc.operating_range(t, of="envelope", **k),
        "selection_table": lambda t, **k: cc.selection_table(t, **k),
        "cost_at": lambda t, **k: cc.cost_at(t, [0.25, 0.5], **k),
        "expected_cost": lambda t, **k: cc.expected_cost(t, **k),
        "auc": lambda t, **k: cc.auc(t, **k),
        "thin_points": lambda t, **k: cc.thin_points(t, max_points=5, **k),
        "iso_performance": lambda t, **k: cc.iso_performance(t, pc=0.3, **k),
        "cheapest_regions": lambda t, **k: cc.cheapest_regions(t, **k),
        "neyman_pearson": lambda t, **k: cc.neyman_pearson(t, max_fpr=0.2, **k),
        "workforce": lambda t, **k: cc.workforce(t, capacity=30, **k),
        "vertical_average": lambda t, **k: cc.vertical_average(t, over="fold", **k),
        "roc_average": lambda t, **k: cc.roc_average(t, over="fold", **k),
        "curve_points": lambda t, **k: cc.curve_points(
            cc.lower_envelope(t, **k) if "fpr" in _column_names(t) else t, **k
        ),
        "cost_chart": lambda t, **k: cc.cost_chart(t, **k),
        "roc_chart": lambda t, **k: cc.roc_chart(t, **k),
    }
    good_points = points.copy()
    bad_tables = {
        # Converted, the points lose the grouping they carried: refused, naming by=.
        "<pyarrow>": (pa.Table.from_pandas(good_points), ERROR),
        "<polars>": (pl.from_pandas(good_points), ERROR),
        "<dict of arrays>": ({c: good_points[c].to_numpy() for c in good_points}, EITHER),
        "empty table": (good_points.iloc[:0], EITHER),
        "NaN fpr": (set_at(good_points, "fpr", 3, np.nan), ERROR),
        "fpr = 2": (set_at(good_points, "fpr", 3, 2.0), ERROR),
        "negative tpr": (set_at(good_points, "tpr", 3, -0.5), ERROR),
        "string in tpr": (set_at(good_points, "tpr", 3, "x"), ERROR),
        "NaN threshold": (set_at(good_points, "threshold", 3, np.nan), ERROR),
        "duplicated column names": (pd.concat([good_points, good_points[["fpr"]]], axis=1), ERROR),
        "no fpr column": (good_points.drop(columns="fpr"), ERROR),
        "None": (None, ERROR),
        "a 2-D numpy array": (good_points[["fpr", "tpr"]].to_numpy(), ERROR),
        "a Series": (good_points["fpr"], ERROR),
        "a list of dicts": (good_points.head(5).to_dict("records"), ERROR),
        "group key None": (
            good_points.assign(
                classifier=good_points["classifier"].where(good_points.index != 0, None)
            ),
            EITHER,
        ),
        "unhashable group values": (
            good_points.assign(classifier=pd.Series([[1]] * len(good_points), dtype=object)),
            ERROR,
        ),
        "a 'role' column (from neyman_pearson)": (good_points.assign(role="component"), EITHER),
    }
    every_bad_table = (
        "roc_hull",
        "lower_envelope",
        "cheapest_regions",
        "selection_table",
        "cost_at",
        "auc",
        "cost_chart",
    )
    some_bad_tables = (
        "<pyarrow>",
        "<polars>",
        "<dict of arrays>",
        "empty table",
        "NaN fpr",
        "fpr = 2",
        "duplicated column names",
        "None",
        "NaN threshold",
    )
    for fname, function in table_functions.items():
        for label, (table, expect) in bad_tables.items():
            if fname not in every_bad_table and label not in some_bad_tables:
                continue
            add(f"{fname}: {label}", lambda f=function, t=table: f(t), expect)
        # With its grouping said, a converted table gives the answer.
        grouping = ["classifier"] if fname in ("vertical_average", "roc_average") else None
        grouping = grouping or ["classifier", "fold"]
        for label, table in (
            ("<pyarrow>, by=", pa.Table.from_pandas(good_points)),
            ("<polars>, by=", pl.from_pandas(good_points)),
        ):
            add(f"{fname}: {label}", lambda f=function, t=table, g=grouping: f(t, by=g), RESULT)
        for by in ("nope", [["classifier"]], 3, "pc"):
            if fname not in ("vertical_average", "roc_average", "cost_chart", "roc_chart"):
                add(f"{fname}: by={by!r}", lambda f=function, b=by: f(points, by=b))

    # Pooled classifiers: the merged-away grouping names the owner of each interval.
    add(
        "cheapest_regions: by='classifier'",
        lambda: cc.cheapest_regions(points, by="classifier"),
        RESULT,
    )
    add("cheapest_regions: by=[]", lambda: cc.cheapest_regions(points, by=[]), RESULT)
    add(
        "cheapest_regions: of cost lines, by=[]",
        lambda: cc.cheapest_regions(cc.to_cost_lines(points), by=[]),
        RESULT,
    )
    add(
        "cheapest_regions: a grouping column named like a second owner",
        lambda: cc.cheapest_regions(points.rename(columns={"classifier": "fold_2"}), by="fold_2"),
    )
    add("cheapest_regions: an envelope", lambda: cc.cheapest_regions(envelope))
    add(
        "cost_chart: show_owners without classifier=",
        lambda: cc.cost_chart(points, show_owners=True),
    )
    add(
        "cost_chart: show_owners='yes'",
        lambda: cc.cost_chart(points, classifier="classifier", show_owners="yes"),
    )
    add(
        "cost_chart: show_owners=True",
        lambda: cc.cost_chart(points, classifier="classifier", show_owners=True),
        RESULT,
    )
    add(
        "cheapest_regions: a selection",
        lambda: cc.cheapest_regions(cc.selection_table(envelope)),
        EITHER,
    )
    chart_call = functools.partial(cc.cheapest_set_chart, **set_options)
    add("cheapest_set_chart: paired classifiers", lambda: chart_call(paired), RESULT)
    add("cheapest_set_chart: no instance column", lambda: chart_call(paired, instance="id"))
    add("cheapest_set_chart: unpaired", lambda: chart_call(paired.iloc[1:]))
    add("cheapest_set_chart: one class", lambda: chart_call(paired.assign(label=1)))
    add("cheapest_set_chart: by= the classifier", lambda: chart_call(paired, by="classifier"))
    add(
        "cheapest_set_chart: classifier=<Series>",
        lambda: chart_call(paired, classifier=paired["label"]),
    )
    add("cheapest_set_chart: show_roc='yes'", lambda: chart_call(paired, show_roc="yes"))
    add("cheapest_set_chart: cost_lines='some'", lambda: chart_call(paired, cost_lines="some"))
    add("cheapest_set_chart: y_max=2", lambda: chart_call(paired, y_max=2))
    add("cheapest_set_chart: max_points=1", lambda: chart_call(paired, max_points=1))
    add("cheapest_set_chart: name='a b'", lambda: chart_call(paired, name="a b"))

    # cost curves
    curve_functions = {
        "cost_at": lambda c: cc.cost_at(c, [0.25, 0.5]),
        "expected_cost": lambda c: cc.expected_cost(c),
        "selection_table": lambda c: cc.selection_table(c),
        "curve_points": lambda c: cc.curve_points(c),
        "vertical_average": lambda c: cc.vertical_average(c.assign(fold=0), over="fold"),
        "compare": lambda c: cc.compare(c, one_envelope),
    }
    curve = one_envelope[["pc", "cost"]]
    bad_curves = {
        "pc = 2": set_at(curve, "pc", 1, 2.0),
        "pc = -0.5": set_at(curve, "pc", 1, -0.5),
        "NaN pc": set_at(curve, "pc", 1, np.nan),
        "NaN cost": set_at(curve, "cost", 2, np.nan),
        "negative cost": set_at(curve, "cost", 2, -3.0),
        "cost = 5": set_at(curve, "cost", 2, 5.0),
        "not spanning [0, 1]": curve.iloc[1:-1].reset_index(drop=True),
        "one vertex": curve.iloc[:1],
        "empty curve": curve.iloc[:0],
        "string cost": set_at(curve, "cost", 1, "x"),
        "unsorted pc": curve.iloc[::-1].reset_index(drop=True),
        "duplicated 'cost'": pd.concat([curve, curve[["cost"]]], axis=1),
    }
    for fname, function in curve_functions.items():
        for label, table in bad_curves.items():
            expect = EITHER if label == "unsorted pc" else ERROR
            add(f"{fname}: curve with {label}", lambda f=function, t=table: f(t), expect)

    # -- 4. options of table functions -----------------------------------------------------------
    option_cases = {
        "cost_at: pc=2": lambda: cc.cost_at(envelope, 2),
        "cost_at: pc=nan": lambda: cc.cost_at(envelope, math.nan),
        "cost_at: pc='0.5'": lambda: cc.cost_at(envelope, "0.5"),
        "cost_at: pc=[[0.1, 0.2]]": lambda: cc.cost_at(envelope, [[0.1, 0.2]]),
        "cost_at: pc=[]": lambda: cc.cost_at(envelope, []),
        "cost_at: pc=None": lambda: cc.cost_at(envelope, None),
        "expected_cost: density=<scalar callable>": lambda: cc.expected_cost(
            envelope, density=lambda x: 1.0
        ),
        "expected_cost: density=<negative>": lambda: cc.expected_cost(
            envelope, density=lambda x: -np.ones_like(x)
        ),
        "expected_cost: density=<NaN>": lambda: cc.expected_cost(
            envelope, density=lambda x: np.full_like(x, np.nan)
        ),
        "expected_cost: density=stats.norm()": lambda: cc.expected_cost(
            envelope, density=stats.norm()
        ),
        "expected_cost: density='beta'": lambda: cc.expected_cost(envelope, density="beta"),
        "expected_cost: density=<wrong length>": lambda: cc.expected_cost(
            envelope, density=lambda x: np.ones(3)
        ),
        "thin_points: max_points=nan": lambda: cc.thin_points(points, max_points=math.nan),
        "thin_points: max_points='5'": lambda: cc.thin_points(points, max_points="5"),
        "thin_points: max_points=1": lambda: cc.thin_points(points, max_points=1),
        "thin_points: max_points=None": lambda: cc.thin_points(points, max_points=None),
        "thin_points: max_points=10**30": lambda: cc.thin_points(points, max_points=10**30),
        "thin_points: max_total=1": lambda: cc.thin_points(points, max_total=1),
        "thin_points: max_total='5'": lambda: cc.thin_points(points, max_total="5"),
        "rate_driven_curve: pc=[[0.1]]": lambda: cc.rate_driven_curve(points, pc=[[0.1]]),
        "rate_driven_curve: pc=2": lambda: cc.rate_driven_curve(points, pc=2),
        "iso_performance: slope='x'": lambda: cc.iso_performance(points, slope="x"),
        "iso_performance: slope=-1": lambda: cc.iso_performance(points, slope=-1),
        "iso_performance: slope=[1, 2, 3]": lambda: cc.iso_performance(points, slope=[1, 2, 3]),
        "iso_performance: pc=2": lambda: cc.iso_performance(points, pc=2),
        "iso_performance: pc and slope": lambda: cc.iso_performance(points, pc=0.3, slope=1),
        "iso_performance: neither": lambda: cc.iso_performance(points),
        "iso_performance: pc=None, slope=None": lambda: cc.iso_performance(points, pc=None),
        "iso_performance: pc=[[0.1, 0.2]]": lambda: cc.iso_performance(points, pc=[[0.1, 0.2]]),
        "neyman_pearson: max_fpr=[0.1, 0.2]": lambda: cc.neyman_pearson(points, max_fpr=[0.1, 0.2]),
        "neyman_pearson: max_fpr=2": lambda: cc.neyman_pearson(points, max_fpr=2),
        "neyman_pearson: max_fpr=nan": lambda: cc.neyman_pearson(points, max_fpr=math.nan),
        "neyman_pearson: max_fpr='0.1'": lambda: cc.neyman_pearson(points, max_fpr="0.1"),
        "neyman_pearson: max_fpr=None": lambda: cc.neyman_pearson(points, max_fpr=None),
        "workforce: capacity=-1": lambda: cc.workforce(points, capacity=-1),
        "workforce: capacity=nan": lambda: cc.workforce(points, capacity=math.nan),
        "workforce: capacity='x'": lambda: cc.workforce(points, capacity="x"),
        "workforce: capacity=[1, 2]": lambda: cc.workforce(points, capacity=[1, 2]),
        "workforce: capacity=None": lambda: cc.workforce(points, capacity=None),
        "workforce: points without counts": lambda: cc.workforce(
            points[["classifier", "fold", "fpr", "tpr"]], capacity=3
        ),
        "operating_range: of='both'": lambda: cc.operating_range(points, of="both"),
        "operating_range: of=None": lambda: cc.operating_range(points, of=None),
        "operating_range: of=['lines']": lambda: cc.operating_range(points, of=["lines"]),
        "vertical_average: over='pc'": lambda: cc.vertical_average(envelope, over="pc"),
        "vertical_average: over='nope'": lambda: cc.vertical_average(envelope, over="nope"),
        "vertical_average: over=[]": lambda: cc.vertical_average(envelope, over=[]),
        "vertical_average: over=None": lambda: cc.vertical_average(envelope, over=None),
        "vertical_average: over=[['fold']]": lambda: cc.vertical_average(envelope, over=[["fold"]]),
        "roc_average: averaging='diagonal'": lambda: cc.roc_average(
            points, over="fold", averaging="x"
        ),
        "roc_average: averaging=None": lambda: cc.roc_average(points, over="fold", averaging=None),
        "roc_average: method='diagonal' (old name)": lambda: cc.roc_average(
            points, over="fold", method="x"
        ),
        "roc_average: averaging=['vertical']": lambda: cc.roc_average(
            points, over="fold", averaging=["vertical"]
        ),
        "roc_average: grid='x'": lambda: cc.roc_average(points, over="fold", grid="x"),
        "roc_average: grid=[[0.1]]": lambda: cc.roc_average(points, over="fold", grid=[[0.1]]),
        "roc_average: grid=[nan]": lambda: cc.roc_average(points, over="fold", grid=[math.nan]),
        "roc_average: grid=[2]": lambda: cc.roc_average(points, over="fold", grid=[2.0]),
        "roc_average: grid=[]": lambda: cc.roc_average(points, over="fold", grid=[]),
        "roc_average: over='tpr'": lambda: cc.roc_average(points, over="tpr"),
        "compare: names=('a',)": lambda: cc.compare(one_envelope, one_envelope, names=("a",)),
        "compare: names='ab'": lambda: cc.compare(one_envelope, one_envelope, names="ab"),
        "compare: names=(1, 2)": lambda: cc.compare(one_envelope, one_envelope, names=(1, 2)),
        "compare: names=('tie', 'b')": lambda: cc.compare(
            one_envelope, tree_envelope, names=("tie", "b")
        ),
        "compare: names=('a', 'a')": lambda: cc.compare(
            one_envelope, tree_envelope, names=("a", "a")
        ),
        "compare: a grouped table": lambda: cc.compare(envelope, one_envelope),
        "compare: a=None": lambda: cc.compare(None, one_envelope),
        "compare: density='x'": lambda: cc.compare(one_envelope, one_envelope, density="x"),
        "performance_independent: trained_pc='nope'": lambda: cc.performance_independent(
            classifiers, trained_pc="nope"
        ),
        "performance_independent: trained pc = 2": lambda: cc.performance_independent(
            classifiers.assign(trained=[0.2, 0.5, 2.0]), trained_pc="trained"
        ),
        "performance_independent: NaN fpr": lambda: cc.performance_independent(
            set_at(classifiers, "fpr", 0, np.nan), trained_pc="trained"
        ),
        "performance_independent: fpr = 2": lambda: cc.performance_independent(
            set_at(classifiers, "fpr", 0, 2.0), trained_pc="trained"
        ),
        "performance_independent: <pyarrow>": lambda: cc.performance_independent(
            pa.Table.from_pandas(classifiers), trained_pc="trained"
        ),
        "performance_independent: empty": lambda: cc.performance_independent(
            classifiers.iloc[:0], trained_pc="trained"
        ),
        "performance_independent: trained_pc=<Series>": lambda: cc.performance_independent(
            classifiers, trained_pc=classifiers["trained"]
        ),
        "rociv_condition: ROC points (no cost sums)": lambda: cc.rociv_condition(points),
        "rociv_condition: <pyarrow>": lambda: cc.rociv_condition(
            pa.Table.from_pandas(rociv_points), by="classifier"
        ),
        "rociv_condition: NaN fp_cost": lambda: cc.rociv_condition(
            set_at(rociv_points, "fp_cost", 3, np.nan)
        ),
        "band_at: empty band": lambda: cc.band_at(band.iloc[:0], 0.5),
        "band_at: pc='0.5'": lambda: cc.band_at(band, "0.5"),
        "band_at: pc=nan": lambda: cc.band_at(band, math.nan),
        "band_at: pc=2": lambda: cc.band_at(band, 2.0),
        "band_at: pc=[0.1, 0.2]": lambda: cc.band_at(band, [0.1, 0.2]),
        "band_at: a grouped band": lambda: cc.band_at(
            cc.bootstrap_band(data, score="score", label="label", by="classifier", pc=[0.5]), 0.5
        ),
        "band_at: confidence_level=2": lambda: cc.band_at(band, 0.5, confidence_level=2),
        "band_at: <polars>": lambda: cc.band_at(pl.from_pandas(band), 0.5),
        "band_at: None": lambda: cc.band_at(None, 0.5),
        "band_at: compact='yes'": lambda: cc.band_at(band, 0.5, compact="yes"),
        "band_at: a level the band was not made at": lambda: cc.band_at(
            band, 0.5, confidence_level=0.5
        ),
        "costs_from_benefits: benefit=None": lambda: cc.costs_from_benefits(
            data, label="label", amount="amount", benefit=None
        ),
        "costs_from_benefits: benefit={('Y','p'): 'x'}": lambda: cc.costs_from_benefits(
            data, label="label", amount="amount", benefit={("Y", "p"): "x", ("N", "n"): 1}
        ),
        "costs_from_benefits: cell returns a scalar NaN": lambda: cc.costs_from_benefits(
            data,
            label="label",
            amount="amount",
            benefit={("Y", "p"): lambda a: np.nan, ("N", "n"): 1},
        ),
        "costs_from_benefits: cell of wrong length": lambda: cc.costs_from_benefits(
            data,
            label="label",
            amount="amount",
            benefit={("Y", "p"): lambda a: a[:2], ("N", "n"): 1},
        ),
        "costs_from_benefits: amount=<Series>": lambda: cc.costs_from_benefits(
            data, label="label", amount=data["amount"], benefit={("Y", "p"): 1, ("N", "n"): 1}
        ),
        "costs_from_benefits: keys as strings": lambda: cc.costs_from_benefits(
            data, label="label", amount="amount", benefit={"Yp": 1}
        ),
        "resample_classes: ratios=[]": lambda: cc.resample_classes(data, label="label", ratios=[]),
        "resample_classes: ratios=[0]": lambda: cc.resample_classes(
            data, label="label", ratios=[0]
        ),
        "resample_classes: ratios=['2']": lambda: cc.resample_classes(
            data, label="label", ratios=["2"]
        ),
        "resample_classes: ratios=2": lambda: cc.resample_classes(data, label="label", ratios=2),
        "resample_classes: resampling='smote'": lambda: cc.resample_classes(
            data, label="label", ratios=[2], resampling="smote"
        ),
        "resample_classes: method='smote' (old name)": lambda: cc.resample_classes(
            data, label="label", ratios=[2], method="smote"
        ),
        "resample_classes: label='nope'": lambda: cc.resample_classes(
            data, label="nope", ratios=[2]
        ),
        "resample_classes: one class only": lambda: cc.resample_classes(
            data[data["label"] == 1], label="label", ratios=[2]
        ),
        "resample_classes: rng=-1": lambda: cc.resample_classes(
            data, label="label", ratios=[2], rng=-1
        ),
        "bootstrap_band: simultaneous='yes'": lambda: cc.bootstrap_band(
            data, score="score", label="label", simultaneous="yes"
        ),
        "bootstrap_band: simultaneous with 20 resamples": lambda: cc.bootstrap_band(
            data, score="score", label="label", simultaneous=True, n_resamples=20
        ),
    }
    for label, call in option_cases.items():
        expect = EITHER if label in ("band_at: pc=2", "compare: names=('tie', 'b')") else ERROR
        if "<pyarrow>" in label or "<polars>" in label:
            expect = RESULT
        add(label, call, expect)

    # -- 5. conversions ------------------------------------------------------------------------------
    conversions = {
        "pc_from_costs": (cc.pc_from_costs, 1),
        "pc_from_cost_ratio": (cc.pc_from_cost_ratio, 1),
        "pc_from_slope": (cc.pc_from_slope, 1),
        "slope_from_pc": (cc.slope_from_pc, 1),
        "cost_ratio_from_pc": (cc.cost_ratio_from_pc, 1),
        "p_pos_from_pc": (cc.p_pos_from_pc, 1),
        "roc_point_to_cost_line": (cc.roc_point_to_cost_line, 2),
        "cost_line_to_roc_point": (cc.cost_line_to_roc_point, 2),
        "roc_line_to_cost_point": (cc.roc_line_to_cost_point, 2),
        "cost_point_to_roc_line": (cc.cost_point_to_roc_line, 2),
    }
    for fname, (function, arity) in conversions.items():
        for value in ("x", None, math.nan, -1.0, [[0.1, 0.2]], [0.1, 0.2, 0.3], {"a": 1}, 2.0):
            args = (value, 0.5)[:arity] if arity == 2 else (value,)
            # Numbers outside a range and arrays may have an answer (the functions broadcast).
            expect = EITHER if value in (2.0, -1.0) or isinstance(value, list) else ERROR
            add(f"{fname}: {value!r}", lambda f=function, a=args: f(*a), expect)

    # -- 6. charts and saving -------------------------------------------------------------------------
    chart_functions = {
        "cost_chart": lambda t, **k: cc.cost_chart(t, **k),
        "roc_chart": lambda t, **k: cc.roc_chart(t, **k),
        "roc_cost_chart": lambda t, **k: cc.roc_cost_chart(t, **k),
        "band_chart": lambda t, **k: cc.band_chart(t, **k),
        "difference_chart": lambda t, **k: cc.difference_chart(t, **k),
    }
    grouped_band = cc.bootstrap_band(
        data, score="score", label="label", by="classifier", pc=np.linspace(0, 1, 11)
    )
    tables = {
        "cost_chart": points,
        "roc_chart": points,
        "roc_cost_chart": points,
        "band_chart": grouped_band,
        "difference_chart": difference.assign(dataset="x"),
    }
    chart_options = {
        "classifier='nope'": {"classifier": "nope"},
        "facet='nope'": {"facet": "nope"},
        "columns=0": {"columns": 0},
        "columns='x'": {"columns": "x"},
        "size=0": {"size": 0},
        "size='big'": {"size": "big"},
        "y_max=0": {"y_max": 0},
        "y_max=nan": {"y_max": math.nan},
        "y_max='x'": {"y_max": "x"},
        "markers='abc'": {"markers": "abc"},
        "markers=[2]": {"markers": [2.0]},
        "markers={'x': nan}": {"markers": {"x": math.nan}},
        "iso='x'": {"iso": "x"},
        "iso=[-1]": {"iso": [-1.0]},
        "max_points=nan": {"max_points": math.nan},
        "classifier=[['classifier']]": {"classifier": [["classifier"]]},
        "facet=<Series>": {"facet": points["classifier"]},
        "combined='yes'": {"combined": "yes"},
        "combined=None": {"combined": None},
    }
    import inspect

    for fname, function in chart_functions.items():
        parameters = inspect.signature(getattr(cc, fname)).parameters
        for label, kwargs in chart_options.items():
            if all(k in parameters for k in kwargs):
                add(f"{fname}: {label}", lambda f=function, t=tables[fname], k=kwargs: f(t, **k))
        for label, value in {
            "None": None,
            "<pyarrow>": pa.Table.from_pandas(tables[fname]),
            "<polars>": pl.from_pandas(tables[fname]),
            "empty table": tables[fname].iloc[:0],
        }.items():
            # Converted tables lose their grouping: refused naming by= when it has
            # grouping columns, else drawn.
            expect = EITHER if label in ("<pyarrow>", "<polars>") else ERROR
            add(f"{fname}: {label}", lambda f=function, v=value: f(v), expect)
    layer_tables = {
        "cost_lines": lines,
        "envelope": envelope,
        "hull": cc.roc_hull(points),
        "roc_curve": points,
        "roc_markers": points,
        "operating_ranges": cc.operating_range(points),
        "band": grouped_band,
    }
    for layer, table in layer_tables.items():
        function = getattr(cc.layers, layer)
        for label, value in {
            "<pyarrow>": pa.Table.from_pandas(table),
            "<dict>": table.to_dict("list"),
            "None": None,
            "classifier='nope'": table,
        }.items():
            kwargs = {"classifier": "nope"} if label == "classifier='nope'" else {}
            # A converted table has lost its grouping: refused, naming detail=, when it has
            # grouping columns the layer was not told about.
            expect = EITHER if label == "<pyarrow>" else ERROR
            add(f"layers.{layer}: {label}", lambda f=function, v=value, k=kwargs: f(v, **k), expect)
    add(
        "layers.selected: space='x'",
        lambda: cc.layers.selected(cc.neyman_pearson(points, max_fpr=0.2), space="x"),
    )
    add(
        "layers.average_band: spread='x'",
        lambda: cc.layers.average_band(cc.vertical_average(envelope, over="fold"), spread="x"),
    )
    add(
        "layers.roc_spread: axis='x'",
        lambda: cc.layers.roc_spread(cc.roc_average(points, over="fold"), axis="x"),
    )
    add("layers.pc_markers: 'abc'", lambda: cc.layers.pc_markers("abc"))
    add("layers.pc_markers: [2]", lambda: cc.layers.pc_markers([2.0]))
    add("layers.pc_markers: None", lambda: cc.layers.pc_markers(None))
    add(
        "layers.selected of iso_performance with a 'classifier' group",
        lambda: cc.layers.selected(cc.iso_performance(points, pc=0.3), space="roc"),
        RESULT,
    )

    # Column names with Vega-Lite's special characters: must keep their legend.
    for special in ("a.b", "a[0]", "a:b", "a'b", 'a"b', "", "a\\b"):
        renamed = points.rename(columns={"classifier": special})

        def legend_kept(result, name=special):
            spec = result.to_dict(validate=True)
            text = json.dumps(spec)
            assert "logistic" in text and "tree" in text, "group values missing from the spec"
            import vl_convert as vlc

            from costchart._export.image import vl_version

            svg = vlc.vegalite_to_svg(spec, vl_version=vl_version())
            assert "logistic" in svg and "tree" in svg, f"legend lost for column {name!r}"

        # '' and a backslash cannot be drawn at all (Vega-Lite drops the escape): refused,
        # with the reason and the fix; the others must keep their legend.
        drawable = special not in ("", "a\\b")
        expect = RESULT if drawable else ERROR
        must = "" if drawable else r"cannot be drawn.*rename the column"
        for fname in ("cost_chart", "roc_chart"):
            add(
                f"{fname}: classifier={special!r} (special characters)",
                lambda f=chart_functions[fname], t=renamed, s=special: f(t, classifier=s),
                expect,
                legend_kept,
                message_must=must,
            )
        add(
            f"cost_chart: facet={special!r} (special characters)",
            lambda t=renamed, s=special: cc.cost_chart(t, facet=s),
            expect,
            legend_kept,
            message_must=must,
        )
        for fname in ("cost_chart", "roc_cost_chart"):
            add(
                f"{fname}: classifier={special!r}, combined=True (special characters)",
                lambda f=chart_functions[fname], t=renamed, s=special: f(
                    t, classifier=s, combined=True
                ),
                expect,
                legend_kept,
                message_must=must,
            )

    save_cases = {
        "save: scale_factor='2' (png)": lambda: cc.save(chart, tmp / "a.png", scale_factor="2"),
        "save: scale_factor=nan (png)": lambda: cc.save(
            chart, tmp / "b.png", scale_factor=math.nan
        ),
        "save: scale_factor=0": lambda: cc.save(chart, tmp / "c.png", scale_factor=0),
        "save: scale_factor=None": lambda: cc.save(chart, tmp / "d.png", scale_factor=None),
        "save: title=123": lambda: cc.save(chart, tmp / "e.html", title=123),
        "save: title=['x']": lambda: cc.save(chart, tmp / "f.html", title=["x"]),
        "save: title= for a PNG (a page's title)": lambda: cc.save(chart, tmp / "f.png", title="x"),
        "save: to a directory": lambda: cc.save(chart, tmp),
        "save: to a directory named x.json": lambda: cc.save(
            chart, (tmp / "dir.json").mkdir() or tmp / "dir.json"
        ),
        "save: under a missing parent": lambda: cc.save(chart, tmp / "missing" / "c.json"),
        "save: under a file, not a folder": lambda: cc.save(
            chart, (tmp / "file.txt").write_text("x") and tmp / "file.txt" / "c.json"
        ),
        "save: where the file system takes no new files": lambda: cc.save(chart, "/proc/c.json"),
        "save: suffix .txt": lambda: cc.save(chart, tmp / "c.txt"),
        "save: path=None": lambda: cc.save(chart, None),
        "save: path=3": lambda: cc.save(chart, 3),
        "save: chart=None": lambda: cc.save(None, tmp / "g.json"),
        "save: chart='x'": lambda: cc.save("x", tmp / "h.json"),
        "save: invalid dict spec to .html": lambda: cc.save({"mark": 3}, tmp / "i.html"),
        "save: invalid dict spec to .json": lambda: cc.save({"mark": 3}, tmp / "j.json"),
        "save: invalid dict spec to .svg": lambda: cc.save({"mark": 3}, tmp / "k.svg"),
        "report: title=None": lambda: cc.report([chart], tmp / "r1.html", title=None),
        "report: title=123": lambda: cc.report([chart], tmp / "r2.html", title=123),
        "report: charts=[]": lambda: cc.report([], tmp / "r3.html"),
        "report: charts=None": lambda: cc.report(None, tmp / "r4.html"),
        "report: one chart, not a list": lambda: cc.report(chart, tmp / "r5.html"),
        "report: under a missing parent": lambda: cc.report([chart], tmp / "no" / "r.html"),
        "report: to a directory": lambda: cc.report([chart], tmp),
        "report: path=3": lambda: cc.report([chart], 3),
        "report: charts=[3]": lambda: cc.report([3], tmp / "r6.html"),
        "report: charts=[chart, None]": lambda: cc.report([chart, None], tmp / "r7.html"),
        "report: charts=[{'a': 1}]": lambda: cc.report([{"a": 1}], tmp / "r8.html"),
        "markdown: text=3": lambda: cc.markdown(3),
        "markdown: text=None": lambda: cc.markdown(None),
        "markdown: text=b'x'": lambda: cc.markdown(b"x"),
    }
    for label, call in save_cases.items():
        add(label, call, EITHER if label == "report: one chart, not a list" else ERROR)
    # Valid: text, tables and hostile text are sections of a report.
    add("report: charts=['x']", lambda: cc.report(["x"], tmp / "r9.html"), RESULT)
    add(
        "report: a table, Markdown and hostile text",
        lambda: cc.report(
            [pd.DataFrame({"<b>": ["</script>"]}), cc.markdown("[x](javascript:1)"), "<img>"],
            tmp / "r10.html",
        ),
        RESULT,
    )
    add("enable_offline: twice, each undone", lambda: _offline_twice(cc), RESULT)

    # -- 7. wrong answers (issue 10, section 2): each check states the right answer -------------------
    def near(expected, *, column, row=None, at=None, tol=1e-4):
        def check(result):
            frame = result if row is None else result.iloc[[row]]
            if at is not None:
                frame = result[np.isclose(result[at[0]], at[1])]
            value = float(frame[column].iloc[0])
            assert abs(value - expected) <= tol, f"{column} = {value!r}, expected {expected!r}"

        return check

    folds = pd.DataFrame({"fold": [0, 1], "fpr": [0.04, 0.3], "tpr": [0.4, 0.8]})
    add(
        "roc_average of curves without corners: TPR at FPR 0.17 is 0.4673",
        lambda: cc.roc_average(folds, over="fold", grid=[0.17]),
        RESULT,
        near(0.4673, column="tpr", row=0),
    )
    # Ten folds of 24 instances (seed found by search): vertices whose pc differ by ~1e-17.
    ten_rng = np.random.default_rng(178)
    ten_n = int(ten_rng.integers(5, 40))
    ten_frames = []
    for k in range(10):
        y = (ten_rng.random(ten_n) < 0.4).astype(int)
        y[0], y[-1] = 1, 0
        s = np.round(ten_rng.normal(size=ten_n) + y, 1)
        ten_frames.append(cc.roc_points({"s": s, "y": y}, score="s", label="y").assign(fold=k))
    ten = pd.concat(ten_frames, ignore_index=True)
    add(
        "curve_points(vertical_average(ten folds)): rates in [0, 1]",
        lambda: cc.curve_points(cc.vertical_average(ten, over="fold")),
        RESULT,
    )
    big = 2**53
    add(
        "roc_points: int64 scores above 2**53 stay distinct",
        lambda: cc.roc_points(
            {"s": np.array([big, big + 1, big + 2, big + 3], dtype=np.int64), "y": [1, 0, 1, 0]},
            score="s",
            label="y",
        ),
        RESULT,
        lambda r: (
            (_ for _ in ()).throw(AssertionError(f"{len(r)} points, expected 5"))
            if len(r) != 5
            else None
        ),
    )
    add(
        "roc_points: weights 1e308",
        lambda: cc.roc_points(
            {"s": [3, 2, 1, 0], "y": [1, 0, 1, 0], "w": [1e308] * 4},
            score="s",
            label="y",
            weight="w",
        ),
        EITHER,
    )
    from costchart.datasets import load_predictions

    credit = load_predictions().query("dataset == 'credit' and classifier == 'logistic'")
    credit_envelope = cc.lower_envelope(
        cc.roc_points(credit[credit.fold == 0], score="score", label="label")
    )
    same = pd.concat([credit_envelope.assign(fold=k) for k in range(10)], ignore_index=True)
    add(
        "vertical_average of identical curves: sd is 0",
        lambda: cc.vertical_average(same, over="fold"),
        RESULT,
        lambda r: (
            None
            if (r["cost_sd"] == 0).all()
            else (_ for _ in ()).throw(AssertionError(f"sd up to {r['cost_sd'].max()!r}"))
        ),
    )
    short = pd.DataFrame({"fold": [0, 0, 1, 1], "pc": [0, 1, 0, 0.5], "cost": [0, 0, 0, 0.3]})
    add(
        "vertical_average: a curve not spanning [0, 1]",
        lambda: cc.vertical_average(short, over="fold"),
    )
    nan_curve = one_envelope.assign(cost=np.nan)
    add("compare: a NaN curve", lambda: cc.compare(nan_curve, one_envelope))
    negative = pd.DataFrame({"pc": [0, 0.5, 1], "cost": [0, -5, 0]})
    add("cost_at: a negative-cost curve", lambda: cc.cost_at(negative, 0.5))
    add("expected_cost: a negative-cost curve", lambda: cc.expected_cost(negative))
    add(
        "auc: an empty ungrouped points table",
        lambda: cc.auc(one_points.iloc[:0]),
        EITHER,
        lambda r: None if len(r) == 0 else fail(f"auc of nothing = {r['auc'].tolist()}"),
    )
    # Messages that name the real cause (issue 10, section 6).
    add(
        "roc_points: all-zero weights (message)",
        lambda: cc.roc_points(
            {"s": [1.0, 2.0], "y": [1, 0], "w": [0.0, 0.0]}, score="s", label="y", weight="w"
        ),
        message_must_not="no positives|no negatives",
    )
    add(
        "roc_points: an empty frame (message)",
        lambda: cc.roc_points({"s": [], "y": []}, score="s", label="y"),
        message_must_not="no positives|no negatives",
    )
    add(
        "from_confusion: counts 2**62 (right rates, or a message that names the cause)",
        lambda: cc.from_confusion(
            {"TP": [2**62], "FN": [2**62], "FP": [2**62], "TN": [2**62]},
            tp="TP",
            fn="FN",
            fp="FP",
            tn="TN",
        ),
        EITHER,
        near(0.5, column="tpr", row=1),
        message_must_not="no positives|no negatives",
    )
    repeated = data.assign(instance=data["instance"] % 120)
    add(
        "difference_band: instances repeated across folds (message suggests by=)",
        lambda: cc.difference_band(
            repeated,
            score="score",
            label="label",
            classifier="classifier",
            instance="instance",
            pc=[0.5],
        ),
        message_must="by=",
    )

    def warnings_of(call):
        def run():
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                call()
            return tuple(str(w.message) for w in caught)

        return run

    add(
        "roc_points: a None group key is not shown as nan (warning)",
        warnings_of(
            lambda: cc.roc_points(
                {"g": [None, None, "a", "a"], "s": [1, 2, 1, 2], "y": [1, 1, 1, 0]},
                score="s",
                label="y",
                by="g",
            )
        ),
        RESULT,
        lambda messages: (
            fail(f"warning says {messages}") if any("nan" in m for m in messages) else None
        ),
    )
    add(
        "auc: an empty points table",
        lambda: cc.auc(points.iloc[:0]),
        EITHER,
        lambda r: (
            None
            if len(r) == 0
            else (_ for _ in ()).throw(AssertionError(f"auc of nothing = {r['auc'].tolist()}"))
        ),
    )
    grouped = cc.apply_selection(
        data, selection, score="score", label="label", by=["classifier", "fold"]
    )

    def same_as_grouped(result):
        pd.testing.assert_frame_equal(result, grouped)

    add(
        "apply_selection without by= (must not pool the groups)",
        lambda: cc.apply_selection(data, selection, score="score", label="label"),
        EITHER,
        same_as_grouped,
    )
    add(
        "iso_performance: grouping column 'classifier'",
        lambda: cc.iso_performance(points, pc=0.3),
        RESULT,
    )
    add(
        "to_cost_lines(neyman_pearson(...)): role/weight are not groups",
        lambda: cc.to_cost_lines(cc.neyman_pearson(points, max_fpr=0.2)),
        RESULT,
        lambda r: (
            None
            if [c for c in r.columns if c in ("role", "weight")] == []
            else (_ for _ in ()).throw(AssertionError(f"columns {list(r.columns)}"))
        ),
    )

    # Issue 31, item 11: words and code agree with the reference packages.
    proc = {"s": [0, 0, 0, 10, 10, 1, 1, 1, -5, -5], "y": [1] * 5 + [0] * 5}
    add(
        "auc_ci(direction='auto'): pROC's median rule, '>' and AUC 0.36",
        lambda: cc.auc_ci(proc, score="s", label="y", direction="auto"),
        RESULT,
        lambda r: (
            near(0.36, column="auc", row=0, tol=1e-12)(r)
            if r["direction"].iat[0] == "lower"
            else fail(f"direction {r['direction'].iat[0]!r}, expected 'lower' (pROC's '>')")
        ),
    )
    severity_y = [1] * 10 + [0] * 10
    add(
        "h_measure(severity_ratio=100): misses positives 0.51 (false alarms cost more)",
        lambda: cc.h_measure(
            {"s": [1] * 6 + [0] * 14, "y": severity_y},
            score="s",
            label="y",
            severity_ratio=100,
        ),
        RESULT,
        near(0.50963, column="h_measure", row=0, tol=1e-5),
    )
    add(
        "h_measure(severity_ratio=100): false alarms 0.35",
        lambda: cc.h_measure(
            {"s": [1] * 14 + [0] * 6, "y": severity_y},
            score="s",
            label="y",
            severity_ratio=100,
        ),
        RESULT,
        near(0.34821, column="h_measure", row=0, tol=1e-5),
    )
    # Issue 31, item 10: a percentile interval past the work cap, refused before drawing.
    add(
        "auc_ci: a percentile interval past the work cap",
        lambda: cc.auc_ci(data, score="s", label="y", inference="bootstrap", n_resamples=10**9),
    )

    # -- 7b. issue 22: the scikit-learn bridge, re-checked tables, the edges -------------------
    _edge_cases(add, tmp)

    # -- 7c. issue 31: grouping names, the coverage helpers, thinned points -------------------
    from sweep_issue31_edges import issue31_edge_cases

    issue31_edge_cases(add)

    # -- 7d. issue 31: input kinds (repeated names, wide integers) and weights ----------------
    from sweep_issue31_inputs import issue31_input_cases

    issue31_input_cases(add)

    # -- 7e. issue 31, item 4: integer scores past 2**53, exact everywhere -------------------
    from sweep_big_integers import big_integer_cases

    big_integer_cases(add)

    # -- 7f. issue 31, item 1: chart values that are not plain numbers or strings ---------------------
    from sweep_chart_values import chart_value_cases

    chart_value_cases(add)

    # -- 8. calls that can kill Python: in a subprocess -------------------------------------------
    sub = {
        "save: PNG with scale_factor=1000": f"""
            import costchart as cc
            points = cc.roc_points({{"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}}, score="s", label="y")
            cc.save(cc.roc_chart(points), {str(tmp / "huge.png")!r}, scale_factor=1000)
        """,
        "save: PNG of a 1000-group cost chart": f"""
            import numpy as np, pandas as pd, costchart as cc
            rng = np.random.default_rng(0)
            y = rng.random(200_000) < 0.4
            data = pd.DataFrame({{"g": np.repeat(np.arange(1000), 200), "s": rng.normal(size=200_000) + y,
                                 "y": y}})
            cc.save(cc.cost_chart(cc.roc_points(data, score="s", label="y", by="g"), classifier="g"),
                    {str(tmp / "many.png")!r})
        """,
        "save: invalid dict spec to .png": f"""
            import costchart as cc
            cc.save({{"mark": 3}}, {str(tmp / "bad.png")!r})
        """,
        "confusion_band: exact distribution of counts 1e9": """
            import costchart as cc
            counts = {"TP": [10**9], "FN": [10**9], "FP": [10**9], "TN": [10**9]}
            cc.confusion_band(counts, tp="TP", fn="FN", fp="FP", tn="TN", interval="discrete",
                              pc=[0.5])
        """,
        "bootstrap_band: inference='bootstrap', n_resamples=10**9": """
            import costchart as cc
            cc.bootstrap_band({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y",
                              inference="bootstrap", n_resamples=10**9, pc=[0.5])
        """,
        "roc_points: bins=10**9": """
            import costchart as cc
            cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y", bins=10**9)
        """,
        "roc_points: lazy polars, 5M rows, bins=1000 gives 1001 points": """
            import numpy as np, polars as pl, costchart as cc
            rng = np.random.default_rng(0)
            y = rng.random(5_000_000) < 0.3
            frame = pl.DataFrame({"s": rng.normal(size=5_000_000) + y, "y": y}).lazy()
            points = cc.roc_points(frame, score="s", label="y", bins=1000)
            if not 990 <= len(points) <= 1001:
                OUTCOME, DETAIL = "wrong", f"{len(points)} points, expected about 1001"
            else:
                OUTCOME = "ok"
        """,
    }
    for label, code in sub.items():
        expect = RESULT if "gives 1001" in label else ERROR
        cases.append(Case(label, code, expect))
    return cases


def _edge_cases(add, tmp: Path) -> None:
    """The cases issue 22 found raw or accepted: each must now be a clear CostchartError."""
    import numpy as np
    import pandas as pd
    import scipy.sparse
    from sklearn.datasets import make_classification
    from sklearn.linear_model import LinearRegression, LogisticRegression
    from sklearn.model_selection import (
        GroupKFold,
        KFold,
        TunedThresholdClassifierCV,
        cross_validate,
    )
    from sklearn.naive_bayes import GaussianNB

    import costchart as cc
    from costchart import layers

    X, y = make_classification(n_samples=90, n_features=4, random_state=0)
    rows = np.arange(len(y))
    model = LogisticRegression().fit(X, y)
    results = cross_validate(
        LogisticRegression(), X, y, cv=3, return_estimator=True, return_indices=True
    )
    selection = cc.selection_table(
        cc.roc_points({"s": [1.0, 2.0, 3.0, 4.0], "y": [0, 1, 0, 1]}, score="s", label="y")
    )
    with_nan = X.copy()
    with_nan[3, 1] = np.nan
    bridge = {
        "predictions: unfitted estimator, no cv": lambda: cc.predictions(
            LogisticRegression(), X, y
        ),
        "predictions: a list of estimators": lambda: cc.predictions(
            [LogisticRegression()], X, y, cv=3
        ),
        "predictions: a non-estimator": lambda: cc.predictions({"a": 3}, X, y, cv=3),
        "predictions: cv=0": lambda: cc.predictions(LogisticRegression(), X, y, cv=0),
        "predictions: cv=1": lambda: cc.predictions(LogisticRegression(), X, y, cv=1),
        "predictions: cv='3'": lambda: cc.predictions(LogisticRegression(), X, y, cv="3"),
        "predictions: more folds than rows": lambda: cc.predictions(
            LogisticRegression(), X, y, cv=91
        ),
        "predictions: a one-class training fold": lambda: cc.predictions(
            LogisticRegression(), X, np.sort(y), cv=KFold(2)
        ),
        "predictions: GroupKFold without groups": lambda: cc.predictions(
            LogisticRegression(), X, y, cv=GroupKFold(3)
        ),
        "predictions: NaN in X": lambda: cc.predictions(LogisticRegression(), with_nan, y, cv=3),
        "predictions: duplicated column names": lambda: cc.predictions(
            LogisticRegression(), pd.DataFrame(X, columns=list("aabc")), y, cv=3
        ),
        "predictions: overlapping test folds": lambda: cc.predictions(
            LogisticRegression(), X, y, cv=[(rows[:60], rows[30:]), (rows[30:], rows[:60])]
        ),
        "from_cv_results: X shorter than the indices": lambda: cc.from_cv_results(
            results, X[:40], y[:40]
        ),
        "from_cv_results: negative indices": lambda: cc.from_cv_results(
            {**results, "indices": {"test": [-t - 1 for t in results["indices"]["test"]]}}, X, y
        ),
        "from_cv_results: fewer estimators than folds": lambda: cc.from_cv_results(
            {**results, "estimator": results["estimator"][:2]}, X, y
        ),
        "from_cv_results: unfitted estimators": lambda: cc.from_cv_results(
            {**results, "estimator": [LogisticRegression()] * 3}, X, y
        ),
        "threshold_classifier: a regressor": lambda: cc.threshold_classifier(
            LinearRegression().fit(X, y), selection, pc=0.3
        ),
        "threshold_classifier: not an estimator": lambda: cc.threshold_classifier(
            "model", selection, pc=0.3
        ),
        "threshold_classifier: a 3-class model": lambda: cc.threshold_classifier(
            LogisticRegression().fit(X, rows % 3), selection, pc=0.3
        ),
        "threshold_classifier: pos_label not a class": lambda: cc.threshold_classifier(
            model, selection, pc=0.3, pos_label=7
        ),
        "threshold_classifier: unfitted": lambda: cc.threshold_classifier(
            LogisticRegression(), selection, pc=0.3
        ),
        "expected_cost_scorer(pc=): a regressor": lambda: cc.expected_cost_scorer(pc=0.3)(
            LinearRegression().fit(X, y), X, y
        ),
        "expected_cost_scorer(): a regressor": lambda: cc.expected_cost_scorer()(
            LinearRegression().fit(X, y), X, y
        ),
    }
    constant = X.copy()
    constant[:, 0] = 1.0
    overlapping = [rows[:40], rows[30:70], rows[70:]]
    bridge |= {  # issue 31, item 7
        "expected_cost_scorer(): density scorer in TunedThresholdClassifierCV": lambda: (
            TunedThresholdClassifierCV(
                LogisticRegression(), scoring=cc.expected_cost_scorer(), cv=3
            ).fit(X, y)
        ),
        "expected_cost_scorer(pc=, pos_label=7)": lambda: cc.expected_cost_scorer(
            pc=0.2, pos_label=7
        )(model, X, y),
        "from_cv_results: a non-iterable estimator entry": lambda: cc.from_cv_results(
            {**results, "estimator": 5}, X, y
        ),
        "from_cv_results: non-iterable test indices": lambda: cc.from_cv_results(
            {**results, "indices": {"test": [1, 2, 3]}}, X, y
        ),
        "from_cv_results: overlapping test folds": lambda: cc.from_cv_results(
            {**results, "indices": {"test": overlapping}}, X, y
        ),
        "predictions: a generator cv= that cannot split (no groups)": lambda: cc.predictions(
            LogisticRegression(), X, y, cv=GroupKFold(3).split(X, y)
        ),
        "expected_cost_scorer(): NaN scores": lambda: cc.expected_cost_scorer()(
            GaussianNB(var_smoothing=0).fit(constant, y), constant, y
        ),
        "predictions: all-NaN scores (GaussianNB, var_smoothing=0, constant feature)": lambda: (
            cc.predictions(GaussianNB(var_smoothing=0), constant, y, cv=3)
        ),
    }
    for label, call in bridge.items():
        add(label, call)

    def rows_of_both(result):
        sizes = result.groupby("classifier").size().to_dict()
        assert sizes == {"a": len(y), "b": len(y)}, f"rows per classifier {sizes}"

    add(
        "predictions: a generator cv= and two estimators",
        lambda: cc.predictions(
            {"a": LogisticRegression(), "b": GaussianNB()}, X, y, cv=KFold(3).split(X)
        ),
        RESULT,
        rows_of_both,
    )
    add(
        "predictions: a scipy sparse X",
        lambda: cc.predictions(LogisticRegression(), scipy.sparse.csr_matrix(X), y, cv=3),
        RESULT,
    )

    band = pd.DataFrame(
        {
            "pc": [0.2, 0.4],
            "difference": [-0.1, -0.05],
            "lower": [-0.15, -0.1],
            "upper": [-0.05, 0.01],
            "significant": [True, True],  # the band at 0.4 holds 0
        }
    )
    paired = pd.DataFrame(
        {"m": ["x"] * 6 + ["y"] * 6, "i": list(range(6)) * 2, "s": [1, 2, 3, 4, 5, 6] * 2}
    ).assign(y=[0, 1, 0, 1, 0, 1] * 2)
    data = {"s": np.r_[X[:, 0]], "y": y}
    tables = {
        "significant_regions: a flag its band contradicts": lambda: cc.significant_regions(
            band, a="a", b="b"
        ),
        "significant_regions: NaN bounds": lambda: cc.significant_regions(
            band.assign(upper=[np.nan, 0.1], significant=False), a="a", b="b"
        ),
        "auc_test: a=b": lambda: cc.auc_test(
            paired, score="s", label="y", classifier="m", instance="i", a="x", b="x"
        ),
        "difference_band: a=b": lambda: cc.difference_band(
            paired, score="s", label="y", classifier="m", instance="i", a="x", b="x"
        ),
        "palette: unhashable values": lambda: cc.palette([[1, 2], [3]]),
        "palette: a colour Vega cannot read": lambda: cc.palette(["A"], colors={"A": "notacolor"}),
        "cost_chart: palette= a colour Vega cannot read": lambda: cc.cost_chart(
            cc.roc_points(data, score="s", label="y"), palette={"x": "#12345"}
        ),
        "layers.key: a colour Vega cannot read": lambda: layers.key([("x", "line", "reddish")]),
        "layers.key: orient='middle'": lambda: layers.key([("x", "line")], orient="middle"),
        "layers.key: a colour that is no string": lambda: layers.key([("x", "line", 3)]),
        "save: a null character in the name": lambda: cc.save(
            cc.roc_chart(cc.roc_points(data, score="s", label="y")), f"{tmp}/a\0b.json"
        ),
        "save: a file name too long": lambda: cc.save(
            cc.roc_chart(cc.roc_points(data, score="s", label="y")), tmp / ("x" * 300 + ".json")
        ),
        "bootstrap_band: simultaneous at level 0.999999999999": lambda: cc.bootstrap_band(
            data, score="s", label="y", simultaneous=True, confidence_level=0.999999999999
        ),
        "auc_ci: percentile interval with DeLong": lambda: cc.auc_ci(
            data, score="s", label="y", interval="percentile"
        ),
        "auc_ci: direction='<'": lambda: cc.auc_ci(data, score="s", label="y", direction="<"),
        "auc_ci: a normal interval of resamples": lambda: cc.auc_ci(
            data, score="s", label="y", inference="bootstrap", interval="normal"
        ),
        "auc_ci: interval='discrete'": lambda: cc.auc_ci(
            data, score="s", label="y", interval="discrete"
        ),
        "auc_ci: inference='exact'": lambda: cc.auc_ci(
            data, score="s", label="y", inference="exact"
        ),
        "auc_ci: method= and inference= together": lambda: cc.auc_ci(
            data, score="s", label="y", method="delong", inference="delong"
        ),
        "auc_ci: method='exact'": lambda: cc.auc_ci(data, score="s", label="y", method="exact"),
        "net_benefit: inference='delong'": lambda: cc.net_benefit(
            data, score="s", label="y", inference="delong"
        ),
        "net_benefit: interval='percentile' without resamples": lambda: cc.net_benefit(
            data, score="s", label="y", interval="percentile"
        ),
        "net_benefit: n_resamples=10": lambda: cc.net_benefit(
            data, score="s", label="y", inference="bootstrap", n_resamples=10
        ),
        "net_benefit: rng='x'": lambda: cc.net_benefit(
            data, score="s", label="y", inference="bootstrap", rng="x"
        ),
        "net_benefit: interval=None": lambda: cc.net_benefit(
            data, score="s", label="y", interval=None
        ),
        "h_measure: severity_ratio=0": lambda: cc.h_measure(
            data, score="s", label="y", severity_ratio=0
        ),
        "h_measure: severity_ratio='x'": lambda: cc.h_measure(
            data, score="s", label="y", severity_ratio="x"
        ),
        "h_measure: severity_ratio=nan": lambda: cc.h_measure(
            data, score="s", label="y", severity_ratio=float("nan")
        ),
        "h_measure: a missing score column": lambda: cc.h_measure(data, score="nope", label="y"),
        "expected_loss: threshold_choice='brier'": lambda: cc.expected_loss(
            data, score="s", label="y", threshold_choice="brier"
        ),
        "expected_loss: threshold_choice='score' (the column's name)": lambda: cc.expected_loss(
            data, score="s", label="y", threshold_choice="score"
        ),
        "expected_loss: method='brier' (deprecated name)": lambda: cc.expected_loss(
            data, score="s", label="y", method="brier"
        ),
        "expected_loss: method= and threshold_choice= together": lambda: cc.expected_loss(
            data, score="s", label="y", method="rate", threshold_choice="rate_driven"
        ),
        "expected_loss: threshold_choice='fixed' without a threshold": lambda: cc.expected_loss(
            data, score="s", label="y", threshold_choice="fixed"
        ),
        "expected_loss: a threshold without threshold_choice='fixed'": lambda: cc.expected_loss(
            data, score="s", label="y", threshold=0.5
        ),
        "expected_loss: score= without label=": lambda: cc.expected_loss(data, score="s"),
        "expected_loss: raw data without score= and label=": lambda: cc.expected_loss(data),
        "pr_points: score= without label=": lambda: cc.pr_points(data, score="s"),
        "pr_points: raw data without score= and label=": lambda: cc.pr_points(data),
        "pr_points: pos_label= with a points table": lambda: cc.pr_points(
            cc.roc_points(data, score="s", label="y"), pos_label=1
        ),
        "pr_points: weight= with a points table": lambda: cc.pr_points(
            cc.roc_points(data, score="s", label="y"), weight="s"
        ),
        "expected_loss: score_driven on scores beyond [0, 1]": lambda: cc.expected_loss(
            {"s": [-2.0, 0.5, 3.0, 1.0], "y": [0, 1, 1, 0]},
            score="s",
            label="y",
            threshold_choice="score_driven",
        ),
        "expected_loss: fixed on points without thresholds": lambda: cc.expected_loss(
            {"fpr": [0.1, 0.5], "tpr": [0.4, 0.9]}, threshold_choice="fixed", threshold=0.5
        ),
        "rate_driven_curve: two classifiers' points in one group": lambda: cc.rate_driven_curve(
            {"fpr": [0.1, 0.3], "tpr": [0.8, 0.5]}
        ),
        "rate_driven_curve: raw data": lambda: cc.rate_driven_curve(data),
        "average_chart: over=True": lambda: cc.average_chart(
            cc.roc_points(data, score="s", label="y"), over=True
        ),
        "thin_points: the text '1' in a count column": lambda: cc.thin_points(
            cc.roc_points(data, score="s", label="y").assign(
                fp=lambda t: t.fp.astype(object).where(t.index != 3, "1")
            ),
            max_points=2,
        ),
    }
    for label, call in tables.items():
        add(label, call, message_must=r"\S")


# -- main ---------------------------------------------------------------------------------------


#: The repository root, so the sweep imports this checkout's costchart.
ROOT = Path(__file__).resolve().parents[1]


def _column_names(table) -> list:
    """Column names of a pandas, polars or pyarrow table (pyarrow's .columns are arrays)."""
    names = getattr(table, "column_names", None)
    return list(names) if names is not None else list(getattr(table, "columns", []))


def main(argv=None) -> int:
    sys.path.insert(0, str(ROOT))
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-v", "--verbose", action="store_true", help="list every finding")
    parser.add_argument("-k", default="", help="only cases whose label contains this")
    parser.add_argument("--no-subprocess", action="store_true", help="skip the dangerous calls")
    parser.add_argument("--json", help="also write every outcome to this file")
    options = parser.parse_args(argv)
    import costchart

    print(f"costchart from {Path(costchart.__file__).parent}")
    guard_memory()
    with tempfile.TemporaryDirectory() as folder:
        cases = [c for c in build_cases(Path(folder)) if options.k in c.label]
        outcomes = []
        for case in cases:
            if isinstance(case.call, str):
                if options.no_subprocess:
                    continue
                outcome = run_in_subprocess(case)
            else:
                outcome = run_in_process(case)
            outcomes.append((case, *outcome))
    counts = Counter(kind for _, kind, _ in outcomes)
    returned = counts["wrong"] + counts["accepted"] + counts["ok"]
    print(f"costchart bad-input sweep: {len(outcomes)} calls")
    print(f"  {counts['clear']:4d} clear CostchartErrors")
    print(f"  {counts['raw']:4d} raw exceptions")
    print(
        f"  {returned:4d} returned results: {counts['wrong']} wrong or NaN, "
        f"{counts['accepted']} accepted a bad input (plausible result), "
        f"{counts['ok']} right answers to valid inputs"
    )
    print(f"  {counts['refused']:4d} valid inputs refused with a CostchartError")
    print(f"  {counts['timeout']:4d} timeouts")
    print(f"  {counts['dead']:4d} dead processes")
    raw_types = Counter(
        detail.split(":")[0].split(" at ")[0] for _, kind, detail in outcomes if kind == "raw"
    )
    if raw_types:
        print("  raw exception types: " + ", ".join(f"{t} {n}" for t, n in raw_types.most_common()))
    if options.verbose:
        for title, kind in (
            ("raw exceptions", "raw"),
            ("wrong or NaN results", "wrong"),
            ("valid inputs refused", "refused"),
            ("dead processes", "dead"),
            ("timeouts", "timeout"),
            ("bad inputs accepted", "accepted"),
        ):
            found = [(c, d) for c, k, d in outcomes if k == kind]
            if found:
                print(f"\n{title} ({len(found)}):")
                for case, detail in found:
                    print(f"  {case.label}  ->  {detail}")
    if options.json:
        Path(options.json).write_text(
            json.dumps(
                [{"label": c.label, "outcome": k, "detail": d} for c, k, d in outcomes], indent=1
            ),
            encoding="utf-8",
        )
    bad = counts["raw"] + counts["wrong"] + counts["refused"] + counts["dead"] + counts["timeout"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
