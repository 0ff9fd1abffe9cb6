"""Confidence bands on costs and on cost differences: one engine for every band.

Modules: :mod:`~costchart.bands.options` (checked options, the exact/normal choice),
:mod:`~costchart.bands.binomial` (trimmed binomial tables), :mod:`~costchart.bands.exact`
(exact quantiles, every ``pc`` at once), :mod:`~costchart.bands.counts` (the band from
confusion counts), :mod:`~costchart.bands.resample` (resampled bands),
:mod:`~costchart.bands.rows` (the classifier at each ``pc``), :mod:`~costchart.bands.paired`
(the 3-D confusion matrix of two classifiers), and the public functions in
:mod:`~costchart.bands.bootstrap`, :mod:`~costchart.bands.difference` and
:mod:`~costchart.bands.lookup`; :mod:`~costchart.bands.describe` (what a band table records
about itself) and :mod:`~costchart.bands.regions` (where a difference is significant).
"""

from costchart.bands.bootstrap import bootstrap_band, confusion_band
from costchart.bands.describe import band_label
from costchart.bands.difference import difference_band
from costchart.bands.lookup import Band, band_at
from costchart.bands.regions import significant_regions

__all__ = [
    "Band",
    "band_at",
    "band_label",
    "bootstrap_band",
    "confusion_band",
    "difference_band",
    "significant_regions",
]
