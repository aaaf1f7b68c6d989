// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one place numbers become text, for the CLI, the window and the report alike. Independent
// of the process locale (std::to_chars): separators come from NumberStyle, which the window fills
// from QLocale.

#include <cstdint>
#include <string>

namespace kvscope {

enum class ByteUnits { Binary, Si }; // KiB/MiB/GiB (the seed's 16 KB = 16,384 B) or kB/MB/GB

struct NumberStyle
{
    std::string decimalPoint = ".";
    std::string groupSeparator = ",";
};

// Shortest round-trip text with '.' ("0.8", "1e+308"): for messages and machine output.
std::string formatPlain(double value);
// Fixed decimals with grouping: formatNumber(36864.5, 1) = "36,864.5".
std::string formatNumber(double value, int decimals, const NumberStyle& style = {});
std::string formatInteger(int64_t value, const NumberStyle& style = {});

// Three significant digits and a unit that keeps the number between 1 and 1024 (or 1000):
// 16384 -> "16.0 KiB", 1073741824 -> "1.00 GiB" / "1.07 GB". Negative sizes keep their sign.
std::string formatBytes(double bytes, ByteUnits units, const NumberStyle& style = {});
// The unit formatBytes would pick for `bytes`, and its size in bytes ("GiB", 2^30).
struct ByteUnit
{
    const char* symbol;
    double bytes;
};
ByteUnit byteUnitFor(double bytes, ByteUnits units);

// "0.42 ms", "42.6 ms", "1.23 s", "2.5 min".
std::string formatDuration(double ms, const NumberStyle& style = {});
// "25.2 GB/s" (rates are SI, as vendors quote them).
std::string formatRate(double gbPerS, const NumberStyle& style = {});
// "57.3 tokens/s" without the unit: "57.3".
std::string formatTokensPerSecond(double tokensPerS, const NumberStyle& style = {});
// "6.74 B", "46.7 B", "1.54 T" parameters.
std::string formatParameters(double count, const NumberStyle& style = {});

} // namespace kvscope
