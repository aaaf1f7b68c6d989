// SPDX-License-Identifier: GPL-3.0-or-later
// GPU JSON in the catalog's schema: any bytes, as `--gpu FILE` and the user's gpus/ read them.

#include "fuzz_support.h"

#include "kvscope/formats/config_import.h"
#include "kvscope/settings/scenario_defaults.h"

#include <nlohmann/json.hpp>

using namespace kvscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto json = parseJsonText(std::string(reinterpret_cast<const char*>(data), size), "gpu");
    if (!json)
        return 0;
    auto loaded = gpuFromJson(*json, "fuzz");
    if (!loaded)
        return 0;
    GpuSpec gpu = std::move(loaded).value();
    gpu.custom = true;
    if (auto error = validateGpu(gpu))
        fuzz::fail("loaded GPU is invalid: " + error->message());

    // Scenario files embed a custom GPU in full: it must read back the same.
    const nlohmann::json written = gpuToJson(gpu);
    auto reread = gpuFromJson(nlohmann::json::parse(written.dump()), "fuzz");
    if (!reread)
        fuzz::fail("written GPU does not load again: " + reread.error().message());
    if (gpuToJson(*reread) != written)
        fuzz::fail("GPU changed on a round trip:\n" + written.dump(1) + "\n" +
                   gpuToJson(*reread).dump(1));

    Scenario s = fuzz::defaultScenario();
    s.gpu = gpu;
    fuzz::evaluateChecked(s, fuzz::selector(data, size));
    return 0;
}
