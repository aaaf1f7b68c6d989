// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Careful reads of untrusted JSON: every value checked for type and range before it is used,
// the first problem kept as a FieldError naming the field. Used by every importer.

#include "kvscope/base/field_error.h"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace kvscope {

class JsonReader
{
public:
    // `prefix` is prepended to field names in errors, e.g. "config" -> "config.hidden_size".
    JsonReader(const nlohmann::json& object, std::string prefix);

    bool has(const char* key) const;
    // The first key of `keys` present and not null, or nullptr.
    const nlohmann::json* find(std::initializer_list<const char*> keys,
                               const char** found = nullptr) const;

    // Integer in [lo, hi]; `fallback` when every key is absent or null. Floats are accepted only
    // when integral. A wrong type or range records an error and returns `fallback`.
    int64_t integer(std::initializer_list<const char*> keys, int64_t lo, int64_t hi,
                    int64_t fallback);
    double number(std::initializer_list<const char*> keys, double lo, double hi, double fallback);
    bool boolean(std::initializer_list<const char*> keys, bool fallback);
    std::string text(std::initializer_list<const char*> keys, const std::string& fallback);
    // An array of short strings (at most 1,000 of at most 256 characters); absent = empty.
    std::vector<std::string> textList(std::initializer_list<const char*> keys);
    // Records "missing" for `key` when it is absent.
    void require(std::initializer_list<const char*> keys);

    void fail(const std::string& key, const std::string& value, const std::string& accepted);
    const std::optional<FieldError>& error() const { return m_error; }
    std::string field(const std::string& key) const;

private:
    const nlohmann::json& m_object;
    std::string m_prefix;
    std::optional<FieldError> m_error;
};

// A JSON value shown in an error message, shortened.
std::string describeJson(const nlohmann::json& value);

} // namespace kvscope
