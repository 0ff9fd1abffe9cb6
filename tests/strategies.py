"""Hypothesis strategies shared by the property tests."""

import numpy as np
import pandas as pd
from hypothesis import strategies as st


@st.composite
def scored_instances(draw, min_size=2, max_size=60):
    """Scores with many ties and labels with both classes present."""
    n = draw(st.integers(min_size, max_size))
    scores = draw(st.lists(st.integers(0, 12), min_size=n, max_size=n))
    labels = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    labels[0], labels[-1] = True, False
    return pd.DataFrame({"score": np.array(scores, float) / 4, "y": labels})


@st.composite
def arbitrary_points(draw, max_size=25):
    """A ROC points table of arbitrary points in the unit square (rates on a grid)."""
    n = draw(st.integers(1, max_size))
    grid = st.integers(0, 20).map(lambda v: v / 20)
    fpr = draw(st.lists(grid, min_size=n, max_size=n))
    tpr = draw(st.lists(grid, min_size=n, max_size=n))
    return pd.DataFrame({"threshold": np.arange(n, dtype=float), "fpr": fpr, "tpr": tpr})
