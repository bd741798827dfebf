#include "training/shogi_batch.h"

#include <algorithm>
#include <cstring>
#include <span>

#include "shogi/encode.h"
#include "shogi/move_index.h"
#include "shogi/pack.h"

namespace manaka::training {

void ShogiBatch::reset(int64_t n) {
  rows = n;
  planes.resize(size_t(n) * shogi::PLANES_SIZE);
  policy.assign(size_t(n) * shogi::POLICY_SIZE, 0.0f);
  value.resize(size_t(n));
  weight.resize(size_t(n));
}

void ShogiBatch::truncate(int64_t n) {
  rows = n;
  planes.resize(size_t(n) * shogi::PLANES_SIZE);
  policy.resize(size_t(n) * shogi::POLICY_SIZE);
  value.resize(size_t(n));
  weight.resize(size_t(n));
}

shard::ShardColumns shogi_batch_columns() {
  shard::ShardColumns c;
  c.ply = false;
  return c;
}

Status encode_rows(const shard::ShardBatch& in, int64_t first, int64_t count, const TargetOptions& options,
                   ShogiBatch& out, int64_t at, const std::string& where) {
  const float w = options.value_q_weight;
  for (int64_t i = first; i < first + count; ++i, ++at) {
    const std::span<const uint8_t, shogi::PACKED_LEN> packed(&in.packed[size_t(i) * shogi::PACKED_LEN],
                                                            shogi::PACKED_LEN);
    auto refuse = [&](const std::string& why) {
      return Status::invalid(where + ", row " + std::to_string(i) + ": " + why);
    };
    if (!shogi::packed_is_valid(packed))
      return refuse("packed is not a position (" + shogi::unpack(packed).status().message() + ")");
    shogi::encode_packed(packed, &out.planes[size_t(at) * shogi::PLANES_SIZE]);
    const shogi::Color us = packed[shogi::PACKED_SIDE] == shogi::WHITE ? shogi::WHITE : shogi::BLACK;
    float* policy = &out.policy[size_t(at) * shogi::POLICY_SIZE];
    for (int64_t k = in.cand_offsets[size_t(i)]; k < in.cand_offsets[size_t(i) + 1]; ++k) {
      const shogi::Move m{in.mv[size_t(k)]};
      const int index = m.well_formed() ? shogi::move_index(us, m) : -1;
      if (index < 0) return refuse("candidate " + m.to_usi() + " has no policy index (not a move a piece makes)");
      policy[index] += in.prob[size_t(k)];
    }
    out.value[size_t(at)] = (1.0f - w) * in.value_z[size_t(i)] + w * in.value_q[size_t(i)];
    out.weight[size_t(at)] = options.row_weights ? float(in.weight[size_t(i)]) : 1.0f;
  }
  return Status();
}

}  // namespace manaka::training
