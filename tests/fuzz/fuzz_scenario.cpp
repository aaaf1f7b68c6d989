// SPDX-License-Identifier: GPL-3.0-or-later
// Scenario files (*.kvscope.json), pinned scenarios included: any bytes, as `--scenario FILE`,
// `compare` and File > Open read them.

#include "fuzz_support.h"

#include "kvscope/settings/scenario_file.h"

using namespace kvscope;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const Catalog& catalog = fuzz::catalog();
    auto file =
        scenarioFileFromText(std::string(reinterpret_cast<const char*>(data), size), catalog);
    if (!file)
        return 0;
    if (file->pinned.size() > size_t(kMaxPinned))
        fuzz::fail("more than four pinned scenarios were accepted");
    if (auto error = validate(file->scenario))
        fuzz::fail("loaded scenario is invalid: " + error->message());
    for (const NamedScenario& pinned : file->pinned)
        if (auto error = validate(pinned.scenario))
            fuzz::fail("pinned scenario \"" + pinned.name + "\" is invalid: " + error->message());

    // Saving what was opened and opening that again gives the same file (the window's
    // "unsaved changes" check compares these texts), pinned scenarios included.
    const std::string saved = scenarioFileToText(*file);
    auto reopened = scenarioFileFromText(saved, catalog);
    if (!reopened)
        fuzz::fail("saved scenario does not open again: " + reopened.error().message() + "\n" +
                   saved);
    if (scenarioFileToText(*reopened) != saved)
        fuzz::fail("scenario changed on a round trip:\n" + saved + scenarioFileToText(*reopened));

    fuzz::evaluateChecked(file->scenario, fuzz::selector(data, size));
    return 0;
}
