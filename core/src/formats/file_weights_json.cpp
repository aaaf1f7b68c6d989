// SPDX-License-Identifier: GPL-3.0-or-later
#include "formats/file_weights_json.h"

#include "kvscope/formats/checked_json.h"

namespace kvscope {

namespace {

constexpr double kMaxAmount = 1e16; // elements or bytes: 10^16 is far past any model

template <typename Roles, typename Visit> void eachRole(Roles& roles, Visit visit)
{
    visit("embedding", roles.embedding);
    visit("lm_head", roles.lmHead);
    visit("attention", roles.attention);
    visit("dense_mlp", roles.denseMlp);
    visit("experts", roles.experts);
    visit("other", roles.other);
}

nlohmann::json rolesToJson(const WeightRoles& roles)
{
    nlohmann::json j = nlohmann::json::object();
    eachRole(roles, [&](const char* name, const double& value) { j[name] = value; });
    return j;
}

std::optional<FieldError> rolesFromJson(const nlohmann::json& object, const std::string& field,
                                        WeightRoles& roles)
{
    if (!object.is_object())
        return FieldError{field, describeJson(object),
                          "an object of amounts by role (embedding, "
                          "lm_head, attention, dense_mlp, experts, other)"};
    JsonReader r(object, field);
    eachRole(roles,
             [&](const char* name, double& value) { value = r.number({name}, 0, kMaxAmount, 0); });
    return r.error();
}

} // namespace

nlohmann::json fileWeightsToJson(const FileWeights& w)
{
    return {{"file_type", w.fileType},
            {"elements", rolesToJson(w.elements)},
            {"bytes", rolesToJson(w.bytes)}};
}

std::optional<FieldError> fileWeightsFromJson(const nlohmann::json& config,
                                              const std::string& prefix, FileWeights& out)
{
    const auto it = config.find(kFileWeightsKey);
    if (it == config.end() || it->is_null())
        return std::nullopt;
    const std::string field = prefix + "." + kFileWeightsKey;
    if (!it->is_object())
        return FieldError{field, describeJson(*it), "an object with file_type, elements and bytes"};
    JsonReader r(*it, field);
    FileWeights w;
    w.fileType = r.text({"file_type"}, "");
    if (r.error())
        return r.error();
    for (auto [key, roles] : {std::pair{"elements", &w.elements}, std::pair{"bytes", &w.bytes}}) {
        const auto part = it->find(key);
        if (part == it->end())
            return FieldError{field + "." + key, "", "an object of amounts by role"};
        if (auto error = rolesFromJson(*part, field + "." + key, *roles))
            return error;
    }
    if (!w.present())
        return FieldError{field + ".elements", "0", "at least one weight element"};
    out = std::move(w);
    return std::nullopt;
}

} // namespace kvscope
