// Shards written by `pack` as three independent readers see them: pyarrow,
// DuckDB and Polars each open them and check the schema, the row groups and
// the footer; pyarrow also re-derives every prob from the row alone.
#include <gtest/gtest.h>

#include "../fold/mpk_fixture.h"
#include "fold/pack.h"

namespace manaka::shard {
namespace {

namespace fs = std::filesystem;

// A Python list literal of the shard paths.
std::string py_list(const std::vector<std::string>& paths) {
  std::string out = "[";
  for (const auto& p : paths) out += "r'" + p + "', ";
  return out + "]";
}

struct Packed {
  fs::path dir;
  std::vector<std::string> shards;
  uint64_t records = 0, rows = 0;
};

Packed pack_stream(bool teacher, uint32_t records) {
  Packed out;
  out.dir = testing::scratch_dir();
  const std::string s = (out.dir / "in.mpk").string();
  auto h = teacher ? testing::teacher_header() : testing::selfplay_header();
  if (teacher) h.mate_slack = 0;  // the footer must say 320
  auto recs = testing::synthetic_records(records, teacher);
  if (teacher) {  // some mate leaders for the one-hot branch
    for (size_t i = 0; i < recs.size(); i += 50) recs[i].cands[0].cp = 31990;
  }
  testing::write_stream(s, h, recs);
  fold::PackOptions o;
  o.prefix = (out.dir / "shard").string();
  o.progress = false;
  o.temperature = 80;
  o.rows_per_shard = 12000;
  auto res = fold::pack({s}, o);
  EXPECT_TRUE(res.ok()) << res.status().message();
  if (res.ok()) {
    out.shards = res->shards;
    out.records = res->records_in;
    out.rows = res->rows_out;
  }
  return out;
}

TEST(Oracle, PyarrowSeesSchemaRowGroupsFooterAndProb) {
  for (bool teacher : {true, false}) {
    Packed p = pack_stream(teacher, 20000);
    ASSERT_EQ(p.shards.size(), (p.rows + 11999) / 12000);
    std::string code =
        "import math, pyarrow as pa, pyarrow.parquet as pq\n"
        "files = " + py_list(p.shards) + "\n"
        "teacher = " + (teacher ? "True" : "False") + "\n"
        "cand = pa.struct([pa.field('mv', pa.uint16(), False), pa.field('prob', pa.float32(), False),\n"
        "                  pa.field('cp', pa.int16(), True)])\n"
        "want = pa.schema([pa.field('packed', pa.binary(96), False), pa.field('ply', pa.uint16(), False),\n"
        "  pa.field('value_z', pa.float32(), False), pa.field('value_q', pa.float32(), False),\n"
        "  pa.field('weight', pa.uint32(), False),\n"
        "  pa.field('candidates', pa.list_(pa.field('element', cand, False)), False)])\n"
        "rows = weight = 0\n"
        "for f in files:\n"
        "    pf = pq.ParquetFile(f)\n"
        "    assert pf.schema_arrow.remove_metadata().equals(want), pf.schema_arrow\n"
        "    md = pf.metadata\n"
        "    sizes = [md.row_group(i).num_rows for i in range(md.num_row_groups)]\n"
        "    assert all(s == 8192 for s in sizes[:-1]) and 0 < sizes[-1] <= 8192, sizes\n"
        "    for i in range(md.num_row_groups):\n"
        "        for c in range(md.num_columns):\n"
        "            assert md.row_group(i).column(c).compression == 'ZSTD'\n"
        "    kv = {k.decode(): v.decode() for k, v in md.metadata.items() if k != b'ARROW:schema'}\n"
        "    if teacher:\n"
        "        assert kv['policy_source'] == '1' and kv['mate_scale'] == '32000', kv\n"
        "        assert kv['mate_slack'] == '320' and kv['temperature'] == '80', kv\n"
        "        assert kv['fv_scale'] == '16' and kv['eval_coef'] == '600' and kv['pov'] == '0', kv\n"
        "    else:\n"
        "        assert kv['policy_source'] == '0' and kv['mate_scale'] == '0', kv\n"
        "        assert kv['mate_slack'] == '0' and kv['temperature'] == '0', kv\n"
        "        assert kv['fv_scale'] == '0' and kv['eval_coef'] == '0', kv\n"
        "    assert kv['packed_len'] == '96' and kv['packed'].startswith('manaka shogi position'), kv\n"
        "    t = pf.read()\n"
        "    rows += t.num_rows\n"
        "    weight += sum(t.column('weight').to_pylist())\n"
        "    T = float(kv['temperature']); thr = int(kv['mate_scale']) - int(kv['mate_slack'])\n"
        "    onehots = 0\n"
        "    for cands in t.column('candidates').to_pylist():\n"
        "        probs = [c['prob'] for c in cands]\n"
        "        assert abs(sum(probs) - 1) < 1e-5, probs\n"
        "        if not teacher:\n"
        "            assert all(c['cp'] is None for c in cands)\n"
        "            continue\n"
        "        cps = [c['cp'] for c in cands]\n"
        "        lead = max(range(len(cps)), key=lambda i: (cps[i], -i))\n"
        "        if int(kv['mate_scale']) and abs(cps[lead]) >= thr:\n"
        "            want_p = [1.0 if i == lead else 0.0 for i in range(len(cps))]; onehots += 1\n"
        "        else:\n"
        "            e = [math.exp((c - cps[lead]) / T) for c in cps]\n"
        "            want_p = [x / sum(e) for x in e]\n"
        "        assert all(abs(a - b) < 1e-6 for a, b in zip(probs, want_p)), (cps, probs, want_p)\n"
        "    assert onehots > 0 or not teacher\n"
        "assert rows == " + std::to_string(p.rows) + ", rows\n"
        "assert weight == " + std::to_string(p.records) + ", weight\n";
    EXPECT_EQ(testing::run_python(p.dir, code), 0) << (teacher ? "teacher" : "self-play");
  }
}

TEST(Oracle, DuckdbSeesSchemaRowGroupsAndFooter) {
  Packed p = pack_stream(true, 20000);
  std::string code =
      "import duckdb\n"
      "files = " + py_list(p.shards) + "\n"
      "con = duckdb.connect()\n"
      "types = dict(con.execute(\"SELECT column_name, column_type FROM (DESCRIBE SELECT * FROM read_parquet($f))\", {'f': files}).fetchall())\n"
      "assert types['packed'] == 'BLOB', types\n"
      "assert types['ply'] == 'USMALLINT', types\n"
      "assert types['value_z'] == 'FLOAT' and types['value_q'] == 'FLOAT', types\n"
      "assert types['weight'] == 'UINTEGER', types\n"
      "assert types['candidates'] == 'STRUCT(mv USMALLINT, prob FLOAT, cp SMALLINT)[]', types\n"
      "n, w, width, nulls = con.execute(\"SELECT count(*), sum(weight), min(octet_length(packed)), \"\n"
      "  \"sum(len(list_filter(candidates, lambda c: c.cp IS NULL))) FROM read_parquet($f)\", {'f': files}).fetchone()\n"
      "assert n == " + std::to_string(p.rows) + " and w == " + std::to_string(p.records) + ", (n, w)\n"
      "assert width == 96 and nulls == 0, (width, nulls)\n"
      "groups = con.execute(\"SELECT file_name, row_group_id, any_value(row_group_num_rows), any_value(compression) \"\n"
      "  \"FROM parquet_metadata($f) GROUP BY ALL ORDER BY ALL\", {'f': files}).fetchall()\n"
      "assert all(g[3] == 'ZSTD' for g in groups), groups\n"
      "assert max(g[2] for g in groups) == 8192, groups\n"
      "kv = {(k.decode() if isinstance(k, bytes) else k): (v.decode() if isinstance(v, bytes) else v)\n"
      "      for k, v in con.execute(\"SELECT key, value FROM parquet_kv_metadata($f)\", {'f': files[0]}).fetchall()}\n"
      "assert kv['temperature'] == '80' and kv['mate_slack'] == '320' and kv['pov'] == '0', kv\n";
  EXPECT_EQ(testing::run_python(p.dir, code), 0);
}

TEST(Oracle, PolarsSeesSchemaAndFooter) {
  Packed p = pack_stream(false, 20000);
  std::string code =
      "import polars as pl\n"
      "files = " + py_list(p.shards) + "\n"
      "df = pl.read_parquet(files)\n"
      "s = df.schema\n"
      "assert s['packed'] == pl.Binary, s\n"
      "assert s['ply'] == pl.UInt16 and s['weight'] == pl.UInt32, s\n"
      "assert s['value_z'] == pl.Float32 and s['value_q'] == pl.Float32, s\n"
      "assert s['candidates'] == pl.List(pl.Struct({'mv': pl.UInt16, 'prob': pl.Float32, 'cp': pl.Int16})), s\n"
      "assert df.height == " + std::to_string(p.rows) + "\n"
      "assert df['weight'].sum() == " + std::to_string(p.records) + "\n"
      "c = df.select(pl.col('candidates').explode().struct.field('cp'))\n"
      "assert c.null_count().item() == c.height, 'self-play cp must be null'\n"
      "assert df['packed'].bin.size().min() == 96\n"
      "kv = pl.read_parquet_metadata(files[0])\n"
      "assert kv['policy_source'] == '0' and kv['temperature'] == '0', kv\n";
  EXPECT_EQ(testing::run_python(p.dir, code), 0);
}

}  // namespace
}  // namespace manaka::shard
