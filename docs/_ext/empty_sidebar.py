"""Drop the theme's "Section Navigation" from pages whose section has nothing to list.

pydata-sphinx-theme shows, left of every page, the pages of the page's top-level section.
A top-level page without sub-pages (the first steps, the command line, the changelog, ...)
would get the heading over an empty list; there the primary sidebar is left out instead,
and the theme hides it on wide screens.
"""

from __future__ import annotations

from typing import Any

#: The theme's components that make up the section navigation.
NAVIGATION = ("sidebar-nav-bs.html", "sidebar-collapse.html")


def drop_empty_navigation(app, pagename: str, templatename: str, context: dict, doctree) -> None:
    """Remove the section navigation from ``context["sidebars"]`` when it lists no page."""
    sidebars = context.get("sidebars")
    generate = context.get("generate_toctree_html")
    suppressed = context.get("suppress_sidebar_toctree")
    if not sidebars or generate is None or not set(NAVIGATION) & set(sidebars):
        return
    hidden = str(context.get("theme_sidebar_includehidden", True)).lower() == "true"
    if suppressed is not None and suppressed(includehidden=hidden):
        return  # no section at all: the theme's template drops the navigation itself
    navigation = str(
        generate(
            "sidebar",
            show_nav_level=int(context.get("theme_show_nav_level", 1)),
            maxdepth=int(context.get("theme_navigation_depth", 4)),
            collapse=str(context.get("theme_collapse_navigation", False)).lower() == "true",
            includehidden=hidden,
            titles_only=True,
        )
    )
    if "<li" not in navigation:
        context["sidebars"] = [name for name in sidebars if name not in NAVIGATION]


def setup(app) -> dict[str, Any]:
    """Run after the theme has added its toctree functions to the page context."""
    app.connect("html-page-context", drop_empty_navigation, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
