import json
import re
import struct

import numpy as np
import pytest

import costchart as cc
from costchart._export._budget import estimate_marks
from costchart._export.html import safe_json

EVIL = "</script><script>window.pwned=1</script>"


@pytest.fixture(scope="module")
def chart(demo_points):
    sonar = demo_points[demo_points.dataset == "sonar"].drop(columns="dataset")
    return cc.cost_chart(sonar, classifier="classifier", size=200)


def test_json_is_the_vega_lite_spec(chart, tmp_path):
    path = cc.save(chart, tmp_path / "chart.json")
    assert json.loads(path.read_text()) == chart.to_dict()


def test_json_is_compact(chart, tmp_path):
    text = cc.save(chart, tmp_path / "chart.json").read_text()
    spec = json.loads(text)
    assert "\n" not in text and text == safe_json(spec)
    indented = json.dumps(spec, indent=2)
    assert len(text) < 0.8 * len(indented)  # indentation was a fifth or more of the file


def test_html_is_offline_and_escaped(demo_points, tmp_path):
    points = demo_points[demo_points.dataset == "sonar"].drop(columns="dataset")
    points = points.replace({"classifier": {"tree": EVIL}})
    chart = cc.cost_chart(points, classifier="classifier").properties(title=f"title {EVIL}")
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


def test_json_can_be_pasted_into_a_script_element(tmp_path):
    points = cc.roc_points(
        {"s": [3, 2, 1, 0], "y": [1, 0, 1, 0], "c": [EVIL] * 4}, score="s", label="y", by="c"
    )
    text = cc.save(cc.roc_chart(points, classifier="c"), tmp_path / "evil.json").read_text()
    assert not set("<>&") & set(text)
    assert EVIL in json.dumps(json.loads(text))  # the name is still the data


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


