import pandas as pd
import pytest

from costchart.cli import main


def test_demo_writes_report_and_images(tmp_path, capsys):
    assert main(["demo", "--out", str(tmp_path / "demo")]) == 0
    written = sorted(p.name for p in (tmp_path / "demo").iterdir())
    assert written == [
        "bands.png",
        "comparison.png",
        "cost_sonar.png",
        "costchart-demo.html",
        "fold_average.png",
        "neyman_pearson.png",
        "roc.png",
        "roc_cost.png",
        "rociv.png",
        "significance.png",
    ]
    for path in (tmp_path / "demo").iterdir():
        assert path.stat().st_size > 10_000
    html = (tmp_path / "demo" / "costchart-demo.html").read_text()
    assert html.count('id="costchart-chart-') == 9
    assert "wrote" in capsys.readouterr().err


COLUMNS = ["--score", "score", "--label", "label", "--by", "classifier"]


@pytest.fixture
def predictions_csv(tmp_path, demo_points):
    from costchart.datasets import load_predictions

    path = tmp_path / "predictions.csv"
    load_predictions().query("dataset == 'sonar'").to_csv(path, index=False)
    return path


@pytest.mark.parametrize("suffix", [".svg", ".json", ".html"])
def test_plot(predictions_csv, tmp_path, suffix):
    out = tmp_path / f"chart{suffix}"
    args = ["plot", str(predictions_csv), *COLUMNS]
    assert main([*args, "--out", str(out)]) == 0
    assert out.stat().st_size > 1000


def test_table(predictions_csv, tmp_path):
    out = tmp_path / "envelope.csv"
    args = ["table", str(predictions_csv), *COLUMNS]
    assert main([*args, "--kind", "envelope", "--out", str(out)]) == 0
    table = pd.read_csv(out)
    assert list(table.columns) == ["classifier", "pc", "cost", "threshold", "fpr", "tpr"]


def test_table_of_binned_points(predictions_csv, tmp_path):
    out = tmp_path / "points.csv"
    args = ["table", str(predictions_csv), *COLUMNS, "--bins", "5", "--out", str(out)]
    assert main(args) == 0
    binned = pd.read_csv(out)
    assert binned.groupby("classifier").size().max() <= 6
    with pytest.raises(SystemExit) as exit_info:
        main(["table", str(predictions_csv), *COLUMNS, "--bins", "0"])
    assert exit_info.value.code == 2


def test_band_chart_and_table(predictions_csv, tmp_path):
    import json

    chart = tmp_path / "band.json"
    assert (
        main(["plot", str(predictions_csv), *COLUMNS, "--band", "exact", "--out", str(chart)]) == 0
    )
    spec = json.loads(chart.read_text())
    assert any(layer.get("mark", {}).get("type") == "area" for layer in spec["layer"])
    out = tmp_path / "band.csv"
    args = ["table", str(predictions_csv), *COLUMNS, "--kind", "band", "--out", str(out)]
    assert main([*args, "--confidence-level", "0.8"]) == 0
    band = pd.read_csv(out)
    assert list(band.columns) == ["classifier", "pc", "cost", "lower", "upper", "se"]
    assert (band.lower <= band.cost).all() and (band.cost <= band.upper).all()


def test_band_needs_a_cost_chart(predictions_csv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["plot", str(predictions_csv), *COLUMNS, "--band", "exact", "--kind", "roc"])
    assert exit_info.value.code == 2
    assert "--band draws a cost chart, not --kind roc" in capsys.readouterr().err


def test_errors_print_one_line_and_exit_2(predictions_csv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["table", str(predictions_csv), "--score", "prob", "--label", "label"])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith("costchart: error: data has no column 'prob'; available columns:")
    with pytest.raises(SystemExit):
        main(["plot", "missing.csv", "--score", "s", "--label", "y"])
    assert "no file 'missing.csv'" in capsys.readouterr().err
