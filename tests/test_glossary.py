"""Every public parameter is a word of docs/glossary.md, with the glossary's default.

The glossary's default column says one of three things about a word: a literal (the
default of every function where the word is optional, save the exceptions it names),
"required" (never optional) or "—" (no shared default; each function states its own).
``test_one_default_per_word`` has a case for each optional parameter whose word has a
shared default, a literal or "required". A parameter that is required where it is taken
has no default to compare, and a "—" word no shared default to compare with: those are
not cases of it (each is still checked to be in the glossary). The glossary is checked
from its side too: a shared default is the default of some function, and an exception
names a function that takes the word with a default other than the shared one.

The *Types and values* table is read as constraints and compared with the one declaration
the functions are checked through (``costchart/_io/parameters.py``): every declared word
has a row, with the declaration's text; the ends of each range written there are accepted
or refused as its brackets say; the strings listed are exactly the values accepted (and
those the word's meaning lists in the *Words* table); ``None`` is named where, and only
where, it is accepted everywhere.
"""

import ast
import functools
import inspect
import re
from pathlib import Path

import pytest

import costchart as cc
from costchart import datasets, layers
from costchart._io.parameters import WORDS
from costchart.datasets import binormal

GLOSSARY = Path(__file__).parent.parent / "docs" / "glossary.md"
REQUIRED = object()
ANY = object()


def _default(cell: str):
    cell = cell.strip()
    if cell.startswith("required"):
        return REQUIRED
    if cell.startswith("—"):
        return ANY
    literal = re.match(r"`([^`]+)`", cell)
    assert literal, f"glossary default {cell!r} is neither a literal, 'required' nor '—'"
    return ast.literal_eval(literal.group(1))


@functools.cache
def _glossary() -> dict[str, tuple[object, dict[str, object]]]:
    """word -> (default, {function: its exceptional default})."""
    text = GLOSSARY.read_text()
    words_section = text.split("## Words", 1)[1].split("\n## ", 1)[0]
    entries: dict[str, tuple[object, dict[str, object]]] = {}
    for line in words_section.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert len(cells) == 3, f"a glossary row needs word | meaning | default: {line}"
        words = re.findall(r"`(\w+)`", cells[0])
        parts = cells[2].split(";")
        default = _default(parts[0])
        exceptions = {}
        for part in parts[1:]:
            found = re.match(r"\s*`(\w+)`: `([^`]+)`", part)
            assert found, f"an exception reads `function`: `default`, not {part!r}"
            exceptions[found.group(1)] = ast.literal_eval(found.group(2))
        assert default is not ANY or not exceptions, f"a '—' word lists no exceptions: {line}"
        for word in words:
            assert word not in entries, f"{word!r} is in the glossary twice"
            entries[word] = (default, exceptions)
    return entries


def _public():
    """(qualified name, function) for everything public that takes parameters."""
    for prefix, module, names in (
        ("", cc, cc.__all__),
        ("layers.", layers, layers.__all__),
        ("datasets.", datasets, datasets.__all__),
        ("datasets.binormal.", binormal, binormal.__all__),
    ):
        for name in names:
            function = getattr(module, name)
            if callable(function) and not isinstance(function, type):
                yield prefix + name, name, function


PARAMETERS = [
    (qualified, short, parameter)
    for qualified, short, function in _public()
    for parameter in inspect.signature(function).parameters.values()
    if parameter.kind not in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD)
]


def test_the_glossary_parses_and_has_every_word_once():
    assert len(_glossary()) > 100


def test_every_public_parameter_is_in_the_glossary():
    words = _glossary()
    missing = sorted({f"{p.name} ({q})" for q, _, p in PARAMETERS if p.name not in words})
    assert not missing, f"add these words to docs/glossary.md: {missing}"


def test_every_glossary_word_is_used():
    used = {p.name for _, _, p in PARAMETERS}
    assert not set(_glossary()) - used, "the glossary lists words no function takes"


