"""The command says why the operating system refused (issue 11, item 7).

Before: an unreadable shard said "Failed to open local file", a pack that
ran out of room "Error writing bytes to file", and `manaka vpd sample` on a
directory "disk I/O error". The C++ tests (tests/cpp/shard/os_reason_test.cpp,
tests/cpp/fold/pack_os_test.cpp, tests/cpp/vpd/open_errors_test.cpp) cover
each open path; these check what the command prints.

The command is $MANAKA_BIN when set, else the `manaka` beside the Python.
"""

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from manaka import shards, shogi, stream
from test_shards import selfplay_stream as shared_selfplay_stream

MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))


def selfplay_stream(path, games=300):
    return shared_selfplay_stream(path, games=games, seed=3, plies=(10, 40))


def test_pack_beyond_the_file_size_limit_names_the_shard_and_the_reason(tmp_path):
    src = selfplay_stream(tmp_path / "sp.mpk")
    assert src.stat().st_size > 256 << 10

    def limit_file_size():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 10, resource.RLIM_INFINITY))

    prefix = tmp_path / "out" / "train"
    prefix.parent.mkdir()
    run = subprocess.run([MANAKA, "pack", str(src), "-o", str(prefix), "-q"], capture_output=True, text=True,
                         preexec_fn=limit_file_size, timeout=120)
    assert run.returncode == 1
    line = run.stderr.strip()
    assert line.startswith(f"manaka: {prefix}-00000.parquet.tmp-"), line
    assert line.endswith(": Error writing bytes to file: File too large"), line
    assert list(prefix.parent.iterdir()) == []


def test_vpd_sample_on_a_directory_says_so(tmp_path):
    run = subprocess.run([MANAKA, "vpd", "sample", str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert run.stderr.strip() == f"manaka: {tmp_path}: cannot open: Is a directory"


def test_unreadable_shard_says_permission_denied(tmp_path):
    src = selfplay_stream(tmp_path / "sp.mpk", games=5)
    shards.pack([str(src)], str(tmp_path / "s"), seed=1)
    shard = tmp_path / "s-00000.parquet"
    shard.chmod(0)
    command = [MANAKA, "shards", "inspect", str(shard)]
    if os.geteuid() == 0:
        # root reads a file of mode 000 through its capabilities: run the
        # command as root without them, so the file's mode applies.
        dropped = "-dac_override,-dac_read_search"
        command = ["setpriv", f"--bounding-set={dropped}", f"--inh-caps={dropped}", "--", *command]
    run = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert run.returncode == 1
    assert run.stderr.strip() == f"manaka: {shard}: cannot open for reading: Permission denied"
