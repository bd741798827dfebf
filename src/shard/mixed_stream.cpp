#include "shard/mixed_stream.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <numeric>

#include "core/splitmix64.h"
#include "core/uniform.h"

namespace manaka::shard {

namespace {

// Keeps the mix's draws apart from every other use of the user's seed.
constexpr uint64_t kMixSalt = 0x6D69786564ull;  // "mixed"
// An epoch past this many rows is a weight typed wrong (0.0001 for 0.1).
constexpr int64_t kMaxEpochRows = int64_t{1} << 40;

// Row i of `in` appended to `out`, the columns asked for.
void append_row(const ShardBatch& in, int64_t i, const ShardColumns& c, ShardBatch& out) {
  const auto r = static_cast<size_t>(i);
  if (c.packed) out.packed.insert(out.packed.end(), in.packed.begin() + r * kPackedLen,
                                  in.packed.begin() + (r + 1) * kPackedLen);
  if (c.ply) out.ply.push_back(in.ply[r]);
  if (c.value_z) out.value_z.push_back(in.value_z[r]);
  if (c.value_q) out.value_q.push_back(in.value_q[r]);
  if (c.weight) out.weight.push_back(in.weight[r]);
  if (c.candidates) {
    const auto lo = static_cast<size_t>(in.cand_offsets[r]), hi = static_cast<size_t>(in.cand_offsets[r + 1]);
    out.mv.insert(out.mv.end(), in.mv.begin() + lo, in.mv.begin() + hi);
    out.prob.insert(out.prob.end(), in.prob.begin() + lo, in.prob.begin() + hi);
    out.cp.insert(out.cp.end(), in.cp.begin() + lo, in.cp.begin() + hi);
    out.cand_offsets.push_back(static_cast<int64_t>(out.mv.size()));
  }
  ++out.rows;
}

}  // namespace

struct MixedStream::Source {
  std::vector<std::string> paths;
  std::vector<std::vector<int64_t>> group_start;  // per file: rows before each group, and the total last
  int64_t rows = 0;
  uint64_t seed = 0;  // of its pass orders
  // The pass whose order `order` / `order_start` hold.
  int64_t pass = -1;
  std::vector<uint32_t> order;
  std::vector<int64_t> order_start;  // rows before each file of the order, and the total last

  // Reading this stream's share: the planned groups' first rows (a position
  // in the source's endless run of passes), in the order `stream` reads them.
  std::unique_ptr<ShardStream> stream;
  std::deque<int64_t> planned;
  ShardBatch held;
  int64_t held_start = 0, held_rows = 0;

  int64_t file_rows(uint32_t f) const { return group_start[f].back(); }

  void set_pass(int64_t p, bool shuffle) {
    if (p == pass) return;
    pass = p;
    order.resize(paths.size());
    std::iota(order.begin(), order.end(), 0u);
    if (shuffle) {
      SplitMix64 rng(derived_seed(seed, static_cast<uint64_t>(p)));
      for (size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[uniform_below(rng, i)]);
    }
    order_start.assign(1, 0);
    for (uint32_t f : order) order_start.push_back(order_start.back() + file_rows(f));
  }

