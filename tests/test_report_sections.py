"""Reports of charts, tables and text: what each section writes, escaped.

The browser half (a hostile cell stays text in Chromium) is in tests/test_browser_report.py.
"""

import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import costchart as cc
from costchart._export.html import to_html
from costchart._export.markdown import markdown_html, safe_url, text_html
from costchart._export.table_html import cell_text, table_html

EVIL = "</script><script>window.pwned=1</script>"
IMG = "<img src=x onerror=window.pwned=2>"


@pytest.fixture(scope="module")
def points():
    return cc.roc_points({"s": [4, 3, 2, 1, 0], "y": [1, 0, 1, 1, 0]}, score="s", label="y")


def _body(page: str) -> str:
    return page[page.index("<body>") : page.index("</body>")]


@pytest.mark.slow  # builds the page's bundle (seconds, once per process)
def test_sections_keep_their_order_and_charts_their_numbers(points):
    page = to_html(
        [
            "first words",
            cc.cost_chart(points),
            cc.auc(points),
            cc.markdown("## After"),
            cc.roc_chart(points),
        ]
    )
    body = _body(page)
    marks = [
        body.index("first words"),
        body.index('id="costchart-chart-0"'),
        body.index('<th scope="col">auc</th>'),
        body.index("<h2>After</h2>"),
        body.index('id="costchart-chart-1"'),
    ]
    assert marks == sorted(marks)
    assert page.count('id="costchart-specs"') == 1


def test_a_page_without_charts_has_no_script(points):
    page = to_html([cc.auc(points), "text only"])
    assert "<script" not in page
    assert "0.666667" in page  # 2 of the 3 positive-negative pairs ranked right


@pytest.mark.slow
def test_a_list_of_charts_still_works(points):
    page = to_html([cc.cost_chart(points), cc.roc_chart(points)])
    assert page.count('id="costchart-chart-') == 2 and "<section" not in _body(page)


def test_hostile_cells_names_and_text_are_escaped():
    frame = pd.DataFrame({EVIL: [IMG, "&amp;"], "n": [1, 2]}, index=pd.Index([EVIL, "b"], name=IMG))
    page = to_html({IMG: frame, "caption": EVIL, "md": cc.markdown(f"# {EVIL}\n\n*{IMG}*")})
    body = _body(page)
    assert "<script" not in body and "<img" not in body
    assert "&lt;/script&gt;&lt;script&gt;window.pwned=1&lt;/script&gt;" in body
    assert "&lt;img src=x onerror=window.pwned=2&gt;" in body
    assert "&amp;amp;" in body  # an entity in a cell is shown as written
    assert f"<em>{IMG.replace('<', '&lt;').replace('>', '&gt;')}</em>" in body


def test_the_index_is_shown_only_when_it_means_something():
    plain = table_html(pd.DataFrame({"a": [1, 2]}))
    assert "<tbody><tr><td" in plain and 'scope="row"' not in plain
    named = table_html(pd.DataFrame({"a": [1, 2]}, index=pd.Index(["x", "y"], name="model")))
    assert '<th scope="col">model</th>' in named and '<th scope="row">y</th>' in named
    filtered = table_html(pd.DataFrame({"a": [1, 2, 3]}).iloc[[0, 2]])  # index 0, 2
    assert '<th scope="row">2</th>' in filtered
    multi = pd.DataFrame({"a": [1, 2]}, index=pd.MultiIndex.from_tuples([("d", 1), ("d", 2)]))
    assert '<th scope="row">d</th><th scope="row">2</th>' in table_html(multi)
    columns = pd.DataFrame(
        [[1, 2]], columns=pd.MultiIndex.from_tuples([("auc", "lo"), ("auc", "hi")])
    )
    assert '<th scope="col">auc / hi</th>' in table_html(columns)


