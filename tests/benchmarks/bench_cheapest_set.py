"""The cheapest set's coverage and power, measured on binormal classifiers with known costs.

Each cell simulates ``--sets`` test sets of two classifiers scored on the same instances
(within each class the two scores are normal, correlated by ``rho``) and builds the set of
:func:`costchart.cheapest_set` at level 0.9 on each (its kernel,
:func:`costchart._select.confidence_set.members`, which :func:`cheapest_set` calls once per
group; the critical value comes with it). The truth is each classifier's true optimal cost
curve, ``min over t of pc * P(s < t | +) + (1 - pc) * P(s >= t | -)``, found on 20,001
thresholds and refined by a bounded scalar search at each ``pc``.

* ``equal``: both classifiers N(1, 1) against N(0, 1). Target: both are in the set at every
  ``pc`` of ``linspace(0, 1, 101)`` in at least 0.9 of test sets (``whole``);
* ``crossing``: N(1.5, 1) against N(1.2, 0.5), negatives N(0, 1) for both: the true curves
  cross once (the script prints where). Target: the set holds the true cheapest at every
  ``pc`` of ``linspace(0.05, 0.95, 91)`` in at least 0.9 of test sets (``whole``);
* ``power``: N(3, 1) against N(0.5, 1), negatives N(0, 1). Target at 300 per class: the set
  is the better classifier alone at ``pc`` 0.5 in at least 0.9 of test sets (``alone 0.5``);
* ``closer``: N(1.5, 1) against N(1, 1), negatives N(0, 1): a power curve that climbs.

For each cell it prints ``whole`` with its Monte Carlo standard error
``sqrt(p (1 - p) / sets)``, the smallest pointwise coverage over ``pc`` and where it falls,
``miss ends`` and ``miss 0.2-0.8`` (the shares of test sets that miss somewhere in ``pc``
below 0.2 or above 0.8, and somewhere between), ``alone 0.5`` (the share where the set at
``pc`` 0.5 is the cheaper classifier alone; for equal classifiers, where either stands
alone), the mean level the critical value is taken at (calibrated by the double
bootstrap), the mean critical value and the mean width of the bounds of the difference
at ``pc`` 0.5 (``2 * critical * se``). The date, the machine load and the settings are
printed first; ``docs/cheapest_set.md`` shows the table.

    nice -n 10 python tests/benchmarks/bench_cheapest_set.py [--sets 1000] [--rounds 1000]
        [--only headline | equal,crossing,power,closer | cell names] [--quick]

``--quick`` is 200 test sets and 500 resamples per set; ``--rounds`` the resamples of each
set (``n_resamples``).
"""

from __future__ import annotations

import argparse
import datetime
import os
import time

import numpy as np
import pandas as pd
from scipy.optimize import brentq, minimize_scalar
from scipy.stats import norm

from costchart._select.confidence_set import members

LEVEL = 0.9
#: The whole range, for equal classifiers; the inner range for crossing and power.
WHOLE = np.linspace(0.0, 1.0, 101)
INNER = np.linspace(0.05, 0.95, 91)

#: One classifier: (positives' mean, sd, negatives' mean, sd).
EQUAL = (1.0, 1.0, 0.0, 1.0)
CROSS_A, CROSS_B = (1.5, 1.0, 0.0, 1.0), (1.2, 0.5, 0.0, 1.0)
BETTER, WORSE = (3.0, 1.0, 0.0, 1.0), (0.5, 1.0, 0.0, 1.0)
#: A closer pair, for a power curve that is not 1 everywhere.
NEAR_BETTER, NEAR_WORSE = (1.5, 1.0, 0.0, 1.0), (1.0, 1.0, 0.0, 1.0)

