// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Names made from files: model ids from file names, text safe to write into JSON.

#include <cctype>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace kvscope {

// File names need not be UTF-8, but the ids and sources made from them end up in JSON output
// (calc --json, scenario files), whose dump() throws on invalid UTF-8: replace such bytes.
inline std::string utf8Text(const std::string& bytes)
{
    const std::string quoted =
        nlohmann::json(bytes).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return nlohmann::json::parse(quoted).get<std::string>();
}

inline std::string basenameStem(const std::filesystem::path& path)
{
    std::string stem = path.stem().string();
    if (stem == "config" && path.has_parent_path() && !path.parent_path().filename().empty())
        stem = path.parent_path().filename().string(); // ".../Llama-2-7b-hf/config.json"
    for (char& c : stem)
        c = char(std::tolower(static_cast<unsigned char>(c)));
    return stem;
}

} // namespace kvscope
