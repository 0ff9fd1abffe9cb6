"""Benchmark of costchart against the tools users would otherwise pick, side by side.

Run from the repository root:
    python tests/benchmarks/bench_peers.py            (about 15 minutes)
    python tests/benchmarks/bench_peers.py --quick    (small sizes, 2 rounds; 1 to 2 minutes)

Peers, each on the same data as costchart:

- scikit-learn, in process: ``roc_curve``, ``precision_recall_curve`` and ``roc_auc_score``
  against ``roc_points``, ``pr_points`` of the raw data (one call) and ``roc_points`` +
  ``auc``; ``roc_curve`` against ``roc_points`` also on scores rounded to 3 decimals.
- dcurves (``pip install dcurves``), in a worker process because its import is heavy
  (matplotlib, lifelines, statsmodels): ``dca`` against ``net_benefit`` on dcurves'
  default threshold grid without 0, which costchart refuses (0.01, ..., 0.99).
- R's pROC and ROCR (``apt-get install r-base-core r-cran-proc r-cran-rocr`` or
  ``install.packages(c("pROC", "ROCR"))``), in an ``Rscript`` worker that reads the data
  from a binary file and times itself: ``roc`` + ``auc``, ``ci.auc(method = "delong")``
  and ``performance(prediction(...), "ecost")`` against ``roc_points`` + ``auc``,
  ``auc_ci(inference="delong")`` and ``roc_points`` + ``lower_envelope``.

Every side of every comparison starts from the raw scores and labels (costchart from a
DataFrame built once, outside the timing). Before any timing, both sides' numbers are
compared; a task whose numbers differ by more than 1e-9 is reported and not timed. The
rounds are interleaved (costchart, peer, costchart, peer, ...; see
tests/benchmarks/_timing.py); each side keeps its median time, and the ratio printed is
the median over rounds of the peer's time over costchart's in that round (the two ran back
to back, under the same load). A worker process times its own calls, so the time to pass
a command to it is not counted. The load average is
printed before and after. A missing peer prints one line on how to install it and is
skipped. Not part of the test suite (tests/test_benchmarks_peers.py runs it on tiny data);
the figures go into docs/performance.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from _timing import interleaved_rounds, machine_load, median_ratio

import costchart as cc

#: The largest difference between the two sides' numbers that still counts as agreement.
TOLERANCE = 1e-9
DISTINCT, ONE_DECIMAL, THREE_DECIMALS = "distinct", "1 decimal", "3 decimals"
#: dcurves' default thresholds without 0 (costchart needs thresholds in (0, 1)).
DCA_THRESHOLDS = np.round(np.arange(1, 100) / 100, 2)

FULL = {
    "sizes_sklearn": (1_000, 10_000, 100_000, 1_000_000),
    "sizes_dcurves": (1_000, 10_000, 100_000),
    "sizes_r": (10_000, 100_000, 1_000_000),
    "ecost_rows": 300,
    "rounds": 7,
}
QUICK = {
    "sizes_sklearn": (1_000, 10_000),
    "sizes_dcurves": (1_000,),
    "sizes_r": (10_000,),
    "ecost_rows": 100,
    "rounds": 2,
}

R_WORKER = r"""
suppressPackageStartupMessages({
  has_proc <- requireNamespace("pROC", quietly = TRUE)
  has_rocr <- requireNamespace("ROCR", quietly = TRUE)
})
say <- function(...) { cat(..., "\n", sep = ""); flush(stdout()) }
scores <- NULL
labels <- NULL
tasks <- list(
  roc_auc = function() {
    r <- pROC::roc(labels, scores, levels = c(0, 1), direction = "<", quiet = TRUE)
    list(roc = r, auc = pROC::auc(r))
  },
  delong = function() {
    pROC::ci.auc(labels, scores, levels = c(0, 1), direction = "<", quiet = TRUE,
                 method = "delong", conf.level = 0.9)
  },
  ecost = function() ROCR::performance(ROCR::prediction(scores, labels), "ecost")
)
numbers <- list(
  roc_auc = function(out) c(as.numeric(out$auc), rev(1 - out$roc$specificities),
                            rev(out$roc$sensitivities)),
  delong = function(out) as.numeric(out),
  ecost = function(out) c(out@x.values[[1]], out@y.values[[1]])
)
input <- file("stdin")
open(input)
say("ready pROC=", has_proc, " ROCR=", has_rocr)
repeat {
  line <- readLines(input, n = 1)
  if (length(line) == 0 || line == "quit") break
  words <- strsplit(line, " ", fixed = TRUE)[[1]]
  tryCatch({
    if (words[1] == "load") {
      n <- as.integer(words[2])
      scores <- readBin(words[3], "double", n)
      labels <- readBin(words[4], "double", n)
      say("ok")
    } else if (words[1] == "check") {
      writeBin(numbers[[words[2]]](tasks[[words[2]]]()), words[3])
      say("ok")
    } else if (words[1] == "time") {
      task <- tasks[[words[2]]]
      number <- as.integer(words[3])
      invisible(gc())
      start <- Sys.time()
      for (i in seq_len(number)) task()
      say(sprintf("%.9g", as.numeric(difftime(Sys.time(), start, units = "secs")) / number))
    } else {
      say("error unknown command ", words[1])
    }
  }, error = function(e) say("error ", gsub("\n", " ", conditionMessage(e))))
}
"""


class PeerMissing(Exception):
    """A peer that cannot be run here; the message says how to install it."""


# --------------------------------------------------------------------------- data


def instances(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Labels (30% positive, bool) and distinct scores (normal, shifted by the label)."""
    rng = np.random.default_rng(seed)
    labels = rng.random(n) < 0.3
    return labels, rng.normal(size=n) + labels


