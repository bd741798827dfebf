"""Where a Ray job's final output goes: a local path, or any URI that
``pyarrow.fs.FileSystem.from_uri`` opens (``s3://``, ``gs://``, ``hdfs://``,
``file://``), or a path on a pyarrow filesystem given as an object.

Tasks and the driver write on a local or shared path as before (the work
directory); only the finished output travels, from the driver:

  1. every file is uploaded under a temporary name (``NAME.tmp-<token>``);
  2. once the whole set is uploaded, each is moved onto its final name;
  3. then the earlier output's files that the new set does not have go.

"Complete or absent" on a local path (or ``file://``) is a rename, atomic
file by file. On an object store a move is a copy and a delete, so
step 2 is not atomic as a set: every object under a final name is whole (a
put is all or nothing), but while the moves run a listing may show the new
set's first names beside the earlier set's. A reader waits for the job to
return (or for the set's own count: every pack shard's footer names the
set's shard count); a job stopped inside step 2 is simply run again, and
its moves are redone from the staged files. Temporaries of a killed job
(``*.tmp-*``) are never read as output; step 3 removes the ones it finds.
"""

from __future__ import annotations

import os
import shutil
import uuid
from dataclasses import dataclass
from typing import Any, List, Optional, Sequence, Tuple

__all__ = ["Destination", "resolve", "work_dir_for", "exists", "list_names", "publish_files", "publish_tree",
           "remove_files"]

_COPY_BLOCK = 8 << 20


@dataclass(frozen=True)
class Destination:
    """An output's place: ``fs`` None for a local path (``path`` absolute),
    else a pyarrow filesystem and the path on it; ``given`` as the caller wrote it."""

    fs: Any
    path: str
    given: str

    @property
    def local(self) -> bool:
        return self.fs is None

    def join(self, *names: str) -> str:
        return os.path.join(self.path, *names) if self.local else "/".join([self.path.rstrip("/"), *names])

    def sibling(self, name: str) -> str:
        """The path of name beside this one (a prefix's file)."""
        return os.path.join(self.parent(), name) if self.local else f"{self.parent()}/{name}"

    def parent(self) -> str:
        return os.path.dirname(self.path) if self.local else self.path.rstrip("/").rpartition("/")[0]

    def name(self) -> str:
        return os.path.basename(self.path) if self.local else self.path.rstrip("/").rpartition("/")[2]


def is_uri(target: str) -> bool:
    scheme, sep, _ = target.partition("://")
    return bool(sep) and scheme.isalnum()


def resolve(target: str, filesystem: Any = None) -> Destination:
    """A destination: a plain path stays local; a URI is opened with
    pyarrow.fs.FileSystem.from_uri; with ``filesystem``, target is a path on it."""
    if filesystem is not None:
        return Destination(filesystem, target, target)
    if not is_uri(target):
        return Destination(None, os.path.abspath(target), target)
    import pyarrow.fs as pafs

    fs, path = pafs.FileSystem.from_uri(target)
    return Destination(fs, path, target)


def work_dir_for(dest: Destination, work_dir: Optional[str], suffix: str) -> str:
    """The job's work directory: ``work_dir``, else the output's local path + suffix.
    It must be a path every node sees; a URI output has no such default."""
    if work_dir is not None:
        if is_uri(work_dir):
            raise ValueError(f"--work-dir {work_dir}: must be a path every node mounts, not a URI")
        return os.path.abspath(work_dir)
    if not dest.local:
        raise ValueError(f"{dest.given}: an output that is a URI needs --work-dir (a path every node sees)")
    return dest.path + suffix


def exists(dest: Destination, path: Optional[str] = None) -> bool:
    path = dest.path if path is None else path
    if dest.local:
        return os.path.exists(path)
    import pyarrow.fs as pafs

    info = dest.fs.get_file_info(path)
    if info.type != pafs.FileType.NotFound:
        return True
    # An object store has no directories: a prefix with objects under it is one.
    return info.type == pafs.FileType.NotFound and bool(list_names(dest, path))


def list_names(dest: Destination, directory: str) -> List[str]:
    """The names directly in directory ([] when there is none)."""
    if dest.local:
        try:
            return sorted(os.listdir(directory))
        except (FileNotFoundError, NotADirectoryError):
            return []
    import pyarrow.fs as pafs

    try:
        infos = dest.fs.get_file_info(pafs.FileSelector(directory, allow_not_found=True))
    except (FileNotFoundError, NotADirectoryError):
        return []
    return sorted(i.base_name for i in infos)


def _upload(dest: Destination, source: str, target: str) -> None:
    with open(source, "rb") as f, dest.fs.open_output_stream(target) as out:
        shutil.copyfileobj(f, out, _COPY_BLOCK)


def publish_files(dest: Destination, pairs: Sequence[Tuple[str, str]]) -> None:
    """Puts each local file (source, final path on dest) under its final name,
    none before every one is uploaded. Local: renames (the sources go)."""
    if dest.local:
        for source, final in pairs:
            os.replace(source, final)
        return
    token = uuid.uuid4().hex
    staged = []
    parents = sorted({final.rstrip("/").rpartition("/")[0] for _, final in pairs})
    for parent in parents:
        if parent:
            dest.fs.create_dir(parent, recursive=True)
    try:
        for source, final in pairs:
            tmp = f"{final}.tmp-{token}"
            staged.append((tmp, final))
            _upload(dest, source, tmp)
    except BaseException:
        for tmp, _ in staged:  # this upload's temporaries; nothing was under a final name
            try:
                dest.fs.delete_file(tmp)
            except OSError:
                pass
        raise
    for tmp, final in staged:
        dest.fs.move(tmp, final)


def publish_tree(local_dir: str, dest: Destination, overwrite: bool = False) -> List[str]:
    """The files under local_dir (a finished output directory) under dest.path,
    the same relative names; an earlier output's other files there are removed
    after. Returns the final paths."""
    pairs = []
    for root, _, files in os.walk(local_dir):
        for name in sorted(files):
            source = os.path.join(root, name)
            rel = os.path.relpath(source, local_dir).replace(os.sep, "/")
            pairs.append((source, dest.join(*rel.split("/"))))
    if not overwrite and exists(dest):
        raise FileExistsError(f"{dest.given}: exists; pass overwrite to replace it")
    if dest.local:
        raise ValueError("publish_tree: a local output is renamed into place by its writer")
    before = _files_under(dest, dest.path)
    publish_files(dest, pairs)
    finals = {final for _, final in pairs}
    remove_files(dest, [p for p in before if p not in finals])
    return sorted(finals)


def _files_under(dest: Destination, directory: str) -> List[str]:
    import pyarrow.fs as pafs

    try:
        infos = dest.fs.get_file_info(pafs.FileSelector(directory, recursive=True, allow_not_found=True))
    except (FileNotFoundError, NotADirectoryError):
        return []
    return [i.path for i in infos if i.type == pafs.FileType.File]


def remove_files(dest: Destination, paths: Sequence[str]) -> None:
    for path in paths:
        if dest.local:
            os.remove(path)
        else:
            dest.fs.delete_file(path)
