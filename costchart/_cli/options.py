"""Which options of ``costchart plot`` and ``costchart table`` apply where, checked first.

An option that does not apply to the command and kind chosen is refused, never ignored:
:func:`check_options` runs before any file is read and raises a
:class:`~costchart.CostchartError` naming the option, where it applies and the fix. The
kind is ``plot --kind`` (``roc-cost`` by default; ``band`` with ``--band``) or
``table --kind``. Options that only one command has (``plot --facet``, ``--title``)
are refused by the parser of the other; ``--classifier`` is ``plot``'s and ``table --kind
cheapest_regions``'s and ``cheapest_set``'s, ``--instance`` ``--kind cheapest_set``'s
(which needs both). Here too: ``--band``'s
deprecated names read (:func:`inference`) and ``--confidence-level``'s default
(:func:`level`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass

from costchart._io.errors import CostchartError

__all__ = ["check_options", "inference", "level"]

#: ``--band``'s deprecated values, as the inference they name.
_OLD_BANDS = {"exact": "exact_bootstrap", "resample": "bootstrap"}
#: The bands that resample (``--n-resamples`` and ``--seed`` apply to them).
_RESAMPLED = ("auto", "smoothed_bootstrap", "bootstrap")
#: The kinds of ``plot`` with a cost view (``band``: ``plot --band``).
_COST_AXIS = ("roc-cost", "cost", "band", "cheapest_set")
_COST_VIEW = ("roc-cost", "cost", "cheapest_set")
#: The kind that compares classifiers on paired instances.
_SET = "cheapest_set"


def inference(band: str | None) -> str | None:
    """``--band``'s inference (``exact`` and ``resample`` warn: deprecated names)."""
    if band in _OLD_BANDS:
        warnings.warn(
            f"--band {band} is deprecated and will be removed in the next release; pass "
            f"--band {_OLD_BANDS[band]}",
            FutureWarning,
            stacklevel=2,
        )
        return _OLD_BANDS[band]
    return band


def level(args) -> float:
    """``--confidence-level``, 0.9 when not given."""
    return 0.9 if args.confidence_level is None else args.confidence_level


@dataclass(frozen=True)
class _Chosen:
    """What the command line chose: the command, its kind, and the band it draws."""

    command: str
    kind: str
    band: str | None  # the band's inference (table --kind band: auto by default)
    binned: bool

    def __str__(self) -> str:
        if self.kind != "band":
            return f"{self.command} --kind {self.kind}"
        band = f" --band {self.band}" if self.band else ""
        return f"plot{band}" if self.command == "plot" else f"table --kind band{band}"


@dataclass(frozen=True)
class _Scope:
    """Where an option applies, and what the message says when it does not."""

    flag: str
    applies: Callable[[_Chosen], bool]
    where: str
    fix: str


#: Every option that applies to some commands and kinds only (by its ``args`` name).
_SCOPES = {
    "band": _Scope(
        "--band",
        lambda c: c.kind == "band",
        "table --kind band (and to plot, whose chart it makes a band chart)",
        "pass --kind band",
    ),
    "compact": _Scope(
        "--compact",
        lambda c: c.kind == "band",
        "a band (plot --band, table --kind band)",
        "pass --kind band",
    ),
    "confidence_level": _Scope(
        "--confidence-level",
        lambda c: c.band is not None or (c.kind == "auc" and not c.binned) or c.kind == _SET,
        "a band (plot --band, table --kind band), to table --kind auc's interval or to "
        "--kind cheapest_set",
        "pass one of them",
    ),
    "n_resamples": _Scope(
        "--n-resamples",
        lambda c: c.band in _RESAMPLED or c.kind == _SET,
        "a resampled band (--band auto, smoothed_bootstrap or bootstrap) or to --kind cheapest_set",
        "pass one of them",
    ),
    "seed": _Scope(
        "--seed",
        lambda c: c.band in _RESAMPLED or c.kind == _SET,
        "a resampled band (--band auto, smoothed_bootstrap or bootstrap) or to --kind cheapest_set",
        "pass one of them",
    ),
    "y_max": _Scope(
        "--y-max",
        lambda c: c.command == "plot" and c.kind in _COST_AXIS,
        "a chart with a cost axis (plot --kind roc-cost, cost or cheapest_set, or plot --band)",
        "pass --kind cost",
    ),
    "combined": _Scope(
        "--combined",
        lambda c: c.command == "plot" and c.kind in ("roc-cost", "cost"),
        "plot --kind roc-cost or cost (the envelope of the classifiers shown)",
        "pass --kind cost",
    ),
    "classifier": _Scope(
        "--classifier",
        lambda c: c.command == "plot" or c.kind in ("cheapest_regions", _SET),
        "plot and to table --kind cheapest_regions or cheapest_set (the classifiers they compare)",
        "pass --kind cheapest_regions",
    ),
    "cost_lines": _Scope(
        "--cost-lines",
        lambda c: c.command == "plot" and c.kind in _COST_VIEW,
        "plot --kind roc-cost, cost or cheapest_set (the cost lines of their cost view)",
        "pass --kind cost",
    ),
    "instance": _Scope(
        "--instance",
        lambda c: c.kind == _SET,
        "--kind cheapest_set (the instances its classifiers are paired on)",
        "pass --kind cheapest_set",
    ),
    "bins": _Scope(
        "--bins",
        lambda c: c.kind != _SET,
        "ROC points, bands and AUC (not to --kind cheapest_set, which pairs every instance)",
        "pass another --kind",
    ),
}