def probabilities(scores: np.ndarray) -> np.ndarray:
    """Scores squashed into (0, 1), as a decision curve wants them."""
    return 1.0 / (1.0 + np.exp(-(scores - 1.0)))


def frame_of(labels: np.ndarray, scores: np.ndarray) -> pd.DataFrame:
    """The DataFrame costchart reads (built outside every timing)."""
    return pd.DataFrame({"score": scores, "label": labels})


def installed(peer: str) -> bool:
    """Whether ``peer`` (a Python module, or ``"R"`` for Rscript) can be found."""
    if peer == "R":
        return shutil.which("Rscript") is not None
    return importlib.util.find_spec(peer) is not None


def largest_difference(a, b) -> float:
    """Largest absolute difference of two arrays; infinite when their shapes differ."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.shape != b.shape:
        return float("inf")
    if a.size == 0:
        return 0.0
    same_nan = np.isnan(a) & np.isnan(b)
    return float(np.max(np.where(same_nan, 0.0, np.abs(a - b))))


@dataclass(frozen=True)
class Timing:
    """How much to time: ``rounds`` interleaved rounds, each call repeated until a round
    has seen about ``rows_per_round`` rows (so a call of a millisecond is not all noise).
    """

    rounds: int
    rows_per_round: int = 100_000

    def calls(self, n: int) -> int:
        """Calls a round makes of a task on ``n`` rows."""
        return max(1, self.rows_per_round // n)


# --------------------------------------------------------------------------- reporting


@dataclass
class Row:
    """One line of the table: a task at one size, both sides' median seconds."""

    peer: str
    task: str
    n: int
    difference: float
    scores: str = "distinct"
    costchart: float = float("nan")
    other: float = float("nan")
    #: The median over rounds of the peer's time over costchart's.
    ratio: float = float("nan")

    @property
    def agrees(self) -> bool:
        """Whether both sides computed the same numbers (to :data:`TOLERANCE`)."""
        return self.difference <= TOLERANCE


HEADER = (
    f"  {'peer':<13}{'task (peer vs costchart)':<48}{'rows':>10}{'scores':>11}"
    f"{'costchart':>12}{'peer':>12}{'peer / cc':>11}{'max diff':>10}"
)


def seconds_text(seconds: float) -> str:
    """Seconds as ms below one second, else s."""
    if np.isnan(seconds):
        return "-"
    return f"{seconds * 1e3:.2f} ms" if seconds < 1 else f"{seconds:.2f} s"


