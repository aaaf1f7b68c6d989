// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <map>
#include <string>

namespace kvscope {

// How far measured decode speeds of one class fell from kvscope's (resources/catalog/
// speed_bands.json, written by `kvscope-cli validate --write-bands`): a measured step time was
// kvscope's x (1 + low) to x (1 + high), over `cases` measurements. No cases: no band.
struct SpeedBand
{
    double low = 0;
    double high = 0;
    int cases = 0;

    // Fewer than three measurements bound nothing: one case is a point, not a spread.
    bool usable() const { return cases >= 3; }
};
using SpeedBands = std::map<std::string, SpeedBand>; // by SpeedClass::id()

} // namespace kvscope