def _given(args, name: str):
    """The option's value as typed, or None when it was not given (flags: when off)."""
    value = getattr(args, name, None)
    return None if value is None or value is False else value


def check_options(args, command: str) -> str:
    """Refuse every option that would be ignored; return the kind chosen.

    ``args.band`` becomes the inference it names (old names warn). Run before any work.
    """
    _check_roles(args)
    typed = {"band": args.band}  # as typed: an old name before it reads as the new one
    args.band = inference(args.band)
    kind = args.kind or ("points" if command == "table" else "roc-cost")
    if command == "plot" and args.band is not None:
        if args.kind not in (None, "cost"):
            msg = f"--band draws a cost chart, not --kind {args.kind}; drop --kind or pass cost"
            raise CostchartError(msg)
        kind = "band"
    band = args.band or ("auto" if kind == "band" and command == "table" else None)
    chosen = _Chosen(command, kind, band, args.bins is not None)
    for name, scope in _SCOPES.items():
        value = _given(args, name)
        if value is not None and not scope.applies(chosen):
            raise CostchartError(_refusal(scope, typed.get(name, value), chosen, name))
    if kind == _SET:
        missing = [f"--{n}" for n in ("classifier", "instance") if _given(args, n) is None]
        if missing:
            msg = (
                f"{chosen} compares classifiers scored on the same instances: pass "
                f"{' and '.join(missing)} (the columns naming the classifier and the instance "
                "of each row)"
            )
            raise CostchartError(msg)
    return kind


def _check_roles(args) -> None:
    """Refuse a grouping column that is the score or the label column."""
    grouping = {
        "--by": list(getattr(args, "by", None) or []),
        "--classifier": [getattr(args, "classifier", None)],
        "--facet": [getattr(args, "facet", None)],
    }
    for flag, columns in grouping.items():
        for column in columns:
            for role in ("score", "label"):
                if column is not None and column == getattr(args, role):
                    msg = (
                        f"{flag} {column} is the {role} column, which cannot tell curves "
                        f"apart; pass {flag} with the column naming the classifiers or groups"
                    )
                    raise CostchartError(msg)


def _refusal(scope: _Scope, value, chosen: _Chosen, name: str) -> str:
    """The message refusing an option that does not apply: where it does, and the fix."""
    shown = "" if value is True else f" {value:g}" if isinstance(value, float) else f" {value}"
    fix = scope.fix
    # A band chart has no such option; a band that resamples has --n-resamples and --seed.
    if chosen.kind == "band" and name not in ("band", "n_resamples", "seed"):
        fix = "drop --band for the cost chart"
    why = ""
    if name in ("confidence_level", "compact"):
        fix = "pass --kind band" if chosen.command == "table" else "pass --band"
    if name == "confidence_level":
        if chosen.kind == "auc":  # binned points: their AUC alone
            why = " (with --bins the AUC of binned points has none)"
    return f"{scope.flag}{shown} applies to {scope.where}{why}, not {chosen}; drop it or {fix}"