def row_text(row: Row) -> str:
    """One table line; a task whose sides disagree says so instead of a ratio."""
    ratio = f"{row.ratio:.2f}" if row.agrees else "DISAGREE"
    return (
        f"  {row.peer:<13}{row.task:<48}{row.n:>10,}{row.scores:>11}{seconds_text(row.costchart):>12}"
        f"{seconds_text(row.other):>12}{ratio:>11}{row.difference:>10.1e}"
    )


def report(row: Row) -> Row:
    """Print ``row`` as it is measured (a long run shows progress) and return it."""
    print(row_text(row), flush=True)
    return row


# --------------------------------------------------------------------------- scikit-learn


def sklearn_tasks(labels: np.ndarray, scores: np.ndarray) -> dict[str, tuple[Callable, Callable]]:
    """Task name -> (costchart call, scikit-learn call) on the same data."""
    from sklearn.metrics import precision_recall_curve, roc_auc_score, roc_curve

    frame = frame_of(labels, scores)

    def points():
        return cc.roc_points(frame, score="score", label="label")

    return {
        "roc_curve vs roc_points": (
            points,
            lambda: roc_curve(labels, scores, drop_intermediate=False),
        ),
        "precision_recall_curve vs pr_points": (
            lambda: cc.pr_points(frame, score="score", label="label"),
            lambda: precision_recall_curve(labels, scores),
        ),
        "roc_auc_score vs roc_points+auc": (
            lambda: cc.auc(points()),
            lambda: roc_auc_score(labels, scores),
        ),
    }


def sklearn_difference(task: str, ours, theirs) -> float:
    """Largest difference between costchart's and scikit-learn's numbers for ``task``."""
    if task.startswith("roc_curve"):
        fpr, tpr, _ = theirs
        return max(largest_difference(ours["fpr"], fpr), largest_difference(ours["tpr"], tpr))
    if task.startswith("precision_recall"):
        precision, recall, thresholds = theirs
        # scikit-learn lists the finite thresholds in increasing order and appends the
        # (recall 0, precision 1) end; costchart lists them decreasing after an inf row.
        finite = ours[np.isfinite(ours["threshold"])].iloc[::-1]
        return max(
            largest_difference(finite["threshold"], thresholds),
            largest_difference(finite["precision"], precision[:-1]),
            largest_difference(finite["recall"], recall[:-1]),
        )
    return largest_difference(ours["auc"], [theirs])


def bench_sklearn(sizes, timing: Timing) -> Iterator[Row]:
    """Rows for scikit-learn's curves and AUC against costchart's.

    Every task on distinct scores, then ``roc_curve`` on the scores rounded to 3 decimals
    (many ties: costchart counts them without a sort).
    """
    if not installed("sklearn"):
        raise PeerMissing("scikit-learn: not installed (pip install scikit-learn)")
    for n in sizes:
        labels, scores = instances(n)
        rounded = sklearn_tasks(labels, np.round(scores, 3))
        runs = [(DISTINCT, sklearn_tasks(labels, scores))]
        runs.append(
            (THREE_DECIMALS, {"roc_curve vs roc_points": rounded["roc_curve vs roc_points"]})
        )
        for kind, tasks in runs:
            for task, (ours, theirs) in tasks.items():
                difference = sklearn_difference(task, ours(), theirs())
                row = Row("scikit-learn", task, n, difference, scores=kind)
                if row.agrees:
                    times = interleaved_rounds(
                        {"ours": ours, "theirs": theirs},
                        rounds=timing.rounds,
                        number=timing.calls(n),
                    )
                    row.costchart, row.other = median(times["ours"]), median(times["theirs"])
                    row.ratio = median_ratio(times["theirs"], times["ours"])
                yield report(row)


def median(values) -> float:
    """The median of ``values``."""
    return float(np.median(values))


# --------------------------------------------------------------------------- worker processes


