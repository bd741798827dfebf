// How many threads or engine processes "0" means: one per hardware thread.
// Every --threads and --workers option takes 0 for this (docs/conventions.md).
#pragma once

#include <algorithm>
#include <thread>

namespace manaka {

// The hardware threads, at least 1 (hardware_concurrency may say 0).
inline unsigned hardware_threads() { return std::max(1u, std::thread::hardware_concurrency()); }

// `asked`, or one per hardware thread for 0.
inline int threads_or_hardware(int asked) { return asked > 0 ? asked : int(hardware_threads()); }

}  // namespace manaka
