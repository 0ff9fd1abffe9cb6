"""Every public parameter is a word of docs/glossary.md, with the glossary's default."""

import ast
import inspect
import re
from pathlib import Path

import pytest

import costchart as cc
from costchart import datasets, layers
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


@pytest.mark.parametrize(("qualified", "short", "parameter"), PARAMETERS, ids=lambda x: str(x))
def test_one_default_per_word(qualified, short, parameter):
    default, exceptions = _glossary()[parameter.name]
    expected = exceptions.get(short, default)
    given = parameter.default
    if given is inspect.Parameter.empty or expected is ANY:
        return  # required here, or a word whose default each function states
    assert expected is not REQUIRED, (
        f"{qualified}({parameter.name}=...) has a default, but the glossary says the word is "
        "always required"
    )
    assert type(given) is type(expected) and given == expected, (
        f"{qualified}({parameter.name}={given!r}): the glossary's default is {expected!r}"
    )


def test_the_concept_pages_link_the_glossary():
    guide = (GLOSSARY.parent / "guide.md").read_text()  # the guide's navigation lists it
    concepts = (GLOSSARY.parent / "concepts.md").read_text()
    first_steps = (GLOSSARY.parent / "getting-started.md").read_text()
    assert "\nglossary\n" in guide and "glossary" in concepts and "glossary" in first_steps
