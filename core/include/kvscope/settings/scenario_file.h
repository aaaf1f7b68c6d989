// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Scenario files (*.kvscope.json): versioned JSON naming catalog entries by id, embedding a
// custom model (as config.json fields) or a custom GPU in full. From version 2 a file may hold
// the scenarios pinned beside it for comparison ("pinned": [{"name", "scenario"}]).

#include "kvscope/base/field_error.h"
#include "kvscope/catalog/catalog.h"
#include "kvscope/scenario/named_scenario.h"
#include "kvscope/scenario/scenario.h"

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace kvscope {

inline constexpr int scenarioFileVersion = 2;

nlohmann::json scenarioToJson(const Scenario& scenario);
std::string scenarioToText(const Scenario& scenario); // pretty-printed, ends with a newline

// Every field is checked; absent fields keep the catalog default (defaultScenario()).
Expected<Scenario> scenarioFromJson(const nlohmann::json& json, const Catalog& catalog);
Expected<Scenario> scenarioFromText(const std::string& text, const Catalog& catalog);

// A scenario file with what is pinned beside it: a saved comparison opens as the same comparison.
struct ScenarioFile
{
    Scenario scenario;
    std::vector<NamedScenario> pinned; // at most kMaxPinned
};
nlohmann::json scenarioFileToJson(const ScenarioFile& file);
std::string scenarioFileToText(const ScenarioFile& file);
// Errors in a pinned scenario name it: "scenario.pinned[1].weights".
Expected<ScenarioFile> scenarioFileFromText(const std::string& text, const Catalog& catalog);
Expected<ScenarioFile> loadScenarioFileWithPinned(const std::filesystem::path& path,
                                                  const Catalog& catalog);

// Scenario files to compare (`compare`, `--compare`): each file's scenario, named by the file
// ("a/fp16.kvscope.json" -> "fp16"), followed by the scenarios pinned in it. Errors start with
// the path; a name given twice gets its position, so the columns stay apart.
Expected<std::vector<NamedScenario>> loadComparedFiles(const std::vector<std::string>& paths,
                                                       const Catalog& catalog);

// What the window, `export` and `report` pin beside the scenario of `options` (CLI scenario
// options): the scenarios pinned in its --scenario file, then each --compare file's; at most
// kMaxPinned.
Expected<std::vector<NamedScenario>>
pinnedFromOptions(const std::vector<std::pair<std::string, std::string>>& options,
                  const std::vector<std::string>& compareFiles, const Catalog& catalog);

} // namespace kvscope
