"""The docs stand on their own, and docs/shards.md says what a shard holds.

Every Markdown page the repository ships is read by someone who has only the
repository: it may not point at files outside it (the requirement documents
under shared/spec are not shipped) nor link to a file that is not there. And
the shard format page's tables are checked against a shard `manaka pack`
writes: the columns in order, with their types and nullability, the
candidate struct's fields, and every footer key.
"""

import os
import re
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from manaka import shogi, stream

ROOT = Path(__file__).resolve().parents[2]
MANAKA = os.environ.get("MANAKA_BIN") or str(Path(sys.executable).with_name("manaka"))
SHARDS_MD = ROOT / "docs" / "shards.md"

LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# A page named by its path from the repository root, as the docs write them
# (`docs/mpk1.md`, src/fold/README.md).
PAGE = re.compile(r"(?<![\w./-])((?:docs|src|models|tests|bench|scripts)/[\w./-]*\.md)\b")
FENCE = re.compile(r"^\s*(```|~~~)")
# The design documents and the tracker are not shipped either: "the spec's 3", "issue 13's".
UNSHIPPED = re.compile(r"(?i)\b(?:the|its|a) spec\b|\bspec's\b|\bissues? \d+")


def markdown_files():
    """The Markdown files git tracks, and new ones not yet added (not ignored)."""
    try:
        out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "--cached", "--others", "--exclude-standard",
                              "-z", "--", "*.md"], capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("not a git checkout")
    paths = sorted({ROOT / p for p in out.decode().split("\0") if p})
    return [p for p in paths if p.is_file()]


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield n, line


def dangling(md_path, text):
    """What in one page points outside the repository or at a missing file."""
    problems = []
    for n, line in enumerate(text.splitlines(), 1):
        if "shared/spec" in line:
            problems.append(f"{n}: cites shared/spec, which the repository does not ship")
    for n, line in prose_lines(text):
        cited = UNSHIPPED.search(line)
        if cited and "shared/spec" not in line:
            problems.append(f"{n}: cites {cited.group(0)!r}, which a reader does not have")
        for target in LINK.findall(line):
            if re.match(r"(?i)(https?:|mailto:|#)", target):
                continue
            path = target.split("#", 1)[0].split("?", 1)[0]
            resolved = (md_path.parent / path).resolve()
            if ROOT not in resolved.parents and resolved != ROOT:
                problems.append(f"{n}: link {target} leaves the repository")
            elif not resolved.exists():
                problems.append(f"{n}: link {target} names no file")
        for page in PAGE.findall(line):
            if not (ROOT / page).is_file():
                problems.append(f"{n}: names {page}, which does not exist")
    return problems


def test_markdown_pages_cite_nothing_outside_the_repository():
    files = markdown_files()
    assert SHARDS_MD in files and ROOT / "README.md" in files
    problems = [f"{p.relative_to(ROOT)}:{line}" for p in files for line in dangling(p, p.read_text(encoding="utf-8"))]
    assert not problems, "\n".join(problems)


def test_the_check_catches_a_dangling_citation():
    page = ROOT / "docs" / "example.md"
    text = ("Spec: `shared/spec/mpk1-training-data-formats.txt`.\n"
            "See [the layout](mpk1.md#layout), [a figure](report.png), [a missing page](nowhere.md),\n"
            "[outside](../../elsewhere.md), [web](https://example.org/x.md), [here](#top), `docs/gone.md`.\n"
            "```\n[in code](not-checked.md)\n```\n"
            "The default is the spec's 3 (issue 13).\n")
    problems = dangling(page, text)
    assert [p.split(":")[0] for p in problems] == ["1", "2", "3", "3", "7"]
    assert "nowhere.md" in problems[1] and "leaves the repository" in problems[2] and "docs/gone.md" in problems[3]


def cells(row):
    """A table row's cells, `\\|` inside a cell kept."""
    return [c.strip() for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))]


def tables(section):
    """The tables of one `## section` of docs/shards.md, each a list of rows (cells), header and rule dropped."""
    found, current, inside = [], None, False
    for line in SHARDS_MD.read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            inside = line[3:].strip() == section
        if line.startswith("#"):
            current = None
            continue
        if inside and line.startswith("|"):
            if current is None:
                current = []
                found.append(current)
            current.append(cells(line))
        else:
            current = None
    assert found, f"docs/shards.md has no table under '## {section}'"
    return [[row for row in t[2:] if row[0].startswith("`")] for t in found]


def name(cell):
    return cell.split("`")[1]


def pack(tmp_path, kind):
    start = shogi.Board().pack()
    m = [shogi.move16_from_usi(u) for u in ("7g7f", "2g2f", "5i6h")]
    src = tmp_path / f"{kind}.mpk"
    if kind == "teacher":
        h = stream.Header()
        h.policy_source, h.eval_coef, h.mate_scale = 1, 600.0, 32000
        with stream.Writer(str(src), h) as w:
            w.write(start, 0, 1.0, 0.10, m[:2], cp=[40, 30])
            w.write(start, 4, -1.0, 0.05, [m[0], m[2]], cp=[45, -20])
    else:
        with stream.SelfPlayWriter(str(src)) as w:
            w.begin_game()
            w.add_position(start, 0, 0.2, m, [30, 50, 20])
            w.end_game(0)
    run = subprocess.run([MANAKA, "pack", str(src), "-o", str(tmp_path / kind / "s"), "-q"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    (path,) = sorted((tmp_path / kind).glob("s-*.parquet"))
    return path


@pytest.mark.parametrize("kind", ["teacher", "selfplay"])
def test_the_shard_page_lists_the_columns_and_footer_keys_a_shard_has(tmp_path, kind):
    path = pack(tmp_path, kind)
    schema = pq.read_schema(path)
    columns, struct = tables("Columns")
    assert [name(r[0]) for r in columns] == schema.names
    for row in columns:
        field = schema.field(name(row[0]))
        assert row[2].startswith("no") == (not field.nullable), row[0]
        if not pa.types.is_list(field.type):
            assert row[1] == f"`{field.type}`", row[0]
    element = schema.field("candidates").type.value_type
    assert [name(r[0]) for r in struct] == [f.name for f in element]
    for row in struct:
        field = element.field(name(row[0]))
        assert row[1] == f"`{field.type}`" and row[2] == ("yes" if field.nullable else "no"), row[0]

    (footer,) = tables("Footer")
    keys = {k.decode() for k in pq.read_metadata(path).metadata} - {"ARROW:schema"}
    documented = [name(r[0]) for r in footer]
    assert len(documented) == len(set(documented))
    assert set(documented) == keys, f"undocumented: {keys - set(documented)}, not written: {set(documented) - keys}"
