import numpy as np
import pandas as pd
import pytest


@pytest.fixture
def rng():
    return np.random.default_rng(20261122)


def scored_data(rng, n=400, *, ties=20, classifiers=("a", "b"), folds=1):
    """Random scores with many ties for several classifiers (and folds)."""
    frames = []
    for name in classifiers:
        for fold in range(folds):
            label = rng.random(n) < 0.35
            score = np.round(rng.normal(size=n) + label * rng.uniform(0.5, 2), 1)
            score = np.floor(score * ties / 4) / (ties / 4)
            frames.append(pd.DataFrame({"model": name, "fold": fold, "score": score, "y": label}))
    return pd.concat(frames, ignore_index=True)
