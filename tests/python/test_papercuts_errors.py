"""A newcomer's papercuts in the Python side's errors: a file that is not a checkpoint, one path given as a
string, a non-path to stream.Reader, and chess.iter_batches's arguments checked at the call."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

import manaka
from manaka import chess
from manaka import eval as meval
from manaka import stream

ROOT = Path(__file__).resolve().parents[2]
MPK = ROOT / "fuzz" / "seeds" / "stream_reader_fuzz" / "teacher.mpk"


# (a) A file that is not a checkpoint: manaka's error, never torch's advice to unpickle it.

@pytest.mark.parametrize("content", ["mpk", b"", b"hello\n", b"PK\x03\x04junk"])
def test_a_non_checkpoint_is_named_without_weights_only_advice(content: object, tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from manaka.train import checkpoint

    bad = tmp_path / "g.mpk"
    bad.write_bytes(MPK.read_bytes() if content == "mpk" else content)  # type: ignore[arg-type]
    with pytest.raises(manaka.InvalidDataError, match=f"{bad}: not a manaka checkpoint \\(") as e:
        checkpoint.load(bad)
    assert "weights_only" not in str(e.value) and "\n" not in str(e.value)
    for game in ("chess", "shogi"):
        assert meval.main(["--game", game, "--checkpoint", str(bad), "--num-games", "2"]) == 1
        err = capsys.readouterr().err
        assert f"{bad}: not a manaka checkpoint (" in err, err
        assert "weights_only" not in err and "arbitrary code" not in err, err


def test_a_torch_file_without_the_checkpoints_keys_is_not_one(tmp_path: Path) -> None:
    import torch

    from manaka.train import Trainer

    torch.save([1, 2], tmp_path / "list.pt")
    with pytest.raises(manaka.InvalidDataError, match="not a manaka checkpoint \\(a torch file of a list"):
        Trainer.load_from_checkpoint(tmp_path / "list.pt")
    torch.save({"a": torch.zeros(2)}, tmp_path / "dict.pt")
    with pytest.raises(manaka.InvalidDataError, match="not a manaka checkpoint \\(no best_net, config, iter"):
        Trainer.load_from_checkpoint(tmp_path / "dict.pt")


# (b) One path given as a str is one shard, not a list of its characters.

def test_iter_batches_takes_a_string_as_one_path(tmp_path: Path) -> None:
    missing = tmp_path / "cc"
    with pytest.raises(manaka.FileError, match=str(missing)):
        list(chess.iter_batches(str(missing), 8))
    shard = tmp_path / chess.shard_name(0)
    states = np.zeros((5, 20, 8, 8), np.int8)
    chess.write_shard(shard, states, np.arange(5, dtype=np.int32), np.zeros(5, np.int8))
    for one in (str(shard), shard):
        batches = list(chess.iter_batches(one, 8, shuffle=False))
        assert [len(b[1]) for b in batches] == [5] and batches[0][1].tolist() == [0, 1, 2, 3, 4]
    with pytest.raises(TypeError, match=r"shards\[1\]: must be a str or os.PathLike, not NoneType"):
        chess.iter_batches([shard, None], 8)  # type: ignore[list-item]


# (c) stream.Reader(None) opens no file named None.

def test_stream_reader_refuses_a_non_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "None").write_bytes(MPK.read_bytes())  # were None taken as "None", this would be read
    for bad in (None, 3, b"None"):
        with pytest.raises(TypeError, match="path: must be a str or os.PathLike, not"):
            stream.Reader(bad)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="path: must be a str or os.PathLike"):
            stream.read_batches(bad)  # type: ignore[arg-type]  # at the call, not at the first batch
        with pytest.raises(TypeError, match="path: must be a str or os.PathLike"):
            stream.inspect(bad)  # type: ignore[arg-type]
    with stream.Reader(Path("None")) as r:  # a path is still one
        assert r.header is not None
    assert os.path.exists("None")


# (d) readers and window out of range: manaka.UsageError naming the argument and the range, at the call.

def test_iter_batches_checks_readers_and_window_at_the_call(tmp_path: Path) -> None:
    paths = [tmp_path / "a.npz"]  # never read: the checks come first
    with pytest.raises(manaka.UsageError, match=r"readers: 1000000 is out of range; give an integer in 1\.\.256"):
        chess.iter_batches(paths, 8, readers=10**6)
    with pytest.raises(manaka.UsageError, match="readers: 0 is out of range"):
        chess.iter_batches(paths, 8, readers=0)
    with pytest.raises(manaka.UsageError, match="window: -1 is out of range; give an integer of at least 1"):
        chess.iter_batches(paths, 8, window=-1)
    with pytest.raises(manaka.UsageError, match=r"window: 4294967296 is out of range; give an integer in 1\.\."):
        chess.iter_batches(paths, 8, window=2**32)
    with pytest.raises(manaka.UsageError, match="prefetch: 0 is out of range"):
        chess.iter_batches(paths, 8, prefetch=0)
    with pytest.raises(manaka.UsageError, match="batch_size: 0 is out of range"):
        chess.iter_batches(paths, 0)
    with pytest.raises(TypeError, match="window: must be an int, not str"):
        chess.iter_batches(paths, 8, window="2")  # type: ignore[arg-type]


# (e) seed=-1: refused as manaka.shards.iter_batches refuses it.

def test_iter_batches_refuses_a_negative_seed(tmp_path: Path) -> None:
    from manaka._core._checks import seed as check_seed

    paths = [tmp_path / "a.npz"]
    with pytest.raises(manaka.UsageError) as shards_way:
        check_seed(-1)  # what manaka.shards.iter_batches checks its seed with
    for device in (None, "cpu"):
        with pytest.raises(manaka.UsageError, match="seed: -1 is not a seed") as e:
            chess.iter_batches(paths, 8, device, seed=-1)
        assert str(e.value) == str(shards_way.value)
    with pytest.raises(manaka.UsageError, match="seed: 18446744073709551616 is not a seed"):
        chess.iter_batches(paths, 8, seed=2**64)
