"""The gallery of the papers' figures, shipped with costchart as ``costchart.gallery``.

Each ``plot_<paper>_fig<NN>_<what>.py`` script builds one figure and ends with its chart;
``costchart demo`` runs a handful of them (:mod:`costchart._cli.demo`), and the documentation
site runs them all with sphinx-gallery. ``data/`` holds the public UCI data sets some of
them train on.
"""
