import json
import re
import struct

import pytest

import costchart as cc
from costchart.export import safe_json

EVIL = "</script><script>window.pwned=1</script>"


@pytest.fixture(scope="module")
def chart(demo_points):
    sonar = demo_points[demo_points.dataset == "sonar"].drop(columns="dataset")
    return cc.cost_chart(sonar, color="classifier", size=200)


def test_json_is_the_vega_lite_spec(chart, tmp_path):
    path = cc.save(chart, tmp_path / "chart.json")
    assert json.loads(path.read_text()) == chart.to_dict()


def test_html_is_offline_and_escaped(demo_points, tmp_path):
    points = demo_points[demo_points.dataset == "sonar"].drop(columns="dataset")
    points = points.replace({"classifier": {"tree": EVIL}})
    chart = cc.cost_chart(points, color="classifier").properties(title=f"title {EVIL}")
    html = cc.save(chart, tmp_path / "chart.html", title=EVIL).read_text()
    # Exactly our three script elements: the specs, the options and the library bundle.
    assert len(re.findall(r"<script", html)) == 3
    assert "<script src" not in html and "<link" not in html
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    assert EVIL not in html
    assert "\\u003c/script\\u003e\\u003cscript\\u003ewindow.pwned=1" in html
    assert "&lt;/script&gt;&lt;script&gt;window.pwned=1" in html  # the page title, as text
    specs = re.search(r'id="costchart-specs">(.*?)</script>', html, re.S).group(1)
    assert EVIL in json.dumps(json.loads(specs))  # the name survives as data


def test_safe_json_round_trips():
    value = {"a": "<b>&\u2028</b>", "n": [1, 2.5]}
    text = safe_json(value)
    assert not set("<>&\u2028") & set(text)
    assert json.loads(text) == value


def test_report_includes_the_bundle_once(chart, tmp_path):
    one = cc.save(chart, tmp_path / "one.html").read_text()
    three = cc.report(
        {"first": chart, "second": chart, "third <b>": chart}, tmp_path / "r.html"
    ).read_text()
    bundle_start = one[one.index("(function () {") : one.index("(function () {") + 400]
    assert three.count(bundle_start) == 1
    assert len(three) < len(one) + 3 * (len(one) - 900_000)
    assert three.count('id="costchart-chart-') == 3
    assert "third &lt;b&gt;" in three


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def _svg_size(text: str) -> tuple[float, float]:
    width = float(re.search(r'<svg[^>]*\swidth="([\d.]+)"', text).group(1))
    height = float(re.search(r'<svg[^>]*\sheight="([\d.]+)"', text).group(1))
    return width, height


def _pdf_size(data: bytes) -> tuple[float, float]:
    assert data[:5] == b"%PDF-"
    box = re.search(rb"/MediaBox\s*\[\s*([\d.]+)\s+([\d.]+)\s+([\d.]+)\s+([\d.]+)\s*\]", data)
    x0, y0, x1, y1 = (float(v) for v in box.groups())
    return x1 - x0, y1 - y0


def test_images_have_the_expected_dimensions(chart, tmp_path):
    svg = cc.save(chart, tmp_path / "c.svg").read_text()
    width, height = _svg_size(svg)
    assert width > 200 and height > 200  # the 200-pixel panel plus axes and legend
    png = cc.save(chart, tmp_path / "c.png", scale_factor=2).read_bytes()
    assert _png_size(png) == (round(2 * width), round(2 * height))
    png1 = cc.save(chart, tmp_path / "c1.png", scale_factor=1).read_bytes()
    assert _png_size(png1) == (round(width), round(height))
    pdf = cc.save(chart, tmp_path / "c.pdf").read_bytes()
    assert _pdf_size(pdf) == pytest.approx((width, height), abs=1)
    assert "Liberation Sans" in svg


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda c, p: cc.save(c, p / "chart.gif"),
            r"cannot tell the format of '.*chart\.gif' from its suffix '\.gif'; use one of \.json, \.html",
        ),
        (
            lambda c, p: cc.save(c, p / "c.png", scale_factor=0),
            r"scale_factor=0 must be a positive number",
        ),
        (
            lambda c, p: cc.report([c], p / "r.pdf"),
            r"report writes HTML; path='.*r\.pdf' should end in \.html",
        ),
        (lambda c, p: cc.report([], p / "r.html"), r"charts is empty; pass at least one chart"),
        (
            lambda c, p: cc.save("chart", p / "c.json"),
            r"chart must be an Altair chart or a Vega-Lite dict; got str",
        ),
    ],
)
def test_export_errors(call, message, chart, tmp_path):
    with pytest.raises(cc.CostchartError, match=message):
        call(chart, tmp_path)
