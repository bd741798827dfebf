"""One ShardFile shared by several Python threads (issue 11, item 8).

Before the fix, parquet's per-file read cache was shared between concurrent
read_row_group calls: a read raised a spurious InvalidDataError ("ReadRangeCache
did not find matching cache entry") or crashed the process. The hammering
runs in a child process so that a crash fails this test rather than pytest.
"""

import random
import subprocess
import sys
import textwrap

import pyarrow.parquet as pq

from manaka import shards, shogi, stream
from test_shards import selfplay_stream

THREADS = 8
READS_PER_THREAD = 3000
ROW_GROUP_ROWS = 16


HAMMER = textwrap.dedent("""
    import random, sys, threading
    from manaka import shards

    path, threads, reads = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    f = shards.ShardFile(path)
    groups = f.num_row_groups
    columns = ("packed", "ply", "value_z", "value_q", "weight", "cand_offsets", "mv", "prob", "cp")

    def key(batch):
        return tuple(getattr(batch, c).tobytes() for c in columns)

    expected = [key(f.read_row_group(g)) for g in range(groups)]
    failures = []
    start = threading.Barrier(threads)

    def work(seed):
        rng = random.Random(seed)
        start.wait()
        for _ in range(reads):
            g = rng.randrange(groups)
            try:
                got = key(f.read_row_group(g))
            except Exception as e:
                failures.append(f"group {g}: {type(e).__name__}: {e}")
                continue
            if got != expected[g]:
                failures.append(f"group {g}: columns differ from the single-threaded read")

    workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    print(f"groups {groups} reads {threads * reads} failures {len(failures)}")
    for message in sorted(set(failures))[:5]:
        print(message)
    sys.exit(1 if failures else 0)
""")


def test_threads_sharing_a_shard_file_read_what_one_thread_reads(tmp_path):
    src = selfplay_stream(tmp_path / "sp.mpk", games=80)
    shards.pack([str(src)], str(tmp_path / "s"), seed=1)
    # Many small row groups (the reader takes shards written by other tools
    # too): more reads in flight at once on the same file.
    table = pq.read_table(tmp_path / "s-00000.parquet")
    path = tmp_path / "many.parquet"
    pq.write_table(table, path, row_group_size=ROW_GROUP_ROWS)
    assert shards.ShardFile(path).num_row_groups > 50

    run = subprocess.run([sys.executable, "-c", HAMMER, str(path), str(THREADS), str(READS_PER_THREAD)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, f"exit status {run.returncode}\n{run.stdout}\n{run.stderr[-2000:]}"
    assert f"reads {THREADS * READS_PER_THREAD} failures 0" in run.stdout
