// SPDX-License-Identifier: GPL-3.0-or-later
// A validation directory's files: any bytes as a case file (capacity, decode, PCIe and serving
// rows) and as splits.json. Every case read is compared or skipped with a reason, never a NaN; a
// splits table read names each file once.

#include "fuzz_support.h"

#include "kvscope/formats/config_import.h"
#include "kvscope/validation/validation_set.h"

#include <cmath>

#include <nlohmann/json.hpp>

using namespace kvscope;

namespace {

void checkCases(const nlohmann::json& json, const Catalog& catalog)
{
    auto cases = validationCasesFromJson(json, "fuzz.json");
    if (!cases)
        return;
    for (const ValidationCase& c : *cases) {
        const ValidationResult r = validateCase(c, catalog);
        if (r.skipped())
            continue;
        if (!std::isfinite(r.predicted) || !std::isfinite(r.measured) || r.measured <= 0)
            fuzz::fail("a compared case without finite figures: " + c.id);
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    // The core's hardened reader takes objects; a case file is an array, read as a member.
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (auto wrapped = parseJsonText("{\"cases\": " + text + "\n}", "cases"))
        checkCases(wrapped->at("cases"), fuzz::catalog());
    if (auto json = parseJsonText(text, "splits")) {
        auto splits = validationSplitsFromJson(*json);
        if (splits && !splits->listed)
            fuzz::fail("a splits table read but not listed");
    }
    return 0;
}
