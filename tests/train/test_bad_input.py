"""Bad input to the ``plies train`` commands: one ``plies: error:`` line and exit 2 (no traceback, no numpy
warning, no internal error), and no output file lost, overwritten or left half-made."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from plies.cli import main
from plies.train.backends import engine_available

SMALL = ["--backend", "python", "--depth", "1", "--exact", "4", "--random-plies", "2-4"]


@pytest.fixture(scope="module")
def data(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("data") / "d1.jsonl"
    assert main(["train", "data", "--games", "1", "--out", str(path), *SMALL]) == 0
    return str(path)


@pytest.fixture(scope="module")
def hexdata(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("hex") / "h.npz"
    assert main(["train", "hexthello-data", "--games", "1", "--depth", "1", "--out", str(path)]) == 0
    return str(path)


@pytest.fixture
def garbage(tmp_path) -> str:
    path = tmp_path / "garbage.bin"
    path.write_bytes(bytes(range(128, 256)) * 16)  # not UTF-8, not an archive
    return str(path)


@pytest.fixture
def bad_record(tmp_path, data) -> str:
    """A data file with a good header and a malformed record on line 2."""
    path = tmp_path / "bad.jsonl"
    with open(data) as f:
        header = f.readline()
    path.write_text(header + '{"x": 1}\n')
    return str(path)


def _error(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    """Run a command that must fail on its input: exit 2 and one error line, which is returned."""
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("plies: error: "), err
    assert "internal error" not in err and "Warning" not in err and "allow_pickle" not in err
    return lines[0]


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "-1", "0"])
def test_fit_refuses_a_bad_l2(tmp_path, capsys, data, hexdata, value) -> None:
    out = tmp_path / "w.npz"
    assert "--l2" in _error(capsys, ["train", "fit", data, "--out", str(out), f"--l2={value}"])
    assert "--l2" in _error(capsys, ["train", "hexthello-fit", hexdata, "--out", str(out), f"--l2={value}"])
    assert not out.exists()


def test_fit_refuses_refit_or_tune_without_base_weights(tmp_path, capsys, data) -> None:
    out = tmp_path / "w.npz"
    assert "--refit needs --base" in _error(capsys, ["train", "fit", data, "--out", str(out), "--refit", "1"])
    assert "--tune needs --base" in _error(capsys, ["train", "fit", data, "--out", str(out), "--tune"])
    assert not out.exists()


@pytest.mark.parametrize("argv", [
    ["train", "data", "--games", "1", "--out", "{out}", "--epsilon", "nan", *SMALL],
    ["train", "fit", "{data}", "--out", "{out}", "--holdout", "nan"],
    ["train", "fit", "{data}", "--out", "{out}", "--seed", "-1"],
    ["train", "label", "{data}", "--out", "{out}", "--blend", "nan"],
    ["train", "hexthello-data", "--games", "1", "--out", "{out}", "--epsilon", "nan"],
    ["train", "hexthello-fit", "{hexdata}", "--out", "{out}", "--holdout", "nan"],
    ["train", "hexthello-fit", "{hexdata}", "--out", "{out}", "--seed", "-1"],
    ["train", "book", "--out", "{out}", "--width", "nan"],
    ["train", "book", "--out", "{out}", "--width", "-5"],
])
def test_bad_numbers_are_refused_by_the_option(tmp_path, capsys, data, hexdata, argv) -> None:
    out = tmp_path / "out"
    argv = [a.format(out=out, data=data, hexdata=hexdata) for a in argv]
    assert "Invalid value for" in _error(capsys, argv)
    assert not out.exists()


def test_small_positive_and_huge_l2_give_finite_weights(tmp_path, capsys, data, hexdata) -> None:
    for l2 in ("1e-300", "1e300"):
        out = tmp_path / f"w{l2}.npz"
        assert main(["train", "fit", data, "--out", str(out), "--phases", "2", "--l2", l2]) == 0
        assert np.isfinite(np.load(out)["weights"]).all()
        hout = tmp_path / f"h{l2}.npz"
        assert main(["train", "hexthello-fit", hexdata, "--out", str(hout), "--l2", l2, "--holdout", "0"]) == 0
        assert np.isfinite(np.load(hout)["weights"]).all()
    assert "Warning" not in capsys.readouterr().err


def test_all_zero_labels_fit_without_a_division_by_zero(tmp_path, capsys, data) -> None:
    lines = open(data).read().splitlines()
    rec = json.loads(lines[1])
    rec["positions"] = [[o, p, 0, k] for o, p, _, k in rec["positions"]]
    zero = tmp_path / "zero.jsonl"
    zero.write_text(lines[0] + "\n" + json.dumps(rec) + "\n")
    out = tmp_path / "w.npz"
    assert main(["train", "fit", str(zero), "--out", str(out), "--phases", "2", "--holdout", "0"]) == 0
    assert not np.load(out)["weights"].any()
    assert "Warning" not in capsys.readouterr().err


def test_hexthello_data_refuses_an_existing_output(tmp_path, capsys) -> None:
    out = tmp_path / "h.npz"
    out.write_bytes(b"precious")
    argv = ["train", "hexthello-data", "--games", "1", "--depth", "1", "--out", str(out)]
    assert "exists" in _error(capsys, argv)
    assert out.read_bytes() == b"precious"
    assert main([*argv, "--force"]) == 0
    assert np.load(out)["labels"].size


@pytest.mark.parametrize("command", ["fit", "hexthello-fit", "book"])
def test_fit_and_book_keep_an_existing_output_unless_forced(tmp_path, capsys, data, hexdata, command) -> None:
    out = tmp_path / "w.npz"
    out.write_bytes(b"precious")
    argv = {"fit": ["train", "fit", data, "--phases", "2"],
            "hexthello-fit": ["train", "hexthello-fit", hexdata, "--holdout", "0"],
            "book": ["train", "book", "--backend", "python", "--depth", "1", "--plies", "1"]}[command]
    argv = [*argv, "--out", str(out)]
    assert "--force" in _error(capsys, argv)
    assert out.read_bytes() == b"precious"
    assert main([*argv, "--force"]) == 0
    assert np.load(out).files


def test_hexthello_data_writes_exactly_the_named_file(tmp_path) -> None:
    out = tmp_path / "h.data"
    assert main(["train", "hexthello-data", "--games", "1", "--depth", "1", "--out", str(out)]) == 0
    assert sorted(os.listdir(tmp_path)) == ["h.data"]  # no h.data.npz, no temporary file left


def test_a_bad_setting_leaves_no_file_behind(tmp_path, capsys) -> None:
    out = tmp_path / "x.jsonl"
    base = ["train", "data", "--games", "1", "--out", str(out), *SMALL]
    assert "bogus" in _error(capsys, [*base, "--eval", "bogus"])
    assert not out.exists()
    assert main(base) == 0  # the corrected command is not refused


def test_a_run_that_fails_before_a_game_leaves_no_header_only_file(tmp_path, capsys, monkeypatch) -> None:
    from plies.game import PliesError
    from plies.train import data as train_data

    def fail(index: int) -> str:
        raise PliesError("the searcher broke")

    monkeypatch.setattr(train_data, "_work", fail)
    out = tmp_path / "x.jsonl"
    assert "the searcher broke" in _error(capsys, ["train", "data", "--games", "1", "--out", str(out), *SMALL])
    assert not out.exists()


def test_label_names_a_malformed_record(tmp_path, capsys, bad_record) -> None:
    out = tmp_path / "l.jsonl"
    line = _error(capsys, ["train", "label", bad_record, "--out", str(out)])
    assert "line 2" in line
    assert not out.exists()


def test_fit_names_a_malformed_record(tmp_path, capsys, bad_record, data) -> None:
    out = tmp_path / "w.npz"
    assert "line 2" in _error(capsys, ["train", "fit", bad_record, "--out", str(out)])
    lines = open(data).read().splitlines()
    rec = json.loads(lines[1])
    rec["positions"][0][0] = rec["positions"][0][1]  # own and opp overlap
    mid = tmp_path / "mid.jsonl"
    mid.write_text("\n".join([lines[0], lines[1], json.dumps(rec), lines[1]]) + "\n")
    assert "line 3" in _error(capsys, ["train", "fit", str(mid), "--out", str(out)])
    assert not out.exists()


def test_resume_refuses_a_malformed_record_instead_of_cutting_the_file(tmp_path, capsys, data) -> None:
    lines = open(data).read().splitlines()
    path = tmp_path / "d.jsonl"
    text = "\n".join([lines[0], "not json", lines[1]]) + "\n"
    path.write_text(text)
    argv = ["train", "data", "--games", "2", "--out", str(path), "--resume", *SMALL]
    assert "line 2" in _error(capsys, argv)
    assert path.read_text() == text


def test_binary_files_are_not_utf8_text(tmp_path, capsys, garbage, data) -> None:
    out = tmp_path / "o"
    assert "not a UTF-8 text file" in _error(capsys, ["train", "fit", garbage, "--out", str(out)])
    assert "not a UTF-8 text file" in _error(capsys, ["train", "label", garbage, "--out", str(out)])
    assert not out.exists()


@pytest.mark.parametrize("kind", ["garbage", "npy", "pickled", "no-weights", "data"])
def test_a_file_that_is_not_a_weights_file(tmp_path, capsys, garbage, data, kind) -> None:
    path = {"garbage": garbage, "data": data}.get(kind, str(tmp_path / "w.npz"))
    if kind == "npy":
        with open(path, "wb") as f:
            np.save(f, np.zeros(3))
    elif kind == "pickled":
        np.savez(path, weights=np.array([object()], dtype=object))
    elif kind == "no-weights":
        np.savez(path, other=np.zeros(3))
    line = _error(capsys, ["train", "compare", "--weights", path])
    assert f"{path} is not a weights file (" in line
    out = tmp_path / "l.jsonl"
    assert f"{path} is not a weights file (" in _error(capsys, ["train", "label", data, "--out", str(out),
                                                                "--weights", path])
    assert not out.exists()
    assert f"{path} is not a HexThello self-play file (" in _error(
        capsys, ["train", "hexthello-fit", path, "--out", str(tmp_path / "h.npz")])
    assert "is not a HexThello weights file (" in _error(
        capsys, ["train", "hexthello-data", "--games", "1", "--out", str(tmp_path / "h.npz"), "--eval", "learned",
                 "--weights", path])


def test_fit_refuses_to_write_over_its_input_or_into_a_missing_folder(tmp_path, capsys, data, hexdata) -> None:
    before = open(data, "rb").read()
    assert "input" in _error(capsys, ["train", "fit", data, "--out", data])
    assert open(data, "rb").read() == before
    assert "input" in _error(capsys, ["train", "hexthello-fit", hexdata, "--out", hexdata])
    assert "no folder" in _error(capsys, ["train", "fit", data, "--out", str(tmp_path / "no" / "w.npz")])


def test_book_width_zero_is_allowed(tmp_path) -> None:
    out = tmp_path / "b.npz"
    assert main(["train", "book", "--out", str(out), "--backend", "python", "--depth", "1", "--plies", "1",
                 "--width", "0"]) == 0
    assert out.exists()


@pytest.mark.skipif(not engine_available(), reason="needs the compiled engine")
def test_label_does_not_leave_a_header_only_file(tmp_path, capsys, data, monkeypatch) -> None:
    from plies.game import PliesError
    from plies.train import label

    def fail(line: str) -> str:
        raise PliesError("the searcher broke")

    monkeypatch.setattr(label, "_work", fail)
    out = tmp_path / "l.jsonl"
    assert "the searcher broke" in _error(capsys, ["train", "label", data, "--out", str(out), "--depth", "1"])
    assert not out.exists()


def test_progress_stays_off_stdout_outside_a_terminal(tmp_path, capsys) -> None:
    out = tmp_path / "x.jsonl"
    assert main(["train", "data", "-n", "1", "-o", str(out), "--eval", "nosuch"]) == 2
    assert capsys.readouterr().out == ""  # no bar drawn before the error, nothing but results on stdout
    assert main(["train", "book", "--out", str(tmp_path / "b.npz"), "--backend", "python", "--depth", "1",
                 "--plies", "1"]) == 0
    printed = capsys.readouterr().out
    assert "written to" in printed and "━" not in printed and "book" not in printed.split("written")[0]
