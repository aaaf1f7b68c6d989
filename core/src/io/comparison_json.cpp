// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/io/comparison_json.h"

#include <nlohmann/json.hpp>

namespace kvscope {

nlohmann::json comparisonToJson(const Comparison& c)
{
    nlohmann::json j;
    j["scenarios"] = c.names;
    j["currencies"] = c.currencies;
    j["models_differ"] = c.modelsDiffer;
    nlohmann::json& figures = j["figures"] = nlohmann::json::array();
    for (const ComparedFigure& f : c.figures) {
        nlohmann::json values = nlohmann::json::array();
        nlohmann::json changes = nlohmann::json::array();
        for (size_t i = 0; i < f.values.size(); ++i) {
            values.push_back(f.values[i] ? nlohmann::json(*f.values[i]) : nlohmann::json());
            // The first is the reference: it has no change of its own.
            const auto change = i == 0 ? std::nullopt : changeOf(f, i);
            if (!change) {
                changes.push_back(nullptr);
                continue;
            }
            changes.push_back(
                {{"absolute", change->absolute},
                 {"ratio", change->ratio ? nlohmann::json(*change->ratio) : nlohmann::json()}});
        }
        figures.push_back(
            {{"id", f.id}, {"label", f.label}, {"values", values}, {"change_vs_first", changes}});
    }
    nlohmann::json& inputs = j["inputs_that_differ"] = nlohmann::json::array();
    for (const ComparedInput& input : c.inputs)
        inputs.push_back({{"id", input.id}, {"values", input.values}});
    return j;
}

} // namespace kvscope
