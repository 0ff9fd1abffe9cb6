"""Text sections of a report: plain text, or a small, safe subset of Markdown.

A string is plain text: shown as written, paragraphs split at blank lines. Text wrapped by
:func:`markdown` is read as Markdown: headings, paragraphs, ``*emphasis*``, ``**strong**``,
```code```, fenced code blocks, bulleted and numbered lists, and links whose address is
``http``, ``https``, ``mailto`` or relative. Everything else is text: every character the
user wrote is escaped first, so no HTML (``<script>``, ``<img onerror=...>``) gets through,
and a link to ``javascript:`` or ``data:`` is shown as its text, not as a link. Character
references (``&amp;``, ``&lt;``) read as the characters they name, and are escaped again.
An image (``![alt](address)``) is shown as a link to it: a report loads nothing from
elsewhere. No Markdown library is needed.
"""

from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass

from costchart._io.errors import CostchartError
from costchart._io.parameters import checked

__all__ = ["Markdown", "markdown", "markdown_html", "text_html"]


@dataclass(frozen=True)
class Markdown:
    """Text that :func:`~costchart.report` reads as Markdown (made by :func:`markdown`)."""

    text: str


@checked
def markdown(text: str) -> Markdown:
    """Mark text as Markdown, for a section of :func:`report`.

    A plain string in a report is shown as written; ``cc.markdown(text)`` is read as a
    safe subset of Markdown: ``#`` headings, paragraphs, ``*emphasis*``, ``**strong**``,
    ```code``` and fenced code blocks, ``-`` and ``1.`` lists, and ``[links](https://...)``
    (``http``, ``https``, ``mailto`` or relative addresses only). Any HTML in the text is
    shown as text, never run.

    Parameters
    ----------
    text : str
        The Markdown text.

    Returns
    -------
    Markdown
        The text, marked as Markdown (its ``text`` attribute).

    Examples
    --------
    >>> import costchart as cc
    >>> cc.markdown("The **envelope** is the least cost.").text
    'The **envelope** is the least cost.'
    """
    if not isinstance(text, str):
        msg = f"text={text!r} must be a string of Markdown"
        raise CostchartError(msg)
    return Markdown(text)


def text_html(text: str) -> str:
    """Plain text as HTML paragraphs: blank lines split them, line breaks are kept."""
    paragraphs = [p for p in re.split(r"\n[ \t]*\n", _lines(text)) if p.strip()]
    return "\n".join(
        "<p>" + "<br>".join(html.escape(line) for line in p.strip("\n").split("\n")) + "</p>"
        for p in paragraphs
    )


def _lines(text: str) -> str:
    """``text`` with every kind of line break as a newline."""
    return re.sub(r"\r\n?|[\u2028\u2029\x0b\x0c\x85]", "\n", text)


_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")
_BULLET = re.compile(r"^[ \t]{0,3}[-*+][ \t]+(.*)$")
_NUMBERED = re.compile(r"^[ \t]{0,3}\d{1,9}[.)][ \t]+(.*)$")
_FENCE = re.compile(r"^[ \t]{0,3}(```|~~~)")


def markdown_html(text: str) -> str:
    """The Markdown subset as HTML; every character of ``text`` is escaped."""
    lines = _lines(text).split("\n")
    blocks: list[str] = []
    paragraph: list[str] = []
    index = 0

    def flush() -> None:
        if paragraph:
            blocks.append("<p>" + _inline(" ".join(s.strip() for s in paragraph)) + "</p>")
            paragraph.clear()

    while index < len(lines):
        line = lines[index]
        fence = _FENCE.match(line)
        if fence:
            flush()
            code = []
            index += 1
            while index < len(lines) and not lines[index].lstrip().startswith(fence.group(1)):
                code.append(lines[index])
                index += 1
            blocks.append("<pre><code>" + html.escape("\n".join(code)) + "</code></pre>")
            index += 1
            continue
        heading = _HEADING.match(line)
        if heading:
            flush()
            level = len(heading.group(1))
            blocks.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
            index += 1
            continue
        for pattern, tag in ((_BULLET, "ul"), (_NUMBERED, "ol")):
            if pattern.match(line):
                flush()
                items = []
                while index < len(lines) and (item := pattern.match(lines[index])):
                    items.append(item.group(1))
                    index += 1
                    # A following indented line continues the item.
                    while (
                        index < len(lines)
                        and lines[index].startswith(("  ", "\t"))
                        and not (_BULLET.match(lines[index]) or _NUMBERED.match(lines[index]))
                    ):
                        items[-1] += " " + lines[index].strip()
                        index += 1
                body = "".join(f"<li>{_inline(item)}</li>" for item in items)
                blocks.append(f"<{tag}>{body}</{tag}>")
                break
        else:
            if line.strip():
                paragraph.append(line)
            else:
                flush()
            index += 1
    flush()
    return "\n".join(blocks)


_CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
_LINK = re.compile(r"\[([^\[\]]+)\]\(([^()\s]+)\)")

#: Where each emphasis mark may open and close a span: ``(mark, tag, opens, closes)``.
#: Openers and closers are found in one pass each and paired in order, so no text makes
#: the search quadratic (a regex with a lazy ``.+?`` between marks took 20 s or more on
#: 60 KB of unclosed ``*``).
_MARKS = (
    ("**", "strong", re.compile(r"(?:\*\*|__)(?=\S)"), re.compile(r"(?<=\S)(?:\*\*|__)")),
    ("*", "em", re.compile(r"(?<![\w*])[*_](?=[^\s*_])"), re.compile(r"(?<=[^\s*_])[*_](?![\w*])")),
)

#: Link addresses allowed: these schemes, or none (relative, ``#anchor``).
SAFE_SCHEMES = ("http", "https", "mailto")


def _inline(text: str) -> str:
    """Code spans, links, strong and emphasis; the rest escaped."""
    parts = []
    position = 0
    for span in _CODE_SPAN.finditer(text):
        parts.append(_styled(text[position : span.start()]))
        parts.append("<code>" + html.escape(span.group(2).strip()) + "</code>")
        position = span.end()
    parts.append(_styled(text[position:]))
    return "".join(parts)


def _styled(text: str) -> str:
    """Links, strong and emphasis of text holding no code span; every character escaped."""
    parts = []
    position = 0
    for link in _LINK.finditer(text):
        before = text[position : link.start()]
        if before.endswith("!"):  # an image: its link (a report loads nothing)
            before = before[:-1]
        parts.append(_emphasis(_escaped(before)))
        label = _emphasis(_escaped(link.group(1)))
        address = link.group(2)
        if safe_url(address):
            href = html.escape(address, quote=True)
            parts.append(f'<a href="{href}" rel="noopener noreferrer">{label}</a>')
        else:
            parts.append(html.escape(link.group(0)))
        position = link.end()
    parts.append(_emphasis(_escaped(text[position:])))
    return "".join(parts)


def _escaped(text: str) -> str:
    """Text escaped for HTML, its character references read as the characters they name.

    A reference to a Markdown mark (``&#42;``) stays a reference, so it marks nothing.
    """
    parts, position = [], 0
    for reference in _REFERENCE.finditer(text):
        parts.append(html.escape(text[position : reference.start()]))
        named = html.unescape(reference.group(0))
        if named == reference.group(0) or len(named) != 1:
            parts.append(html.escape(reference.group(0)))  # not a reference: as written
        elif named in "*_`[]()!#":
            parts.append(f"&#{ord(named)};")
        else:
            parts.append(html.escape(named))
        position = reference.end()
    parts.append(html.escape(text[position:]))
    return "".join(parts)


_REFERENCE = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")


def _emphasis(escaped: str) -> str:
    """Strong and emphasis marks of escaped text as tags (the text itself stays escaped).

    Emphasis is found inside and between the strong spans, never across their ends, so
    the tags always nest.
    """
    (_, strong, opens, closes), (_, em, em_opens, em_closes) = _MARKS
    return _paired(
        escaped, 2, strong, opens, closes, lambda part: _paired(part, 1, em, em_opens, em_closes)
    )


def _paired(text: str, width: int, tag: str, opens, closes, inner=lambda part: part) -> str:
    """Each opening mark paired with the first closing one of the same character after it.

    ``inner`` is applied to every piece of text between the marks, inside spans and out.
    """
    closers: dict[str, list[int]] = {}
    for match in closes.finditer(text):
        closers.setdefault(match.group()[0], []).append(match.start())
    parts = []
    position = 0
    for match in opens.finditer(text):
        start = match.start()
        if start < position:
            continue
        candidates = closers.get(match.group()[0], [])
        index = bisect.bisect_left(candidates, start + width + 1)  # a span is not empty
        if index == len(candidates):
            continue
        end = candidates[index]
        parts += [inner(text[position:start]), f"<{tag}>", inner(text[start + width : end])]
        parts.append(f"</{tag}>")
        position = end + width
    parts.append(inner(text[position:]))
    return "".join(parts)


def safe_url(address: str) -> bool:
    """Whether a link may point at ``address``: a safe scheme, or none (relative)."""
    # Browsers ignore control characters and whitespace inside a scheme ("java\tscript:").
    plain = re.sub(r"[\x00-\x20\x7f]", "", html.unescape(address)).lower()
    scheme = re.match(r"^([a-z][a-z0-9+.-]*):", plain)
    if scheme is None:
        # No scheme before the first / ? #: a relative address (a colon later is a path's).
        return not re.match(r"^[^/?#]*:", plain)
    return scheme.group(1) in SAFE_SCHEMES
