// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/scenario/scenario.h"
#include "kvscope/scenario/speed_band.h"

#include <string>

namespace kvscope {

// The class a speed figure is judged in (issue 43): measurements of one class share how far
// kvscope's model of them is off, so the validation set's error is reported, and later banded,
// per class rather than as one median that hides whole classes.
struct SpeedClass
{
    std::string engine;   // engine family id: "vllm", "llamacpp", "transformers", "tgi", ...
    std::string gpuClass; // "datacenter", "workstation", "consumer", "apple", or the vendor
    bool moe = false;
    bool quantized = false; // weights under 16 bits per weight

    // "vllm/datacenter/dense/16-bit": stable, for JSON and grouping.
    std::string id() const;
    bool operator==(const SpeedClass&) const = default;
};

SpeedClass speedClassOf(const Scenario& scenario);

// The band of the scenario's speed class from its catalog's table; cases 0 when the class has
// no measurement (or no table was loaded). Looked up by the outputs, not by evaluate(), which
// the planner runs millions of times.
SpeedBand decodeBandOf(const Scenario& scenario);
// The same for a serving figure (time per output token, time to first token under load).
SpeedBand speedBandOf(const Scenario& scenario, SpeedFigure figure);

} // namespace kvscope
