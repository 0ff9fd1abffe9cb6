"""Charts in Jupyter with no network: an Altair renderer that inlines the Vega libraries.

``cc.enable_offline()`` registers the renderer with Altair's renderer registry (under the
name ``"costchart"``) and enables it, so every Altair chart shown in the notebook is an
HTML output holding vega, vega-lite and vega-embed from vl-convert (the same bundle as
:func:`~costchart.save`'s pages) and its spec: no script is loaded from a CDN.

Why not Altair's ``alt.renderers.enable("html", template="inline")``: its output declares
``const spec`` at the top level of the page, so the second chart in a notebook that shares
one page between outputs (JupyterLab, VS Code) stops with "Identifier 'spec' has already
been declared"; and it writes the spec without escaping ``</script>``. Here each output
runs the bundle inside its own function (no global names but ``vegaEmbed``'s own) and
reads its spec from a JSON element escaped by :func:`~costchart._export.html.safe_json`.
"""

from __future__ import annotations

from costchart._export.html import EMBED_OPTIONS, bundle, safe_json
from costchart._export.image import page_spec, vl_version
from costchart._export.packing import UNPACK_SCRIPT, pack_datasets
from costchart._io.parameters import checked

__all__ = ["RENDERER", "enable_offline", "notebook_html", "render"]

#: The name of the renderer in Altair's registry (``alt.renderers.enable(RENDERER)``).
RENDERER = "costchart"

# Runs inside each output's own copy of the bundle: draws every chart of the page not
# drawn yet (its own, and any whose output was shown before its script could run).
_NOTEBOOK_SNIPPET = (
    UNPACK_SCRIPT
    + """
document.querySelectorAll("script.costchart-notebook-spec").forEach((element) => {
  if (element.dataset.costchartDrawn) return;
  element.dataset.costchartDrawn = "1";
  const target = element.previousElementSibling;
  const output = JSON.parse(element.textContent);
  vegaEmbed(target, costchartUnpack(output.spec), output.options).catch((error) => {
    target.textContent = "This chart could not be drawn: " + error;
    console.error(error);
  });
});
"""
)


def notebook_html(spec: dict, embed_options: dict | None = None) -> str:
    """One notebook output: the chart's place, its spec as safe JSON, and the libraries.

    ``embed_options`` (Altair's ``alt.renderers.set_embed_options``, or
    ``alt.renderers.enable("costchart", embed_options=...)``) update costchart's own
    vega-embed options for this output.
    """
    output = {
        "spec": pack_datasets(page_spec(spec)),
        "options": {**EMBED_OPTIONS, **(embed_options or {})},
    }
    return (
        '<div class="costchart-output">'
        '<div class="costchart-notebook-chart"></div>'
        '<script type="application/json" class="costchart-notebook-spec">'
        f"{safe_json(output)}</script>\n"
        "<script>\n(function () {\n"
        f"{bundle(vl_version(), _NOTEBOOK_SNIPPET)}\n"
        "})();\n</script></div>"
    )


def render(spec: dict, **metadata) -> dict[str, str]:
    """The Altair renderer: a MIME bundle of the offline HTML and a plain-text stand-in."""
    embed_options = metadata.get("embed_options")
    return {
        "text/html": notebook_html(
            spec, embed_options if isinstance(embed_options, dict) else None
        ),
        "text/plain": "<costchart chart: shown when the notebook's HTML output is trusted>",
    }


@checked
def enable_offline():
    """Show Altair charts in Jupyter with no network: the Vega libraries inlined.

    Registers costchart's renderer with Altair (``alt.renderers``, under the name
    ``"costchart"``) and enables it. Every chart displayed afterwards is an HTML output
    that holds vega, vega-lite and vega-embed (from vl-convert, about 0.9 MB an output)
    and its spec, escaped so no name or value can run as code: it draws in JupyterLab,
    Jupyter Notebook, VS Code and Colab without loading anything from the internet, and
    in the saved notebook too. ``alt.renderers.enable("default")`` switches back.

    Returns
    -------
    altair.utils.plugin_registry.PluginEnabler
        What ``alt.renderers.enable`` returns: used in a ``with`` block, the renderer
        enabled before is restored at its end.

    Examples
    --------
    >>> import costchart as cc
    >>> points = cc.roc_points({"s": [4, 3, 2, 1], "y": [1, 0, 1, 0]}, score="s", label="y")
    >>> with cc.enable_offline():
    ...     output = cc.cost_chart(points)._repr_mimebundle_()
    >>> "<script src" in output["text/html"]
    False
    """
    import altair as alt

    if RENDERER not in alt.renderers.names():
        alt.renderers.register(RENDERER, render)
    return alt.renderers.enable(RENDERER)
