// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The scenario options shared by kvscope-cli and the kvscope window's command line
// (SPEC section 5): --model ID|CONFIG.json, --gpu ID|GPU.json, --context N, ...

#include "kvscope/catalog/catalog.h"
#include "kvscope/field_error.h"
#include "kvscope/evaluation/scenario.h"

#include <string>
#include <utility>
#include <vector>

namespace kvscope {

struct ScenarioOption
{
    const char* name;      // without dashes: "context"
    const char* valueName; // "N"
    const char* help;      // one line
};
const std::vector<ScenarioOption>& scenarioOptions(); // --hbm-efficiency etc. included

bool isScenarioOption(const std::string& name);

// Applies `options` (name without dashes, value) in order to the default scenario, or to the
// one --scenario names (read first, wherever it stands). The first bad value is returned as an
// error naming the option.
Expected<Scenario> scenarioFromOptions(const std::vector<std::pair<std::string, std::string>>& options,
                                       const Catalog& catalog);

} // namespace kvscope
