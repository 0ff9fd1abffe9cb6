"""The ``costchart`` Altair theme: quiet axes, the papers' fonts. Off unless enabled.

Enable it with ``alt.theme.enable("costchart")``; costchart's builders never change
global Altair state themselves.
"""

from __future__ import annotations

import altair as alt

__all__ = ["THEME_NAME", "theme"]

THEME_NAME = "costchart"


@alt.theme.register(THEME_NAME, enable=False)
def theme() -> alt.theme.ThemeConfig:
    """Return the costchart theme's Vega-Lite config."""
    font = "Liberation Sans"
    return alt.theme.ThemeConfig(
        config={
            "font": font,
            "view": {"stroke": "#444444", "strokeWidth": 1},
            "axis": {
                "grid": True,
                "gridColor": "#ececec",
                "domainColor": "#444444",
                "tickColor": "#444444",
                "labelFontSize": 11,
                "titleFontSize": 12,
                "titleFontWeight": "normal",
            },
            "legend": {"labelFontSize": 11, "titleFontSize": 12, "titleFontWeight": "normal"},
            "header": {"labelFontSize": 12, "titleFontSize": 12},
            "range": {
                "category": [
                    "#1b6ca8",
                    "#d95f02",
                    "#1b9e77",
                    "#7570b3",
                    "#e7298a",
                    "#66a61e",
                    "#e6ab02",
                    "#a6761d",
                ]
            },
        }
    )
