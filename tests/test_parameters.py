"""Every declared word (costchart/_io/parameters.py) has one constraint wherever it appears.

For every public function (``costchart.__all__`` and ``costchart.layers``) and every
parameter of it that is a declared word: each value the declaration lists as outside the
constraint is refused with a ``CostchartError`` naming that parameter, before the
function reads anything else (the other required arguments are placeholders that would
fail); the function's default is inside the constraint; and the function is checked
through the declaration (:func:`costchart._io.parameters.checked`).
"""

import inspect
import re

import numpy as np
import pytest

import costchart as cc
from costchart import layers
from costchart._io import parameters as _parameters
from costchart._io.parameters import WORDS

#: Stands for an argument the check must never reach (data, tables, charts).
PLACEHOLDER = object()


def _public():
    for prefix, module, names in (("", cc, cc.__all__), ("layers.", layers, layers.__all__)):
        for name in names:
            function = getattr(module, name)
            if callable(function) and not isinstance(function, type):
                yield prefix + name, function


PUBLIC = dict(_public())
TAKEN = [
    (qualified, parameter)
    for qualified, function in PUBLIC.items()
    for parameter in inspect.signature(function).parameters.values()
    if parameter.name in WORDS
]


def _bad_values(parameter):
    """The declaration's values outside the word, less ``None`` where it is the default."""
    word = WORDS[parameter.name]
    none_ok = parameter.default is None or word.none
    return [bad for bad in word.bad if not (bad is None and none_ok)]


CASES = [
    pytest.param(qualified, parameter.name, bad, id=f"{qualified}-{parameter.name}-{bad!r}")
    for qualified, parameter in TAKEN
    for bad in _bad_values(parameter)
]


def _call(function, name, value):
    """Call ``function`` with ``name=value``, declared words at their default or example."""
    args, kwargs = [], {}
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        if parameter.name == name:
            given = value
        elif parameter.default is not parameter.empty:
            continue
        elif parameter.name in WORDS:
            given = WORDS[parameter.name].example
        else:
            given = PLACEHOLDER
        if parameter.kind is parameter.POSITIONAL_ONLY:
            args.append(given)
        else:
            kwargs[parameter.name] = given
    return function(*args, **kwargs)


def test_there_are_cases_for_every_declared_word():
    taken = {parameter.name for _, parameter in TAKEN}
    assert set(WORDS) == taken, f"declared but taken by no function: {set(WORDS) - taken}"
    assert len(CASES) > 500


@pytest.mark.parametrize(("qualified", "name", "bad"), CASES)
def test_a_value_outside_the_word_is_refused_naming_it(qualified, name, bad):
    with pytest.raises(cc.CostchartError) as error:
        _call(PUBLIC[qualified], name, bad)
    message = str(error.value)
    assert re.search(rf"\b{name}(=|\[)", message), (
        f"{qualified}({name}={bad!r}) was refused without naming {name}=: {message}"
    )


@pytest.mark.parametrize(("qualified", "parameter"), TAKEN, ids=[f"{q}-{p.name}" for q, p in TAKEN])
def test_every_function_checks_its_words_through_the_declaration(qualified, parameter):
    function = PUBLIC[qualified]
    words = getattr(function, "costchart_words", {})
    assert parameter.name in words, (
        f"{qualified} takes {parameter.name}= without @checked (costchart/_io/parameters.py)"
    )
    default = parameter.default
    # None passes on where it is the default (it means the default), and only there
    # unless the word takes None everywhere.
    assert words[parameter.name] is (default is None or WORDS[parameter.name].none)
    if default is parameter.empty:
        WORDS[parameter.name].check(WORDS[parameter.name].example, parameter.name)
    elif default is not None:
        WORDS[parameter.name].check(default, parameter.name)  # raises if the default is outside


@pytest.mark.parametrize("name", sorted(WORDS))
def test_each_bad_value_is_outside_the_check_and_the_example_inside(name):
    word = WORDS[name]
    assert word.bad, f"{name} lists no value outside it"
    for bad in word.bad:
        with pytest.raises(cc.CostchartError, match=rf"\b{name}"):
            _parameters.check(name, bad)
    if word.example is not None:
        _parameters.check(name, word.example)
    for option in word.options or ():
        assert _parameters.check(name, option) == option


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("by", ()),
        ("by", ["classifier", "fold"]),
        ("pc", {"3:1": 0.75}),
        ("pc", np.linspace(0, 1, 5)),
        ("p_pos", np.array([0.1, 0.9])),
        ("cost_fn", np.array([1.0, 5.0])),
        ("threshold_choice", ["optimal", "fixed"]),
        ("rng", np.random.default_rng(0)),
        ("progress", print),
        ("max_points", None),
        ("score", 0),  # frames made from arrays have whole-number column names
        ("pos_label", "spam"),
        ("simultaneous", np.True_),
    ],
)
def test_values_inside_the_words_pass(name, value):
    result = _parameters.check(name, value)  # raises if the value is refused
    assert result is None if value is None else result is not None


def test_a_word_is_checked_before_the_function_reads_its_data():
    with pytest.raises(cc.CostchartError, match=r"confidence_level=1\.5 is outside \(0, 1\)"):
        cc.bootstrap_band(PLACEHOLDER, score="s", label="y", confidence_level=1.5)
    with pytest.raises(cc.CostchartError, match=r"size=10 must be a whole number of pixels"):
        cc.roc_chart(PLACEHOLDER, size=10)
    with pytest.raises(cc.CostchartError, match=r"max_points=1 must be a whole number of at"):
        layers.cost_lines(PLACEHOLDER, max_points=1)


def test_deprecated_names_are_translated_before_the_check():
    with (
        pytest.warns(FutureWarning, match=r"pass averaging='by_threshold'"),
        pytest.raises(cc.CostchartError, match=r"points of type object is not|not a table|points"),
    ):
        cc.roc_average(PLACEHOLDER, over="fold", method="threshold")


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (lambda: cc.roc_points({"s": [1, 0], "y": [1, 0]}), "missing 2 required"),
        (
            lambda: cc.cheapest_regions(
                cc.roc_points({"s": [1, 0], "y": [1, 0]}, score="s", label="y"), "g"
            ),
            "positional",
        ),
    ],
)
def test_a_call_that_does_not_bind_is_refused_with_the_signature(call, said):
    with pytest.raises(cc.CostchartError, match=said) as info:
        call()
    assert "every option by keyword" in str(info.value)
