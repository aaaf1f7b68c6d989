// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/formats/checked_json.h"

#include "kvscope/base/number_format.h"

#include <cmath>

namespace kvscope {

std::string describeJson(const nlohmann::json& value)
{
    std::string text;
    if (value.is_string())
        text = "\"" + value.get<std::string>() + "\"";
    else if (value.is_number_float())
        text = formatPlain(value.get<double>());
    else if (value.is_object())
        text = "an object";
    else if (value.is_array())
        text = "an array";
    else
        text = value.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
    if (text.size() > 40)
        text = text.substr(0, 37) + "...";
    return text;
}

JsonReader::JsonReader(const nlohmann::json& object, std::string prefix)
    : m_object(object), m_prefix(std::move(prefix))
{
}

std::string JsonReader::field(const std::string& key) const
{
    return m_prefix.empty() ? key : m_prefix + "." + key;
}

void JsonReader::fail(const std::string& key, const std::string& value, const std::string& accepted)
{
    if (!m_error)
        m_error = FieldError{field(key), value, accepted};
}

bool JsonReader::has(const char* key) const
{
    return m_object.is_object() && m_object.contains(key) && !m_object.at(key).is_null();
}

const nlohmann::json* JsonReader::find(std::initializer_list<const char*> keys,
                                       const char** found) const
{
    if (!m_object.is_object())
        return nullptr;
    for (const char* key : keys) {
        auto it = m_object.find(key);
        if (it != m_object.end() && !it->is_null()) {
            if (found)
                *found = key;
            return &*it;
        }
    }
    return nullptr;
}

int64_t JsonReader::integer(std::initializer_list<const char*> keys, int64_t lo, int64_t hi,
                            int64_t fallback)
{
    const char* key = nullptr;
    const nlohmann::json* value = find(keys, &key);
    if (!value)
        return fallback;
    const std::string accepted =
        "an integer from " + formatInteger(lo) + " to " + formatInteger(hi);
    double v = 0;
    if (value->is_number_unsigned()) {
        const auto u = value->get<uint64_t>();
        if (u > uint64_t(hi) || (lo > 0 && u < uint64_t(lo))) {
            fail(key, describeJson(*value), accepted);
            return fallback;
        }
        return int64_t(u);
    }
    if (value->is_number_integer()) {
        const auto i = value->get<int64_t>();
        if (i < lo || i > hi) {
            fail(key, describeJson(*value), accepted);
            return fallback;
        }
        return i;
    }
    if (value->is_number_float())
        v = value->get<double>();
    if (!value->is_number_float() || !std::isfinite(v) || v != std::floor(v) || v < double(lo) ||
        v > double(hi)) {
        fail(key, describeJson(*value), accepted);
        return fallback;
    }
    return int64_t(v);
}

double JsonReader::number(std::initializer_list<const char*> keys, double lo, double hi,
                          double fallback)
{
    const char* key = nullptr;
    const nlohmann::json* value = find(keys, &key);
    if (!value)
        return fallback;
    const double v = value->is_number() ? value->get<double>() : NAN;
    if (!std::isfinite(v) || v < lo || v > hi) {
        fail(key, describeJson(*value),
             "a number from " + formatPlain(lo) + " to " + formatPlain(hi));
        return fallback;
    }
    return v;
}

bool JsonReader::boolean(std::initializer_list<const char*> keys, bool fallback)
{
    const char* key = nullptr;
    const nlohmann::json* value = find(keys, &key);
    if (!value)
        return fallback;
    if (!value->is_boolean()) {
        fail(key, describeJson(*value), "true or false");
        return fallback;
    }
    return value->get<bool>();
}

std::vector<std::string> JsonReader::textList(std::initializer_list<const char*> keys)
{
    const char* key = nullptr;
    const nlohmann::json* value = find(keys, &key);
    std::vector<std::string> list;
    if (!value)
        return list;
    const char* accepted = "an array of at most 1,000 strings of at most 256 characters";
    if (!value->is_array() || value->size() > 1000) {
        fail(key, describeJson(*value), accepted);
        return {};
    }
    for (const nlohmann::json& item : *value) {
        if (!item.is_string() || item.get_ref<const std::string&>().size() > 256) {
            fail(key, describeJson(item), accepted);
            return {};
        }
        list.push_back(item.get<std::string>());
    }
    return list;
}

std::string JsonReader::text(std::initializer_list<const char*> keys, const std::string& fallback)
{
    const char* key = nullptr;
    const nlohmann::json* value = find(keys, &key);
    if (!value)
        return fallback;
    if (!value->is_string()) {
        fail(key, describeJson(*value), "a string");
        return fallback;
    }
    std::string s = value->get<std::string>();
    if (s.size() > 4096) {
        fail(key, "a string of " + std::to_string(s.size()) + " characters",
             "at most 4,096 characters");
        return fallback;
    }
    return s;
}

void JsonReader::require(std::initializer_list<const char*> keys)
{
    if (!find(keys))
        fail(*keys.begin(), "", "a value (none of the accepted spellings is present)");
}

} // namespace kvscope
