// SPDX-License-Identifier: GPL-3.0-or-later
// Hugging Face config.json import: any bytes, as `--model FILE` and the window's import read them.

#include "fuzz_support.h"

#include "kvscope/formats/config_import.h"
#include "kvscope/settings/scenario_defaults.h"

#include <nlohmann/json.hpp>

using namespace kvscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto json = parseJsonText(std::string(reinterpret_cast<const char*>(data), size), "config");
    if (!json)
        return 0;
    auto imported = modelFromConfig(*json, "fuzz");
    if (!imported)
        return 0;
    ModelSpec model = std::move(imported).value();
    model.imported = true;
    if (auto error = validateModel(model))
        fuzz::fail("imported model is invalid: " + error->message());

    // Scenario files embed an imported model as config.json fields: they must read back the same.
    const nlohmann::json written = modelToConfig(model);
    auto reread = modelFromConfig(nlohmann::json::parse(written.dump()), "fuzz");
    if (!reread)
        fuzz::fail("written model does not import again: " + reread.error().message());
    if (modelToConfig(*reread) != written)
        fuzz::fail("model changed on a round trip:\n" + written.dump(1) + "\n" +
                   modelToConfig(*reread).dump(1));

    Scenario s = fuzz::defaultScenario();
    s.model = model;
    fuzz::evaluateChecked(s, fuzz::selector(data, size));
    return 0;
}
