"""The plotting row of the peer table: a ROC chart saved as PNG, costchart against matplotlib.

Run from the repository root:
    python tests/benchmarks/bench_plot_peers.py [--rounds 7]

The peer is what a scikit-learn user would otherwise write: ``RocCurveDisplay.from_predictions``
on one matplotlib Axes (Agg backend), once per curve, then ``fig.savefig`` to a PNG.
costchart: ``roc_points`` (``by="classifier"`` for several curves), ``roc_chart``
(``classifier="classifier"``) and ``cc.save`` to a PNG. Both start from the same raw scores
and labels (costchart from a DataFrame built before the clock starts), with each tool's
defaults for what is drawn. Two charts:

* 1 curve: 10,000 instances (30 % positive);
* 12 curves: 12 classifiers of 10,000 instances each, in one chart, one colour each
  (matplotlib's default colour cycle repeats after 10).

The matplotlib figure has the pixel size of costchart's PNG (``scale_factor=2``) at 150 dpi,
so its 10-point text is about as many pixels high as costchart's 11-pixel text at scale 2.

Cold: fresh Python processes, interleaved (costchart 1, matplotlib 1, costchart 12,
matplotlib 12, ...), each timing its imports (what the user's script writes) and its first
chart (compute, build, save), and the parent timing the whole process. Warm: one process
that has made each chart once times the same calls again, interleaved
(``_timing.interleaved``). Every figure is the median over the rounds; ratios are printed
both ways. Where costchart's time goes is printed per stage (median seconds of the same
runs): ``roc_points``, the chart's tables (thinning, hull, envelope), the rest of
``roc_chart`` (Altair layers), the spec (``to_dict`` and the schema check), vl-convert's SVG
(its JavaScript engine; in a fresh process this includes starting it) and PNG (resvg
rasterising that SVG), and, cold, the lazy imports of a first chart that these leave out;
matplotlib's split is the ``from_predictions`` calls and ``savefig``.
The warm run also times costchart's PNG rendering of each chart's spec (``render_image``)
against the same with the SVG's ARIA labels kept, as before (a PNG cannot keep them),
interleaved over twice the rounds, to measure that change.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
INSTANCES = 10_000
CURVES = (1, 12)
#: matplotlib's resolution; the figure size in inches is costchart's PNG size over it.
DPI = 150
#: Pixel size of costchart's PNG of each chart (checked: every run prints both sizes).
PIXELS = {1: (780, 750), 12: (832, 750)}
TOOLS = ("costchart", "matplotlib")
#: costchart's PNG rendering as it was: the SVG it rasterises keeps its ARIA labels.
ARIA = "costchart with ARIA labels"


# --------------------------------------------------------------------------- the two sides


def curves_data(curves: int) -> list[tuple[str, object, object]]:
    """``curves`` classifiers of :data:`INSTANCES` instances: name, labels, scores."""
    import numpy as np

    rng = np.random.default_rng(0)
    data = []
    for i in range(curves):
        labels = rng.random(INSTANCES) < 0.3
        scores = rng.normal(size=INSTANCES) + (0.5 + 0.1 * i) * labels
        data.append((f"model {i + 1:02d}", labels, scores))
    return data


def costchart_input(data):
    """The long DataFrame costchart reads (one classifier: no classifier column)."""
    import pandas as pd

    frames = [pd.DataFrame({"classifier": n, "score": s, "label": y}) for n, y, s in data]
    frame = pd.concat(frames, ignore_index=True)
    return frame if len(data) > 1 else frame.drop(columns="classifier")


def costchart_png(frame, path: Path) -> None:
    """ROC points from raw scores, ``roc_chart`` and a PNG, as a costchart user writes it."""
    import costchart as cc

    many = "classifier" in frame.columns
    points = cc.roc_points(frame, score="score", label="label", by="classifier" if many else None)
    chart = cc.roc_chart(points, classifier="classifier" if many else None)
    cc.save(chart, path)


def matplotlib_png(data, path: Path) -> None:
    """``RocCurveDisplay.from_predictions`` per curve on one Axes, then ``savefig``."""
    import matplotlib.pyplot as plt
    from sklearn.metrics import RocCurveDisplay

    width, height = PIXELS[len(data)]
    fig, ax = plt.subplots(figsize=(width / DPI, height / DPI), dpi=DPI)
    start = time.perf_counter()
    for i, (name, labels, scores) in enumerate(data):
        RocCurveDisplay.from_predictions(
            labels, scores, ax=ax, name=name, plot_chance_level=i == len(data) - 1
        )
    drawn = time.perf_counter()
    fig.savefig(path, dpi=DPI)
    STAGES["draw"] = STAGES.get("draw", 0.0) + drawn - start
    STAGES["savefig"] = STAGES.get("savefig", 0.0) + time.perf_counter() - drawn
    plt.close(fig)


def import_tool(tool: str) -> None:
    """The imports a user's script writes for ``tool`` (numpy for the data, both)."""
    import numpy  # noqa: F401

    if tool == "costchart":
        import pandas  # noqa: F401

        import costchart as cc

        for name in ("roc_points", "roc_chart", "save"):  # costchart's lazy attributes, loaded
            getattr(cc, name)
    else:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot
        from sklearn.metrics import RocCurveDisplay  # noqa: F401


