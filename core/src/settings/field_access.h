// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How registry entries read and write a plain scenario field, shared by the files that build the
// registry so that a setting over one field is one line each way.

#include "kvscope/evaluation/scenario.h"
#include "kvscope/settings/setting.h"

#include <string>

namespace kvscope::settings_detail {

inline int64_t integerOf(const SettingValue& v)
{
    return std::get<int64_t>(v);
}
inline double realOf(const SettingValue& v)
{
    return std::get<double>(v);
}
inline bool switchOf(const SettingValue& v)
{
    return std::get<bool>(v);
}
inline const std::string& textOf(const SettingValue& v)
{
    return std::get<std::string>(v);
}

} // namespace kvscope::settings_detail

// Sets `member` of the scenario from a checked value read with `get` (integerOf, realOf ...).
#define KVSCOPE_FIELD_SETTER(member, get)                                                          \
    [](Scenario& s, const SettingValue& v, const Catalog&) -> std::optional<FieldError> {          \
        s.member = kvscope::settings_detail::get(v);                                               \
        return std::nullopt;                                                                       \
    }
// A Switch, Choice or Entry setting's current value.
#define KVSCOPE_FIELD_GETTER(member)                                                               \
    [](const Scenario& s) -> std::optional<SettingValue> { return SettingValue(s.member); }
// An Integer or Real setting's current value (Setting::number).
#define KVSCOPE_FIELD_NUMBER(member)                                                               \
    [](const Scenario& s) -> std::optional<double> { return double(s.member); }