@pytest.mark.parametrize(
    ("value", "text", "kind"),
    [
        (0.123456789, "0.123457", "num"),
        (3.0, "3", "num"),
        (2.5e-7, "2.5e-07", "num"),
        (123456789.0, "1.23457e+08", "num"),
        (np.float32(0.5), "0.5", "num"),
        (7, "7", "num"),
        (np.int64(-3), "-3", "num"),
        (2**64 + 1, "18446744073709551617", "num"),  # exact, past 2**53
        (float("nan"), "NaN", "missing"),
        (None, "None", "missing"),
        (pd.NA, "<NA>", "missing"),
        (float("inf"), "inf", "num"),
        (-np.inf, "-inf", "num"),
        (True, "True", ""),
        ("tree", "tree", ""),
        (b"ab", "ab", ""),
    ],
)
def test_cells_are_formatted_by_kind(value, text, kind):
    assert cell_text(value) == (text, kind)


def test_costchart_tables_show_their_numbers(points):
    hull = cc.roc_hull(points)
    html = table_html(hull)
    shown = re.findall(r'<td class="num">([^<]*)</td>', html)
    assert len(shown) == hull.select_dtypes("number").size
    assert "inf" in shown  # the first threshold


def test_a_wide_table_scrolls_in_its_box():
    page = to_html([pd.DataFrame(np.arange(60.0).reshape(1, 60))])
    assert re.search(
        r"\.costchart-table \{ overflow: auto; width: fit-content; max-width: 100%", page
    )
    assert '<div class="costchart-table"><table>' in page


def test_the_frame_is_not_changed():
    frame = pd.DataFrame({"a": [1.5, np.nan]}, index=["x", "y"])
    before = frame.copy()
    table_html(frame)
    pd.testing.assert_frame_equal(frame, before)


def test_polars_and_pyarrow_tables_are_tables():
    pl = pytest.importorskip("polars")
    pa = pytest.importorskip("pyarrow")
    for table in (pl.DataFrame({"a": [1, 2]}), pa.table({"a": [1, 2]})):
        assert '<th scope="col">a</th>' in to_html([table])


def test_plain_text_keeps_paragraphs_and_line_breaks():
    assert text_html("a *b*\nc\n\n\nd") == "<p>a *b*<br>c</p>\n<p>d</p>"


@pytest.mark.parametrize(
    ("source", "html"),
    [
        ("# One\n### Three ###", "<h1>One</h1>\n<h3>Three</h3>"),
        ("a\nb\n\nc", "<p>a b</p>\n<p>c</p>"),
        (
            "**strong** and *em* and _em_",
            "<p><strong>strong</strong> and <em>em</em> and <em>em</em></p>",
        ),
        ("naive_bayes_v2 and 2*3*4", "<p>naive_bayes_v2 and 2*3*4</p>"),
        ("`a *b* <c>`", "<p><code>a *b* &lt;c&gt;</code></p>"),
        ("```\n<b>\n# no\n```", "<pre><code>&lt;b&gt;\n# no</code></pre>"),
        (
            "- a\n- b\n  more\n\n1. x\n2) y",
            "<ul><li>a</li><li>b more</li></ul>\n<ol><li>x</li><li>y</li></ol>",
        ),
        (
            "[site](https://x.org/a?b=1&c=2)",
            '<p><a href="https://x.org/a?b=1&amp;c=2" rel="noopener noreferrer">site</a></p>',
        ),
        ("[top](#results)", '<p><a href="#results" rel="noopener noreferrer">top</a></p>'),
        ("[x](javascript:alert(1))", "<p>[x](javascript:alert(1))</p>"),
        (
            '[x](https://a.org/"onmouseover="x)',
            '<p><a href="https://a.org/&quot;onmouseover=&quot;x" rel="noopener noreferrer">x</a></p>',
        ),
        ("<img src=x onerror=alert(1)>", "<p>&lt;img src=x onerror=alert(1)&gt;</p>"),
        # An image is a link to it (a report loads nothing from elsewhere).
        (
            "![plot](https://x.org/p.png)",
            '<p><a href="https://x.org/p.png" rel="noopener noreferrer">plot</a></p>',
        ),
        # Character references read as their characters, escaped again; a reference to a
        # Markdown mark marks nothing; an unknown one stays as written.
        ("a &amp; b &lt;script&gt;", "<p>a &amp; b &lt;script&gt;</p>"),
        ("&#42;not em&#42; &bogus;", "<p>&#42;not em&#42; &amp;bogus;</p>"),
    ],
)
def test_markdown_subset(source, html):
    assert markdown_html(source) == html