class Worker:
    """A peer in its own process, driven one line at a time over stdin and stdout.

    Commands: ``load n scores_path labels_path`` (read float64 files), ``check task path``
    (run ``task`` once, write its numbers to ``path`` as float64), ``time task number``
    (reply with the mean seconds of ``number`` calls, timed inside the worker). A reply
    starting with ``error`` is raised as :class:`PeerMissing`.
    """

    def __init__(self, name: str, command: list[str], folder: Path):
        self.name = name
        self.folder = folder
        self.process = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            bufsize=1,
        )
        self.banner = self._reply()

    def _reply(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline().strip()
        if not line:
            msg = f"{self.name}: the worker process exited (exit code {self.process.poll()})"
            raise PeerMissing(msg)
        if line.startswith("error"):
            msg = f"{self.name}: {line}"
            raise PeerMissing(msg)
        return line

    def ask(self, command: str) -> str:
        """Send one command and return the worker's one-line reply."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write(command + "\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            msg = f"{self.name}: the worker process exited"
            raise PeerMissing(msg) from None
        return self._reply()

    def load(self, labels: np.ndarray, scores: np.ndarray) -> None:
        """Hand the data over in binary files (outside every timing)."""
        paths = self.folder / "scores.f64", self.folder / "labels.f64"
        np.asarray(scores, dtype=np.float64).tofile(paths[0])
        np.asarray(labels, dtype=np.float64).tofile(paths[1])
        self.ask(f"load {len(scores)} {paths[0]} {paths[1]}")

    def numbers(self, task: str) -> np.ndarray:
        """The numbers ``task`` computes in the worker, for the agreement check."""
        path = self.folder / "result.f64"
        self.ask(f"check {task} {path}")
        return np.fromfile(path, dtype=np.float64)

    def seconds(self, task: str, number: int) -> float:
        """Mean seconds of ``number`` calls of ``task``, as the worker timed them."""
        return float(self.ask(f"time {task} {number}"))

    def close(self) -> None:
        """Ask the worker to quit, and wait for it."""
        if self.process.poll() is None:
            try:
                assert self.process.stdin is not None
                self.process.stdin.write("quit\n")
                self.process.stdin.close()
            except (BrokenPipeError, OSError):
                pass
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@contextmanager
def worker(name: str, command: list[str]) -> Iterator[Worker]:
    """A :class:`Worker` with its own temporary folder, closed and removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="costchart-peers-") as folder:
        process = Worker(name, command, Path(folder))
        try:
            yield process
        finally:
            process.close()


def side_by_side(
    row: Row,
    ours: Callable,
    peer: Worker,
    task: str,
    n: int,
    timing: Timing,
    peer_calls: int | None = None,
) -> None:
    """Fill in ``row``: the median seconds of costchart and of the worker's ``task``, and
    the median ratio of their rounds, rounds interleaved.

    Each round makes ``timing.calls(n)`` calls of ``ours`` and ``peer_calls`` (default
    the same) of the worker's task, and counts the mean call; the worker times its own
    calls, so passing the command to it is not counted.
    """
    number = timing.calls(n)
    theirs: list[float] = []
    times = interleaved_rounds(
        {
            "ours": lambda: [ours() for _ in range(number)],
            "theirs": lambda: theirs.append(peer.seconds(task, peer_calls or number)),
        },
        rounds=timing.rounds,
    )
    ours_each = [seconds / number for seconds in times["ours"]]
    theirs = theirs[1:]  # [0] is the warm-up
    row.costchart, row.other = median(ours_each), median(theirs)
    row.ratio = median_ratio(theirs, ours_each)


# --------------------------------------------------------------------------- dcurves


def dcurves_numbers(result: pd.DataFrame, strategies: list[tuple[str, str]]) -> np.ndarray:
    """Net benefit of the model, treat-all and treat-none, in that order, as one array."""
    return np.concatenate(
        [
            result.loc[result[column] == name, "net_benefit"].to_numpy(float)
            for column, name in strategies
        ]
    )


def costchart_net_benefit(frame: pd.DataFrame) -> pd.DataFrame:
    """costchart's decision curve on the dcurves grid."""
    return cc.net_benefit(frame, score="score", label="label", thresholds=DCA_THRESHOLDS)


OUR_STRATEGIES = [("strategy", "model"), ("strategy", "all"), ("strategy", "none")]
DCA_STRATEGIES = [("model", "score"), ("model", "all"), ("model", "none")]


