// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>

namespace kvscope {

// Accepted ranges, shared by validation, the CLI's messages and the window's controls.
namespace limits {
inline constexpr int64_t minContext = 1;
inline constexpr int64_t maxContext = 100'000'000; // 10^8 tokens: far beyond any model today
inline constexpr int64_t maxBatch = 65'536;
inline constexpr int maxGpus = 1024;
inline constexpr int maxNodes = 128;
inline constexpr int64_t maxDimension = 1'000'000; // any head, layer or width count
inline constexpr int64_t maxVocab = 10'000'000;
inline constexpr double maxMemoryGiB = 1'048'576; // 1 PiB
inline constexpr double maxRateGBps = 1'000'000;  // 1 PB/s
inline constexpr double maxTflops = 1'000'000;
} // namespace limits

} // namespace kvscope