# --------------------------------------------------------------------------- stages

#: Seconds per stage of the runs since the last :func:`take_stages`.
STAGES: dict[str, float] = {}


def _timed_stage(owner, name: str, stage: str) -> None:
    """Wrap ``owner.name`` so its seconds add up in ``STAGES[stage]``."""
    inner = getattr(owner, name)

    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        try:
            return inner(*args, **kwargs)
        finally:
            STAGES[stage] = STAGES.get(stage, 0.0) + time.perf_counter() - start

    setattr(owner, name, wrapper)


def instrument(tool: str) -> None:
    """Time the stages of costchart's path (after the imports; a wrapper costs microseconds).

    matplotlib's two stages are timed in :func:`matplotlib_png` itself.
    """
    if tool == "costchart":
        import vl_convert

        import costchart as cc
        import costchart._export as export
        from costchart._charts import roc as roc_module

        _keep_aria_when_asked(vl_convert)
        for owner, name, stage in (
            (cc, "roc_points", "roc_points"),
            (cc, "roc_chart", "roc_chart"),
            (roc_module, "drawn_tables", "tables"),
            (export, "chart_spec", "spec"),
            (vl_convert, "vegalite_to_svg", "svg"),
            (vl_convert, "svg_to_png", "png"),
        ):
            _timed_stage(owner, name, stage)


#: While true, costchart's PNG is drawn from an SVG with its ARIA labels, as it was before.
KEEP_ARIA = [False]
#: Bytes of the last SVG drawn, without (False) and with (True) its ARIA labels.
SVG_BYTES: dict[bool, int] = {}


def _keep_aria_when_asked(vl_convert) -> None:
    """Let :data:`KEEP_ARIA` put the ARIA labels back into the SVG a PNG is drawn from."""
    inner = vl_convert.vegalite_to_svg

    def svg(spec, **options):
        if KEEP_ARIA[0] and "config" in options:
            options["config"] = {k: v for k, v in options["config"].items() if k != "aria"}
        drawn = inner(spec, **options)
        SVG_BYTES[KEEP_ARIA[0]] = len(drawn.encode("utf-8"))
        return drawn

    vl_convert.vegalite_to_svg = svg


def take_stages() -> dict[str, float]:
    """The stage seconds gathered so far (``roc_chart`` net of its tables), then reset."""
    stages = dict(STAGES)
    STAGES.clear()
    if "roc_chart" in stages:
        stages["altair"] = stages.pop("roc_chart") - stages.get("tables", 0.0)
    return stages


# --------------------------------------------------------------------------- cold


def child(tool: str, curves: int, out: str) -> None:
    """One fresh process: imports, then the first chart; prints seconds as JSON."""
    start = time.perf_counter()
    import_tool(tool)
    imported = time.perf_counter() - start
    data = curves_data(curves)
    frame = costchart_input(data) if tool == "costchart" else None
    start = time.perf_counter()
    # the modules a first chart loads lazily (Altair, vl-convert), counted in the chart
    instrument(tool)
    STAGES["lazy imports"] = time.perf_counter() - start
    if tool == "costchart":
        costchart_png(frame, Path(out))
    else:
        matplotlib_png(data, Path(out))
    chart = time.perf_counter() - start
    result = {"import": imported, "chart": chart, "size": png_size(Path(out))}
    print(json.dumps({**result, "stages": take_stages()}))


