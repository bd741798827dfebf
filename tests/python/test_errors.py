"""The manaka error tree: each kind under the builtin a Python user catches."""

import pytest

import manaka
from manaka import shards, teacher


def test_the_tree():
    assert issubclass(manaka.UsageError, (manaka.Error, ValueError))
    assert issubclass(manaka.InvalidDataError, ValueError)
    assert issubclass(manaka.TruncatedError, manaka.InvalidDataError)
    assert issubclass(manaka.FileError, OSError)
    assert issubclass(manaka.EngineError, RuntimeError)
    assert not issubclass(manaka.EngineError, ValueError)
    assert not issubclass(manaka.Error, ValueError)


def test_a_caller_mistake_is_a_usage_error_not_bad_data(tmp_path):
    with pytest.raises(manaka.UsageError, match="temperature"):
        shards.pack([str(tmp_path / "x.mpk")], str(tmp_path / "s"), temperature=-1.0)
    corpus = tmp_path / "c.parquet"
    corpus.write_bytes(b"")
    out = tmp_path / "o.mpk"
    out.write_bytes(b"")
    with pytest.raises(manaka.UsageError, match="pass --overwrite"):
        teacher.convert([str(corpus)], out, eval_coef=600, mate_scale=32000)


def test_bad_data_and_missing_files_keep_their_kinds(tmp_path):
    bad = tmp_path / "bad.mpk"
    bad.write_bytes(b"NOPE" + bytes(20))
    with pytest.raises(manaka.InvalidDataError, match="bad magic"):
        manaka.stream.validate(str(bad))
    with pytest.raises(manaka.FileError):
        manaka.stream.validate(str(tmp_path / "missing.mpk"))
    with pytest.raises(manaka.EngineError):
        teacher.generate(tmp_path / "no-engine", tmp_path / "c.parquet", games=1, depth=1)
