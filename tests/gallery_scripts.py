"""Run a gallery script as the docs do, once per test session, and hand back its tables.

The claims tests (``test_gallery_claims_<paper>.py``) check what each paper says its
figure shows on the tables the script binds at module level; this runs each script once,
scaled down, in a scratch folder (anything it saves lands there), its printing dropped.
"""

from __future__ import annotations

import contextlib
import io
import os
import runpy
import tempfile
from pathlib import Path

GALLERY = Path(__file__).resolve().parent.parent / "gallery"

_RUN: dict[tuple[str, str], dict] = {}


def run_figure(paper: str, figure: str) -> dict:
    """The namespace of ``gallery/<paper>/plot_<paper>_<figure>_*.py`` (e.g. "fig08")."""
    key = (paper, figure)
    if key not in _RUN:
        (path,) = (GALLERY / paper).glob(f"plot_{paper}_{figure}_*.py")
        os.environ.pop("COSTCHART_GALLERY_FULL", None)
        here = Path.cwd()
        with tempfile.TemporaryDirectory() as scratch:
            os.chdir(scratch)
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    _RUN[key] = runpy.run_path(str(path), run_name="__main__")
            finally:
                os.chdir(here)
    return _RUN[key]
