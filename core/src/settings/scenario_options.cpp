// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/settings/scenario_options.h"

#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/settings/scenario_file.h"
#include "kvscope/settings/settings_registry.h"

#include <algorithm>

namespace kvscope {

namespace {

std::vector<ScenarioOption> buildOptions()
{
    std::vector<ScenarioOption> options{
        {"scenario", "FILE.json", "start from a saved scenario (other options override it)"}};
    for (const Setting& s : settingsRegistry()) {
        std::string help = s.help;
        if (s.type == SettingType::Integer || s.type == SettingType::Real)
            help += "; " + acceptedText(s);
        options.push_back({s.flag, s.valueName, help});
        for (const char* alias : s.flagAliases)
            options.push_back({alias, s.valueName,
                               std::string("the same as --") + s.flag + " (" + alias +
                                   " is that engine's name)"});
    }
    return options;
}

// A setting's error names it by the flag the user typed (another setting's by its flag); errors
// inside a file the option named keep that file's field.
FieldError asOption(FieldError error, const Setting& setting, const std::string& flag)
{
    if (error.field == setting.id)
        error.field = "--" + flag;
    else if (const Setting* other = settingById(error.field))
        error.field = std::string("--") + other->flag;
    return error;
}

} // namespace

const std::vector<ScenarioOption>& scenarioOptions()
{
    static const std::vector<ScenarioOption> options = buildOptions();
    return options;
}

bool isScenarioOption(const std::string& name)
{
    return name == "scenario" || settingByFlag(name) != nullptr;
}

std::optional<FieldError>
applyOptions(Scenario& s, const std::vector<std::pair<std::string, std::string>>& options,
             const Catalog& catalog)
{
    for (const bool entries : {true, false})
        for (const auto& [name, value] : options) {
            if (name == "scenario")
                continue;
            const Setting* setting = settingByFlag(name);
            if (!setting)
                return FieldError{"--" + name, value, "a known option (see --help)"};
            if (setting->choosesEntry != entries)
                continue;
            auto parsed = parseSettingText(*setting, value, "--" + name);
            if (!parsed)
                return parsed.error();
            if (auto error = setting->apply(s, *parsed, catalog))
                return asOption(*error, *setting, name);
        }
    return std::nullopt;
}

Expected<Scenario>
scenarioFromOptions(const std::vector<std::pair<std::string, std::string>>& options,
                    const Catalog& catalog)
{
    auto start = defaultScenario(catalog);
    if (!start)
        return start.error();
    Scenario s = std::move(start).value();
    for (const auto& [name, value] : options) {
        if (name != "scenario")
            continue;
        // The pinned scenarios are read too, so a file `compare` or the window would refuse is
        // refused here as well; only the live scenario is used.
        auto loaded = loadScenarioFileWithPinned(value, catalog);
        if (!loaded)
            return loaded.error();
        s = std::move(loaded).value().scenario;
    }
    if (auto error = applyOptions(s, options, catalog))
        return *error;
    if (auto error = validate(s))
        return *error;
    if (auto error = validateHostLink(s))
        return *error;
    return s;
}

} // namespace kvscope