def run_child(tool: str, curves: int, out: Path) -> dict:
    """Seconds of one fresh process: its own figures and the whole process's wall time."""
    command = [sys.executable, __file__, "--child", tool, str(curves), str(out)]
    start = time.perf_counter()
    done = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - start
    return {**json.loads(done.stdout.strip().splitlines()[-1]), "process": wall}


def png_size(path: Path) -> tuple[int, int]:
    """Width and height of a PNG, from its header."""
    header = path.read_bytes()[16:24]
    return int.from_bytes(header[:4], "big"), int.from_bytes(header[4:], "big")


def cold(rounds: int, work: Path) -> dict[tuple[str, int], list[dict]]:
    """``rounds`` interleaved fresh processes of each tool and chart."""
    runs: dict[tuple[str, int], list[dict]] = {(t, c): [] for c in CURVES for t in TOOLS}
    for _ in range(rounds):
        for (tool, curves), rows in runs.items():
            rows.append(run_child(tool, curves, work / f"cold_{tool}_{curves}.png"))
    return runs


# --------------------------------------------------------------------------- warm


def warm(rounds: int, work: Path) -> tuple[dict[str, float], dict[tuple[str, int], dict]]:
    """Median seconds of each chart in a process that has made it once, interleaved."""
    sys.path.insert(0, str(HERE))
    from _timing import interleaved

    for tool in TOOLS:
        import_tool(tool)
        instrument(tool)
    data = {c: curves_data(c) for c in CURVES}
    frames = {c: costchart_input(data[c]) for c in CURVES}
    stages: dict[tuple[str, int], list[dict]] = {(t, c): [] for c in CURVES for t in TOOLS}

    def run(tool: str, curves: int):
        def once():
            path = work / f"warm_{tool}_{curves}.png"
            take_stages()
            if tool == "costchart":
                costchart_png(frames[curves], path)
            else:
                matplotlib_png(data[curves], path)
            stages[tool, curves].append(take_stages())

        return once

    functions = {f"{t} {c}": run(t, c) for c in CURVES for t in TOOLS}
    medians = interleaved(functions, rounds=rounds)
    details = {
        (t, c): {"size": png_size(work / f"warm_{t}_{c}.png"), "stages": median_stages(rows[1:])}
        for (t, c), rows in stages.items()
    }
    for curves in CURVES:
        medians.update(aria_timings(frames[curves], curves, rounds))
    return medians, details


def aria_timings(frame, curves: int, rounds: int) -> dict[str, float]:
    """Median seconds of rendering one chart's spec as PNG, its SVG without and with ARIA."""
    from _timing import interleaved

    import costchart as cc
    from costchart._export.image import chart_spec, render_image

    many = "classifier" in frame.columns
    points = cc.roc_points(frame, score="score", label="label", by="classifier" if many else None)
    spec = chart_spec(cc.roc_chart(points, classifier="classifier" if many else None))

    def render(keep: bool):
        def once():
            KEEP_ARIA[0] = keep
            try:
                render_image(spec, ".png", 2.0)
            finally:
                KEEP_ARIA[0] = False

        return once

    timings = interleaved(
        {f"render {curves}": render(False), f"{ARIA} {curves}": render(True)},
        rounds=2 * rounds,
    )
    take_stages()
    return {
        **timings,
        f"svg bytes {curves}": SVG_BYTES[False],
        f"{ARIA} svg bytes {curves}": SVG_BYTES[True],
    }


def median_stages(rows: list[dict]) -> dict[str, float]:
    """The median of each stage over ``rows``."""
    return {stage: statistics.median(row.get(stage, 0.0) for row in rows) for stage in rows[0]}


# --------------------------------------------------------------------------- report


