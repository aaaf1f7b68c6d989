// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How registry entries read and write a plain scenario field, shared by the files that build the
// registry so that a setting over one field is one line each way.

#include "kvscope/scenario/scenario.h"
#include "kvscope/scenario/setting.h"

#include <optional>
#include <string>
#include <type_traits>

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

// A default scenario to find a field's offset in: fields sit at the same place in every scenario.
const Scenario& layoutSample();

template <class T> constexpr NumberField::Kind numberKind()
{
    using K = NumberField::Kind;
    if constexpr (std::is_same_v<T, int>)
        return K::Int;
    else if constexpr (std::is_same_v<T, int64_t>)
        return K::Int64;
    else if constexpr (std::is_same_v<T, double>)
        return K::Real;
    else if constexpr (std::is_same_v<T, std::optional<int64_t>>)
        return K::OptionalInt64;
    else if constexpr (std::is_same_v<T, std::optional<double>>)
        return K::OptionalReal;
    else
        static_assert(sizeof(T) == 0,
                      "a number setting's field is an int, int64_t or double, or an optional one");
}

// `locate` returns the field of the scenario it is given.
template <class Locate> NumberField fieldAt(Locate locate)
{
    const Scenario& sample = layoutSample();
    const auto& field = locate(sample);
    using T = std::remove_cvref_t<decltype(field)>;
    const auto offset =
        reinterpret_cast<const char*>(&field) - reinterpret_cast<const char*>(&sample);
    return NumberField{numberKind<T>(), uint32_t(offset)};
}

// A number setting's reader and its field, set together by setNumber().
struct NumberAccess
{
    std::optional<double> (*number)(const Scenario&);
    NumberField field;
};

inline void setNumber(Setting& s, const NumberAccess& access)
{
    s.number = access.number;
    s.field = access.field;
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
// An optional field's current value: none while it is unset (the engine's or release's default).
#define KVSCOPE_OPTIONAL_GETTER(member)                                                            \
    [](const Scenario& s) -> std::optional<SettingValue> {                                         \
        return s.member ? std::optional<SettingValue>(*s.member) : std::nullopt;                   \
    }
// Where an Integer or Real setting's field lies (Setting::field).
#define KVSCOPE_FIELD_AT(member)                                                                   \
    kvscope::settings_detail::fieldAt([](const Scenario& s) -> const auto& { return s.member; })
// An Integer or Real setting's current value and its field, for setNumber().
#define KVSCOPE_FIELD_NUMBER(member)                                                               \
    kvscope::settings_detail::NumberAccess                                                         \
    {                                                                                              \
        [](const Scenario& s) -> std::optional<double> { return double(s.member); },               \
            KVSCOPE_FIELD_AT(member)                                                               \
    }
