"""Cost space: the statistics of cost curves.

Cost lines and the lower envelope (``lines``, ``envelope``), expected cost and loss
(``expected``, ``expected_loss``, ``hmeasure``), the curves of other threshold choices
(``brier``, ``rate_driven``), the vertical average (``average``, ``pointwise``),
comparisons (``compare``), decision curves (``decision``), conversions between ROC and
cost space (``conversions``) and the geometry the charts draw besides the data
(``geometry``).
"""
