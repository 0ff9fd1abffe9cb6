"""Every page of the built documentation site in Chromium: no console error, nothing cut off.

Building the site runs every gallery script (minutes), so these tests read a site already
built, in the folder COSTCHART_DOCS_SITE names; .ci/run runs them right after the README's
docs command::

    COSTCHART_DOCS_SITE=docs/_build/html pytest tests/test_docs_site.py

Without COSTCHART_DOCS_SITE the browser tests are skipped; with it, a missing site,
Playwright or Chromium fails them. The site is served over HTTP from this process (as a
web server would serve it); requests off the site get an empty answer, so the pages are
checked offline.
"""

import functools
import http.server
import os
import re
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SITE_VARIABLE = "COSTCHART_DOCS_SITE"
VIEWPORT = {"width": 1400, "height": 900}


def test_ci_runs_this_test_after_building_the_site():
    script = (ROOT / ".ci" / "run").read_text()
    docs_build = script.index('bash -euo pipefail -c "$docs_command"')
    run = re.search(rf"{SITE_VARIABLE}=(\S+) python -m pytest -q tests/test_docs_site.py", script)
    assert run is not None and run.start() > docs_build
    readme = (ROOT / "README.md").read_text()
    assert f" {run.group(1)}" in readme.split("<!-- docs-command -->")[1].split("```")[1]


def _site() -> Path:
    folder = os.environ.get(SITE_VARIABLE)
    if not folder:
        pytest.skip(f"no built site: set {SITE_VARIABLE} (.ci/run does, after the docs build)")
    site = Path(folder).resolve()
    if not (site / "index.html").is_file():
        pytest.fail(f"{SITE_VARIABLE}={folder} holds no built site (no index.html)")
    return site


@pytest.fixture(scope="module")
def site_url():
    site = _site()
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):
        pass


@pytest.fixture(scope="module")
def browser(site_url):
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is not installed (the test extra lists it)")
    from test_browser import _chromium

    try:
        executable = _chromium()
    except pytest.skip.Exception as skipped:  # the site is there to be checked: no skipping
        pytest.fail(str(skipped))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()


def _open(browser, url: str, site_url: str):
    """A fresh page (no stored theme choice) on ``url``, recording console errors."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    page.costchart_errors = []
    page.on("pageerror", lambda error: page.costchart_errors.append(f"page error: {error}"))
    page.on(
        "console",
        lambda message: (
            page.costchart_errors.append(message.text) if message.type == "error" else None
        ),
    )

    def route(request_route):
        if request_route.request.url.startswith(site_url):
            request_route.continue_()
        else:  # MathJax from its CDN, say: not what is checked here
            request_route.fulfill(status=200, body="")

    page.route("**/*", route)
    page.goto(url, wait_until="load")
    return page


#: What every page shows that it should not: an empty "Section Navigation", a shell
#: command cut off by its block, a theme mode the theme's script does not know.
_PAGE_DEFECTS = """() => {
  const defects = [];
  for (const nav of document.querySelectorAll("nav.bd-docs-nav")) {
    const shown = nav.getClientRects().length > 0;
    if (shown && nav.querySelectorAll("li a").length === 0) {
      defects.push("an empty Section Navigation");
    }
  }
  for (const block of document.querySelectorAll(
      "div.highlight-bash pre, div.highlight-console pre, div.highlight-shell pre")) {
    if (block.scrollWidth > block.clientWidth + 1) {
      defects.push("a shell command cut off: " + block.textContent.slice(0, 60));
    }
  }
  const mode = document.documentElement.dataset.mode;
  if (mode !== undefined && !["light", "dark", "auto"].includes(mode)) {
    defects.push("theme mode " + JSON.stringify(mode));
  }
  return defects;
}"""


#: Every chart of a page costchart saved (an interactive gallery figure) is drawn.
_CHARTS_DRAWN = """() => Array.from(document.querySelectorAll("div[id^='costchart-chart-']"))
  .filter(element => /^costchart-chart-[0-9]+$/.test(element.id))
  .every(element => element.querySelector("svg, canvas") !== null)"""


def _pages(site: Path) -> list[str]:
    return sorted(
        path.relative_to(site).as_posix()
        for path in site.rglob("*.html")
        if path.relative_to(site).parts[0] != "_static"
    )


@pytest.mark.slow
def test_every_page_opens_without_console_errors(browser, site_url):
    pages = _pages(_site())
    assert "index.html" in pages and "explorer.html" in pages and len(pages) > 50
    problems = {}
    for name in pages:
        page = _open(browser, site_url + name, site_url)
        try:
            page.wait_for_function(_CHARTS_DRAWN, timeout=30_000)
            page.wait_for_timeout(100)  # errors logged just after the load event
            found = page.costchart_errors + page.evaluate(_PAGE_DEFECTS)
        finally:
            page.context.close()
        if found:
            problems[name] = found
    assert not problems, "\n".join(f"{name}: {found}" for name, found in problems.items())


@pytest.mark.slow
def test_explorer_page_shows_the_whole_live_chart(browser, site_url):
    page = _open(browser, site_url + "explorer.html", site_url)
    try:
        wrapper = page.locator(".costchart-live")
        wrapper.scroll_into_view_if_needed()
        frame = page.frame_locator("#costchart-live-explorer")
        frame.locator("#costchart-chart-0 svg.marks").wait_for(timeout=30_000)
        page.wait_for_timeout(200)  # the page fits the frame to its content
        # Nothing inside the frame is cut off: its page needs no scrolling.
        inner = frame.locator("html").evaluate(
            "root => [root.scrollWidth, root.clientWidth, root.scrollHeight, root.clientHeight]"
        )
        assert inner[0] <= inner[1] and inner[2] <= inner[3], inner
        assert inner[1] > 1000 and inner[3] > 650, inner  # the chart's own size, not 714x620

        def shown(locator) -> bool:
            """Scrolled to, ``locator`` lies inside the frame's box and the window."""
            locator.scroll_into_view_if_needed()
            box, outer = locator.bounding_box(), wrapper.bounding_box()
            right, bottom = box["x"] + box["width"], box["y"] + box["height"]
            return (
                outer["x"] - 1 <= box["x"] and right <= outer["x"] + outer["width"] + 1
                and 0 <= box["y"] and bottom <= VIEWPORT["height"]
                and 0 <= box["x"] and right <= VIEWPORT["width"]
            )  # fmt: skip

        slider = frame.locator("input[type=range]")
        assert slider.count() == 1 and shown(slider)
        # The confusion matrices: the counts of the last classifier, rightmost and lowest.
        cells = frame.locator("#costchart-chart-0 svg.marks text", has_text=re.compile(r"^\d+$"))
        assert cells.count() >= 12
        assert shown(cells.last)
        texts = lambda: " ".join(frame.locator("svg.marks text").all_text_contents())  # noqa: E731
        assert "pc = 0.300" in texts()
        slider.fill("0.6")
        page.wait_for_timeout(200)
        assert "pc = 0.600" in texts()
        assert page.costchart_errors == []
    finally:
        page.context.close()
