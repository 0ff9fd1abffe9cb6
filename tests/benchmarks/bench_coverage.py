"""Coverage of the bootstrap bands on the exact-bootstrap paper's binormal simulations.

Prints, per test-set size, separation ``mu`` and distribution ("discrete" quantiles or the
"normal" fit), the mean and worst ``|coverage - level|`` over the ``pc`` where the band is
not degenerate in most simulations, and the share of ``pc`` where each distribution is the
closer. ``docs/bands.md`` quotes these numbers and ``interval="auto"``'s rule rests on
them.

    python tests/benchmarks/bench_coverage.py [--simulations 1000] [--full]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from costchart import band_coverage, difference_coverage


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--simulations", type=int, default=1000)
    parser.add_argument("--sampling", default="stratified", choices=["stratified", "full"])
    parser.add_argument("--level", type=float, default=0.9)
    args = parser.parse_args()
    pc = np.linspace(0.02, 0.98, 49)
    print(f"{args.simulations} simulations, {args.sampling} sampling, level {args.level}")
    header = "n/class  mu    exact mean|worst   normal mean|worst   auto mean|worst   exact closer"
    print(header)
    for n in (10, 25, 100, 250, 1000):
        for mu in (0.75, 1.5, 3.0, 5.0):
            errors = {}
            for distribution in ("discrete", "normal", "auto"):
                table = band_coverage(
                    mu=mu,
                    n_per_class=n,
                    simulations=args.simulations,
                    pc=pc,
                    sampling=args.sampling,
                    interval=distribution,
                    confidence_level=args.level,
                    rng=2008,  # the same test sets for every distribution
                )
                usable = table["degenerate"] < 0.5
                errors[distribution] = np.abs(table["coverage"] - args.level)[usable].to_numpy()
            closer = (
                np.mean(errors["discrete"] < errors["normal"]) if len(errors["discrete"]) else 0
            )
            cells = "   ".join(f"{errors[d].mean():.3f}|{errors[d].max():.3f}    " for d in errors)
            print(f"{n:7d}  {mu:4.2f}   {cells}  {closer:.2f}")
    start = time.perf_counter()
    table = difference_coverage(
        mu=1,
        shift=2,
        correlation=0.6,
        n_per_class=1000,
        simulations=args.simulations,
        pc=pc,
        sampling=args.sampling,
    )
    error = np.abs(table["coverage"] - args.level)
    print(
        f"difference, mu 1, shift 2, rho 0.6, 1000/class: mean|worst {error.mean():.3f}|"
        f"{error.max():.3f} ({time.perf_counter() - start:.1f} s)"
    )


if __name__ == "__main__":
    main()