def test_png_and_pdf_are_drawn_without_aria_labels_and_svg_keeps_them(chart, tmp_path, monkeypatch):
    import vl_convert

    from costchart._export.image import IMAGE_FONT, chart_spec, vl_version, without_hover_targets

    drawn = []
    original = vl_convert.vegalite_to_svg

    def keeping(spec, **options):
        drawn.append(original(spec, **options))
        return drawn[-1]

    monkeypatch.setattr(vl_convert, "vegalite_to_svg", keeping)
    png = cc.save(chart, tmp_path / "c.png").read_bytes()
    cc.save(chart, tmp_path / "c.pdf")
    svg = cc.save(chart, tmp_path / "c.svg").read_text()
    # no ARIA label of each mark and guide in what PNG and PDF are drawn from
    assert len(drawn) == 3 and all("aria-label=" not in image for image in drawn[:2])
    assert "aria-label=" in svg
    # the same pixels as from the SVG with its ARIA attributes
    spec = without_hover_targets(chart_spec(chart))
    options = {"vl_version": vl_version(), "config": {"font": IMAGE_FONT}, "allowed_base_urls": []}
    assert png == vl_convert.svg_to_png(original(spec, **options), scale=2)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda c, p: cc.save(c, p / "chart.gif"),
            r"cannot tell the format of '.*chart\.gif' from its suffix '\.gif'; end it in \.json, \.html",
        ),
        (
            lambda c, p: cc.save(c, p / "c.png", scale_factor=0),
            r"scale_factor=0 must be greater than 0",
        ),
        (
            lambda c, p: cc.save(c, p / "c.png", scale_factor="2"),
            r"scale_factor='2' must be a number",
        ),
        (
            lambda c, p: cc.save(c, p / "c.png", scale_factor=float("inf")),
            r"scale_factor=inf must be a finite number",
        ),
        (lambda c, p: cc.save(c, p / "c.html", title=123), r"title=123 must be a string"),
        (
            lambda c, p: cc.save(c, p / "c.png", title="x"),
            r"title='x' is the title of an HTML page, which \.png has not; drop it, or give the "
            r"chart its own title with chart\.properties\(title=\.\.\.\)",
        ),
        (lambda c, p: cc.save(c, p / "c.json", title="x"), r"which \.json has not"),
        (lambda c, p: cc.report([c], p / "r.html", title=7), r"title=7 must be a string"),
        (lambda c, p: cc.save(c, p), r"path='.*' is a folder; pass a file name"),
        (
            lambda c, p: cc.save(c, (p / "d.html").mkdir() or p / "d.html"),
            r"path='.*d\.html' is a folder",
        ),
        (
            lambda c, p: cc.save(c, p / "missing" / "c.png"),
            r"cannot write '.*c\.png': the folder '.*missing' does not exist; create it first",
        ),
        (
            lambda c, p: cc.report([c], p / "missing" / "r.html"),
            r"the folder '.*missing' does not exist",
        ),
        (lambda c, p: cc.save(c, None), r"path=None must be a file name"),
        (
            lambda c, p: cc.save(c, "~/costchart-no-such-folder/c.json"),
            r"the folder '~/costchart-no-such-folder' does not exist; create it first \(Python does "
            r"not expand '~': pass '/.*/costchart-no-such-folder/c\.json'\)",
        ),
        (lambda c, p: cc.save(c, f"{p}/a\0b.json"), r"holds a null character"),
        (
            lambda c, p: cc.save(c, p / ("x" * 300 + ".json")),
            r"cannot write '.*\.json': File name too long; pass a shorter file name",
        ),
        (
            lambda c, p: cc.report([c], p / ("x" * 300 + ".html")),
            r"File name too long; pass a shorter file name",
        ),
        (  # /proc takes no new files (a folder without write permission would, as root)
            lambda c, p: cc.save(c, "/proc/costchart-chart.json"),
            r"cannot write '/proc/costchart-chart\.json': .*; pass a file name the file system",
        ),
        (
            lambda c, p: cc.save(c, p / "chart"),
            r"cannot tell the format of '.*chart' from its suffix ''",
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


def test_a_huge_scale_factor_is_refused_before_any_pixel(chart, tmp_path):
    # scale_factor=1000 would ask vl-convert for about 500 GB and abort Python.
    with pytest.raises(
        cc.CostchartError, match=r"scale_factor=1000 makes a [\d,]+ x [\d,]+ pixel PNG"
    ):
        cc.save(chart, tmp_path / "huge.png", scale_factor=1000)
    assert not (tmp_path / "huge.png").exists()


@pytest.fixture(scope="module")
def many_groups_chart():
    """Cost lines of 1000 classifiers (41,000 ROC points, about 82,000 marks)."""
    groups, per_group = 1000, 40
    rng = np.random.default_rng(3)
    label = rng.random(groups * per_group) < 0.4
    data = {
        "group": np.repeat(np.arange(groups), per_group),
        "s": rng.normal(size=groups * per_group) + label,
        "y": label,
    }
    points = cc.roc_points(data, score="s", label="y", by="group")
    # The ready charts and layers thin many curves; a layer asked for every point's cost
    # line (max_points=None) is what still draws too much.
    return cc.layers.cost_lines(points, classifier="group", max_points=None)


@pytest.mark.slow
@pytest.mark.parametrize("suffix", [".png", ".svg", ".pdf"])
def test_too_many_marks_are_refused_before_rendering(
    suffix, many_groups_chart, tmp_path, monkeypatch
):
    # A PNG of a 1000-group cost chart made vl-convert die with "Fatal JavaScript out of
    # memory". The estimate must refuse it before vl-convert sees the spec.
    import vl_convert

    def fail(*args, **kwargs):
        raise AssertionError("vl-convert was called")

    monkeypatch.setattr(vl_convert, "vegalite_to_svg", fail)
    message = (
        r"this chart draws about 82,\d{3} marks, too many to render as \.\w+ \(at most "
        r"80,000; .*max_points=.*fewer groups, or save it as \.html"
    )
    with pytest.raises(cc.CostchartError, match=message):
        cc.save(many_groups_chart, tmp_path / f"big{suffix}")
    assert not (tmp_path / f"big{suffix}").exists()


def _unit(rows, **extra):
    return {"mark": "line", "data": {"values": [{"a": i % 3} for i in range(rows)]}, **extra}


@pytest.mark.parametrize(
    ("spec", "marks"),
    [
        (_unit(10), 10),
        (_unit(10, transform=[{"fold": ["x", "y"]}]), 20),
        ({"layer": [_unit(10), _unit(5)]}, 15),
        ({"hconcat": [_unit(10), {"vconcat": [_unit(5), _unit(7)]}]}, 22),
        (
            {
                "datasets": {"d": [{"a": i % 4} for i in range(12)]},
                "data": {"name": "d"},
                "layer": [{"mark": "point"}, {"mark": "rule"}],
            },
            24,
        ),
        # A facet splits its own data among panels (3 values of a), but data defined inside
        # it is drawn in each of the 3 panels.
        (
            {
                "data": {"values": [{"a": i % 3} for i in range(30)]},
                "facet": {"field": "a", "type": "nominal"},
                "spec": {"layer": [{"mark": "point"}, _unit(4)]},
            },
            30 + 3 * 4,
        ),
        # costchart's shared layers keep only their own rows.
        (
            {
                "data": {"values": [{"costchart_table": i % 2} for i in range(10)]},
                "layer": [
                    {"mark": "point", "transform": [{"filter": "datum.costchart_table == 1"}]},
                ],
            },
            5,
        ),
        ({"repeat": ["x", "y", "z"], "spec": _unit(4)}, 12),
        ({"mark": "point", "data": {"sequence": {"start": 0, "stop": 100, "step": 10}}}, 10),
    ],
)
def test_estimate_marks(spec, marks):
    assert estimate_marks(spec) == marks


@pytest.mark.parametrize("suffix", [".json", ".html", ".png", ".svg", ".pdf"])
@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ({"mark": "nope"}, r"chart is not a valid Vega-Lite v6.* spec: at \$\.mark"),
        (
            {"mark": "point", "encoding": {"x": {"field": "a", "type": "qq"}}},
            r"at \$\.encoding\.x\.type, 'qq' is not one of",
        ),
        # Valid by the schema, but Vega-Lite cannot compile the expression.
        (
            {"mark": "point", "data": {"values": [{"a": 1}]}, "transform": [{"filter": "datum.["}]},
            r"not a Vega-Lite spec that Vega-Lite can compile \(Error: Unexpected token \[\)",
        ),
    ],
)
def test_invalid_dict_specs_are_refused_and_nothing_written(spec, message, suffix, tmp_path):
    with pytest.raises(cc.CostchartError, match=message):
        cc.save(spec, tmp_path / f"bad{suffix}")
    assert not (tmp_path / f"bad{suffix}").exists()


