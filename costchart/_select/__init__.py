"""Selection: which classifier and threshold to use under which conditions.

The selection criteria (``criteria``: iso-performance, Neyman-Pearson, workforce),
hybrids and thresholds chosen on other data (``hybrids``), and training sets resampled
to class ratios (``sampling``).
"""
