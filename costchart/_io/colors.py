"""CSS colours as Vega draws them: what ``palette=`` and the key's colours may be.

Vega reads colours with d3-color, which knows the 148 CSS named colours and
``transparent``, ``#rgb``, ``#rgba``, ``#rrggbb`` and ``#rrggbbaa``, and the functions
``rgb()``/``rgba()`` (whole numbers or percentages) and ``hsl()``/``hsla()``, case and
surrounding spaces aside. Anything else Vega draws in black (or not at all), without a
word: :func:`check_color` refuses it first.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from costchart._io.errors import CostchartError, show

__all__ = ["NAMED_COLORS", "check_color", "check_palette", "is_color"]

#: The CSS named colours (CSS Color Module Level 4), as d3-color knows them.
NAMED_COLORS = frozenset(
    """
    aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue
    blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue
    cornsilk crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey
    darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon
    darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet
    deeppink deepskyblue dimgray dimgrey dodgerblue firebrick floralwhite forestgreen
    fuchsia gainsboro ghostwhite gold goldenrod gray green greenyellow grey honeydew
    hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon
    lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey
    lightpink lightsalmon lightseagreen lightskyblue lightslategray lightslategrey
    lightsteelblue lightyellow lime limegreen linen magenta maroon mediumaquamarine
    mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue
    mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream mistyrose
    moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid
    palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink
    plum powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon
    sandybrown seagreen seashell sienna silver skyblue slateblue slategray slategrey
    snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white
    whitesmoke yellow yellowgreen
    """.split()
)

_INTEGER = r"\s*[+-]?\d+\s*"
_NUMBER = r"\s*[+-]?(?:\d*\.)?\d+(?:[eE][+-]?\d+)?\s*"
_PERCENT = r"\s*[+-]?(?:\d*\.)?\d+(?:[eE][+-]?\d+)?%\s*"
#: d3-color's forms (``d3-color/src/color.js``), after trimming and lowercasing.
_FORMS = tuple(
    re.compile(form)
    for form in (
        r"#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})",
        rf"rgb\({_INTEGER},{_INTEGER},{_INTEGER}\)",
        rf"rgb\({_PERCENT},{_PERCENT},{_PERCENT}\)",
        rf"rgba\({_INTEGER},{_INTEGER},{_INTEGER},{_NUMBER}\)",
        rf"rgba\({_PERCENT},{_PERCENT},{_PERCENT},{_NUMBER}\)",
        rf"hsl\({_NUMBER},{_PERCENT},{_PERCENT}\)",
        rf"hsla\({_NUMBER},{_PERCENT},{_PERCENT},{_NUMBER}\)",
    )
)


def is_color(text) -> bool:
    """Whether Vega draws ``text`` as a colour.

    Examples
    --------
    >>> [is_color(c) for c in ("SteelBlue", "#0072b2", "rgb(0, 114, 178)", "notacolor")]
    [True, True, True, False]
    """
    if not isinstance(text, str):
        return False
    text = text.strip().lower()
    return text in NAMED_COLORS or text == "transparent" or any(f.fullmatch(text) for f in _FORMS)


def check_color(colour, subject: str) -> str:
    """``colour`` if Vega draws it; else a :class:`CostchartError` saying ``subject``.

    ``subject`` names the option and its value, e.g. ``"palette['A']='notacolor'"``.
    """
    if not is_color(colour):
        msg = (
            f"{subject} is not a colour; pass a CSS colour name ('black', 'steelblue'), "
            "'#rgb' or '#rrggbb' ('#0072B2'; '#rrggbbaa' with opacity), 'rgb(0, 114, 178)' "
            "or 'hsl(202, 100%, 35%)'"
        )
        raise CostchartError(msg)
    return colour


def check_palette(colors, name: str = "palette") -> dict:
    """``palette=`` (value -> colour) as a dict, every colour checked; ``None`` is ``{}``.

    ``name`` is the parameter the messages name (``colors`` for :func:`costchart.palette`).

    Examples
    --------
    >>> check_palette({"tree": "black", "logistic": "#0072B2"})
    {'tree': 'black', 'logistic': '#0072B2'}
    """
    if colors is None:
        return {}
    if not isinstance(colors, Mapping):
        msg = (
            f"{name}={colors!r} must be a dict of value -> colour, e.g. "
            "{'logistic': '#0072B2', 'tree': '#E69F00'} (see costchart.palette)"
        )
        raise CostchartError(msg)
    for value, colour in colors.items():
        check_color(colour, f"{name}[{show(value)}]={colour!r}")
    return dict(colors)
