"""Confidence bands on costs and on cost differences: one engine for every band.

Modules: :mod:`~costchart._bands.options` (checked options, the exact/normal choice),
:mod:`~costchart._bands.binomial` (trimmed binomial tables), :mod:`~costchart._bands.exact`
(exact quantiles, every ``pc`` at once), :mod:`~costchart._bands.counts` (the band from
confusion counts), :mod:`~costchart._bands.resample` (resampled bands),
:mod:`~costchart._bands.rows` (the classifier at each ``pc``), :mod:`~costchart._bands.paired`
(the 3-D confusion matrix of two classifiers; their rows are paired by
:mod:`costchart._roc.paired`, shared with DeLong's test), and the public functions in
:mod:`~costchart._bands.bootstrap`, :mod:`~costchart._bands.difference` and
:mod:`~costchart._bands.lookup`; :mod:`~costchart._bands.describe` (what a band table records
about itself) and :mod:`~costchart._bands.regions` (where a difference is significant).
"""

from costchart._bands.bootstrap import bootstrap_band, confusion_band
from costchart._bands.describe import band_label
from costchart._bands.difference import difference_band
from costchart._bands.lookup import Band, band_at
from costchart._bands.regions import significant_regions

__all__ = [
    "Band",
    "band_at",
    "band_label",
    "bootstrap_band",
    "confusion_band",
    "difference_band",
    "significant_regions",
]
