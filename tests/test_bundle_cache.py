"""The Vega bundle kept on disk between processes (``_export/bundle_cache.py``)."""

from __future__ import annotations

import pytest

import costchart as cc
from costchart._export import bundle_cache, html


class _Maker:
    """A stand-in bundler that counts its calls."""

    def __init__(self, code="var vega = 1;"):
        self.code, self.calls = code, 0

    def __call__(self):
        self.calls += 1
        return self.code


def test_a_bundle_is_made_once_and_read_back(tmp_path, monkeypatch):
    monkeypatch.setenv("COSTCHART_CACHE_DIR", str(tmp_path))
    make = _Maker()
    assert bundle_cache.cached_bundle(("v1", "snippet"), make) == make.code
    assert bundle_cache.cached_bundle(("v1", "snippet"), make) == make.code
    assert make.calls == 1
    (kept,) = tmp_path.glob("vega-bundle-*.js")
    assert kept.read_text().endswith(make.code)
    # Another version or snippet is another file.
    assert bundle_cache.cached_bundle(("v2", "snippet"), make) == make.code
    assert make.calls == 2 and len(list(tmp_path.glob("vega-bundle-*.js"))) == 2


@pytest.mark.parametrize("damage", ["cut", "changed", "empty"])
def test_a_file_that_is_not_whole_is_bundled_again(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("COSTCHART_CACHE_DIR", str(tmp_path))
    make = _Maker("var vega = 'a longer bundle';")
    bundle_cache.cached_bundle(("v1",), make)
    (kept,) = tmp_path.glob("vega-bundle-*.js")
    text = kept.read_text()
    kept.write_text(
        {"cut": text[:-5], "changed": text.replace("longer", "LONGER"), "empty": ""}[damage]
    )
    assert bundle_cache.cached_bundle(("v1",), make) == make.code
    assert make.calls == 2 and kept.read_text() == text  # replaced by a whole one


def test_a_folder_that_cannot_be_written_falls_back_to_memory(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("COSTCHART_CACHE_DIR", str(blocker / "cache"))
    make = _Maker()
    assert bundle_cache.cached_bundle(("v1",), make) == make.code
    assert bundle_cache.cached_bundle(("v1",), make) == make.code
    assert make.calls == 2  # no cache, no error


def test_a_folder_whose_home_cannot_be_found_falls_back_to_memory(monkeypatch):
    monkeypatch.setenv("COSTCHART_CACHE_DIR", "~no_such_user_costchart/cache")
    make = _Maker()
    assert bundle_cache.cached_bundle(("v1",), make) == make.code
    assert make.calls == 1


def test_an_empty_setting_turns_the_cache_off(tmp_path, monkeypatch):
    monkeypatch.setenv("COSTCHART_CACHE_DIR", "")
    assert bundle_cache.cache_folder() is None
    monkeypatch.delenv("COSTCHART_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if bundle_cache.sys.platform.startswith("linux"):
        assert bundle_cache.cache_folder() == tmp_path / "costchart"


def test_a_page_is_the_same_from_the_cache(tmp_path, monkeypatch):
    points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    chart = cc.cost_chart(points)
    monkeypatch.setenv("COSTCHART_CACHE_DIR", "")
    html.bundle.cache_clear()
    uncached = html.to_html(chart)
    monkeypatch.setenv("COSTCHART_CACHE_DIR", str(tmp_path))
    html.bundle.cache_clear()
    first = html.to_html(chart)  # bundled and kept
    html.bundle.cache_clear()
    second = html.to_html(chart)  # read back
    html.bundle.cache_clear()
    assert uncached == first == second
    assert len(list(tmp_path.glob("vega-bundle-*.js"))) == 1
