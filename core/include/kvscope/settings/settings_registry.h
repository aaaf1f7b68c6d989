// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Every scenario input, once (see setting.h). Adding a setting is one entry in
// settings_registry.cpp, plus a widget if the window shows it.

#include "kvscope/scenario/setting.h"

#include <string>
#include <vector>

namespace kvscope {

// All settings in --help order: the catalog entries first, then the rest.
const std::vector<Setting>& settingsRegistry();

const Setting* settingById(const std::string& id);
// The flag or one of its aliases, without dashes.
const Setting* settingByFlag(const std::string& flag);
// The setting an engine calls `name` ("gpu_memory_utilization" for vLLM).
const Setting* settingByEngineName(const std::string& engine, const std::string& name);

// The setting's range check for a value already in a scenario: nothing, or the error naming the
// setting by its id (the scenario checks' field names).
std::optional<FieldError> checkSetting(const std::string& id, double value);

} // namespace kvscope
