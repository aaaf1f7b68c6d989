// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/scenario/setting.h"

#include "kvscope/scenario/scenario.h"
#include "scenario/field_access.h"

#include "kvscope/base/number_format.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace kvscope {

namespace {

std::optional<int64_t> parseInteger(const std::string& text)
{
    int64_t value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end)
        return std::nullopt;
    return value;
}

std::optional<double> parseReal(const std::string& text)
{
    double value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::optional<bool> parseSwitch(const std::string& text)
{
    if (text == "on" || text == "true" || text == "yes" || text == "1")
        return true;
    if (text == "off" || text == "false" || text == "no" || text == "0")
        return false;
    return std::nullopt;
}

} // namespace

Setting makeSetting(const char* id, const char* flag, const char* valueName, SettingType type,
                    double lo, double hi)
{
    Setting s;
    s.id = id;
    s.flag = flag;
    s.valueName = valueName;
    s.type = type;
    s.lo = lo;
    s.hi = hi;
    return s;
}

std::string showNumber(double v)
{
    if (std::isnan(v))
        return "NaN";
    if (std::isinf(v))
        return v > 0 ? "infinity" : "-infinity";
    return formatPlain(v);
}

std::string orList(const std::vector<std::string>& words)
{
    std::string text;
    for (size_t i = 0; i < words.size(); ++i)
        text += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
    return text;
}

std::string acceptedText(const Setting& s)
{
    switch (s.type) {
    case SettingType::Integer:
        return "an integer from " + formatInteger(int64_t(s.lo)) + " to " +
               formatInteger(int64_t(s.hi));
    case SettingType::Real: {
        // Whole bounds with separators (10,000,000), fractions as written (0.05).
        auto bound = [](double v) {
            return v == std::floor(v) && std::fabs(v) < 1e15 ? formatInteger(int64_t(v))
                                                             : formatPlain(v);
        };
        return std::string("a number ") + (s.loOpen ? "above " : "from ") + bound(s.lo) +
               (s.loOpen ? " up to " : " to ") + bound(s.hi);
    }
    case SettingType::Switch:
        return "on or off";
    case SettingType::Choice:
        return orList(s.choices);
    case SettingType::Entry:
        return s.help;
    }
    return "";
}

std::optional<SettingValue> currentValue(const Setting& s, const Scenario& scenario)
{
    if (s.current)
        return s.current(scenario);
    if (!s.number)
        return std::nullopt;
    const std::optional<double> v = s.number(scenario);
    if (!v)
        return std::nullopt;
    if (s.type == SettingType::Integer)
        return SettingValue(int64_t(*v));
    return SettingValue(*v);
}

bool inRange(const Setting& s, double v)
{
    if (!std::isfinite(v))
        return false;
    return (s.loOpen ? v > s.lo : v >= s.lo) && v <= s.hi;
}

Expected<SettingValue> parseSettingText(const Setting& s, const std::string& text,
                                        const std::string& field)
{
    const FieldError refused{field, text, acceptedText(s)};
    switch (s.type) {
    case SettingType::Integer: {
        const auto v = parseInteger(text);
        if (!v || !inRange(s, double(*v)))
            return refused;
        return SettingValue(*v);
    }
    case SettingType::Real: {
        const auto v = parseReal(text);
        if (!v || !inRange(s, *v))
            return refused;
        return SettingValue(*v);
    }
    case SettingType::Switch: {
        const auto v = parseSwitch(text);
        if (!v)
            return refused;
        return SettingValue(*v);
    }
    case SettingType::Choice:
        if (std::find(s.choices.begin(), s.choices.end(), text) == s.choices.end())
            return refused;
        return SettingValue(text);
    case SettingType::Entry:
        if (text.empty())
            return refused;
        return SettingValue(text);
    }
    return refused;
}

std::string settingValueText(const SettingValue& value)
{
    if (const auto* i = std::get_if<int64_t>(&value))
        return std::to_string(*i);
    if (const auto* d = std::get_if<double>(&value))
        return formatPlain(*d);
    if (const auto* b = std::get_if<bool>(&value))
        return *b ? "on" : "off";
    return std::get<std::string>(value);
}

bool resetToDefault(const Setting& setting, Scenario& scenario)
{
    if (setting.clear) {
        setting.clear(scenario);
        return true;
    }
    char* field = reinterpret_cast<char*>(&scenario) + setting.field.offset;
    switch (setting.field.kind) {
    case NumberField::Kind::OptionalInt64:
        reinterpret_cast<std::optional<int64_t>*>(field)->reset();
        return true;
    case NumberField::Kind::OptionalReal:
        reinterpret_cast<std::optional<double>*>(field)->reset();
        return true;
    default:
        return false;
    }
}

namespace settings_detail {

const Scenario& layoutSample()
{
    static const Scenario sample;
    return sample;
}

} // namespace settings_detail

} // namespace kvscope