@pytest.mark.parametrize(
    "address",
    [
        "javascript:alert(1)",
        "JavaScript:x",
        "java\tscript:x",
        " javascript:x",
        "data:text/html,x",
        "vbscript:x",
        "&#106;avascript:x",
        "file:///etc/passwd",
    ],
)
def test_unsafe_link_addresses_are_text(address):
    assert not safe_url(address)
    assert "<a " not in markdown_html(f"[x]({address})")


@pytest.mark.parametrize(
    "address",
    ["https://a.org", "http://a.org", "mailto:a@b.org", "notes.html", "./a:b", "#top", "/x"],
)
def test_safe_link_addresses_are_links(address):
    assert safe_url(address)


def test_ipython_markdown_is_markdown():
    display = pytest.importorskip("IPython.display")
    assert "<strong>b</strong>" in to_html([display.Markdown("**b**")])


def test_markdown_refuses_what_is_not_text():
    with pytest.raises(cc.CostchartError, match=r"text=3 must be a string of Markdown"):
        cc.markdown(3)


@pytest.mark.parametrize(
    ("charts", "message"),
    [
        (
            3,
            r"charts is of type int, which a report cannot show; pass Altair charts, pandas DataFrames \(shown as tables\)",
        ),
        (["ok", None], r"charts\[1\] is of type NoneType, which a report cannot show"),
        ({"fit": [1, 2]}, r"charts\['fit'\] is of type list, which a report cannot show"),
        ([], r"charts is empty; pass at least one chart, table or text"),
    ],
)
def test_report_says_what_it_can_show(charts, message, tmp_path):
    with pytest.raises(cc.CostchartError, match=message):
        cc.report(charts, tmp_path / "r.html")
    assert not (tmp_path / "r.html").exists()


_TAG = re.compile(r"<(/?)([a-z0-9]+)(?: [^<>]*)?>")
_ALLOWED = {
    "p",
    "br",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "em",
    "strong",
    "code",
    "pre",
    "ul",
    "ol",
    "li",
    "a",
}


@settings(max_examples=100, deadline=None)
@given(st.text(alphabet="*_ a`[]()#-1.\n<>&\"'h:/", max_size=80))
def test_markdown_writes_only_its_own_tags_well_nested(source):
    html = markdown_html(source)
    stack = []
    for closing, name in _TAG.findall(html):
        assert name in _ALLOWED, html
        if name == "br":
            continue
        if closing:
            assert stack and stack.pop() == name, html
        else:
            stack.append(name)
    assert stack == [], html
    # Every other "<" or ">" the user wrote is escaped.
    assert "<" not in _TAG.sub("", html) and ">" not in _TAG.sub("", html)


def test_emphasis_never_crosses_a_strong_span():
    assert markdown_html("***w*** *a **b* c**") == (
        "<p><strong>*w</strong>* *a <strong>b* c</strong></p>"
    )


@pytest.mark.slow
def test_a_vega_lite_dict_is_one_chart_not_captions(points):
    spec = cc.cost_chart(points).to_dict()
    assert to_html(spec).count('id="costchart-chart-') == 1
    with pytest.raises(cc.CostchartError, match=r"chart is not a valid Vega-Lite"):
        to_html({"mark": "point", "encoding": "x"})
