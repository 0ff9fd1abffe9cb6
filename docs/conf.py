"""Sphinx configuration of costchart's documentation site.

Build it with the README's docs command (``sphinx-build -W -b html docs docs/_build/html``).
The gallery (``../gallery``) is run by sphinx-gallery; its Altair charts are drawn by the
scraper in ``_ext/altair_scraper.py``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

from altair_scraper import altair_scraper  # noqa: E402
from sphinx_gallery.sorting import ExplicitOrder  # noqa: E402

import costchart  # noqa: E402

project = "costchart"
author = "the costchart developers"
copyright = "2026, the costchart developers"
release = costchart.__version__
version = release

extensions = [
    "myst_parser",
    "numpydoc",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.intersphinx",
    "sphinx.ext.mathjax",
    "sphinx_gallery.gen_gallery",
    "empty_sidebar",  # _ext/empty_sidebar.py: no empty "Section Navigation"
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
exclude_patterns = ["_build", "_ext", "images/README.md", "auto_examples/*.ipynb"]
myst_heading_anchors = 3
myst_enable_extensions = ["dollarmath"]

# The API reference: one page per name, from the docstrings (numpydoc format).
autosummary_generate = True
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False

intersphinx_mapping: dict[str, tuple[str, None]] = {}

html_theme = "pydata_sphinx_theme"
html_title = f"costchart {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    # The explorer page gives its width to the live chart.
    "secondary_sidebar_items": {"**": ["page-toc"], "explorer": []},
}
# The figures are drawn on white: the site opens light (the theme's switch still offers
# dark). Without a default the theme's script logs "Got invalid theme mode" on every page.
html_context = {"default_mode": "light"}
# Shell commands wrap rather than hide their end; the live explorer's frame scrolls.
html_static_path = ["_static"]
html_css_files = ["costchart.css"]

# The gallery: every script of ../gallery, run scaled down unless COSTCHART_GALLERY_FULL=1.
sphinx_gallery_conf = {
    "examples_dirs": "../gallery",
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "ignore_pattern": r"__init__\.py|make_predictions\.py|_figures\.py",
    "image_scrapers": (altair_scraper,),
    "capture_repr": (),
    "within_subsection_order": "FileNameSortKey",
    # One section per paper, in the order they were published.
    "subsection_order": ExplicitOrder(
        [
            f"../gallery/{paper}"
            for paper in (
                "pf1997",
                "dh2000",
                "dh2006",
                "fawcett2006",
                "dg2008",
                "threshold_choice",
                "which_classifier",
            )
        ]
    ),
    "download_all_examples": False,
    "remove_config_comments": True,
    "show_memory": False,
    # No pages of run times: they load jQuery and DataTables from CDNs (and are for us).
    "write_computation_times": False,
    "plot_gallery": os.environ.get("COSTCHART_DOCS_PLOT", "True"),
}


def write_live_explorer(folder: Path) -> None:
    """The explorer page's live chart: an offline, script-safe page costchart saves."""
    from costchart.datasets import load_predictions

    data = load_predictions()
    sonar = data[data["dataset"] == "sonar"]
    points = costchart.roc_points(sonar, score="score", label="label", by="classifier")
    folder.mkdir(parents=True, exist_ok=True)
    chart = costchart.explorer(points, classifier="classifier", pc=0.3, name="live")
    costchart.save(chart, folder / "explorer-live.html", title="The operating-point explorer")


# Copied to the site's root, beside explorer.html, which embeds it.
write_live_explorer(HERE / "_generated" / "live")
html_extra_path = [str(HERE / "_generated" / "live")]

suppress_warnings = ["config.cache"]
