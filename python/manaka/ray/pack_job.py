"""``manaka pack --buckets K`` as Ray tasks: ``python -m manaka.ray pack ...``.

    python -m manaka.ray pack STREAM... -o PREFIX --buckets K [--seed S]
        [--rows-per-shard N] [--temperature T] [--work-dir DIR]
        [--address auto|local|HOST:PORT (default: RAY_ADDRESS, else local)] [--overwrite]

``pack`` is ``manaka pack --buckets K`` cut into three rounds of tasks
(src/fold/pack_parts.h), and writes the same shards byte for byte:

  map    one task per input stream: its records into K bucket parts by board hash;
  fold   one task per bucket: fold its parts, scatter the rows over K second-set parts;
  write  one task per shard: its second-set spools (their parts back to back),
         permuted, written as that shard of the set.

Every task reads and writes files under the work directory (``--work-dir``,
default ``<PREFIX>.ray-work/``), which every node must see (a shared filesystem); Ray's object store carries only paths
and counts. A task's output is trusted only once whole: a map or fold task
writes into a directory of its own and renames it onto ``map/m-NNNN`` or
``fold/f-NNNN`` as its last step (``done.json`` inside holds its result);
a write task's shard is renamed into ``shards/s-NNNNN/`` by the shard writer
once complete. A task that dies (Ray retries it) leaves only temporaries.
A job restarted on the same output with the same arguments (``job.json``)
skips every task whose output is there. The set reaches ``PREFIX-NNNNN.parquet``
only when every shard is written: the driver renames them and removes the
work directory.

PREFIX may be a URI pyarrow opens (s3://, gs://, hdfs://, file://): the
work directory is then ``--work-dir`` (a path every node sees) and the
finished shards are uploaded under temporary names, then moved onto their
names (storage.py says what "complete or absent" means on an object store).
"""

from __future__ import annotations

import argparse
import os
import shutil
import time
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

import ray

from manaka._core import shards as _native
from manaka.ray import storage
from manaka.ray.tasks import attempt_path, fault, open_work, publish_dir, read_done, run_round

__all__ = ["pack", "RayPackSummary", "add_parser", "run"]

DEFAULT_TEMPERATURE = 100.0
DEFAULT_ROWS_PER_SHARD = 1 << 20


@dataclass
class RayPackSummary:
    records_in: int = 0
    rows_out: int = 0
    shards: List[str] = field(default_factory=list)
    tasks: Dict[str, int] = field(default_factory=dict)    # tasks run, per round
    skipped: Dict[str, int] = field(default_factory=dict)  # tasks whose output was already there
    seconds: float = 0.0


@ray.remote(num_cpus=1, max_retries=3, retry_exceptions=True)
def _map_task(streams: List[str], index: int, work: str, buckets: int) -> Dict[str, int]:
    final = os.path.join(work, "map", f"m-{index:04d}")
    tmp = attempt_path(final)
    result = _native.pack_map(streams, index, tmp, buckets)
    return publish_dir(tmp, final, dict(result))


@ray.remote(num_cpus=1, max_retries=3, retry_exceptions=True)
def _fold_task(streams: List[str], bucket: int, work: str, buckets: int, seed: int,
               temperature: float) -> List[int]:
    parts = [os.path.join(work, "map", f"m-{m:04d}", f"spool-a-{bucket:04d}.mpk") for m in range(len(streams))]
    final = os.path.join(work, "fold", f"f-{bucket:04d}")
    tmp = attempt_path(final)
    rows = _native.pack_fold(streams, parts, bucket, tmp, temperature=temperature, seed=seed, buckets=buckets)
    return list(publish_dir(tmp, final, list(rows)))


@ray.remote(num_cpus=1, max_retries=3, retry_exceptions=True)
def _write_task(streams: List[str], work: str, plan: Dict[str, Any], shard: int, buckets: int, seed: int,
                temperature: float, rows_per_shard: int, fault_shard: Optional[int],
                fault_marker: Optional[str]) -> Dict[str, Any]:
    fault(shard, fault_shard, fault_marker)
    parts = [[os.path.join(work, "fold", f"f-{i:04d}", f"spool-b-{j:04d}.rows") for i in range(buckets)]
             for j in range(buckets)]
    prefix = os.path.join(work, "shards", f"s-{shard:05d}", "part")
    return dict(_native.pack_write(streams, parts, plan["records"], plan["fingerprint"], plan["spool_rows"],
                                   shard, shard + 1, prefix, temperature=temperature, seed=seed,
                                   rows_per_shard=rows_per_shard, buckets=buckets, threads=1))


def _staged_shard(work: str, shard: int) -> str:
    return os.path.join(work, "shards", f"s-{shard:05d}", f"part-{shard:05d}.parquet")


def _final_shard(prefix: str, shard: int) -> str:
    return f"{prefix}-{shard:05d}.parquet"


def _existing_shards(dest: storage.Destination, temporaries: bool = False) -> List[str]:
    """PREFIX-NNNNN.parquet on the destination; with temporaries, on a remote
    one, also the PREFIX-NNNNN.parquet.tmp-* a stopped upload left."""
    base = dest.name() + "-"
    out = []
    for name in storage.list_names(dest, dest.parent()):
        if not name.startswith(base):
            continue
        stem, tmp, _ = name[len(base):].partition(".tmp-")
        if tmp and (dest.local or not temporaries):
            continue
        if stem.endswith(".parquet") and stem[:-len(".parquet")].isdigit():
            out.append(dest.sibling(name))
    return sorted(out)


