// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How the machine-readable outputs write numbers, shared so every JSON reads alike.

#include <cmath>
#include <cstdint>

#include <nlohmann/json.hpp>

namespace kvscope::json_numbers {

// Byte counts are whole numbers; JSON shows them as integers while they are exact in a double
// (below 2^53), and as plain numbers beyond (exabyte totals of absurd scenarios).
inline nlohmann::json bytes(double value)
{
    if (std::fabs(value) < 9.0e15)
        return nlohmann::json(int64_t(std::llround(value)));
    return nlohmann::json(value);
}

// Milliseconds and rates keep four decimals: enough for any chart, stable in golden files.
inline nlohmann::json real(double value)
{
    return nlohmann::json(std::round(value * 1e4) / 1e4);
}

} // namespace kvscope::json_numbers
