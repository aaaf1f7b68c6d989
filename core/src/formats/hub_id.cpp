// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/formats/hub_id.h"

#include <algorithm>
#include <cctype>

namespace kvscope {

namespace {

constexpr const char* kAccepted =
    "hf:ORG/NAME or hf:ORG/NAME@REVISION (letters, digits, '-', '_' and '.')";

bool validPart(const std::string& part, size_t maxLength, bool slashes)
{
    if (part.empty() || part.size() > maxLength)
        return false;
    const bool charsOk = std::all_of(part.begin(), part.end(), [&](unsigned char c) {
        return std::isalnum(c) || c == '-' || c == '_' || c == '.' || (slashes && c == '/');
    });
    const auto edge = [](char c) { return c == '-' || c == '.' || c == '/'; };
    return charsOk && !edge(part.front()) && !edge(part.back()) &&
           part.find("..") == std::string::npos && part.find("//") == std::string::npos;
}

} // namespace

bool isHubReference(const std::string& value)
{
    return value.rfind("hf:", 0) == 0;
}

Expected<HubId> parseHubId(const std::string& value)
{
    if (!isHubReference(value))
        return FieldError{"model", value, kAccepted};
    std::string rest = value.substr(3);
    HubId id;
    if (const size_t at = rest.find('@'); at != std::string::npos) {
        id.revision = rest.substr(at + 1);
        rest.resize(at);
        if (!validPart(id.revision, 128, true))
            return FieldError{"model", value, kAccepted};
    }
    const size_t slash = rest.find('/');
    if (slash == std::string::npos || !validPart(rest.substr(0, slash), 96, false) ||
        !validPart(rest.substr(slash + 1), 96, false))
        return FieldError{"model", value, kAccepted};
    id.repo = rest;
    return id;
}

std::string hubCachePath(const HubId& id)
{
    std::string folder = id.repo;
    if (id.revision != "main") {
        std::string revision = id.revision;
        std::replace(revision.begin(), revision.end(), '/', '_'); // one folder per revision
        folder += "@" + revision;
    }
    return folder + "/config.json";
}

} // namespace kvscope
