import contextlib
import errno
import io
import json
import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from costchart._cli import main


@pytest.mark.slow  # builds every figure of `costchart demo`: seconds
def test_demo_writes_report_and_images(tmp_path, capsys):
    from costchart._cli.demo import DEMO_FIGURES, run_figure

    assert main(["demo", "--out", str(tmp_path / "demo")]) == 0
    written = sorted(p.name for p in (tmp_path / "demo").iterdir())
    assert written == sorted(["costchart-demo.html", *(f"{n}.png" for n in DEMO_FIGURES)])
    for path in (tmp_path / "demo").iterdir():
        assert path.stat().st_size > 10_000
    html = (tmp_path / "demo" / "costchart-demo.html").read_text()
    assert html.count('id="costchart-chart-') == len(DEMO_FIGURES)
    for name in DEMO_FIGURES:  # each figure's title is its caption
        assert run_figure(name).title in html.replace("&#x27;", "'")
    errors = capsys.readouterr().err
    assert "wrote" in errors and f"making {DEMO_FIGURES[0]} ..." in errors


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


def test_table_of_the_cheapest_classifier_where(tmp_path, capsys):
    import costchart as cc
    from costchart.datasets import load_predictions

    data = load_predictions()
    path = tmp_path / "all.csv"
    data.to_csv(path, index=False)
    out = tmp_path / "regions.csv"
    argv = ["table", str(path), "--score", "score", "--label", "label", "--by", "dataset"]
    argv += ["--kind", "cheapest_regions", "--classifier", "classifier", "--out", str(out)]
    assert main(argv) == 0
    table = pd.read_csv(out)
    points = cc.roc_points(
        pd.read_csv(path), score="score", label="label", by=["dataset", "classifier"]
    )
    expected = cc.cheapest_regions(points, by="dataset")
    assert list(table.columns) == list(expected.columns)
    assert (table["choice"] == "mixture").any()
    pd.testing.assert_frame_equal(
        table[["dataset", "choice", "classifier", "classifier_2"]],
        expected[["dataset", "choice", "classifier", "classifier_2"]].astype(object),
        check_dtype=False,
    )
    np.testing.assert_allclose(table["pc_lo"], expected["pc_lo"], rtol=0, atol=1e-15)
    np.testing.assert_array_equal(table["threshold"], expected["threshold"])
    # Without --classifier: each group's own thresholds.
    argv = ["table", str(path), "--score", "score", "--label", "label"]
    argv += ["--by", "dataset", "classifier", "--kind", "cheapest_regions"]
    assert main(argv) == 0
    assert capsys.readouterr().out.splitlines()[0].startswith("dataset,classifier,pc_lo")
    error = _fails_with([*argv[:-2], "--kind", "envelope", "--classifier", "classifier"], capsys)
    assert "--classifier classifier applies to plot and to table --kind cheapest_regions" in error


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
    chart = tmp_path / "band.json"
    assert (
        main(
            [
                "plot",
                str(predictions_csv),
                *COLUMNS,
                "--band",
                "exact_bootstrap",
                "--out",
                str(chart),
            ]
        )
        == 0
    )
    spec = json.loads(chart.read_text())
    assert any(layer.get("mark", {}).get("type") == "area" for layer in spec["layer"])
    out = tmp_path / "band.csv"
    args = ["table", str(predictions_csv), *COLUMNS, "--kind", "band", "--out", str(out)]
    assert main([*args, "--confidence-level", "0.8"]) == 0
    band = pd.read_csv(out)
    assert list(band.columns) == ["classifier", "pc", "cost", "lower", "upper", "se", "degenerate"]
    assert (band.lower <= band.cost).all() and (band.cost <= band.upper).all()


@pytest.mark.parametrize("band", ["exact_bootstrap", None])  # None: table's default band
def test_compact_writes_the_rows_the_band_needs(predictions_csv, tmp_path, band):
    import costchart as cc
    from costchart._bands.compact import TOLERANCE

    chosen = [] if band is None else ["--band", band]
    argv = ["table", str(predictions_csv), *COLUMNS, "--kind", "band", *chosen]
    argv += ["--n-resamples", "200"] if band is None else []
    tables = {}
    for compact in (False, True):
        out = tmp_path / f"band-{compact}.csv"
        assert main([*argv, *(["--compact"] if compact else []), "--out", str(out)]) == 0
        tables[compact] = pd.read_csv(out)
    full, compact = tables[False], tables[True]
    assert list(compact.columns) == list(full.columns)
    assert len(compact) < len(full) / 2
    if band is None:  # resampled from a fresh generator each run: the rows and shape only
        assert set(compact["classifier"]) == set(full["classifier"])
        return
    # As the library's compact band, and within its tolerance of the full one.
    kept = compact.merge(full, on=["classifier", "pc"], suffixes=("", "_full"))
    assert len(kept) == len(compact)
    data = pd.read_csv(predictions_csv)
    library = cc.bootstrap_band(
        data, score="score", label="label", by="classifier", inference=band, compact=True
    )
    np.testing.assert_allclose(compact[["pc", "cost", "upper"]], library[["pc", "cost", "upper"]])
    for name, whole in full.groupby("classifier"):
        part = compact[compact["classifier"] == name]
        drawn = np.interp(whole["pc"], part["pc"], part["upper"])
        assert np.abs(drawn - whole["upper"]).max() <= TOLERANCE * 1.001


@pytest.mark.slow  # two band charts: seconds
def test_plot_compact_draws_the_compact_band(predictions_csv, capsys, monkeypatch):
    import costchart as cc

    data = pd.read_csv(predictions_csv)
    options = {"score": "score", "label": "label", "by": "classifier"}
    drawn, sizes = [], {}
    band_chart = cc.band_chart
    monkeypatch.setattr(
        cc, "band_chart", lambda table, **k: drawn.append(table) or band_chart(table, **k)
    )
    for compact in (False, True):
        band = cc.bootstrap_band(data, inference="exact_bootstrap", compact=compact, **options)
        flag = ["--compact"] if compact else []
        spec, _ = _spec(
            predictions_csv,
            ["--by", "classifier", "--band", "exact_bootstrap", *flag, "--out", "-"],
            capsys,
        )
        # The band drawn is the band the library makes.
        pd.testing.assert_frame_equal(drawn[-1], band)
        sizes[compact] = len(json.dumps(spec))
    assert sizes[True] < sizes[False] / 2


