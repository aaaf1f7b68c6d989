// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kvscope {

// How far measured decode speeds of one class fell from kvscope's (resources/catalog/
// speed_bands.json, written by `kvscope-cli validate --write-bands`): a measured step time was
// kvscope's x (1 + low) to x (1 + high), over `cases` measurements. No cases: no band.
struct SpeedBand
{
    double low = 0;
    double high = 0;
    int cases = 0;
    // Set by speedBandOf(), not in the table (its key says it): the class whose measurements
    // these are, the scenario's own ("vllm/datacenter/dense/16-bit") or, where that has too few,
    // a broader one ("vllm/datacenter", "vllm").
    std::string classId;

    // Fewer than three measurements bound nothing: one case is a point, not a spread.
    bool usable() const { return cases >= 3; }
    // A speed at the slow end of the band: what a reader can sign (no band: the speed itself).
    double signableTokensPerS(double tokensPerS) const
    {
        return usable() && high > 0 ? tokensPerS / (1.0 + high) : tokensPerS;
    }
};
// The figure a band is measured on: a single sequence's decode step, or, under load, a serving
// row's time per output token or time to first token.
// TtftOneUser: the first token of a serving row at one user, the figure a prompt alone gives.
enum class SpeedFigure { Decode, Tpot, Ttft, TtftOneUser };
const char* speedFigureId(SpeedFigure figure); // "decode", "tpot", "ttft", "ttft1"
std::optional<SpeedFigure> speedFigureFromId(const std::string& id);

// Bands by speedBandKey(): the SpeedClass::id() for decode, "tpot:" or "ttft:" before it else.
using SpeedBands = std::map<std::string, SpeedBand>;
std::string speedBandKey(SpeedFigure figure, const std::string& classId);
std::pair<SpeedFigure, std::string> splitSpeedBandKey(const std::string& key);
// A class id and the broader ones it belongs to, narrowest first: "vllm/datacenter/dense/16-bit",
// "vllm/datacenter", "vllm". The validation set writes a band for each; a scenario takes the
// narrowest with three or more measurements.
std::vector<std::string> speedClassLevels(const std::string& classId);

} // namespace kvscope
