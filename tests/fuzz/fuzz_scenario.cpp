// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files (*.kvscope.json): any bytes, as `--scenario FILE` and File > Open read them.

#include "fuzz_support.h"

#include "kvscope/io/scenario_file.h"

using namespace kvscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const Catalog& catalog = fuzz::catalog();
    auto loaded = scenarioFromText(std::string(reinterpret_cast<const char*>(data), size), catalog);
    if (!loaded)
        return 0;
    if (auto error = validate(*loaded))
        fuzz::fail("loaded scenario is invalid: " + error->message());

    // Saving what was opened and opening that again gives the same file (the window's
    // "unsaved changes" check compares these texts).
    const std::string saved = scenarioToText(*loaded);
    auto reopened = scenarioFromText(saved, catalog);
    if (!reopened)
        fuzz::fail("saved scenario does not open again: " + reopened.error().message() + "\n" + saved);
    if (scenarioToText(*reopened) != saved)
        fuzz::fail("scenario changed on a round trip:\n" + saved + scenarioToText(*reopened));

    fuzz::evaluateChecked(*loaded, fuzz::selector(data, size));
    return 0;
}
