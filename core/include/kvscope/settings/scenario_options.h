// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The command-line door to the settings registry, shared by kvscope-cli and the kvscope window's
// command line (SPEC section 5): --model ID|CONFIG.json, --gpu ID|GPU.json, --context N, ...

#include "kvscope/base/field_error.h"
#include "kvscope/catalog/catalog.h"
#include "kvscope/scenario/scenario.h"

#include <string>
#include <utility>
#include <vector>

namespace kvscope {

struct ScenarioOption
{
    std::string name;      // without dashes: "context"
    std::string valueName; // "N"
    std::string help;      // one line, ending with what the option accepts
};
// --scenario, then one row per registry flag and alias, in the registry's order.
const std::vector<ScenarioOption>& scenarioOptions();

bool isScenarioOption(const std::string& name);

// Applies `options` (name without dashes, value) to the default scenario, or to the one
// --scenario names (read first, wherever it stands): the settings that choose catalog entries
// first, then the others, each in the order given. The first bad value is returned as an error
// naming the option.
Expected<Scenario>
scenarioFromOptions(const std::vector<std::pair<std::string, std::string>>& options,
                    const Catalog& catalog);

// The same, onto a given scenario (validation cases start from the default one too).
std::optional<FieldError>
applyOptions(Scenario& scenario, const std::vector<std::pair<std::string, std::string>>& options,
             const Catalog& catalog);

} // namespace kvscope
