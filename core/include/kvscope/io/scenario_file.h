// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Scenario files (*.kvscope.json): versioned JSON naming catalog entries by id, embedding a
// custom model (as config.json fields) or a custom GPU in full.

#include "kvscope/catalog/catalog.h"
#include "kvscope/field_error.h"
#include "kvscope/evaluation/scenario.h"

#include <filesystem>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace kvscope {

inline constexpr int scenarioFileVersion = 1;

nlohmann::json scenarioToJson(const Scenario& scenario);
std::string scenarioToText(const Scenario& scenario); // pretty-printed, ends with a newline

// Every field is checked; absent fields keep the catalog default (defaultScenario()).
Expected<Scenario> scenarioFromJson(const nlohmann::json& json, const Catalog& catalog);
Expected<Scenario> scenarioFromText(const std::string& text, const Catalog& catalog);
Expected<Scenario> loadScenarioFile(const std::filesystem::path& path, const Catalog& catalog);

} // namespace kvscope
