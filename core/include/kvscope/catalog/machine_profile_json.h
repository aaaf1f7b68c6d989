// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Machine profiles as JSON: the user's profiles/NAME.json and the copy a scenario file carries.

#include "kvscope/base/field_error.h"
#include "kvscope/model/machine_profile.h"

#include <nlohmann/json_fwd.hpp>

#include <string>

namespace kvscope {

// Whether `name` can name a profile and its file: 1 to 64 letters, digits, '.', '_' or '-', not
// starting with '.'. The error names "profile".
std::optional<FieldError> checkProfileName(const std::string& name);

nlohmann::json machineProfileToJson(const MachineProfile& profile);
// Errors name the field ("profile.runtime_overhead_mib") and what it accepts.
Expected<MachineProfile> machineProfileFromJson(const nlohmann::json& json);

} // namespace kvscope