def _expected_default(short: str, name: str):
    """The glossary's default of word ``name`` in function ``short``."""
    default, exceptions = _glossary()[name]
    return exceptions.get(short, default)


#: Optional parameters whose word has a shared default (a literal or "required"); words
#: missing from the glossary are reported by test_every_public_parameter_is_in_the_glossary.
DEFAULTED = [
    (qualified, short, parameter)
    for qualified, short, parameter in PARAMETERS
    if parameter.default is not inspect.Parameter.empty
    and parameter.name in _glossary()
    and _expected_default(short, parameter.name) is not ANY
]


@pytest.mark.parametrize(("qualified", "short", "parameter"), DEFAULTED, ids=lambda x: str(x))
def test_one_default_per_word(qualified, short, parameter):
    expected = _expected_default(short, parameter.name)
    given = parameter.default
    assert expected is not REQUIRED, (
        f"{qualified}({parameter.name}=...) has a default, but the glossary says the word is "
        "always required"
    )
    assert type(given) is type(expected) and given == expected, (
        f"{qualified}({parameter.name}={given!r}): the glossary's default is {expected!r}"
    )


SHARED = sorted(
    (word, default)
    for word, (default, _) in _glossary().items()
    if default is not REQUIRED and default is not ANY
)


@pytest.mark.parametrize(("word", "default"), SHARED, ids=lambda x: str(x))
def test_a_shared_default_is_some_functions_default(word, default):
    """Else the word is always required, or each function has its own: say so instead."""
    _, exceptions = _glossary()[word]
    users = [
        qualified
        for qualified, short, parameter in PARAMETERS
        if parameter.name == word
        and short not in exceptions
        and parameter.default is not inspect.Parameter.empty
        and type(parameter.default) is type(default)
        and parameter.default == default
    ]
    assert users, f"no function takes {word}={default!r}; the glossary's default is stale"


EXCEPTIONS = sorted(
    (word, function, value)
    for word, (_, exceptions) in _glossary().items()
    for function, value in exceptions.items()
)


@pytest.mark.parametrize(("word", "function", "value"), EXCEPTIONS, ids=lambda x: str(x))
def test_an_exception_names_a_function_with_another_default(word, function, value):
    shared, _ = _glossary()[word]
    taken = [p for _, short, p in PARAMETERS if short == function and p.name == word]
    assert taken, f"the glossary's exception {function}: {word} names no such parameter"
    assert all(p.default is not inspect.Parameter.empty for p in taken), (
        f"{function}({word}) is required: the glossary's exception gives it a default"
    )
    assert shared is REQUIRED or type(value) is not type(shared) or value != shared, (
        f"the glossary's exception {function}: {word}={value!r} is the shared default"
    )


def test_the_concept_pages_link_the_glossary():
    guide = (GLOSSARY.parent / "guide.md").read_text()  # the guide's navigation lists it
    concepts = (GLOSSARY.parent / "concepts.md").read_text()
    first_steps = (GLOSSARY.parent / "getting-started.md").read_text()
    assert "\nglossary\n" in guide and "glossary" in concepts and "glossary" in first_steps


@functools.cache
def _types() -> dict[str, str]:
    """word -> what it takes, from the glossary's *Types and values* table."""
    section = GLOSSARY.read_text().split("## Types and values", 1)[1].split("\n## ", 1)[0]
    types: dict[str, str] = {}
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        assert len(cells) == 2, f"a types row needs word | takes: {line}"
        for word in re.findall(r"`(\w+)`", cells[0]):
            assert word not in types, f"{word!r} is in the types table twice"
            types[word] = cells[1]
    return types


def test_the_types_table_has_every_declared_word_and_no_other():
    assert set(_types()) == set(WORDS)


@pytest.mark.parametrize("word", sorted(WORDS))
def test_the_glossary_says_what_the_declaration_takes(word):
    assert _types()[word] == WORDS[word].takes
    assert word in _glossary(), f"{word!r} is declared but not a word of the glossary"