def ratio_pair(cc: float, mpl: float) -> str:
    """Both ratios: costchart over matplotlib (below 1: costchart is faster) and back."""
    return f"cc/mpl {cc / mpl:5.2f}   mpl/cc {mpl / cc:5.2f}"


def stage_text(stages: dict[str, float]) -> str:
    """The stages' median seconds on one line."""
    order = (
        "lazy imports",
        "roc_points",
        "tables",
        "altair",
        "spec",
        "svg",
        "png",
        "draw",
        "savefig",
    )
    return ", ".join(f"{s} {stages[s]:.3f}" for s in order if s in stages)


def report_cold(runs: dict[tuple[str, int], list[dict]], rounds: int) -> None:
    """Print the cold medians, ratios and stages."""
    print(f"cold: fresh processes, median of {rounds} interleaved rounds (seconds)")
    for curves in CURVES:
        med = {}
        for tool in TOOLS:
            rows = runs[tool, curves]
            med[tool] = {
                part: statistics.median(row[part] for row in rows)
                for part in ("import", "chart", "process")
            }
            med[tool]["both"] = statistics.median(row["import"] + row["chart"] for row in rows)
            size = rows[-1]["size"]
            print(
                f"  {curves:2d} curve(s) {tool:10s} import {med[tool]['import']:.3f}"
                f"  first chart {med[tool]['chart']:.3f}  import + chart {med[tool]['both']:.3f}"
                f"  whole process {med[tool]['process']:.3f}  ({size[0]}x{size[1]} px)"
            )
            print(f"      stages: {stage_text(median_stages([r['stages'] for r in rows]))}")
        cc, mpl = med["costchart"], med["matplotlib"]
        for part, label in (
            ("chart", "beyond imports"),
            ("both", "with imports"),
            ("process", "process"),
        ):
            print(f"  {curves:2d} curve(s) cold {label:15s} {ratio_pair(cc[part], mpl[part])}")


def report_warm(medians: dict[str, float], details: dict, rounds: int) -> None:
    """Print the warm medians, ratios and stages."""
    print(f"warm: one process that has made each chart once, median of {rounds} interleaved rounds")
    for curves in CURVES:
        for tool in TOOLS:
            size = details[tool, curves]["size"]
            print(
                f"  {curves:2d} curve(s) {tool:10s} {medians[f'{tool} {curves}']:.3f} s"
                f"  ({size[0]}x{size[1]} px)   stages: {stage_text(details[tool, curves]['stages'])}"
            )
        cc, mpl = medians[f"costchart {curves}"], medians[f"matplotlib {curves}"]
        print(f"  {curves:2d} curve(s) warm                 {ratio_pair(cc, mpl)}")
        now, before = medians[f"render {curves}"], medians[f"{ARIA} {curves}"]
        print(
            f"  {curves:2d} curve(s) PNG rendering of the spec (render_image): {now:.3f} s;"
            f" with the SVG's ARIA labels, as before: {before:.3f} s ({before / now:.2f} x);"
            f" SVG {medians[f'svg bytes {curves}'] / 1e3:.0f} kB, was"
            f" {medians[f'{ARIA} svg bytes {curves}'] / 1e3:.0f} kB"
        )


def versions() -> str:
    """The versions of the tools measured."""
    from importlib.metadata import version

    names = ("costchart", "altair", "vl-convert-python", "scikit-learn", "matplotlib")
    found = []
    for name in names:
        try:
            found.append(f"{name} {version(name)}")
        except Exception:  # a source checkout may not be installed
            found.append(f"{name} ?")
    return ", ".join(found)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--child", nargs=3, metavar=("TOOL", "CURVES", "OUT"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.child:
        tool, curves, out = args.child
        child(tool, int(curves), out)
        return
    sys.path.insert(0, str(HERE))
    from _timing import machine_load

    print(f"python tests/benchmarks/bench_plot_peers.py --rounds {args.rounds}")
    print(machine_load())
    print(versions())
    work = Path(tempfile.mkdtemp())
    report_cold(cold(args.rounds, work), args.rounds)
    medians, details = warm(args.rounds, work)
    report_warm(medians, details, args.rounds)
    print(machine_load())


if __name__ == "__main__":
    main()
