// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Scenarios pinned beside the live one for comparison, as scenario files store them and the
// planner compares them.

#include "kvscope/scenario/scenario.h"

#include <string>

namespace kvscope {

// A scenario with the name it is shown under ("A", "4-bit AWQ").
struct NamedScenario
{
    std::string name;
    Scenario scenario;
};

// At most this many scenarios are pinned beside the live one (A to D), each with a name of at
// most kMaxPinnedNameLength characters.
inline constexpr int kMaxPinned = 4;
inline constexpr size_t kMaxPinnedNameLength = 48;

// `text` cut to kMaxPinnedNameLength characters (UTF-8 code points, never inside one): a
// pinned scenario's name from a file name, a rename, or what differs.
std::string pinnedNameFrom(const std::string& text);

} // namespace kvscope
