"""One mapping per shared scale: categories keep their colour when views are joined.

Vega-Lite shares a scale across the layers and concatenated views of a chart. When the
views declare different explicit domains for one channel, it takes the union of the
domains but the *first* view's range, so a category that only a later view declares
silently inherits another category's colour (or dash, or shape). Every chart costchart
exports passes through :func:`merge_scales`, which gives each shared discrete scale the
union of the mappings its views declare, or refuses when two views map one value to two
different outputs.
"""

from __future__ import annotations

import json
from typing import Any

from costchart._io.errors import CostchartError

__all__ = ["merge_scales"]

#: Channels whose discrete scales map values to marks' looks.
CHANNELS = ("color", "fill", "stroke", "shape", "strokeDash", "strokeWidth", "size", "opacity")
_DISCRETE = {"ordinal", "point", "band"}


def merge_scales(spec: dict) -> dict:
    """``spec`` with each shared discrete scale's views declaring one full mapping.

    Parameters
    ----------
    spec : dict
        A Vega-Lite spec (as ``chart.to_dict()`` returns it). It is not changed.

    Returns
    -------
    dict
        The spec, or a copy whose explicit ``domain``/``range`` pairs agree: every view
        declaring a channel's scale gets the union of all views' value -> output pairs,
        in order of first appearance. Channels a ``resolve`` makes independent, and
        scales without an explicit range of the domain's length, are left alone.

    Raises
    ------
    CostchartError
        If two views map the same value to different outputs.

    Examples
    --------
    >>> left = {"field": "c", "type": "nominal", "scale": {"domain": ["A"], "range": ["blue"]}}
    >>> right = {"field": "c", "type": "nominal",
    ...          "scale": {"domain": ["A", "trivial"], "range": ["blue", "grey"]}}
    >>> spec = {"hconcat": [{"mark": "line", "encoding": {"color": left}},
    ...                     {"mark": "line", "encoding": {"color": right}}]}
    >>> merge_scales(spec)["hconcat"][0]["encoding"]["color"]["scale"]
    {'domain': ['A', 'trivial'], 'range': ['blue', 'grey']}
    """
    independent = _independent_channels(spec)
    declared: dict[str, list[dict]] = {}
    for channel, definition in _encodings(spec):
        if channel in independent:
            continue
        scale = definition.get("scale")
        if _discrete_mapping(definition, scale):
            declared.setdefault(channel, []).append(scale)
    merged: dict[int, dict] = {}
    for channel, scales in declared.items():
        domain, outputs = _union(channel, scales)
        for scale in scales:
            if scale["domain"] != domain or scale["range"] != outputs:
                merged[id(scale)] = {**scale, "domain": domain, "range": outputs}
    return _replaced(spec, merged) if merged else spec


def _discrete_mapping(definition: dict, scale) -> bool:
    if not isinstance(scale, dict):
        return False
    domain, outputs = scale.get("domain"), scale.get("range")
    if not isinstance(domain, list) or not isinstance(outputs, list):
        return False
    if len(domain) != len(outputs):
        return False
    kind = scale.get("type")
    return kind in _DISCRETE or (kind is None and definition.get("type") in ("nominal", "ordinal"))


def _union(channel: str, scales: list[dict]) -> tuple[list, list]:
    """The domain and range of every scale's pairs, in order of first appearance.

    Values are keyed by their JSON text, so that lists (dash patterns) can be compared.
    """
    outputs: dict[str, Any] = {}
    values: dict[str, Any] = {}
    for scale in scales:
        for value, output in zip(scale["domain"], scale["range"], strict=True):
            key = json.dumps(value)
            if key in outputs and outputs[key] != output:
                msg = (
                    f"two views of the chart give {value!r} different {channel} "
                    f"({outputs[key]!r} and {output!r}); Vega-Lite would draw "
                    "both with the first. Pass one palette (cc.palette of every value) to "
                    "every layer that colours by it"
                )
                raise CostchartError(msg)
            values.setdefault(key, value)
            outputs.setdefault(key, output)
    return list(values.values()), list(outputs.values())


def _encodings(node: Any):
    """Every (channel, definition) of every view in the spec, nested views included."""
    if isinstance(node, dict):
        encoding = node.get("encoding")
        if isinstance(encoding, dict):
            for channel in CHANNELS:
                definition = encoding.get(channel)
                if isinstance(definition, dict):
                    yield channel, definition
        for key, value in node.items():
            if key not in ("encoding", "datasets", "data"):
                yield from _encodings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _encodings(value)


def _independent_channels(node: Any) -> set[str]:
    found: set[str] = set()
    if isinstance(node, dict):
        scales = (
            node.get("resolve", {}).get("scale", {})
            if isinstance(node.get("resolve"), dict)
            else {}
        )
        found |= {c for c, how in scales.items() if how == "independent"}
        for key, value in node.items():
            if key not in ("datasets", "data"):
                found |= _independent_channels(value)
    elif isinstance(node, list):
        for value in node:
            found |= _independent_channels(value)
    return found


def _replaced(node: Any, merged: dict[int, dict]) -> Any:
    """A copy of ``node`` with the scales in ``merged`` (by id) replaced; data shared."""
    if isinstance(node, dict):
        if id(node) in merged:
            return merged[id(node)]
        return {
            key: value if key in ("datasets", "data") else _replaced(value, merged)
            for key, value in node.items()
        }
    if isinstance(node, list):
        return [_replaced(value, merged) for value in node]
    return node