  // The row group holding position p: (file, group, position of its first row).
  struct Where {
    uint32_t file;
    int group;
    int64_t first;
    int64_t rows;
  };
  Where locate(int64_t p, bool shuffle) {
    set_pass(p / rows, shuffle);
    const int64_t q = p % rows;
    const size_t k = size_t(std::upper_bound(order_start.begin(), order_start.end(), q) - order_start.begin()) - 1;
    const uint32_t f = order[k];
    const int64_t in_file = q - order_start[k];
    const auto& gs = group_start[f];
    const size_t g = size_t(std::upper_bound(gs.begin(), gs.end(), in_file) - gs.begin()) - 1;
    return {f, int(g), p - in_file + gs[g], gs[g + 1] - gs[g]};
  }
};

MixedStream::~MixedStream() = default;

Result<std::unique_ptr<MixedStream>> MixedStream::open(std::vector<MixSource> sources, const MixOptions& options) {
  if (sources.empty()) return Status::usage("no source to mix");
  if (sources.size() > 65535) return Status::usage("more than 65535 sources to mix");
  if (options.batch_size < 1) return Status::usage("batch_size must be at least 1");
  if (options.stride < 1 || options.offset >= options.stride)
    return Status::usage("the stride must be at least 1 and the offset below it");
  std::unique_ptr<MixedStream> m(new MixedStream());
  m->o_ = options;
  double sum = 0;
  for (const MixSource& s : sources) {
    if (!(s.weight > 0) || !std::isfinite(s.weight))
      return Status::usage("a source's weight must be a finite number above 0, got " + std::to_string(s.weight) +
                           (s.paths.empty() ? std::string() : " for " + s.paths.front()));
    sum += s.weight;
  }
  const uint64_t run_seed = derived_seed(derived_seed(options.seed ^ kMixSalt, options.epoch), 0);
  double running = 0;
  for (size_t i = 0; i < sources.size(); ++i) {
    auto src = std::make_unique<Source>();
    src->paths = std::move(sources[i].paths);
    src->seed = derived_seed(run_seed, i + 1);
    if (src->paths.empty()) return Status::usage("source " + std::to_string(i) + " has no shard");
    for (const std::string& path : src->paths) {
      MANAKA_ASSIGN_OR_RETURN(ShardReader r, ShardReader::open(path));
      std::vector<int64_t> gs{0};
      for (int g = 0; g < r.num_row_groups(); ++g) gs.push_back(gs.back() + r.row_group_rows(g));
      src->rows += gs.back();
      src->group_start.push_back(std::move(gs));
    }
    if (src->rows == 0)
      return Status::invalid(src->paths.front() + (src->paths.size() > 1 ? " ...: " : ": ") +
                             "a source with no rows cannot be mixed");
    m->sizes_.push_back(src->rows);
    running += sources[i].weight / sum;
    m->cumulative_.push_back(running);
    m->sources_.push_back(std::move(src));
  }
  m->cumulative_.back() = 1.0;
  MANAKA_RETURN_NOT_OK(m->plan());
  return m;
}

int64_t MixedStream::epoch_batches() const {
  const int64_t b = o_.batch_size;
  return o_.drop_last ? epoch_rows_ / b : (epoch_rows_ + b - 1) / b;
}

int64_t MixedStream::batch_rows(int64_t b) const {
  return std::min(o_.batch_size, epoch_rows_ - b * o_.batch_size);
}

// The draws of batch b's rows come from a generator of its own.
namespace {
SplitMix64 batch_rng(uint64_t seed, uint64_t epoch, int64_t b) {
  return SplitMix64(derived_seed(derived_seed(seed ^ kMixSalt, epoch), static_cast<uint64_t>(b) + 1'000'003));
}
uint16_t draw(SplitMix64& rng, const std::vector<double>& cumulative) {
  if (cumulative.size() == 1) return 0;
  const double u = static_cast<double>(rng.next() >> 11) * 0x1p-53;
  const auto k = std::upper_bound(cumulative.begin(), cumulative.end(), u) - cumulative.begin();
  return static_cast<uint16_t>(std::min<ptrdiff_t>(k, ptrdiff_t(cumulative.size()) - 1));
}
}  // namespace

Status MixedStream::plan() {
  const size_t S = sources_.size();
  // The epoch's length, roughly, to refuse an absurd one before drawing it.
  double expect = 0;
  for (size_t s = 0; s < S; ++s) {
    const double p = cumulative_[s] - (s ? cumulative_[s - 1] : 0.0);
    const double rows = double(sizes_[s]) / std::max(p, 1e-300);
    expect = s == 0 ? rows : (o_.until == MixUntil::kEverySource ? std::max(expect, rows) : std::min(expect, rows));
  }
  if (expect > double(kMaxEpochRows))
    return Status::usage("the weights make an epoch of about " + std::to_string(int64_t(std::min(expect, 9e18))) +
                         " rows, more than 2^40: check them");
  std::vector<int64_t> counts(S, 0);
  start_.assign(counts.begin(), counts.end());
  size_t open = S;  // sources not read whole yet
  bool done = false;
  int64_t total = 0;
  for (int64_t b = 0; !done; ++b) {
    SplitMix64 rng = batch_rng(o_.seed, o_.epoch, b);
    for (int64_t r = 0; r < o_.batch_size; ++r) {
      const uint16_t s = draw(rng, cumulative_);
      ++total;
      if (++counts[s] == sizes_[s]) {
        --open;
        if (open == 0 || o_.until == MixUntil::kFirstSource) {
          done = true;
          break;
        }
      }
    }
    start_.insert(start_.end(), counts.begin(), counts.end());
  }
  epoch_rows_ = total;
  drawn_ = counts;

  // This stride's row groups, source by source, in the order it reads them.
  const int64_t batches = epoch_batches();
  for (size_t s = 0; s < S; ++s) {
    Source& src = *sources_[s];
    std::vector<ShardGroup> groups;
    int64_t last = -1;
    for (int64_t b = int64_t(o_.offset); b < batches; b += int64_t(o_.stride)) {
      for (int64_t p = start_[size_t(b) * S + s], end = start_[size_t(b + 1) * S + s]; p < end;) {
        const Source::Where w = src.locate(p, o_.shuffle);
        if (w.first != last) {
          groups.push_back({w.file, w.group});
          src.planned.push_back(w.first);
          last = w.first;
        }
        p = w.first + w.rows;
      }
    }
    if (groups.empty()) continue;
    ShardStreamOptions so;
    so.columns = o_.columns;
    so.threads = o_.threads;
    so.groups = std::move(groups);
    MANAKA_ASSIGN_OR_RETURN(src.stream, ShardStream::open(src.paths, so));
  }
  return Status();
}

Result<bool> MixedStream::next(MixedBatch& out) {
  const int64_t b = int64_t(o_.offset) + next_batch_ * int64_t(o_.stride);
  if (b >= epoch_batches()) return false;
  ++next_batch_;
  const size_t S = sources_.size();
  const int64_t n = batch_rows(b);
  out = MixedBatch{};
  out.index = b;
  out.source.reserve(size_t(n));
  ShardBatch& rows = out.rows;
  const ShardColumns& c = o_.columns;
  if (c.packed) rows.packed.reserve(size_t(n) * kPackedLen);
  if (c.candidates) rows.cand_offsets.push_back(0);
  std::vector<int64_t> pos(start_.begin() + ptrdiff_t(size_t(b) * S), start_.begin() + ptrdiff_t(size_t(b + 1) * S));
  SplitMix64 rng = batch_rng(o_.seed, o_.epoch, b);
  for (int64_t r = 0; r < n; ++r) {
    const uint16_t s = draw(rng, cumulative_);
    Source& src = *sources_[s];
    const int64_t p = pos[s]++;
    while (!(src.held_start <= p && p < src.held_start + src.held_rows)) {
      if (src.held.rows) src.stream->pool()->give(std::move(src.held));
      src.held = ShardBatch{};
      MANAKA_ASSIGN_OR_RETURN(bool more, src.stream->next(src.held));
      if (!more || src.planned.empty()) return Status::invalid("mixed read: source " + std::to_string(s) +
                                                              " ended before its plan (a shard changed while read?)");
      src.held_start = src.planned.front();
      src.planned.pop_front();
      src.held_rows = src.held.rows;
      const Source::Where w = src.locate(src.held_start, o_.shuffle);
      if (w.rows != src.held_rows)
        return Status::invalid(src.paths[w.file] + ": row group " + std::to_string(w.group) + " has " +
                               std::to_string(src.held_rows) + " rows, its footer says " + std::to_string(w.rows));
    }
    append_row(src.held, p - src.held_start, c, rows);
    out.source.push_back(s);
  }
  return true;
}

}  // namespace manaka::shard