def test_compact_says_what_it_does_and_needs_a_band(predictions_csv, capsys):
    with pytest.raises(SystemExit):
        main(["table", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "--compact keep only the rows of --band that drawing it with straight lines" in text
    assert "within 1e-4 of it at every pc between them" in text
    for command, options, fix in [
        ("table", ["--kind", "points"], "pass --kind band"),
        ("plot", [], "pass --band"),
    ]:
        argv = [command, str(predictions_csv), *COLUMNS, *options, "--compact"]
        error = _fails_with(argv, capsys)
        assert f"--compact applies to a band (plot --band, table --kind band), not {command}" in (
            error
        )
        assert error.rstrip().endswith(f"drop it or {fix}")


def test_band_needs_a_cost_chart(predictions_csv, capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["plot", str(predictions_csv), *COLUMNS, "--band", "exact_bootstrap", "--kind", "roc"])
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


def _fails_with(argv, capsys) -> str:
    """Run the command line expecting exit status 2; return its one line of stderr."""
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.count("\n") == 1
    assert "Traceback" not in captured.err
    assert captured.err.startswith("costchart: error: ")
    return captured.err


UNREADABLE = {
    "malformed.csv": (b'score,label\n0.1,1\n"0.2,0\n', r"as CSV: Error tokenizing data"),
    "long_rows.csv": (b"score,label\n0.1,1,7\n0.2,0,8\n", r"rows have more fields than the header"),
    "empty.csv": (b"", r"the file is empty; pass a CSV with a header row"),
    "fake.parquet": (b"score,label\n0.1,1\n", r"as Parquet: .*magic bytes"),
    "latin1.csv": ("score,label,note\n0.1,1,caf\xe9\n".encode("latin-1"), r"not UTF-8 text"),
    "data.xlsx": (b"PK\x03\x04", r"cannot read '.*data\.xlsx': use a \.csv or \.parquet file"),
    "bom_duplicated.csv": (
        b"\xef\xbb\xbfscore,score,label\n0.1,0.9,1\n0.2,0.8,0\n",
        r"cannot read '.*bom_duplicated\.csv': its header names column 'score' twice; give "
        r"every column its own name",
    ),
}


@pytest.mark.parametrize("name", sorted(UNREADABLE))
@pytest.mark.parametrize("command", ["plot", "table"])
def test_unreadable_input_prints_one_line(tmp_path, capsys, name, command):
    content, message = UNREADABLE[name]
    path = tmp_path / name
    path.write_bytes(content)
    error = _fails_with([command, str(path), "--score", "score", "--label", "label"], capsys)
    assert re.search(message, error)


def test_a_byte_order_mark_is_no_part_of_the_first_column(tmp_path, capsys):
    text = "score,label\n0.1,1\n0.2,0\n0.7,1\n0.4,0\n"
    tables = []
    for name, content in (
        ("plain.csv", text.encode()),
        ("bom.csv", b"\xef\xbb\xbf" + text.encode()),
    ):
        path = tmp_path / name
        path.write_bytes(content)
        main(["table", str(path), "--score", "score", "--label", "label"])
        tables.append(capsys.readouterr().out)
    assert tables[0] == tables[1]
    assert tables[0].splitlines()[:3] == [
        "threshold,tp,fp,tn,fn,tpr,fpr",
        "inf,0,0,2,2,0.0,0.0",
        "0.7,1,0,2,1,0.5,0.0",
    ]


def _read_fails(tmp_path, capsys, name: str, text: str, command: str = "table") -> str:
    """The message of ``command`` reading a CSV ``name`` holding ``text``."""
    path = tmp_path / name
    path.write_text(text)
    return _fails_with([command, str(path), "--score", "score", "--label", "label"], capsys)


def test_a_csv_of_semicolons_and_decimal_commas_says_so(tmp_path, capsys):
    # The usual European export: commas in the numbers make more fields than the header.
    error = _read_fails(tmp_path, capsys, "european.csv", "score;label\n0,9;1\n0,1;0\n0,5;1\n")
    assert "rows have more fields than the header row; its header holds ';'" in error
    assert "convert it to a comma-separated file with decimal points" in error


@pytest.mark.parametrize(("separator", "shown"), [(";", "';'"), ("\t", "a tab"), ("|", "'|'")])
@pytest.mark.parametrize("command", ["plot", "table"])
def test_a_csv_of_another_separator_says_so(tmp_path, capsys, separator, shown, command):
    text = f"score{separator}label\n0.9{separator}1\n0.1{separator}0\n"
    error = _read_fails(tmp_path, capsys, "semicolons.csv", text, command)
    assert re.search(
        rf"cannot read '.*semicolons\.csv' as CSV: its header is one column, "
        rf"'score.{{1,2}}label', which holds {shown}: the file seems to separate its columns by "
        r"it, but the command line reads comma-separated files; convert the file to commas",
        error,
    )


@pytest.mark.parametrize("bins", ["0", "-1"])
def test_a_bad_bins_speaks_of_the_command_line(predictions_csv, capsys, bins):
    error = _fails_with(["table", str(predictions_csv), *COLUMNS, "--bins", bins], capsys)
    assert f"--bins {bins} is out of range" in error
    # None cannot be typed: leaving the flag out is what it means
    assert "pass e.g. --bins 1000, or leave --bins out for every distinct score" in error
    assert "None" not in error


def test_a_file_of_one_class_names_the_flag(tmp_path, capsys):
    error = _read_fails(tmp_path, capsys, "negatives.csv", "score,label\n0.1,0\n0.9,0\n")
    assert "column 'label' has no positives" in error
    assert "Check --pos-label and the data" in error


def test_missing_file_and_folder_print_one_line(tmp_path, capsys):
    columns = ["--score", "score", "--label", "label"]
    missing = tmp_path / "missing.csv"
    assert f"no file {str(missing)!r}" in _fails_with(["table", str(missing), *columns], capsys)
    folder = tmp_path / "folder.csv"
    folder.mkdir()
    error = _fails_with(["table", str(folder), *columns], capsys)
    assert f"{str(folder)!r} is a folder; pass a .csv or .parquet file" in error


def test_library_errors_print_one_line(predictions_csv, capsys, monkeypatch):
    import costchart as cc

    def fails(*args, **kwargs):
        raise cc.CostchartError("first line\nsecond line")

    monkeypatch.setattr(cc, "roc_points", fails)
    error = _fails_with(["table", str(predictions_csv), *COLUMNS], capsys)
    assert error == "costchart: error: first line; second line\n"


@pytest.mark.slow
def test_unreadable_input_in_a_real_process(tmp_path):
    import costchart

    path = tmp_path / "malformed.csv"
    path.write_bytes(UNREADABLE["malformed.csv"][0])
    root = str(Path(costchart.__file__).resolve().parents[1])
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "costchart._cli",
            "table",
            str(path),
            "--score",
            "s",
            "--label",
            "y",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": root},
        check=False,
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr
    assert result.stderr.startswith(f"costchart: error: cannot read {str(path)!r} as CSV")
    assert result.stderr.count("\n") == 1


def _labels_csv(tmp_path, labels, name="labels.csv"):
    path = tmp_path / name
    scores = [0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.8, 0.9]
    pd.DataFrame({"score": scores, "label": labels}).to_csv(path, index=False)
    return path


def _auc(tmp_path, path, pos_label) -> float:
    out = tmp_path / "auc.csv"
    argv = ["table", str(path), "--score", "score", "--label", "label", "--kind", "auc"]
    assert main([*argv, "--pos-label", pos_label, "--out", str(out)]) == 0
    return float(pd.read_csv(out)["auc"].iloc[0])


@pytest.mark.parametrize(
    ("labels", "positive", "negative"),
    [
        ([1, 1, 2, 1, 2, 2, 1, 2], ["2", "2.0", " 2 "], ["1"]),
        ([1.5, 1.5, 2.5, 1.5, 2.5, 2.5, 1.5, 2.5], ["2.5"], ["1.5"]),
        (
            [False, False, True, False, True, True, False, True],
            ["true", "True", "1"],
            ["false", "FALSE", "0"],
        ),
        (["b", "b", "a", "b", "a", "a", "b", "a"], ["a"], ["b"]),
    ],
)
def test_pos_label_is_read_as_the_label_type(tmp_path, labels, positive, negative):
    path = _labels_csv(tmp_path, labels)
    for text in positive:
        assert (
            _auc(tmp_path, path, text) == 0.75
        )  # 12 of the 16 (positive, negative) pairs ranked right
    for text in negative:
        assert _auc(tmp_path, path, text) == 0.25


@pytest.mark.parametrize(
    ("labels", "pos_label", "message"),
    [
        (
            [1, 1, 2, 1, 2, 2, 1, 2],
            "3",
            r"--pos-label 3 is not a value of column 'label'; pass one of 1, 2",
        ),
        ([1, 1, 2, 1, 2, 2, 1, 2], "2.5", r"--pos-label '2\.5' is not a value of column 'label'"),
        ([1, 1, 2, 1, 2, 2, 1, 2], "two", r"--pos-label 'two' is not a value of column 'label'"),
        (
            [False, False, True, False, True, True, False, True],
            "yes",
            r"--pos-label 'yes' is not a value of column 'label'; pass one of False, True",
        ),
    ],
)
def test_pos_label_not_among_the_labels(tmp_path, capsys, labels, pos_label, message):
    path = _labels_csv(tmp_path, labels)
    argv = ["table", str(path), "--score", "score", "--label", "label", "--pos-label", pos_label]
    assert re.search(message, _fails_with(argv, capsys))


def test_n_resamples_reaches_the_resampled_band(predictions_csv, tmp_path, capsys):
    out = tmp_path / "band.csv"
    argv = ["table", str(predictions_csv), *COLUMNS, "--kind", "band", "--band", "bootstrap"]
    assert main([*argv, "--n-resamples", "250", "--out", str(out)]) == 0
    band = pd.read_csv(out)
    assert list(band.columns) == ["classifier", "pc", "cost", "lower", "upper", "se", "degenerate"]
    assert (band.lower <= band.upper).all()
    assert "resampled 250 of 250" in capsys.readouterr().err
    # Too few for the level: the library's message, so the value did reach it.
    error = _fails_with([*argv, "--n-resamples", "50"], capsys)
    assert "--n-resamples 50 is too few for a 0.9 band" in error  # the flag, not the keyword
    assert "pass --n-resamples >= 200" in error


def test_seed_makes_a_resampled_table_repeatable(predictions_csv, tmp_path, capsys):
    argv = ["table", str(predictions_csv), *COLUMNS, "--kind", "band", "--band", "bootstrap"]
    argv += ["--n-resamples", "200"]
    tables = []
    for seed, name in (("7", "a"), ("7", "b"), ("8", "c")):
        out = tmp_path / f"{name}.csv"
        assert main([*argv, "--seed", seed, "--out", str(out)]) == 0
        tables.append(pd.read_csv(out))
    pd.testing.assert_frame_equal(tables[0], tables[1])
    assert not tables[0][["lower", "upper"]].equals(tables[2][["lower", "upper"]])
    # As the library draws it with rng=7.
    import costchart as cc

    data = pd.read_csv(predictions_csv)
    expected = cc.bootstrap_band(
        data,
        score="score",
        label="label",
        by="classifier",
        inference="bootstrap",
        n_resamples=200,
        rng=7,
    )
    np.testing.assert_allclose(tables[0]["upper"], expected["upper"], rtol=0, atol=1e-12)
    capsys.readouterr()


@pytest.mark.parametrize("value", ["x", "nan", "1.5", "-1", ""])
def test_seed_must_be_a_whole_number(predictions_csv, capsys, value):
    argv = ["table", str(predictions_csv), *COLUMNS, "--kind", "band", "--band", "bootstrap"]
    with pytest.raises(SystemExit) as exit_info:
        main([*argv, "--seed", value])
    assert exit_info.value.code == 2
    assert f"argument --seed: {value!r} is not a seed" in capsys.readouterr().err


def test_out_may_not_replace_the_input_file(tmp_path, predictions_csv, capsys):
    # (plot writes charts, never a .csv or .parquet: only table could overwrite its input.)
    copy = tmp_path / "data.csv"
    copy.write_bytes(predictions_csv.read_bytes())
    before = copy.read_bytes()
    for out in (str(copy), str(tmp_path / "." / "data.csv")):
        error = _fails_with(["table", str(copy), *COLUMNS, "--out", out], capsys)
        assert "is the input file: writing it would replace the data" in error
    assert copy.read_bytes() == before


def test_seed_without_resampling_is_refused(predictions_csv, capsys):
    argv = ["table", str(predictions_csv), *COLUMNS, "--kind", "points", "--seed", "3"]
    assert "--seed 3 applies to a resampled band" in _fails_with(argv, capsys)


def test_a_long_seed_keeps_every_digit():
    from costchart._cli import build_parser

    seed = "12345678901234567891"  # past 2**53: read as a float, its last digits change
    args = build_parser().parse_args(["table", "f.csv", *COLUMNS, "--seed", seed])
    assert args.seed == int(seed)
    args = build_parser().parse_args(["table", "f.csv", *COLUMNS, "--seed", "2e3"])
    assert args.seed == 2000


@pytest.mark.parametrize("option", [["--seed", "3"], ["--n-resamples", "300"]])
@pytest.mark.parametrize("command", ["table", "plot"])
def test_a_resampling_option_beside_a_band_that_does_not_resample_says_which_do(
    predictions_csv, capsys, command, option
):
    argv = [command, str(predictions_csv), *COLUMNS, "--band", "exact_bootstrap", *option]
    if command == "table":
        argv += ["--kind", "band"]
    error = _fails_with(argv, capsys)
    assert "applies to a resampled band (--band auto, smoothed_bootstrap or bootstrap)" in error
    assert error.rstrip().endswith("drop it or pass one of them"), error
    assert "drop --band for the cost chart" not in error


@pytest.mark.parametrize("value", ["many", "nan", "inf", "1.5", "0", "-200", ""])
def test_n_resamples_must_be_a_whole_number(predictions_csv, capsys, value):
    argv = ["table", str(predictions_csv), *COLUMNS, "--kind", "band", "--band", "bootstrap"]
    with pytest.raises(SystemExit) as exit_info:
        main([*argv, "--n-resamples", value])
    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert f"argument --n-resamples: {value!r} is not a whole number of resamples" in error
    assert "Traceback" not in error


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            ["--kind", "band", "--band", "exact_bootstrap", "--n-resamples", "500"],
            r"--n-resamples 500 applies to a resampled band \(--band auto",
        ),
        (
            ["--kind", "points", "--n-resamples", "500"],
            r"applies to a resampled band",
        ),
        (
            ["--kind", "points", "--band", "exact_bootstrap"],
            r"--band exact_bootstrap applies to table --kind band .*, not table --kind points; "
            r"drop it or pass --kind band",
        ),
    ],
)
def test_band_options_are_not_silently_ignored(predictions_csv, capsys, options, message):
    # (table --kind band without --band draws the default, resampled band: --n-resamples
    # applies to it, tested in test_the_default_table_band_resamples_the_choice.)
    assert re.search(
        message, _fails_with(["table", str(predictions_csv), *COLUMNS, *options], capsys)
    )