#: name: (family, classifier a, classifier b, per class, rho, pc grid)
CELLS = {
    "equal 50": ("equal", EQUAL, EQUAL, 50, 0.0, WHOLE),
    "equal 100": ("equal", EQUAL, EQUAL, 100, 0.0, WHOLE),
    "equal 200": ("equal", EQUAL, EQUAL, 200, 0.0, WHOLE),
    "equal 50 rho .6": ("equal", EQUAL, EQUAL, 50, 0.6, WHOLE),
    "equal 100 rho .6": ("equal", EQUAL, EQUAL, 100, 0.6, WHOLE),
    "equal 200 rho .6": ("equal", EQUAL, EQUAL, 200, 0.6, WHOLE),
    "crossing 100": ("crossing", CROSS_A, CROSS_B, 100, 0.0, INNER),
    "crossing 300": ("crossing", CROSS_A, CROSS_B, 300, 0.0, INNER),
    "crossing 300 rho .6": ("crossing", CROSS_A, CROSS_B, 300, 0.6, INNER),
    "power 50": ("power", BETTER, WORSE, 50, 0.0, INNER),
    "power 100": ("power", BETTER, WORSE, 100, 0.0, INNER),
    "power 300": ("power", BETTER, WORSE, 300, 0.0, INNER),
    "power 1000": ("power", BETTER, WORSE, 1000, 0.0, INNER),
    "closer 50": ("closer", NEAR_BETTER, NEAR_WORSE, 50, 0.0, INNER),
    "closer 100": ("closer", NEAR_BETTER, NEAR_WORSE, 100, 0.0, INNER),
    "closer 300": ("closer", NEAR_BETTER, NEAR_WORSE, 300, 0.0, INNER),
    "closer 1000": ("closer", NEAR_BETTER, NEAR_WORSE, 1000, 0.0, INNER),
}
#: The cells of the docs' headline table, run first.
HEADLINE = ("equal 100", "equal 100 rho .6", "crossing 300", "power 300")


def true_cost(classifier, pc: np.ndarray) -> np.ndarray:
    """A binormal classifier's true optimal cost at each ``pc`` (one threshold, ``s >= t``)."""
    mu_pos, sd_pos, mu_neg, sd_neg = classifier
    spread = 8 * max(sd_pos, sd_neg)
    grid = np.linspace(min(mu_pos, mu_neg) - spread, max(mu_pos, mu_neg) + spread, 20001)

    def cost(t, p):
        return p * norm.cdf((t - mu_pos) / sd_pos) + (1 - p) * norm.sf((t - mu_neg) / sd_neg)

    coarse = cost(grid[:, None], pc[None, :])
    best = coarse.argmin(axis=0)
    step = grid[1] - grid[0]
    out = coarse[best, np.arange(len(pc))].copy()
    for k, p in enumerate(pc):
        if 0 < best[k] < len(grid) - 1:
            fine = minimize_scalar(
                cost,
                bounds=(grid[best[k]] - step, grid[best[k]] + step),
                args=(p,),
                method="bounded",
                options={"xatol": 1e-12},
            )
            out[k] = min(out[k], fine.fun)
    return out


def crossing_point(a, b) -> float:
    """Where the true curves of ``a`` and ``b`` cross inside ``INNER`` (a fine search)."""
    gap = true_cost(a, INNER) - true_cost(b, INNER)
    change = np.flatnonzero(np.diff(np.sign(gap)) != 0)
    if not len(change):
        return float("nan")
    lo, hi = INNER[change[0]], INNER[change[0] + 1]

    def between(p):
        at = np.array([p])
        return float(true_cost(a, at)[0] - true_cost(b, at)[0])

    return float(brentq(between, lo, hi, xtol=1e-6))


def test_set(a, b, n: int, rho: float, rng) -> tuple[np.ndarray, np.ndarray]:
    """One paired test set: scores (instances x 2) and the positives, ``n`` per class."""
    positive = np.r_[np.ones(n, bool), np.zeros(n, bool)]
    first = rng.standard_normal(2 * n)
    second = rho * first + np.sqrt(1 - rho**2) * rng.standard_normal(2 * n)
    scores = np.empty((2 * n, 2))
    for j, (classifier, z) in enumerate(((a, first), (b, second))):
        mu_pos, sd_pos, mu_neg, sd_neg = classifier
        scores[:, j] = np.where(positive, mu_pos + sd_pos * z, mu_neg + sd_neg * z)
    return scores, positive


