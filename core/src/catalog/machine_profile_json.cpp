// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/catalog/machine_profile_json.h"

#include "kvscope/formats/checked_json.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

namespace kvscope {

namespace {

nlohmann::json fitToJson(const ProfileFit& fit)
{
    return {{"figure", fit.figure},
            {"measured", fit.measured},
            {"before", fit.before},
            {"after", fit.after}};
}

std::optional<ProfileFit> fitFromJson(const nlohmann::json& j, const std::string& key,
                                      std::optional<FieldError>& error)
{
    auto it = j.find(key);
    if (it == j.end() || it->is_null())
        return std::nullopt;
    if (!it->is_object()) {
        error = FieldError{"profile." + key, describeJson(*it), "an object"};
        return std::nullopt;
    }
    JsonReader r(*it, "profile." + key);
    r.require({"figure", "measured"});
    ProfileFit fit;
    fit.figure = r.text({"figure"}, "");
    fit.measured = r.number({"measured"}, 1e-9, 1e15, 0);
    fit.before = r.number({"before"}, 0, 1e15, 0);
    fit.after = r.number({"after"}, 0, 1e15, 0);
    if (!r.error() && !(fit.measured > 0))
        r.fail("measured", std::to_string(fit.measured), "a measured figure above 0");
    if (!r.error() && !factorFittedTo(fit.figure))
        r.fail("figure", fit.figure, fittedFigureIds());
    if (r.error())
        error = r.error();
    return fit;
}

} // namespace

std::optional<FieldError> checkProfileName(const std::string& name)
{
    const bool allowed = std::all_of(name.begin(), name.end(), [](unsigned char c) {
        return std::isalnum(c) || c == '.' || c == '_' || c == '-';
    });
    if (name.empty() || name.size() > 64 || !allowed || name.front() == '.')
        return FieldError{"profile", name,
                          "a name of 1 to 64 letters, digits, '.', '_' or '-', not starting with "
                          "'.'"};
    return std::nullopt;
}

nlohmann::json machineProfileToJson(const MachineProfile& p)
{
    nlohmann::json j{{"id", p.id},           {"gpu", p.gpu},   {"engine", p.engine},
                     {"release", p.release}, {"gpus", p.gpus}, {"source", p.source}};
    if (p.runtimeOverheadMiB)
        j["runtime_overhead_mib"] = *p.runtimeOverheadMiB;
    if (p.hbmEfficiency)
        j["hbm_efficiency"] = *p.hbmEfficiency;
    if (p.activationBytes)
        j["activation_bytes"] = *p.activationBytes;
    if (p.kvFit)
        j["kv_fit"] = fitToJson(*p.kvFit);
    if (p.decodeFit)
        j["decode_fit"] = fitToJson(*p.decodeFit);
    if (p.activationFit)
        j["activation_fit"] = fitToJson(*p.activationFit);
    return j;
}

Expected<MachineProfile> machineProfileFromJson(const nlohmann::json& j)
{
    if (!j.is_object())
        return FieldError{"profile", describeJson(j), "an object"};
    JsonReader r(j, "profile");
    r.require({"id", "gpu", "engine"});
    MachineProfile p;
    p.id = r.text({"id"}, "");
    p.gpu = r.text({"gpu"}, "");
    p.engine = r.text({"engine"}, "");
    p.release = r.text({"release"}, "");
    p.gpus = int(r.integer({"gpus"}, 1, 4096, 1));
    p.source = r.text({"source"}, "");
    if (r.has("runtime_overhead_mib"))
        p.runtimeOverheadMiB = r.number({"runtime_overhead_mib"}, 0, 1024.0 * 1024.0, 0);
    if (r.has("hbm_efficiency"))
        p.hbmEfficiency = r.number({"hbm_efficiency"}, 0.01, 1.0, 1.0);
    if (r.has("activation_bytes"))
        p.activationBytes = r.number({"activation_bytes"}, 0.01, 1024.0, 2.0);
    if (r.error())
        return *r.error();
    if (auto error = checkProfileName(p.id))
        return FieldError{"profile.id", p.id, error->accepted};
    if (!p.runtimeOverheadMiB && !p.hbmEfficiency && !p.activationBytes)
        return FieldError{"profile", "no fitted factor",
                          "one or more of runtime_overhead_mib, hbm_efficiency and "
                          "activation_bytes"};
    std::optional<FieldError> error;
    p.kvFit = fitFromJson(j, "kv_fit", error);
    if (!error)
        p.decodeFit = fitFromJson(j, "decode_fit", error);
    if (!error)
        p.activationFit = fitFromJson(j, "activation_fit", error);
    if (error)
        return *error;
    return p;
}

} // namespace kvscope
