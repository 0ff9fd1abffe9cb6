"""ROC space: the statistics read off ROC points.

Instances counted by score (``counting``), ROC points from
scores or confusion counts (``points``, ``confusion``), hulls (``hull``, ``upper_hull``,
``optimal``), the AUC and its intervals and tests (``auc``, ``auc_ci``, ``auc_test``,
``paired``), precision-recall (``pr``), ROCIV (``rociv``, ``rociv_costs``), averages of
ROC curves (``average``, ``grid``) and thinning (``thin``).
"""