def test_plot_n_resamples_needs_band_resample(predictions_csv, capsys):
    error = _fails_with(["plot", str(predictions_csv), *COLUMNS, "--n-resamples", "500"], capsys)
    assert "--n-resamples 500 applies to a resampled band (--band auto" in error


def test_table_writes_csv_to_standard_output(predictions_csv, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = ["table", str(predictions_csv), *COLUMNS, "--kind", "envelope"]
    assert main(argv) == 0
    default = capsys.readouterr()
    assert default.out.startswith("classifier,pc,cost,threshold,fpr,tpr\n")
    assert "wrote" not in default.err
    assert main([*argv, "--out", "-"]) == 0
    assert capsys.readouterr().out == default.out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["predictions.csv"]  # no file '-'
    table = pd.read_csv(io.StringIO(default.out))
    assert len(table) > 3 and table.classifier.nunique() == 3


def test_plot_writes_the_spec_to_standard_output(predictions_csv, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv = ["plot", str(predictions_csv), *COLUMNS, "--kind", "cost"]
    assert main([*argv, "--out", "-"]) == 0
    spec = json.loads(capsys.readouterr().out)
    assert spec["$schema"].startswith("https://vega.github.io/schema/vega-lite/")
    assert main([*argv, "--out", "chart.json"]) == 0
    # Each chart built names its selections afresh (costchart<n>_hover): compare without.
    numbered = re.compile(r"(costchart(?:_roc_targets|_cost_targets)?)\d+")
    again = (tmp_path / "chart.json").read_text()
    assert numbered.sub(r"\1", json.dumps(spec)) == numbered.sub(
        r"\1", json.dumps(json.loads(again))
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chart.json", "predictions.csv"]


@pytest.mark.parametrize(
    ("command", "out", "message"),
    [
        (
            "table",
            "table.tsv",
            r"format of --out '.*table\.tsv' from its suffix '\.tsv'; end it in \.csv, .*or "
            r"pass --out - for standard output",
        ),
        (
            "table",
            "missing/table.csv",
            r"cannot write --out '.*table\.csv': the folder '.*missing' does not exist; create it",
        ),
        ("table", "", r"--out '.*' is a folder; pass a file name"),
        ("plot", "chart.gif", r"from its suffix '\.gif'; end it in \.html, \.png, \.svg, \.pdf"),
        (
            "table",
            "predictions.csv/table.csv",
            r"cannot write --out '.*table\.csv': '.*predictions\.csv' is a file, not a folder; "
            r"pass a path in an existing folder",
        ),
        (
            "plot",
            "predictions.csv/chart.html",
            r"cannot write --out '.*chart\.html': '.*predictions\.csv' is a file, not a folder",
        ),
    ],
)
def test_bad_out_is_refused_before_any_work(
    predictions_csv, tmp_path, capsys, command, out, message
):
    argv = [command, str(predictions_csv), *COLUMNS, "--out", str(tmp_path / out)]
    assert re.search(message, _fails_with(argv, capsys))


def test_demo_out_that_is_a_file_names_the_option(predictions_csv, capsys):
    error = _fails_with(["demo", "--out", str(predictions_csv)], capsys)
    assert re.search(
        r"cannot make the folder --out '.*predictions\.csv': it already exists as a file; "
        r"pass the name of a new or existing folder",
        error,
    )
    error = _fails_with(["demo", "--out", str(predictions_csv / "demo")], capsys)
    assert re.search(r"--out '.*demo': a part of it is a file, not a folder", error)


@pytest.mark.parametrize(
    ("refusal", "reason"),
    [
        (errno.EROFS, r"the file system is read-only; pass a path on a writable disk"),
        (errno.EACCES, r"permission denied; pass a path in a folder you can write to"),
        (errno.ENOSPC, r"the disk is full; free some space or pass a path on another disk"),
    ],
)
@pytest.mark.parametrize(("command", "name"), [("table", "t.csv"), ("plot", "c.svg")])
def test_a_refused_write_names_the_option_and_the_fix(
    predictions_csv, tmp_path, capsys, monkeypatch, refusal, reason, command, name
):
    def refuse(self, *args, **kwargs):
        raise OSError(refusal, os.strerror(refusal))

    monkeypatch.setattr(Path, "write_text", refuse)
    monkeypatch.setattr(Path, "write_bytes", refuse)
    argv = [command, str(predictions_csv), *COLUMNS, "--out", str(tmp_path / name)]
    assert re.search(rf"cannot write --out '.*{name}': {reason}", _fails_with(argv, capsys))


@pytest.mark.parametrize(("command", "name"), [("table", "x.csv"), ("plot", "x.json")])
def test_a_file_system_that_takes_no_new_files_is_worded(predictions_csv, capsys, command, name):
    # /proc exists but takes no new files: no raw "[Errno 2]"
    argv = [command, str(predictions_csv), *COLUMNS, "--out", f"/proc/{name}"]
    error = _fails_with(argv, capsys)
    assert "Errno" not in error
    assert re.search(rf"cannot write --out '/proc/{name}': .*; pass a file name the file", error)


@pytest.mark.slow
def test_closed_standard_output_is_not_a_traceback(tmp_path):
    import costchart

    path = tmp_path / "many.csv"
    rng = np.random.default_rng(1)
    pd.DataFrame({"s": rng.random(20_000), "y": rng.integers(0, 2, 20_000)}).to_csv(
        path, index=False
    )
    root = str(Path(costchart.__file__).resolve().parents[1])
    command = [
        sys.executable,
        "-m",
        "costchart._cli",
        "table",
        str(path),
        "--score",
        "s",
        "--label",
        "y",
    ]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": root},
    )
    assert process.stdout.readline() == b"threshold,tp,fp,tn,fn,tpr,fpr\n"
    process.stdout.close()  # like `| head -1`
    error = process.stderr.read().decode()
    process.stderr.close()
    assert process.wait() == 1
    assert error == ""


def test_csv_text_cells_cannot_start_formulas(tmp_path, capsys):
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset == 'sonar'")
    names = {
        "naive bayes": '=HYPERLINK("http://evil","x")',
        "logistic": "@SUM(1+1)",
        "tree": "-2+3",
    }
    data = data.assign(classifier=data.classifier.map(names), score=data.score - 0.5)
    data = data.rename(columns={"classifier": "+model"})
    path = tmp_path / "named.csv"
    data.to_csv(path, index=False)
    argv = ["table", str(path), "--score", "score", "--label", "label", "--by", "+model"]
    for kind in ["points", "selection"]:
        assert main([*argv, "--kind", kind]) == 0
        text = capsys.readouterr().out
        cells = [cell for line in text.splitlines() for cell in line.split(",")]
        table = pd.read_csv(io.StringIO(text))
        assert table.columns[0] == "'+model"
        assert set(table["'+model"]) == {"'" + name for name in names.values()}
        # Negative numbers are numbers, not formulas: left as they are.
        assert table.threshold.dtype == np.float64
        assert (table.threshold[np.isfinite(table.threshold)] < 0).any()
        assert any(cell.startswith("-0.") for cell in cells)
        assert not any(cell.startswith(("=", "@", "+", '"=', '"@')) for cell in cells)
    # JSON is not for spreadsheets: the names are kept as they are.
    out = tmp_path / "points.json"
    assert main([*argv, "--out", str(out)]) == 0
    rows = json.loads(out.read_text())
    assert {row["+model"] for row in rows} == set(names.values())


@pytest.mark.parametrize("text", ["=1+1", "+1", "-x", "@x", "\tx", "\rx", "a=1", "", "'=kept"])
def test_guarded_cells(text):
    from costchart._cli.writing import guard, spreadsheet_safe

    guarded = guard(text)
    assert guarded == ("'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text)
    table = pd.DataFrame({"name": [text, None], "value": [-1.5, -2.0], "count": [-3, 4]})
    safe = spreadsheet_safe(table)
    assert safe["name"].iloc[0] == guarded and pd.isna(safe["name"].iloc[1])
    assert safe["value"].tolist() == [-1.5, -2.0] and safe["count"].tolist() == [-3, 4]
    assert table["name"].iloc[0] == text  # the input is not changed


def _strict_json(text):
    def refuse(token):
        raise ValueError(f"bare {token} token")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize(("kind", "infinity"), [("points", "Infinity"), ("selection", "-Infinity")])
def test_json_output_is_strict_json(predictions_csv, tmp_path, kind, infinity):
    out = tmp_path / f"{kind}.json"
    assert main(["table", str(predictions_csv), *COLUMNS, "--kind", kind, "--out", str(out)]) == 0
    rows = _strict_json(out.read_text())
    expected = pd.read_csv(io.StringIO(_table_csv(predictions_csv, kind)))
    assert list(rows[0]) == list(expected.columns)
    assert len(rows) == len(expected)
    thresholds = [row["threshold"] for row in rows]
    assert infinity in thresholds
    assert [float(t) for t in thresholds] == expected.threshold.tolist()


def _table_csv(path, kind):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["table", str(path), *COLUMNS, "--kind", kind]) == 0
    return out.getvalue()


def test_json_writes_null_for_nan(predictions_csv, tmp_path, monkeypatch):
    import costchart as cc

    odd = pd.DataFrame(
        {
            "classifier": ["a", None, "c"],
            "auc": [np.nan, -np.inf, -0.25],
            "n": np.array([1, 2, 3], dtype=np.int64),
            "flag": [True, False, True],
        }
    )
    monkeypatch.setattr(cc, "auc_ci", lambda data, **options: odd)
    out = tmp_path / "auc.json"
    assert main(["table", str(predictions_csv), *COLUMNS, "--kind", "auc", "--out", str(out)]) == 0
    assert _strict_json(out.read_text()) == [
        {"classifier": "a", "auc": None, "n": 1, "flag": True},
        {"classifier": None, "auc": "-Infinity", "n": 2, "flag": False},
        {"classifier": "c", "auc": -0.25, "n": 3, "flag": True},
    ]


def test_a_csv_naming_a_column_twice_is_refused(tmp_path, capsys):
    # pandas would read the second 'score' as 'score.1' and score with the first silently.
    file = tmp_path / "twice.csv"
    file.write_text("score,label,score\n0.9,1,0.1\n0.2,0,0.8\n", encoding="utf-8")
    error = _fails_with(["table", str(file), "--score", "score", "--label", "label"], capsys)
    assert "its header names column 'score' twice; give every column its own name" in error


def test_table_kind_says_what_it_chooses_and_its_default(capsys):
    with pytest.raises(SystemExit):
        main(["table", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "which table: ROC points, their convex hull" in text
    assert "points by default" in text


@pytest.mark.parametrize(("old", "new"), [("exact", "exact_bootstrap"), ("resample", "bootstrap")])
def test_old_band_names_warn_and_give_the_same_table(predictions_csv, tmp_path, capsys, old, new):
    tables = {}
    for name in (old, new):
        out = tmp_path / f"{name}.csv"
        argv = ["table", str(predictions_csv), *COLUMNS, "--kind", "band", "--band", name]
        resamples = ["--n-resamples", "200"] if new == "bootstrap" else []
        # the resampled band draws from a fresh generator: compare its shape and the estimate
        assert main([*argv, *resamples, "--out", str(out)]) == 0
        warned = re.findall(r"costchart: warning: (.*)\n", capsys.readouterr().err)
        expected = [f"--band {old} is deprecated and will be removed in the next release; "]
        assert [w[: len(expected[0])] for w in warned] == (expected if name == old else [])
        assert not warned or warned[0].endswith(f"pass --band {new}")
        tables[name] = pd.read_csv(out)
    if new == "exact_bootstrap":
        pd.testing.assert_frame_equal(tables[old], tables[new])
    else:
        pd.testing.assert_frame_equal(
            tables[old][["classifier", "pc", "cost"]], tables[new][["classifier", "pc", "cost"]]
        )


def test_a_band_too_large_to_resample_names_the_flag(predictions_csv, capsys):
    argv = ["table", str(predictions_csv), *COLUMNS, "--kind", "band", "--band", "bootstrap"]
    error = _fails_with([*argv, "--n-resamples", "1000000000000"], capsys)
    assert "pass --n-resamples <= " in error
    assert error.rstrip().endswith("or --band exact_bootstrap")


def test_the_default_table_band_resamples_the_choice(predictions_csv, tmp_path):
    out = tmp_path / "band.csv"
    argv = ["table", str(predictions_csv), *COLUMNS, "--kind", "band", "--n-resamples", "300"]
    assert main([*argv, "--out", str(out)]) == 0
    band = pd.read_csv(out)
    assert (band["lower"] <= band["cost"] + 1e-12).all() and (band["upper"] >= band["cost"]).all()
    exact = tmp_path / "exact.csv"
    argv = ["table", str(predictions_csv), *COLUMNS, "--kind", "band", "--band", "exact_bootstrap"]
    assert main([*argv, "--out", str(exact)]) == 0
    fixed = pd.read_csv(exact)
    # The choice's optimism moves the band up: above the fixed band's on average.
    assert band["upper"].mean() > fixed["upper"].mean()


def test_table_auc_gives_the_interval_at_the_confidence_level(predictions_csv, tmp_path):
    import costchart as cc

    out = tmp_path / "auc.csv"
    argv = ["table", str(predictions_csv), *COLUMNS, "--kind", "auc", "--out", str(out)]
    assert main([*argv, "--confidence-level", "0.95"]) == 0
    written = pd.read_csv(out)
    data = pd.read_csv(predictions_csv)
    by = COLUMNS[COLUMNS.index("--by") + 1] if "--by" in COLUMNS else None
    expected = cc.auc_ci(data, score="score", label="label", by=by, confidence_level=0.95)
    np.testing.assert_allclose(
        written[["auc", "lower", "upper"]], expected[["auc", "lower", "upper"]]
    )
    assert main(argv) == 0  # 0.9 by default: a narrower interval
    narrower = pd.read_csv(out)
    assert ((narrower["upper"] - narrower["lower"]) < (written["upper"] - written["lower"])).all()


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("table", ["--kind", "points"]),
        ("table", ["--kind", "auc", "--bins", "10"]),  # binned points: the AUC alone
        ("plot", []),  # no --band
    ],
)
def test_confidence_level_that_would_be_ignored_is_refused(
    predictions_csv, capsys, command, options
):
    argv = [command, str(predictions_csv), *COLUMNS, *options, "--confidence-level", "0.95"]
    error = _fails_with(argv, capsys)
    assert "--confidence-level 0.95 applies to a band" in error
    assert ("with --bins the AUC of binned points has none" in error) == ("--bins" in options)


# -- plot's options (issue 33, part 3) ---------------------------------------------------------


@pytest.fixture(scope="module")
def two_datasets_csv(tmp_path_factory):
    """Two data sets of three classifiers, 60 instances each: small, for quick charts."""
    from costchart.datasets import load_predictions

    data = load_predictions().query("dataset in ['sonar', 'ionosphere']")
    # every instance's scores (by all three classifiers) for 60 instances of each data set
    chosen = data[["dataset", "instance"]].drop_duplicates().sample(frac=1, random_state=0)
    chosen = chosen.groupby("dataset").head(60)
    data = data.merge(chosen, on=["dataset", "instance"])
    path = tmp_path_factory.mktemp("cli") / "two.csv"
    data.to_csv(path, index=False)
    return path


def _walk(node):
    """Every dict in a spec, depth first."""
    if isinstance(node, dict):
        yield node
        for value in node.values():
            yield from _walk(value)
    elif isinstance(node, list):
        for value in node:
            yield from _walk(value)


def _encoded(spec, channel: str) -> set:
    """The fields a spec's layers encode on ``channel``."""
    return {
        node["encoding"][channel].get("field")
        for node in _walk(spec)
        if isinstance(node.get("encoding"), dict)
        and isinstance(node["encoding"].get(channel), dict)
    }


def _cost_tops(spec) -> set:
    """The top of every cost axis in a spec."""
    return {
        node["encoding"]["y"]["scale"]["domain"][1]
        for node in _walk(spec)
        if isinstance(node.get("encoding"), dict)
        and isinstance(node["encoding"].get("y"), dict)
        and node["encoding"]["y"].get("title") == "Normalized expected cost"
        and "domain" in node["encoding"]["y"].get("scale", {})
    }


def _key(spec) -> list:
    """The key's entries."""
    return [
        label
        for node in _walk(spec)
        if isinstance(node.get("encoding"), dict)
        and isinstance(node["encoding"].get("shape"), dict)
        and node["encoding"]["shape"].get("field") == "costchart_key"
        for label in node["encoding"]["shape"]["scale"]["domain"]
    ]


def _spec(path, options, capsys) -> tuple[dict, str]:
    """The spec ``plot`` writes for ``options`` on ``path``, and its standard error."""
    assert main(["plot", str(path), "--score", "score", "--label", "label", *options]) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


@pytest.mark.slow  # three charts: seconds
def test_plot_classifier_colours_that_column_and_groups_by_it(two_datasets_csv, capsys):
    spec, err = _spec(
        two_datasets_csv, ["--classifier", "classifier", "--facet", "dataset", "--out", "-"], capsys
    )
    assert "classifier" in _encoded(spec, "color")
    assert "warning" not in err  # --classifier and --facet group: nothing is pooled
    rows = next(iter(spec["datasets"].values()))
    pairs = {(row.get("dataset"), row.get("classifier")) for row in rows} - {(None, None)}
    assert len({p for p in pairs if None not in p}) == 6  # a curve per data set and classifier
    # By default: the first --by column that is not --facet.
    spec, _ = _spec(
        two_datasets_csv,
        ["--by", "dataset", "classifier", "--facet", "dataset", "--out", "-"],
        capsys,
    )
    assert "classifier" in _encoded(spec, "color") and "dataset" not in _encoded(spec, "color")
    spec, _ = _spec(
        two_datasets_csv,
        ["--by", "dataset", "classifier", "--classifier", "dataset", "--out", "-"],
        capsys,
    )
    assert "dataset" in _encoded(spec, "color") and "classifier" not in _encoded(spec, "color")


@pytest.mark.parametrize("kind", [pytest.param("roc-cost", marks=pytest.mark.slow), "cost"])
def test_plot_y_max_sets_the_cost_axis_and_fits_it_by_default(two_datasets_csv, capsys, kind):
    import costchart as cc
    from costchart._cost.geometry import fitted_top

    base = ["--by", "dataset", "classifier", "--facet", "dataset", "--kind", kind, "--out", "-"]
    spec, _ = _spec(two_datasets_csv, [*base, "--y-max", "0.35"], capsys)
    assert _cost_tops(spec) == {0.35}
    assert not any("cost axis" in entry for entry in _key(spec))
    spec, _ = _spec(two_datasets_csv, base, capsys)
    data = pd.read_csv(two_datasets_csv)
    points = cc.roc_points(data, score="score", label="label", by=["dataset", "classifier"])
    top = fitted_top(cc.lower_envelope(points)["cost"])
    assert _cost_tops(spec) == {top} and top < 0.5
    assert _key(spec)[-1] == f"cost axis to {top:g}, fitted to the curves"


@pytest.mark.slow  # a band chart: seconds
def test_plot_band_takes_y_max(two_datasets_csv, capsys):
    argv = ["--by", "classifier", "dataset", "--classifier", "classifier", "--facet", "dataset"]
    spec, _ = _spec(
        two_datasets_csv,
        [*argv, "--band", "exact_bootstrap", "--y-max", "0.45", "--out", "-"],
        capsys,
    )
    assert _cost_tops(spec) == {0.45}
    assert "area" in {
        node.get("mark", {}).get("type")
        for node in _walk(spec)
        if "mark" in node and isinstance(node["mark"], dict)
    }


@pytest.mark.slow  # two charts: seconds
def test_plot_title_is_the_chart_s_title(two_datasets_csv, capsys):
    spec, _ = _spec(
        two_datasets_csv,
        ["--by", "dataset", "classifier", "--title", "Two sets", "--kind", "roc", "--out", "-"],
        capsys,
    )
    assert spec["title"]["text"] == "Two sets"
    spec, _ = _spec(
        two_datasets_csv, ["--by", "dataset", "classifier", "--kind", "roc", "--out", "-"], capsys
    )
    assert "title" not in spec


@pytest.mark.slow  # two charts each: seconds
@pytest.mark.parametrize("kind", ["roc-cost", "cost"])
def test_plot_combined_draws_the_envelope_of_the_classifiers_shown(two_datasets_csv, capsys, kind):
    from costchart._charts.combined import COMBINED_ENVELOPE

    base = ["--by", "dataset", "classifier", "--facet", "dataset", "--kind", kind, "--out", "-"]
    plain, _ = _spec(two_datasets_csv, base, capsys)
    combined, _ = _spec(two_datasets_csv, [*base, "--combined"], capsys)
    assert COMBINED_ENVELOPE in _key(combined) and COMBINED_ENVELOPE not in _key(plain)
    marks = [n for n in _walk(combined) if isinstance(n.get("mark"), dict)]
    assert any(m["mark"].get("strokeDash") and m["mark"].get("strokeWidth", 0) >= 3 for m in marks)


@pytest.mark.parametrize(
    ("lines", "entry"),
    [
        ("all", "cost lines (one per ROC point)"),
        ("hull", "cost lines of the ROC hull vertices"),
        ("none", None),
    ],
)
def test_plot_cost_lines_chooses_the_lines_drawn(two_datasets_csv, capsys, lines, entry):
    base = ["--by", "classifier", "--kind", "cost", "--out", "-"]
    data = pd.read_csv(two_datasets_csv).query("dataset == 'sonar'")
    path = two_datasets_csv.parent / "sonar.csv"
    data.to_csv(path, index=False)
    spec, _ = _spec(path, [*base, "--cost-lines", lines], capsys)
    drawn = [e for e in _key(spec) if e.startswith("cost lines")]
    assert drawn == ([entry] if entry else [])


@pytest.mark.parametrize(
    ("command", "options", "message"),
    [
        (
            "plot",
            ["--kind", "roc", "--y-max", "0.3"],
            r"--y-max 0\.3 applies to a chart with a cost axis .*, not plot --kind roc; drop it or "
            r"pass --kind cost",
        ),
        (
            "plot",
            ["--kind", "roc", "--combined"],
            r"--combined applies to plot --kind roc-cost or cost .*, not plot --kind roc",
        ),
        (
            "plot",
            ["--kind", "roc", "--cost-lines", "hull"],
            r"--cost-lines hull applies to plot --kind roc-cost, cost or cheapest_set .*, not plot --kind roc",
        ),
        (
            "plot",
            ["--band", "exact_bootstrap", "--combined"],
            r"--combined applies to .*, not plot --band exact_bootstrap; drop it or drop --band",
        ),
        (
            "plot",
            ["--band", "exact_bootstrap", "--cost-lines", "none"],
            r"--cost-lines none applies to .*, not plot --band exact_bootstrap",
        ),
        (
            "plot",
            ["--band", "exact_bootstrap", "--kind", "roc-cost"],
            r"--band draws a cost chart, not --kind roc-cost",
        ),
        (
            "plot",
            ["--kind", "cost", "--n-resamples", "300"],
            r"--n-resamples 300 applies to a resampled band .*, not plot --kind cost",
        ),
        (
            "table",
            ["--kind", "hull", "--band", "bootstrap"],
            r"--band bootstrap applies to table --kind band .*, not table --kind hull",
        ),
        (
            "table",
            ["--kind", "lines", "--confidence-level", "0.8"],
            r"--confidence-level 0\.8 applies to a band .*, not table --kind lines",
        ),
        (
            "table",
            ["--kind", "band", "--band", "exact_bootstrap", "--n-resamples", "300"],
            r"--n-resamples 300 applies to .*, not table --kind band --band exact_bootstrap",
        ),
    ],
)
def test_an_option_that_does_not_apply_is_refused_before_any_work(
    tmp_path, capsys, command, options, message
):
    # The file does not exist: the option is refused first, naming itself.
    argv = [command, str(tmp_path / "none.csv"), "--score", "s", "--label", "y", *options]
    error = _fails_with(argv, capsys)
    assert re.search(message, error), error


@pytest.mark.parametrize(
    "option",
    [
        ["--y-max", "0.3"],
        ["--combined"],
        ["--cost-lines", "all"],
        ["--title", "t"],
        ["--facet", "d"],  # (--classifier is table --kind cheapest_regions's too)
    ],
)
def test_table_has_none_of_plot_s_options(tmp_path, capsys, option):
    with pytest.raises(SystemExit) as exit_info:
        main(["table", str(tmp_path / "x.csv"), "--score", "s", "--label", "y", *option])
    assert exit_info.value.code == 2
    assert f"unrecognized arguments: {option[0]}" in capsys.readouterr().err


def test_a_bad_y_max_names_the_flag(two_datasets_csv, capsys):
    argv = [
        "plot",
        str(two_datasets_csv),
        "--score",
        "score",
        "--label",
        "label",
        "--by",
        "classifier",
        "dataset",
        "--y-max",
        "1.5",
    ]
    error = _fails_with(argv, capsys)
    assert "--y-max 1.5 is outside (0, 1]" in error


@pytest.mark.parametrize("command", [pytest.param("plot", marks=pytest.mark.slow), "table"])
def test_a_grouping_that_leaves_text_columns_out_warns(two_datasets_csv, capsys, command):
    out = ["--out", "-"] if command == "plot" else ["--kind", "auc"]
    argv = [command, str(two_datasets_csv), "--score", "score", "--label", "label", *out]

    def warnings_of(options):
        assert main([*argv, *options]) == 0
        return re.findall(r"costchart: warning: (.*)\n", capsys.readouterr().err)

    # --by classifier pools the two data sets into each classifier's curve: said, once.
    (warned,) = warnings_of(["--by", "classifier"])
    assert "'dataset'" in warned and "pass --by classifier dataset" in warned
    (warned,) = warnings_of([])  # no --by: one curve of everything
    assert warned.startswith("--by was not given, so every row is pooled into one curve")
    assert "'classifier'" in warned and "'dataset'" in warned
    assert warnings_of(["--by", "classifier", "dataset"]) == []
    assert warnings_of(["--by"]) == []  # --by with no column pools on purpose
    if command == "table":  # what was pooled is what was asked: three curves, not six
        assert main([*argv, "--by", "classifier"]) == 0
        table = pd.read_csv(io.StringIO(capsys.readouterr().out))
        assert list(table["classifier"]) == ["logistic", "naive bayes", "tree"]


def test_a_grouping_column_that_is_the_score_or_label_is_refused(predictions_csv, capsys):
    argv = ["table", str(predictions_csv), "--score", "score", "--label", "label"]
    error = _fails_with([*argv, "--kind", "cheapest_regions", "--classifier", "score"], capsys)
    assert error.startswith("costchart: error: --classifier score is the score column")
    error = _fails_with([*argv, "--by", "label"], capsys)
    assert "--by label is the label column" in error


def test_a_keyword_without_a_value_reads_as_a_flag(predictions_csv, tmp_path, capsys):
    argv = ["plot", str(predictions_csv), "--score", "score", "--label", "label"]
    argv += ["--by", "dataset", "--classifier", "dataset", "--facet", "dataset"]
    error = _fails_with([*argv, "--out", str(tmp_path / "x.html")], capsys)
    assert "--classifier and --facet are both 'dataset'" in error


def test_an_empty_by_pools_on_purpose_with_a_classifier_too(tmp_path, capsys):
    from costchart.datasets import load_predictions

    path = tmp_path / "two.csv"  # two data sets: --by alone pools them on purpose
    load_predictions().query("dataset in ['sonar', 'ionosphere']").to_csv(path, index=False)
    argv = ["table", str(path), "--score", "score", "--label", "label"]
    argv += ["--kind", "cheapest_regions", "--classifier", "classifier", "--by"]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert main(argv) == 0
    assert "warning" not in capsys.readouterr().err
    assert main(argv[:-1]) == 0  # without --by it says so
    assert "costchart: warning:" in capsys.readouterr().err


# -- --kind cheapest_set (issue 35, item 2) ----------------------------------------------------

SET = ["--classifier", "classifier", "--instance", "instance", "--n-resamples", "1000"]
#: ``SET``, with its resamples seeded.
SEEDED = [*SET, "--seed", "0"]


def _seeded_set(monkeypatch) -> list[dict]:
    """Record the calls of ``cc.cheapest_set`` (seeded by ``--seed``, which ``SEEDED`` passes)."""
    import costchart as cc

    calls, original = [], cc.cheapest_set

    def seeded(data, **kwargs):
        assert kwargs["rng"] == 0  # --seed 0 reached it
        calls.append(kwargs)
        return original(data, **kwargs)

    monkeypatch.setattr(cc, "cheapest_set", seeded)
    return calls


@pytest.mark.slow  # a confidence set of two data sets: seconds
def test_table_of_the_classifiers_that_could_be_the_cheapest(
    two_datasets_csv, tmp_path, capsys, monkeypatch
):
    import costchart as cc

    original = cc.cheapest_set
    calls = _seeded_set(monkeypatch)
    out = tmp_path / "set.csv"
    argv = ["table", str(two_datasets_csv), "--score", "score", "--label", "label"]
    argv += ["--by", "dataset", "--kind", "cheapest_set", *SEEDED, "--confidence-level", "0.8"]
    assert main([*argv, "--out", str(out)]) == 0
    (kwargs,) = calls
    assert kwargs["by"] == ["dataset"] and kwargs["classifier"] == "classifier"
    assert kwargs["instance"] == "instance" and kwargs["confidence_level"] == 0.8
    assert kwargs["n_resamples"] == 1000
    expected = original(pd.read_csv(two_datasets_csv), **kwargs)
    table = pd.read_csv(out)
    assert list(table.columns) == list(expected.columns)
    pd.testing.assert_frame_equal(table, expected, check_dtype=False)
    assert set(table["dataset"]) == {"sonar", "ionosphere"}
    capsys.readouterr()


@pytest.mark.slow  # a chart of two data sets: seconds
def test_plot_of_the_cheapest_set_draws_its_table(two_datasets_csv, capsys, monkeypatch):
    import costchart as cc

    calls = _seeded_set(monkeypatch)
    options = ["--by", "dataset", "--kind", "cheapest_set", *SEEDED, "--y-max", "0.5"]
    spec, _ = _spec(two_datasets_csv, [*options, "--cost-lines", "none", "--out", "-"], capsys)
    (kwargs,) = calls
    expected = cc.cheapest_set(pd.read_csv(two_datasets_csv), **kwargs)
    drawn = [row for rows in spec["datasets"].values() for row in rows if "costchart_from" in row]
    assert len(drawn) == len(expected)
    assert [r["classifier"] for r in drawn] == expected["classifier"].tolist()
    assert [r["cheapest"] for r in drawn] == expected["cheapest"].tolist()
    assert [p["title"]["text"] for p in spec["concat"]] == [
        f"dataset: {d}" for d in expected["dataset"].unique()
    ]
    assert _cost_tops(spec) == {0.5}


def test_cheapest_set_options_apply_where_they_should(two_datasets_csv, capsys):
    base = ["--score", "score", "--label", "label", "--by", "dataset"]
    for command in ("table", "plot"):
        argv = [command, str(two_datasets_csv), *base, "--kind", "cheapest_set"]
        error = _fails_with([*argv, "--classifier", "classifier"], capsys)
        assert f"{command} --kind cheapest_set compares classifiers" in error
        assert "pass --instance" in error
        error = _fails_with([*argv, "--instance", "instance"], capsys)
        assert "pass --classifier (the columns" in error
        error = _fails_with([*argv, *SET, "--bins", "5"], capsys)
        assert "--bins 5 applies to ROC points, bands and AUC" in error
    argv = ["table", str(two_datasets_csv), *base, "--kind", "envelope", "--instance", "i"]
    error = _fails_with(argv, capsys)
    assert "--instance i applies to --kind cheapest_set" in error
    argv = ["plot", str(two_datasets_csv), *base, "--kind", "cheapest_set", *SET, "--combined"]
    assert "--combined applies to plot --kind roc-cost or cost" in _fails_with(argv, capsys)
    argv = ["table", str(two_datasets_csv), *base, "--kind", "cheapest_set", *SET[:4]]
    error = _fails_with([*argv, "--instance", "classifier"], capsys)
    assert "classifier= and instance= both name column 'classifier'" not in error
    assert "--classifier and --instance both name column 'classifier'" in error


def test_cheapest_set_of_a_file_without_rows_is_refused_as_plot_refuses_it(tmp_path, capsys):
    path = tmp_path / "empty.csv"
    path.write_text("dataset,classifier,instance,score,label\n")
    base = ["--score", "score", "--label", "label", "--by", "dataset", "--kind", "cheapest_set"]
    for command in ("table", "plot"):
        error = _fails_with([command, str(path), *base, *SET], capsys)
        assert (
            error
            == "costchart: error: data has no rows; ROC analysis needs scored instances of both classes\n"
        )
