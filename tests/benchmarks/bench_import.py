"""Benchmark of ``import costchart`` and of ``costchart --help`` / ``--version``.

Run from the repository root:

    python tests/benchmarks/bench_import.py
    python tests/benchmarks/bench_import.py --rounds 9

Each case is a fresh Python process, timed from outside (interpreter start-up included),
round-robin over ``--rounds`` rounds (:func:`_timing.interleaved`), and the median is
kept. The reference is ``import numpy, pandas, altair``: costchart cannot import faster
than what it is built on.

Targets (the import-speed issue): ``import costchart`` <= 1.3x the reference;
``costchart --help`` and ``costchart --version`` under 1 s. ``import costchart + a
chart's API`` also loads what a first chart and its save need (``cc.roc_cost_chart``,
``cc.save``: the charts, the layers and the export, but not the band engine or scipy).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

from _timing import interleaved, machine_load, ratio_line

ROOT = Path(__file__).resolve().parents[2]


def _env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)
    return {**os.environ, "PYTHONPATH": path}


def _runner(argv: list[str]):
    env = _env()

    def run() -> None:
        subprocess.run(argv, env=env, check=True, stdout=subprocess.DEVNULL)

    return run


def _command() -> list[str]:
    """The ``costchart`` script next to this Python, else the same entry point by hand."""
    script = shutil.which("costchart", path=str(Path(sys.executable).parent))
    if script is not None:
        return [script]
    return [sys.executable, "-c", "import sys; from costchart._cli import main; sys.exit(main())"]


def main() -> None:
    """Time the cases and print the medians and ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="fresh processes per case (5)")
    rounds = parser.parse_args().rounds
    command = _command()
    cases = {
        "python -c pass": _runner([sys.executable, "-c", "pass"]),
        "import numpy, pandas, altair": _runner(
            [sys.executable, "-c", "import numpy, pandas, altair"]
        ),
        "import costchart": _runner([sys.executable, "-c", "import costchart"]),
        "import costchart + a chart's API": _runner(
            [sys.executable, "-c", "import costchart as cc; cc.roc_cost_chart, cc.save"]
        ),
        "costchart --help": _runner([*command, "--help"]),
        "costchart --version": _runner([*command, "--version"]),
    }
    print(f"before: {machine_load()}")
    median = interleaved(cases, rounds=rounds)
    print(f"after:  {machine_load()}")
    print(f"median of {rounds} fresh processes each, interleaved:")
    reference = median["import numpy, pandas, altair"]
    against = "numpy+pandas+altair"
    for name, seconds in median.items():
        target = {
            "import costchart": "<= 1.3 x",
            "costchart --help": "< 1 s",
            "costchart --version": "< 1 s",
        }.get(name, "")
        print(ratio_line(name, seconds, reference, against, target))


if __name__ == "__main__":
    main()