def _shard_index(dest: storage.Destination, path: str) -> int:
    return int(path.rpartition("/")[2][len(dest.name()) + 1:].split(".")[0])


def pack(streams: Sequence[str], prefix: str, *, buckets: int, seed: int = 0,
         rows_per_shard: int = DEFAULT_ROWS_PER_SHARD, temperature: float = DEFAULT_TEMPERATURE,
         overwrite: bool = False, progress: bool = False, work_dir: Optional[str] = None,
         filesystem: Any = None, fault_shard: Optional[int] = None,
         fault_marker: Optional[str] = None) -> RayPackSummary:
    """`manaka pack --buckets` on the Ray cluster this process is connected to
    (ray.init first); the same shards as the one-machine command.

    prefix is a local path or a URI (storage.py; or a path on ``filesystem``,
    a pyarrow filesystem); work_dir, the tasks' files on a path every node
    sees, defaults to PREFIX.ray-work for a local prefix and is required
    for a URI.

    fault_shard and fault_marker are for tests: shard fault_shard's write task
    kills its worker once (creating fault_marker), or, with no marker, fails
    on every attempt (the job fails and leaves its work for a restart)."""
    start = time.monotonic()
    streams = [os.path.abspath(s) for s in streams]
    dest = storage.resolve(prefix, filesystem)
    if not 1 <= buckets <= 4096:
        raise ValueError(f"buckets must be 1..4096, not {buckets}")
    work = storage.work_dir_for(dest, work_dir, ".ray-work")
    job = {"streams": [[s, os.path.getsize(s), os.stat(s).st_mtime_ns] for s in streams], "buckets": buckets,
           "seed": seed, "rows_per_shard": rows_per_shard, "temperature": temperature}

    def refuse_existing() -> None:
        existing = _existing_shards(dest)
        if existing and not overwrite:
            raise FileExistsError(f"{prefix}: a shard set exists ({existing[0]}); pass overwrite=True to replace it")

    open_work(work, job, ("map", "fold", "shards"), refuse_existing)

    summary = RayPackSummary()

    def run(name: str, done: List[Optional[Any]], submit: Any, count: Any, unit: str) -> List[Any]:
        todo = [i for i, d in enumerate(done) if d is None]
        summary.tasks[name] = len(todo)
        summary.skipped[name] = len(done) - len(todo)
        results = run_round("pack", name, [submit(i) for i in todo], progress, count, unit)
        out = list(done)
        for i, r in zip(todo, results):
            out[i] = r
        return out

    maps = run("map", [read_done(os.path.join(work, "map", f"m-{m:04d}")) for m in range(len(streams))],
               lambda m: _map_task.remote(streams, m, work, buckets), lambda r: int(r["records"]), "records")
    folds = run("fold", [read_done(os.path.join(work, "fold", f"f-{i:04d}")) for i in range(buckets)],
                lambda i: _fold_task.remote(streams, i, work, buckets, seed, temperature), sum, "rows")
    spool_rows = [sum(f[j] for f in folds) for j in range(buckets)]
    rows = sum(spool_rows)
    plan = {"records": sum(m["records"] for m in maps),
            "fingerprint": sum(m["fingerprint"] for m in maps) % (1 << 64),
            "spool_rows": spool_rows}
    count = max(1, -(-rows // rows_per_shard))
    staged = [_staged_shard(work, k) for k in range(count)]
    plan_ref = ray.put(plan)
    run("write", [True if os.path.exists(s) else None for s in staged],
        lambda k: _write_task.remote(streams, work, plan_ref, k, buckets, seed, temperature, rows_per_shard,
                                      fault_shard, fault_marker),
        lambda r: int(r["rows_out"]), "rows")

    # Every shard is whole: the set goes into place (storage.py: renamed, or
    # uploaded whole before any is moved onto its name), then the earlier
    # set's extra shards and any stopped upload's temporaries go.
    finals = [_final_shard(dest.path, k) for k in range(count)]
    storage.publish_files(dest, [(s, f) for s, f in zip(staged, finals) if os.path.exists(s)])
    storage.remove_files(dest, [p for p in _existing_shards(dest, temporaries=True)
                                if _shard_index(dest, p) >= count or ".tmp-" in p.rpartition("/")[2]])
    shutil.rmtree(work, ignore_errors=True)
    summary.records_in = plan["records"]
    summary.rows_out = rows
    summary.shards = [_final_shard(dest.path if dest.local else prefix, k) for k in range(count)]
    summary.seconds = time.monotonic() - start
    return summary


def add_parser(sub: Any) -> argparse.ArgumentParser:
    p = sub.add_parser("pack", help="manaka pack --buckets K as Ray tasks (the same shards, byte for byte)")
    p.add_argument("streams", nargs="+", metavar="STREAM")
    p.add_argument("-o", "--output", required=True, metavar="PREFIX")
    p.add_argument("--buckets", type=int, required=True)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--rows-per-shard", type=int, default=DEFAULT_ROWS_PER_SHARD)
    p.add_argument("--temperature", type=float, default=DEFAULT_TEMPERATURE)
    p.add_argument("--overwrite", action="store_true")
    return p


def run(args: argparse.Namespace) -> int:
    s = pack(args.streams, args.output, buckets=args.buckets, seed=args.seed, rows_per_shard=args.rows_per_shard,
             temperature=args.temperature, overwrite=args.overwrite, progress=True, work_dir=args.work_dir)
    skipped = sum(s.skipped.values())
    print(f"{s.records_in} records in, {s.rows_out} rows out, {len(s.shards)} shards, {s.seconds:.2f} s"
          + (f" ({skipped} tasks already done)" if skipped else ""))
    return 0
