// SPDX-License-Identifier: GPL-3.0-or-later
// `kvscope-cli compare A.kvscope.json B.kvscope.json [...]`: the difference table.

#include "cli.h"
#include "cli_commands.h"

#include "kvscope/io/comparison_json.h"
#include "kvscope/io/scenario_file.h"
#include "kvscope/text/comparison_text.h"

#include <ostream>

#include <nlohmann/json.hpp>

namespace kvscope::cli {

namespace {

// "a/llama-fp16.kvscope.json" -> "llama-fp16".
std::string fileStem(const std::string& path)
{
    std::string name = std::filesystem::path(path).filename().string();
    for (const char* suffix : {".kvscope.json", ".json"})
        if (name.size() > std::string(suffix).size() &&
            name.compare(name.size() - std::string(suffix).size(), std::string::npos, suffix) == 0) {
            name.resize(name.size() - std::string(suffix).size());
            break;
        }
    return name.substr(0, kMaxPinnedNameLength);
}

} // namespace

Expected<std::vector<NamedScenario>> loadComparedFiles(const std::vector<std::string>& paths,
                                                       const Catalog& catalog)
{
    std::vector<NamedScenario> scenarios;
    for (const std::string& path : paths) {
        auto file = loadScenarioFileWithPinned(path, catalog);
        if (!file) {
            FieldError error = file.error();
            error.field = path + ": " + error.field;
            return error;
        }
        ScenarioFile loaded = std::move(file).value();
        scenarios.push_back({fileStem(path), std::move(loaded.scenario)});
        for (NamedScenario& pinned : loaded.pinned)
            scenarios.push_back(std::move(pinned));
    }
    if (scenarios.size() > size_t(kMaxPinned + 1))
        return FieldError{"compare", std::to_string(scenarios.size()) + " scenarios",
                          "at most " + std::to_string(kMaxPinned + 1) +
                              " (a live scenario and four pinned ones)"};
    // Names tell the columns apart: a repeated one gets its position.
    for (size_t i = 0; i < scenarios.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (scenarios[j].name == scenarios[i].name) {
                scenarios[i].name += " (" + std::to_string(i + 1) + ")";
                break;
            }
    return scenarios;
}

int compareCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                   std::ostream& err)
{
    auto scenarios = loadComparedFiles(args.positional, catalog);
    if (!scenarios)
        return badInput(err, scenarios.error());
    if (scenarios->size() < 2)
        return badInput(err, {"compare", std::to_string(scenarios->size()) + " scenario",
                              "two or more scenario files (or one holding pinned scenarios)"});
    auto comparison = compareScenarios(*scenarios);
    if (!comparison)
        return badInput(err, comparison.error());
    if (args.has("json"))
        out << comparisonToJson(*comparison).dump(2) << "\n";
    else if (args.has("csv"))
        out << comparisonCsv(*comparison);
    else
        out << comparisonText(*comparison, args.has("si") ? ByteUnits::Si : ByteUnits::Binary);
    return exitOk;
}

} // namespace kvscope::cli
