"""A compiled check of a spec against Altair's Vega-Lite schema, for the common case.

Refusing a chart that is not Vega-Lite needs the schema check (``image._check_schema``),
which Altair does with ``jsonschema`` in Python: about 0.5 s for a chart of 48 views, and
1.5 s in a fresh process, where the validator is first built. Most specs are valid, so
the check first asks a compiled validator (``jsonschema_rs``, Rust) whether the spec is
valid, in about a millisecond; only a spec it doubts goes on to ``jsonschema``, which
alone decides and says where and why. Without ``jsonschema_rs``, or without the schema
file Altair ships, every spec goes to ``jsonschema`` as before.

The schema is the file Altair validates against
(``altair/vegalite/v<major>/schema/vega-lite-schema.json``, read as package data). Its
definitions are named like ``MarkPropDef<(Gradient|string|null)>``, which a strict
validator does not take in a ``$ref``; they are renamed (``<`` as ``_3c_``) in the names
and the references alike, which changes no rule.
"""

from __future__ import annotations

import functools
import json
import re
from importlib import resources

import altair as alt

__all__ = ["surely_valid"]

_PREFIX = "#/definitions/"
_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")


def surely_valid(spec: dict) -> bool:
    """Whether the compiled validator finds ``spec`` valid (``False``: ask ``jsonschema``)."""
    validator = _validator()
    if validator is None:
        return False
    try:
        return bool(validator.is_valid(spec))
    except Exception:
        return False


@functools.lru_cache(maxsize=1)
def _validator():
    """The compiled validator of Altair's Vega-Lite schema, or ``None`` where unavailable."""
    try:
        import jsonschema_rs
    except ImportError:
        return None
    major = alt.SCHEMA_VERSION.lstrip("v").split(".")[0]
    try:
        source = resources.files("altair") / "vegalite" / f"v{major}" / "schema"
        source = source / "vega-lite-schema.json"
        schema = json.loads(source.read_text(encoding="utf-8"))
        definitions = {_safe(name): rule for name, rule in schema["definitions"].items()}
        renamed = _renamed({**schema, "definitions": definitions})
        return jsonschema_rs.validator_for(renamed)
    except Exception:
        return None


def _safe(name: str) -> str:
    """A definition's name with every character a URI reference may not hold spelled out."""
    return _UNSAFE.sub(lambda found: f"_{ord(found.group()):x}_", name)


def _renamed(rule):
    """``rule`` with every ``$ref`` to a definition renamed as :func:`_safe` names it."""
    if isinstance(rule, dict):
        return {
            key: _PREFIX + _safe(value[len(_PREFIX) :])
            if key == "$ref" and isinstance(value, str) and value.startswith(_PREFIX)
            else _renamed(value)
            for key, value in rule.items()
        }
    if isinstance(rule, list):
        return [_renamed(value) for value in rule]
    return rule
