// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/settings/scenario_file.h"

#include "base/text_columns.h"
#include "kvscope/catalog/machine_profile_json.h"
#include "kvscope/formats/checked_json.h"
#include "kvscope/formats/config_import.h"
#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/settings/settings_registry.h"

#include <nlohmann/json.hpp>

namespace kvscope {

nlohmann::json scenarioToJson(const Scenario& s)
{
    nlohmann::json j;
    j["kvscope_scenario"] = scenarioFileVersion;
    if (s.model.imported)
        j["model"] = modelToConfig(s.model);
    if (s.gpu.custom)
        j["gpu"] = gpuToJson(s.gpu);
    j["efficiency"] = nlohmann::json::object();
    for (const Setting& setting : settingsRegistry()) {
        const auto value = currentValue(setting, s);
        if (!value)
            continue;
        nlohmann::json& target = *setting.fileSection ? j[setting.fileSection] : j;
        std::visit([&](const auto& v) { target[setting.id] = v; }, *value);
    }
    // Choices that are numbers in the file (lanes 16, pcie 4), as earlier versions wrote them.
    for (const char* key : {"lanes", "pcie"})
        if (j.contains(key) && j[key].is_string())
            j[key] = std::stoi(j[key].get<std::string>());
    // The whole profile, so the file opens where it was not saved; its factors are settings of
    // the file like any other.
    if (s.profile)
        j["profile"] = machineProfileToJson(*s.profile);
    if (s.calibration) {
        const CalibrationRecord& c = *s.calibration;
        j["calibration"] = {{"kind", c.kind},     {"measured", c.measured}, {"factor", c.factor},
                            {"fitted", c.fitted}, {"before", c.before},     {"after", c.after}};
    }
    return j;
}

std::string scenarioToText(const Scenario& s)
{
    return scenarioToJson(s).dump(2) + "\n";
}

namespace {

// The calibration record: which figure was measured, the factor it set, and the values; each
// checked so a hand-edited file cannot carry a NaN or a mismatched pair into the window.
Expected<CalibrationRecord> calibrationFromJson(const nlohmann::json& j)
{
    if (!j.is_object())
        return FieldError{"scenario.calibration", describeJson(j), "an object"};
    JsonReader r(j, "scenario.calibration");
    CalibrationRecord c;
    r.require({"kind"});
    c.kind = r.text({"kind"}, "");
    const char* factor = factorFittedTo(c.kind);
    if (!factor && !r.error())
        r.fail("kind", "\"" + c.kind + "\"", fittedFigureIds());
    r.require({"factor"});
    c.factor = r.text({"factor"}, "");
    if (!r.error() && factor && c.factor != factor)
        r.fail("factor", "\"" + c.factor + "\"",
               std::string(factor) + " (the factor " + c.kind + " sets)");
    for (const char* key : {"measured", "fitted", "before", "after"})
        r.require({key});
    c.measured = r.number({"measured"}, 1e-9, 1e15, 0);
    c.fitted = r.number({"fitted"}, 0, 1e7, 0);
    c.before = r.number({"before"}, 0, 1e15, 0);
    c.after = r.number({"after"}, 0, 1e15, 0);
    if (r.error())
        return *r.error();
    return c;
}

} // namespace

namespace {

// A file value as the text the setting's parser takes; nothing when its JSON type cannot be one.
std::optional<std::string> settingText(const Setting& setting, const nlohmann::json& v)
{
    switch (setting.type) {
    case SettingType::Integer:
        if (v.is_number_integer())
            return v.dump();
        return std::nullopt;
    case SettingType::Real:
        if (v.is_number())
            return v.dump();
        return std::nullopt;
    case SettingType::Switch:
        if (v.is_boolean())
            return std::string(v.get<bool>() ? "on" : "off");
        return std::nullopt;
    case SettingType::Choice:
        if (v.is_number_integer())
            return v.dump();
        [[fallthrough]];
    case SettingType::Entry:
        if (v.is_string())
            return v.get<std::string>();
        return std::nullopt;
    }
    return std::nullopt;
}

// Reads and applies every registry setting the file holds, catalog entries first; an error names
// the key as "scenario.key" (or "scenario.section.key": efficiency, targets, cost).
std::optional<FieldError> applyFileSettings(const nlohmann::json& j, Scenario& s, const Catalog& c)
{
    for (const Setting& setting : settingsRegistry()) {
        if (!*setting.fileSection)
            continue;
        auto it = j.find(setting.fileSection);
        if (it != j.end() && !it->is_object())
            return FieldError{std::string("scenario.") + setting.fileSection, describeJson(*it),
                              "an object of settings"};
    }
    for (const bool entries : {true, false})
        for (const Setting& setting : settingsRegistry()) {
            if (setting.choosesEntry != entries)
                continue;
            const bool inSection = *setting.fileSection != 0;
            const auto section = inSection ? j.find(setting.fileSection) : j.end();
            const nlohmann::json* object = !inSection           ? &j
                                           : section != j.end() ? &*section
                                                                : nullptr;
            if (!object)
                continue;
            auto it = object->find(setting.id);
            if (it == object->end() || it->is_null() || it->is_object())
                continue; // absent keeps the default; objects (model, gpu) were read already
            const std::string field = std::string("scenario.") +
                                      (inSection ? std::string(setting.fileSection) + "." : "") +
                                      setting.id;
            const auto text = settingText(setting, *it);
            if (!text)
                return FieldError{field, describeJson(*it), acceptedText(setting)};
            auto value = parseSettingText(setting, *text, field);
            if (!value)
                return FieldError{field, describeJson(*it), value.error().accepted};
            if (auto error = setting.apply(s, *value, c)) {
                if (const Setting* named = settingById(error->field))
                    error->field = std::string("scenario.") + named->id;
                return error;
            }
        }
    return std::nullopt;
}

} // namespace

Expected<Scenario> scenarioFromJson(const nlohmann::json& j, const Catalog& c)
{
    auto base = defaultScenario(c);
    if (!base)
        return base.error();
    Scenario s = std::move(base).value();
    JsonReader r(j, "scenario");
    const int64_t version = r.integer({"kvscope_scenario"}, 1, scenarioFileVersion, 0);
    if (version == 0 && !r.error())
        r.fail("kvscope_scenario", "",
               "a scenario file version from 1 to " + std::to_string(scenarioFileVersion));
    if (r.error())
        return *r.error();

    if (auto it = j.find("model"); it != j.end() && it->is_object()) {
        auto model = modelFromConfig(*it, "custom");
        if (!model)
            return model.error();
        s.model = std::move(model).value();
        s.model.imported = true;
    }
    if (auto it = j.find("gpu"); it != j.end() && it->is_object()) {
        auto gpu = gpuFromJson(*it, "custom");
        if (!gpu)
            return gpu.error();
        GpuSpec custom = std::move(gpu).value();
        custom.custom = true;
        applyGpu(s, std::move(custom));
    }
    if (auto error = applyFileSettings(j, s, c))
        return *error;
    if (auto it = j.find("profile"); it != j.end() && it->is_object()) {
        auto profile = machineProfileFromJson(*it);
        if (!profile)
            return FieldError{"scenario." + profile.error().field, profile.error().value,
                              profile.error().accepted};
        s.profile = std::move(profile).value();
    }
    if (auto it = j.find("calibration"); it != j.end() && !it->is_null()) {
        auto calibration = calibrationFromJson(*it);
        if (!calibration)
            return calibration.error();
        s.calibration = std::move(calibration).value();
    }
    if (auto error = validate(s))
        return *error;
    if (auto error = validateHostLink(s))
        return *error;
    return s;
}

Expected<Scenario> scenarioFromText(const std::string& text, const Catalog& c)
{
    auto json = parseJsonText(text, "scenario");
    if (!json)
        return json.error();
    return scenarioFromJson(*json, c);
}

nlohmann::json scenarioFileToJson(const ScenarioFile& file)
{
    nlohmann::json j = scenarioToJson(file.scenario);
    if (file.pinned.empty())
        return j;
    nlohmann::json& pinned = j["pinned"] = nlohmann::json::array();
    for (const NamedScenario& named : file.pinned) {
        nlohmann::json scenario = scenarioToJson(named.scenario);
        scenario.erase("kvscope_scenario"); // the file's version is the outer one
        pinned.push_back({{"name", named.name}, {"scenario", std::move(scenario)}});
    }
    return j;
}

std::string scenarioFileToText(const ScenarioFile& file)
{
    // A name from a file name need not be UTF-8: such bytes are replaced, never a failed save.
    return scenarioFileToJson(file).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
           "\n";
}

namespace {

Expected<NamedScenario> pinnedFromJson(const nlohmann::json& j, size_t index, int64_t version,
                                       const Catalog& c)
{
    const std::string field = "scenario.pinned[" + std::to_string(index) + "]";
    if (!j.is_object())
        return FieldError{field, describeJson(j), "an object with a name and a scenario"};
    auto name = j.find("name");
    if (name == j.end() || !name->is_string() || name->get<std::string>().empty() ||
        codePoints(name->get<std::string>()) > kMaxPinnedNameLength)
        return FieldError{field + ".name", name == j.end() ? "" : describeJson(*name),
                          "a name of 1 to " + std::to_string(kMaxPinnedNameLength) + " characters"};
    auto scenario = j.find("scenario");
    if (scenario == j.end() || !scenario->is_object() || scenario->contains("pinned"))
        return FieldError{field + ".scenario", scenario == j.end() ? "" : describeJson(*scenario),
                          "a scenario object (without pinned scenarios of its own)"};
    nlohmann::json inner = *scenario;
    inner["kvscope_scenario"] = version;
    auto read = scenarioFromJson(inner, c);
    if (!read) {
        FieldError error = read.error();
        // "scenario.weights" becomes "scenario.pinned[1].weights"; an embedded model's or
        // GPU's own key is named after the pinned scenario.
        error.field = error.field.rfind("scenario", 0) == 0 ? field + error.field.substr(8)
                                                            : field + ": " + error.field;
        return error;
    }
    return NamedScenario{name->get<std::string>(), std::move(read).value()};
}

Expected<ScenarioFile> scenarioFileFromJson(const nlohmann::json& j, const Catalog& c)
{
    auto live = scenarioFromJson(j, c);
    if (!live)
        return live.error();
    ScenarioFile file{std::move(live).value(), {}};
    auto pinned = j.find("pinned");
    if (pinned == j.end() || pinned->is_null())
        return file;
    if (!pinned->is_array() || pinned->size() > size_t(kMaxPinned))
        return FieldError{"scenario.pinned", describeJson(*pinned),
                          "a list of at most " + std::to_string(kMaxPinned) + " pinned scenarios"};
    const int64_t version = j.value("kvscope_scenario", int64_t(scenarioFileVersion));
    for (size_t i = 0; i < pinned->size(); ++i) {
        auto named = pinnedFromJson((*pinned)[i], i, version, c);
        if (!named)
            return named.error();
        file.pinned.push_back(std::move(named).value());
    }
    return file;
}

} // namespace

Expected<ScenarioFile> scenarioFileFromText(const std::string& text, const Catalog& c)
{
    auto json = parseJsonText(text, "scenario");
    if (!json)
        return json.error();
    return scenarioFileFromJson(*json, c);
}

Expected<ScenarioFile> loadScenarioFileWithPinned(const std::filesystem::path& path,
                                                  const Catalog& c)
{
    auto json = readJsonFile(path, "scenario");
    if (!json)
        return json.error();
    return scenarioFileFromJson(*json, c);
}

namespace {

std::string fileStem(const std::string& path)
{
    std::string name = std::filesystem::path(path).filename().string();
    for (const std::string suffix : {".kvscope.json", ".json"})
        if (name.size() > suffix.size() &&
            name.compare(name.size() - suffix.size(), std::string::npos, suffix) == 0) {
            name.resize(name.size() - suffix.size());
            break;
        }
    return pinnedNameFrom(name);
}

} // namespace

Expected<std::vector<NamedScenario>> loadComparedFiles(const std::vector<std::string>& paths,
                                                       const Catalog& c)
{
    std::vector<NamedScenario> scenarios;
    for (const std::string& path : paths) {
        auto file = loadScenarioFileWithPinned(path, c);
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
    for (size_t i = 0; i < scenarios.size(); ++i)
        for (size_t j = 0; j < i; ++j)
            if (scenarios[j].name == scenarios[i].name) {
                scenarios[i].name += " (" + std::to_string(i + 1) + ")";
                break;
            }
    return scenarios;
}

Expected<std::vector<NamedScenario>>
pinnedFromOptions(const std::vector<std::pair<std::string, std::string>>& options,
                  const std::vector<std::string>& compareFiles, const Catalog& c)
{
    std::vector<NamedScenario> pinned;
    for (const auto& [name, value] : options)
        if (name == "scenario") {
            auto file = loadScenarioFileWithPinned(value, c);
            if (!file)
                return file.error();
            pinned = file->pinned; // the last --scenario is the one used
        }
    auto compared = loadComparedFiles(compareFiles, c);
    if (!compared)
        return compared.error();
    pinned.insert(pinned.end(), compared->begin(), compared->end());
    if (pinned.size() > size_t(kMaxPinned))
        return FieldError{"--compare", std::to_string(pinned.size()) + " scenarios to pin",
                          "at most " + std::to_string(kMaxPinned)};
    return pinned;
}

} // namespace kvscope