def dcurves_worker() -> None:
    """The dcurves side: the :class:`Worker` protocol over stdin and stdout."""
    import time
    import warnings

    warnings.simplefilter("ignore")
    try:
        from dcurves import dca
    except Exception as error:  # any failure to import is a missing peer
        print(f"error dcurves cannot be imported: {type(error).__name__}: {error}", flush=True)
        return
    frame = pd.DataFrame()

    def task() -> pd.DataFrame:
        return dca(data=frame, outcome="label", modelnames=["score"], thresholds=DCA_THRESHOLDS)

    print("ready", flush=True)
    for line in sys.stdin:
        words = line.split()
        try:
            if words[0] == "load":
                n = int(words[1])
                scores = np.fromfile(words[2], dtype=np.float64, count=n)
                labels = np.fromfile(words[3], dtype=np.float64, count=n).astype(np.int64)
                frame = pd.DataFrame({"score": scores, "label": labels})
                print("ok", flush=True)
            elif words[0] == "check":
                dcurves_numbers(task(), DCA_STRATEGIES).tofile(words[2])
                print("ok", flush=True)
            elif words[0] == "time":
                number = int(words[2])
                start = time.perf_counter()
                for _ in range(number):
                    task()
                print(f"{(time.perf_counter() - start) / number:.9g}", flush=True)
            elif words[0] == "quit":
                return
        except Exception as error:  # reported to the parent, which skips the peer
            print(f"error {type(error).__name__}: {error}".replace("\n", " "), flush=True)


def bench_dcurves(sizes, timing: Timing) -> Iterator[Row]:
    """Rows for dcurves' ``dca`` against costchart's ``net_benefit``."""
    if not installed("dcurves"):
        raise PeerMissing("dcurves: not installed (pip install dcurves)")
    command = [sys.executable, str(Path(__file__).resolve()), "--dcurves-worker"]
    with worker("dcurves", command) as peer:
        for n in sizes:
            labels, scores = instances(n)
            scores = probabilities(scores)
            frame = frame_of(labels, scores)
            peer.load(labels, scores)
            ours = dcurves_numbers(costchart_net_benefit(frame), OUR_STRATEGIES)
            task = "dca vs net_benefit (99 thresholds)"
            row = Row("dcurves", task, n, largest_difference(ours, peer.numbers("dca")))
            if row.agrees:  # dca takes 0.2 s or more: one call a round is enough
                side_by_side(
                    row,
                    lambda f=frame: costchart_net_benefit(f),
                    peer,
                    "dca",
                    n,
                    timing,
                    peer_calls=1,
                )
            yield report(row)


# --------------------------------------------------------------------------- R: pROC and ROCR


def r_tasks(frame: pd.DataFrame) -> dict[str, tuple[str, str, Callable]]:
    """R task -> (R package, table label, costchart call) on the same data."""

    def points():
        return cc.roc_points(frame, score="score", label="label")

    return {
        "roc_auc": ("pROC", "roc+auc vs roc_points+auc", lambda: (p := points(), cc.auc(p))),
        "delong": (
            "pROC",
            'ci.auc(delong) vs auc_ci(inference="delong")',
            lambda: cc.auc_ci(frame, score="score", label="label", inference="delong"),
        ),
        "ecost": (
            "ROCR",
            "performance(ecost) vs roc_points+lower_envelope",
            lambda: cc.lower_envelope(points()),
        ),
    }


def r_runs(sizes, ecost_rows: int) -> list[tuple[int, str, tuple[str, ...]]]:
    """(rows, scores, tasks) for the R worker.

    ROCR's ``ecost`` intersects every pair of ROC points and evaluates every cost line at
    each intersection: cubic in the number of distinct scores (37 s at 1,000, 363 s at
    2,000 on a loaded 2-core machine). So at the large sizes it gets scores rounded to
    one decimal (about 90 distinct values), and distinct scores only at ``ecost_rows``.
    """
    runs = []
    for n in sizes:
        runs += [(n, DISTINCT, ("roc_auc", "delong")), (n, ONE_DECIMAL, ("ecost",))]
    return [*runs, (ecost_rows, DISTINCT, ("ecost",))]