def run(name: str, sets: int, rounds: int, seed: int) -> dict:
    """One cell's coverage, power and critical values over ``sets`` test sets."""
    family, a, b, n, rho, pc = CELLS[name]
    truth = np.stack([true_cost(a, pc), true_cost(b, pc)])
    # The true cheapest at each pc; where the two are equal (within 1e-9) both count.
    cheapest = truth <= truth.min(axis=0) + 1e-9
    middle = int(np.argmin(np.abs(pc - 0.5)))
    rng = np.random.default_rng(seed)
    held = np.empty((sets, len(pc)), bool)
    alone = np.empty(sets, bool)
    critical = np.empty(sets)
    level = np.empty(sets)
    width = np.empty(sets)
    for s in range(sets):
        scores, positive = test_set(a, b, n, rho, rng)
        found = members(scores, positive, pc, confidence_level=LEVEL, n_resamples=rounds, rng=rng)
        member = found.member
        if family == "equal":
            held[s] = member.all(axis=0)
            alone[s] = member[:, middle].sum() == 1
        else:
            # The set holds a true cheapest classifier at each pc.
            held[s] = (member & cheapest).any(axis=0)
            winner = int(np.argmax(cheapest[:, middle]))
            alone[s] = member[winner, middle] and member[:, middle].sum() == 1
        critical[s] = found.critical
        level[s] = found.level
        width[s] = 2 * found.critical * found.se[0, 1, middle]
    whole = held.all(axis=1).mean()
    each = held.mean(axis=0)
    worst = int(np.argmin(each))
    misses = pc[each < 1 - 1e-12]
    ends = (pc < 0.2 - 1e-9) | (pc > 0.8 + 1e-9)
    return {
        "cell": name,
        "per class": n,
        "rho": rho,
        "pc grid": f"{pc[0]:g}-{pc[-1]:g} ({len(pc)})",
        "sets": sets,
        "whole": whole,
        "mc se": np.sqrt(max(whole * (1 - whole), LEVEL * (1 - LEVEL)) / sets),
        "worst pc": pc[worst],
        "coverage there": each[worst],
        "alone 0.5": alone.mean(),
        "level": level.mean(),
        "critical": critical.mean(),
        "width 0.5": width.mean(),
        # Test sets that miss somewhere in pc < 0.2 or > 0.8, and somewhere in 0.2-0.8.
        "miss ends": (~held[:, ends]).any(axis=1).mean(),
        "miss 0.2-0.8": (~held[:, ~ends]).any(axis=1).mean(),
        "misses at": (f"{misses.min():.2f}-{misses.max():.2f}" if len(misses) else "none"),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=1000, help="test sets per cell")
    parser.add_argument("--rounds", type=int, default=1000, help="resamples per test set")
    parser.add_argument("--only", default="", help="comma-separated cells or families")
    parser.add_argument("--quick", action="store_true", help="200 sets, 500 resamples")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if args.quick:
        args.sets, args.rounds = 200, 500
    wanted = [w.strip() for w in args.only.split(",") if w.strip()]
    if wanted == ["headline"]:
        wanted = list(HEADLINE)
    names = [name for name in wanted if name in CELLS] + [
        name for name, cell in CELLS.items() if cell[0] in wanted and name not in wanted
    ]
    names = names or list(CELLS)
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"run {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, load {load}: "
        f"{args.sets} test sets per cell, n_resamples={args.rounds}, level {LEVEL}"
    )
    print(f"crossing curves cross at pc {crossing_point(CROSS_A, CROSS_B):.3f}")
    pd.set_option("display.width", 220)
    rows = []
    for name in names:
        start = time.perf_counter()
        seed = args.seed + list(CELLS).index(name)
        rows.append(run(name, args.sets, args.rounds, seed))
        print(pd.DataFrame(rows[-1:]).round(3).to_string(index=False), flush=True)
        print(f"  ({time.perf_counter() - start:.0f} s)", flush=True)
    print("\n" + pd.DataFrame(rows).round(3).to_string(index=False))


if __name__ == "__main__":
    main()
