// SPDX-License-Identifier: GPL-3.0-or-later
// speed_bands.json: any bytes, as a user's data directory may hold them. Every band read is
// ordered (low <= high, at least one case), and a scenario given the table still evaluates and
// looks its band up.

#include "fuzz_support.h"

#include "kvscope/catalog/catalog.h"
#include "kvscope/formats/config_import.h"
#include "kvscope/scenario/speed_class.h"

#include <cmath>
#include <memory>

#include <nlohmann/json.hpp>

using namespace kvscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto json = parseJsonText(std::string(reinterpret_cast<const char*>(data), size), "bands");
    if (!json)
        return 0;
    std::vector<std::string> problems;
    SpeedBands bands = speedBandsFromJson(*json, "fuzz", problems);
    for (const auto& [id, band] : bands)
        if (id.empty() || !std::isfinite(band.low) || !std::isfinite(band.high) ||
            band.low > band.high || band.cases < 1)
            fuzz::fail("a band read out of order: " + id);
    Scenario s = fuzz::defaultScenario();
    s.speedBands = std::make_shared<const SpeedBands>(std::move(bands));
    (void)decodeBandOf(s);
    fuzz::evaluateChecked(s, fuzz::selector(data, size));
    return 0;
}