def test_a_valid_dict_spec_saves(tmp_path):
    spec = {
        "mark": "point",
        "data": {"values": [{"a": 1, "b": 2}]},
        "encoding": {"x": {"field": "a", "type": "quantitative"}},
    }
    assert cc.save(spec, tmp_path / "ok.svg").read_text().startswith("<svg")
    assert json.loads(cc.save(spec, tmp_path / "ok.json").read_text()) == spec


def test_a_saved_chart_shows_no_file_name_heading(tmp_path):
    import re

    points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    page = cc.save(cc.cost_chart(points), tmp_path / "my_chart.html").read_text()
    assert re.search(r"<title>my_chart</title>", page)
    assert "<h1>" not in page
    titled = cc.save(cc.cost_chart(points), tmp_path / "t.html", title="Costs").read_text()
    assert "<h1>Costs</h1>" in titled
    report = cc.report([cc.cost_chart(points)], tmp_path / "r.html", title="Report").read_text()
    assert "<h1>Report</h1>" in report


def test_a_chart_edited_into_an_invalid_one_is_refused_though_rows_are_not_revalidated(
    demo_points, tmp_path
):
    sonar = demo_points[demo_points.dataset == "sonar"].drop(columns="dataset")
    chart = cc.cost_chart(sonar, classifier="classifier")
    chart.layer[1].mark = "wiggle"  # assignment does not validate; saving must
    with pytest.raises(cc.CostchartError, match=r"chart is not a valid Vega-Lite .* spec"):
        cc.save(chart, tmp_path / "edited.json")
    # The rows are costchart's: saving checks the spec without them, once: by the
    # compiled validator, and by jsonschema only where that one is missing or doubts.
    import altair as alt

    from costchart._export import fast_schema, image

    fast_calls, slow_calls = [], []
    original_fast, original_slow = image.surely_valid, alt.TopLevelSpec.validate

    def rows(spec) -> int:
        return sum(len(v) for v in spec.get("datasets", {}).values())

    def counting_fast(spec):
        fast_calls.append(rows(spec))
        return original_fast(spec)

    def counting_slow(spec, *args, **kwargs):
        slow_calls.append(rows(spec))
        return original_slow(spec, *args, **kwargs)

    image.surely_valid, alt.TopLevelSpec.validate = counting_fast, counting_slow
    try:
        cc.save(cc.cost_chart(sonar, classifier="classifier"), tmp_path / "fine.json")
    finally:
        image.surely_valid, alt.TopLevelSpec.validate = original_fast, original_slow
    assert fast_calls == [0]  # one schema check, of the spec with its data sets emptied
    assert slow_calls == ([0] if fast_schema._validator() is None else [])
