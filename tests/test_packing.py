"""Packed inline data of HTML pages: the rows come back exactly, in order, and smaller."""

import json
import math
import random

import pytest

from costchart._export.packing import pack_datasets, pack_rows, unpack_rows


def _same(a, b) -> bool:
    """Equal as JSON, telling apart 1, 1.0 and True, and 0.0 and -0.0."""
    return json.dumps(a) == json.dumps(b)


def _random_rows(rng: random.Random, n: int) -> list[dict]:
    shapes = [["curve", "fold", "x"], ["curve", "pc", "cost", "flag"], ["label"]]
    rows = []
    shape = shapes[0]
    for _ in range(n):
        if rng.random() < 0.05:
            shape = rng.choice(shapes)
        values = {
            "curve": rng.choice(["a", "b", "ü </script>", ""]),
            "fold": rng.choice([0, 1, 1.0, True, False, None]),
            "x": rng.choice([rng.random(), -0.0, 0.0, 1, None]),
            "pc": round(rng.random(), 3),
            "cost": rng.choice([0.5, 0.25]),
            "flag": rng.random() < 0.5,
            "label": rng.choice([[1, 2], {"a": 1}, "text"]),
        }
        rows.append({key: values[key] for key in shape})
    return rows


@pytest.mark.parametrize("seed", range(20))
def test_rows_come_back_exactly_in_order(seed):
    rng = random.Random(seed)
    rows = _random_rows(rng, rng.randint(1, 400))
    packed = json.loads(json.dumps(pack_rows(rows)))  # as the page reads it
    assert _same(unpack_rows(packed), rows)


def test_values_python_finds_equal_stay_apart():
    rows = [{"v": v} for v in [1, 1.0, True, 0.0, -0.0, 0, False] * 3]
    assert _same(unpack_rows(pack_rows(rows)), rows)
    assert math.copysign(1.0, unpack_rows(pack_rows(rows))[4]["v"]) == -1.0


def test_repeated_keys_are_stored_once():
    rng = random.Random(0)
    rows = [
        {"dataset": "data 0", "classifier": f"model {c}", "fold": f, "fpr": rng.random()}
        for c in range(3)
        for f in range(10)
        for _ in range(100)
    ]
    (block,) = pack_rows(rows)["costchart_packed"]
    dataset, classifier, fold, fpr = block["columns"]
    assert dataset == {"values": ["data 0"], "runs": [0, 3000]}
    assert (
        classifier["values"] == ["model 0", "model 1", "model 2"] and len(classifier["runs"]) == 6
    )
    assert len(fold["runs"]) == 2 * 30
    assert fpr == [r["fpr"] for r in rows]  # no repeats worth coding: stored plainly
    plain, packed = len(json.dumps(rows)), len(json.dumps(pack_rows(rows)))
    assert packed < 0.3 * plain


def test_only_lists_of_rows_are_packed():
    spec = {"datasets": {"rows": [{"a": 1}], "empty": [], "numbers": [1, 2]}, "mark": "point"}
    packed = pack_datasets(spec)
    assert packed["datasets"]["empty"] == [] and packed["datasets"]["numbers"] == [1, 2]
    assert unpack_rows(packed["datasets"]["rows"]) == [{"a": 1}]
    assert spec["datasets"]["rows"] == [{"a": 1}]  # the spec itself is not changed
    assert pack_datasets({"mark": "point"}) == {"mark": "point"}
