// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One scenario input as every door sees it: the CLI flag, the scenario-file key, the engine's own
// name, its unit, its one accepted range, its default and its help. The CLI, scenario files,
// validation cases, the window's controls, --help, the man page and the README all read it from
// the registry (settings_registry.h), so a setting cannot accept different values in different
// places.

#include "kvscope/base/field_error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace kvscope {

struct Catalog;
struct Scenario;

enum class SettingType {
    Integer, // a whole number in [lo, hi]
    Real,    // a finite number in [lo, hi] (or (lo, hi] when loOpen)
    Switch,  // on or off
    Choice,  // one of `choices`
    Entry,   // a catalog id (or, for the model and GPU, a file) checked by the setting itself
};

// A value a door has read and checked against the setting's type and range: int64_t for
// Integer, double for Real, bool for Switch, the text for Choice and Entry.
using SettingValue = std::variant<int64_t, double, bool, std::string>;

// Where an Integer or Real setting's plain scenario field lies. validate() runs on every
// evaluation and reads the numbers through it with no call per setting; `number` stays the way
// every other caller reads them.
struct NumberField
{
    enum class Kind : uint8_t { None, Int, Int64, Real, OptionalInt64, OptionalReal };
    Kind kind = Kind::None;
    uint32_t offset = 0; // bytes from the start of the Scenario
};

// Marks a window text for lupdate, which reads it as QT_TRANSLATE_NOOP (the alias is given in
// ui/CMakeLists.txt); the window translates it in `context`. The core itself stays free of Qt.
#define KVSCOPE_TRANSLATE_NOOP(context, text) text

// Where the window shows a setting as a control made from its entry (SettingControl), in
// registry order within each place. Settings with a control of their own (the model, GPU and
// engine lists, the context slider) and settings only files and the CLI take say None.
enum class ControlPlace : uint8_t {
    None,
    EngineDrawer,     // "Advanced": the engine's knobs
    HostDrawer,       // "Advanced": the host's own figures, under its memory
    EfficiencyDrawer, // "Advanced": the efficiency factors, each with its catalog source
};

// A setting's texts in the window, in English, translated in the context "kvscope::Setting".
struct ControlTexts
{
    const char* label = "";
    const char* unsetText = "";       // a spin box's bottom: the field left to its default
    const char* toolTip = "";         // "" leaves the control's tooltip to the window
    std::vector<const char*> choices; // a choice's display texts, in the order of `choices`
};

// An engine's own name for a setting: vLLM's `gpu_memory_utilization`, llama.cpp's
// `n_gpu_layers`. Validation cases state settings under these names.
struct EngineName
{
    const char* engine; // engine family: "vllm", "llamacpp", "transformers", "tgi"
    const char* name;
};

struct Setting
{
    const char* id = "";        // scenario-file key, e.g. "gpu_mem_util"
    const char* flag = "";      // CLI flag without dashes, e.g. "gpu-mem-util"
    const char* valueName = ""; // shown after the flag in --help: "F", "N", "ID"
    SettingType type = SettingType::Integer;
    double lo = 0; // Integer / Real range
    double hi = 0;
    bool loOpen = false;              // lo itself is refused ("above 0")
    std::vector<std::string> choices; // Choice: the accepted words, in display order
    const char* unit = "";            // "tokens", "fraction", "MiB", ...
    const char* defaultText = "";     // "the engine's", "follows the GPU", "2,048" ...
    const char* help = "";            // one line for --help and the window's tooltip
    std::vector<EngineName> engineNames;
    std::vector<const char*> flagAliases; // further CLI flags, e.g. llama.cpp's "ubatch"
    const char* fileSection = "";         // "efficiency": the key sits in that object
    bool choosesEntry = false;            // applied before the others: later defaults depend on it
    ControlPlace place = ControlPlace::None;
    ControlTexts texts;
    // The value in effect when the field is left unset, for a control to show instead of
    // `texts.unsetText` (the memory fraction the engine uses).
    double (*shownWhenUnset)(const Scenario&) = nullptr;

    // Leaves a text setting to its default (resetToDefault()); number fields need none.
    void (*clear)(Scenario&) = nullptr;
    // Puts a checked value into the scenario; catalog lookups may still refuse it.
    std::optional<FieldError> (*apply)(Scenario&, const SettingValue&, const Catalog&) = nullptr;
    // The scenario's value, or nothing when it is left to its default (the engine's, the GPU's):
    // `number` for Integer and Real settings, `current` for the others. validate() checks every
    // number against its range on each evaluation, so reading one builds no SettingValue.
    std::optional<SettingValue> (*current)(const Scenario&) = nullptr;
    std::optional<double> (*number)(const Scenario&) = nullptr;
    NumberField field; // set with `number` by setNumber() (field_access.h)
    // Entry: the values the catalog holds for the scenario, for the window to list (the machine
    // profiles fitted on its GPU and engine); nullptr for a free entry.
    std::vector<std::string> (*offered)(const Scenario&, const Catalog&) = nullptr;
};

// The scenario's value of a setting as a door writes it back (scenario files), or nothing when
// it is left to its default or the setting is not read back.
std::optional<SettingValue> currentValue(const Setting& setting, const Scenario& scenario);

// Leaves a setting to its default, as a scenario that never stated it: an optional number field
// (n_gpu_layers, host_memory_gb_per_s) or a text with a `clear` (checkpoint); false, changing
// nothing, for any other setting.
bool resetToDefault(const Setting& setting, Scenario& scenario);

// A setting with its names, type and range; the rest is filled in field by field.
Setting makeSetting(const char* id, const char* flag, const char* valueName, SettingType type,
                    double lo = 0, double hi = 0);

// What a setting accepts, in the words every door prints: "an integer from 1 to 1,024",
// "a number from 0.01 to 1", "on or off", "3, 4, 5 or 6". Entry settings describe themselves.
std::string acceptedText(const Setting& setting);

// Reads a CLI value (text) or a file value (JSON scalar, given as its text and whether it was a
// string/boolean) into a checked SettingValue; the error names `field`.
Expected<SettingValue> parseSettingText(const Setting& setting, const std::string& text,
                                        const std::string& field);

// Whether a number lies in the setting's range (the scenario checks use this too).
bool inRange(const Setting& setting, double value);

// The text of a value as the CLI would take it back ("0.9", "on", "q4_k_m").
std::string settingValueText(const SettingValue& value);

// A number as an error message shows it: "NaN", "infinity", or the plain number.
std::string showNumber(double value);

// "a, b, c or d"
std::string orList(const std::vector<std::string>& words);

} // namespace kvscope
