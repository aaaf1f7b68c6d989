// SPDX-License-Identifier: GPL-3.0-or-later
// GGUF model files: any bytes, as `--model FILE.gguf` and the window's import read them. The
// reader must refuse or describe a model that evaluates, and never allocate what a header claims.

#include "fuzz_support.h"

#include "kvscope/formats/config_import.h"
#include "kvscope/formats/gguf.h"
#include "kvscope/model/weights.h"
#include "kvscope/settings/scenario_defaults.h"

#include <nlohmann/json.hpp>

#include <sstream>

using namespace kvscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    std::istringstream in(std::string(reinterpret_cast<const char*>(data), size));
    auto header = readGgufHeader(in, size);
    if (!header)
        return 0;
    for (const GgufTensor& t : header->tensors)
        if (t.bytes == 0 || t.elements == 0 || t.offset + t.bytes > header->dataBytes)
            fuzz::fail("tensor " + t.name + " has no size or lies past the data it claims");
    auto imported = modelFromGguf(*header, "fuzz");
    if (!imported)
        return 0;
    const ModelSpec& model = *imported;
    if (auto error = validateModel(model))
        fuzz::fail("GGUF model is invalid: " + error->message());

    // Scenario files keep the file's weights: they must read back the same.
    const nlohmann::json written = modelToConfig(model);
    auto reread = modelFromConfig(nlohmann::json::parse(written.dump()), "fuzz");
    if (!reread)
        fuzz::fail("written GGUF model does not import again: " + reread.error().message());
    if (modelToConfig(*reread) != written)
        fuzz::fail("GGUF model changed on a round trip");

    Scenario s = fuzz::defaultScenario();
    s.model = model;
    s.weights = fileWeightFormat(model, s.weights);
    fuzz::evaluateChecked(s, fuzz::selector(data, size));
    return 0;
}