def r_difference(task: str, ours, theirs: np.ndarray) -> float:
    """Largest difference between costchart's and R's numbers for ``task``."""
    if task == "roc_auc":
        points, auc = ours
        # pROC: the AUC, then fpr and tpr from the lowest threshold up (reversed in R).
        expected = np.concatenate([auc["auc"], points["fpr"], points["tpr"]])
        return largest_difference(expected, theirs)
    if task == "delong":
        row = ours.iloc[0]
        return largest_difference([row["lower"], row["auc"], row["upper"]], theirs)
    # ROCR: the x (probability cost) values, then the normalized expected costs; the
    # envelope is piecewise linear, so reading costchart's at ROCR's x values is exact.
    x, y = np.split(theirs, 2)
    return largest_difference(np.interp(x, ours["pc"], ours["cost"]), y)


def r_packages(banner: str) -> set[str]:
    """The packages the R worker found, from its first line."""
    return {item.split("=")[0] for item in banner.split()[1:] if item.endswith("=TRUE")}


def bench_r(sizes, timing: Timing, ecost_rows: int = 300) -> Iterator[Row]:
    """Rows for pROC and ROCR against costchart."""
    rscript = shutil.which("Rscript") if installed("R") else None
    if rscript is None:
        raise PeerMissing(
            "R: no Rscript on PATH (apt-get install r-base-core r-cran-proc r-cran-rocr)"
        )
    with tempfile.TemporaryDirectory(prefix="costchart-peers-r-") as folder:
        script = Path(folder) / "worker.R"
        script.write_text(R_WORKER)
        with worker("R", [rscript, "--vanilla", str(script)]) as peer:
            found = r_packages(peer.banner)
            for package in sorted({"pROC", "ROCR"} - found):
                print(
                    f"  {package}: not installed in R (apt-get install r-cran-{package.lower()} "
                    f'or install.packages("{package}")); skipped'
                )
            for n, kind, names in r_runs(sizes, ecost_rows):
                labels, scores = instances(n)
                scores = np.round(scores, 1) if kind == ONE_DECIMAL else scores
                frame = frame_of(labels, scores)
                peer.load(labels, scores)
                tasks = r_tasks(frame)
                for task in names:
                    package, label, ours = tasks[task]
                    if package not in found:
                        continue
                    difference = r_difference(task, ours(), peer.numbers(task))
                    row = Row(package, label, n, difference, scores=kind)
                    if row.agrees:
                        # ROCR's ecost takes 0.1 s to seconds: one call a round is enough.
                        calls = 1 if task == "ecost" else None
                        side_by_side(row, ours, peer, task, n, timing, peer_calls=calls)
                    yield report(row)


# --------------------------------------------------------------------------- main


def peers(settings: dict) -> dict[str, Callable[[], Iterator[Row]]]:
    """Peer name -> its benchmark with the sizes and rounds of ``settings``."""
    timing = Timing(settings["rounds"], settings.get("rows_per_round", 100_000))
    return {
        "scikit-learn": lambda: bench_sklearn(settings["sizes_sklearn"], timing),
        "dcurves": lambda: bench_dcurves(settings["sizes_dcurves"], timing),
        "R": lambda: bench_r(settings["sizes_r"], timing, settings["ecost_rows"]),
    }


def run(settings: dict) -> list[Row]:
    """Every peer's rows; a peer that cannot run prints why and is skipped.

    A peer that fails in another way (a new version that answers differently, a worker
    that dies) prints the error and the run goes on with the next peer.
    """
    rows: list[Row] = []
    print(HEADER)
    for name, bench in peers(settings).items():
        try:
            rows.extend(bench())
        except PeerMissing as missing:
            print(f"  skipped {missing}")
        except Exception as error:  # one line, then the next peer: a benchmark never crashes
            print(f"  {name}: stopped by {type(error).__name__}: {error}")
    return rows


def main() -> None:
    """Parse the options, run every peer and print the table with the machine load."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes, 2 rounds")
    parser.add_argument("--dcurves-worker", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.dcurves_worker:
        dcurves_worker()
        return
    print("python tests/benchmarks/bench_peers.py" + (" --quick" if options.quick else ""))
    print(machine_load())
    print(
        "  peer / cc: the median over rounds of the peer's seconds over costchart's "
        "(above 1: costchart is faster)"
    )
    rows = run(QUICK if options.quick else FULL)
    print(machine_load())
    disagreeing = [row for row in rows if not row.agrees]
    if disagreeing:
        print(f"{len(disagreeing)} task(s) computed different numbers; not timed")


if __name__ == "__main__":
    main()