def _accepts(word: str, value) -> bool:
    try:
        cc._io.parameters.check(word, value)
    except cc.CostchartError as error:
        assert re.search(rf"\b{word}\b", str(error)), f"the refusal names no {word}=: {error}"
        return False
    return True


RANGES = [(w, t) for w, t in sorted(_types().items()) if re.search(r"[\[(]0, 1[\])]", t)]


@pytest.mark.parametrize(("word", "takes"), RANGES)
def test_a_range_in_the_glossary_is_the_range_checked(word, takes):
    low, high = re.search(r"([\[(])0, 1([\])])", takes).groups()
    assert _accepts(word, 0.0) is (low == "["), f"{word}=0: the glossary says {takes!r}"
    assert _accepts(word, 1.0) is (high == "]"), f"{word}=1: the glossary says {takes!r}"
    assert _accepts(word, 0.25) and _accepts(word, 0.75)
    assert not _accepts(word, -0.01) and not _accepts(word, 1.01)
    assert not _accepts(word, float("nan")) and not _accepts(word, "0.5")


def _whole(text: str) -> int:
    return int(text.replace(",", ""))


WHOLE = [(w, t) for w, t in sorted(_types().items()) if "whole number" in t and "seed" not in t]


@pytest.mark.parametrize(("word", "takes"), WHOLE)
def test_whole_number_bounds_in_the_glossary_are_the_ones_checked(word, takes):
    span = re.search(r"from ([\d,]+) to ([\d,]+)", takes)
    least = re.search(r"at least ([\d,]+)", takes)
    assert span or least, f"{word}: say its bounds ('at least n' or 'from a to b'): {takes!r}"
    low = _whole((span or least).group(1))
    assert _accepts(word, low) and not _accepts(word, low - 1)
    assert not _accepts(word, low + 0.5) and not _accepts(word, str(low + 1))
    if span:
        high = _whole(span.group(2))
        assert _accepts(word, high) and not _accepts(word, high + 1)
    else:
        assert _accepts(word, low + 1000)


OPTIONS = [(w, t) for w, t in sorted(_types().items()) if t.startswith("one of ")]


@pytest.mark.parametrize(("word", "takes"), OPTIONS)
def test_the_strings_a_word_lists_are_the_values_accepted(word, takes):
    listed = re.findall(r'`"([^"`]+)"`', takes)
    assert tuple(listed) == WORDS[word].options
    for value in listed:
        assert _accepts(word, value)
        assert not _accepts(word, value.upper()) and not _accepts(word, value + "s")
    assert not _accepts(word, "") and not _accepts(word, None)
    meaning = next(
        line for line in GLOSSARY.read_text().splitlines() if line.startswith(f"| `{word}` |")
    )
    said = set(re.findall(r'`"([^"`]+)"`', meaning.split(" | ")[1]))
    assert said == set(listed), f"the meaning of {word!r} lists {said}, the word takes {listed}"
    if takes.endswith(", or a list of them"):
        assert _accepts(word, listed[:2]) and not _accepts(word, [listed[0], "bogus"])


@pytest.mark.parametrize("word", sorted(WORDS))
def test_none_is_named_where_it_is_accepted_everywhere(word):
    assert _accepts(word, None) is ("`None`" in _types()[word]), (
        f"{word}: the glossary says {_types()[word]!r}"
    )


@pytest.mark.parametrize(
    ("words", "inside", "outside"),
    [
        ({"`True` or `False`"}, [True, False], [1, 0, "True", None]),
        ({"a column name (a string)"}, ["score", "a b"], [["score"], 1.5]),
        ({"a string"}, ["A title"], [3, ["a"]]),
    ],
)
def test_the_plain_types_are_the_ones_checked(words, inside, outside):
    named = [w for w, t in _types().items() if t in words]
    assert named, f"no word of the glossary takes {words}"
    for word in named:
        assert all(_accepts(word, value) for value in inside), word
        assert not any(_accepts(word, value) for value in outside), word
