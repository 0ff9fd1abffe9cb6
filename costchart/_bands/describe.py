"""What a band table says about itself: its level and method, and the key entry naming them.

Band tables carry ``attrs["costchart"]``, a dict with ``confidence_level``, ``method``,
``distribution``, ``sampling`` and ``n_resamples`` (and, for a difference, ``a``, ``b``
and ``classifier``). pandas keeps ``attrs`` through filtering and column selection; a
table that went through another library loses them, and charts then fall back to a
generic entry (pass ``band_label=`` to name it).
"""

from __future__ import annotations

from costchart._bands.options import Options

__all__ = ["ATTRS", "band_label", "describe"]

#: The key of the band's description in ``DataFrame.attrs``.
ATTRS = "costchart"


def describe(options: Options, **extra) -> dict:
    """The description a band table records of the options it was made with."""
    return {
        "confidence_level": float(options.confidence_level),
        "method": options.method,
        "distribution": options.distribution,
        "sampling": options.sampling,
        "n_resamples": int(options.n_resamples),
        **extra,
    }


def band_label(table) -> str:
    """The key entry of a band, in the papers' terms, from what the table recorded.

    Parameters
    ----------
    table : pandas.DataFrame
        A table from :func:`costchart.bootstrap_band`, :func:`costchart.confusion_band`
        or :func:`costchart.difference_band`.

    Returns
    -------
    str
        E.g. ``"90 % exact bootstrap band"``, ``"95 % bootstrap band (normal fit to the
        exact moments)"`` or ``"90 % bootstrap band (2,000 resamples)"``; ``"confidence
        band"`` when the table carries no description.

    Examples
    --------
    >>> import costchart as cc
    >>> band = cc.bootstrap_band({"s": [3, 2, 1, 0], "y": [1, 0, 1, 0]}, score="s", label="y",
    ...                          distribution="exact", pc=[0.5])
    >>> cc.band_label(band)
    '90 % exact bootstrap band'
    """
    recorded = getattr(table, "attrs", {}).get(ATTRS)
    if not isinstance(recorded, dict) or "confidence_level" not in recorded:
        return "confidence band"
    level = f"{100 * recorded['confidence_level']:.4g} %"
    sampling = "" if recorded.get("sampling", "stratified") == "stratified" else ", full sampling"
    if recorded.get("simultaneous"):
        return (
            f"{level} simultaneous bootstrap band (whole curve; "
            f"{recorded['n_resamples']:,} resamples{sampling})"
        )
    if recorded.get("method") == "resample":
        return f"{level} bootstrap band ({recorded['n_resamples']:,} resamples{sampling})"
    distribution = recorded.get("distribution")
    if distribution == "exact":
        return f"{level} exact bootstrap band" + (f" ({sampling[2:]})" if sampling else "")
    # "auto" is the normal fit for a difference (it records a and b).
    if distribution == "normal" or "a" in recorded:
        return f"{level} bootstrap band (normal fit to the exact moments{sampling})"
    return f"{level} bootstrap band (normal fit; exact quantiles near 0{sampling})"
