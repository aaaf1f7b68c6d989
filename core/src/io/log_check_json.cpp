// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/io/log_check_json.h"

#include "json_numbers.h"
#include "kvscope/text/log_check_text.h"

namespace kvscope {

nlohmann::json startupLogToJson(const StartupLog& log)
{
    nlohmann::json settings = nlohmann::json::array();
    for (const LoggedSetting& s : log.settings)
        settings.push_back({{"option", s.option}, {"value", s.value}, {"line", s.line}});
    nlohmann::json j{{"engine", log.engine},
                     {"release", log.release},
                     {"model", log.model},
                     {"model_line", log.modelLine},
                     {"gpu", log.gpuName},
                     {"gpu_line", log.gpuLine},
                     {"architecture", log.architecture},
                     {"backend", log.backend},
                     {"runs", log.runs},
                     {"settings", settings}};
    if (log.modelFileBytes > 0) { // the model file's size, where llama.cpp prints it
        j["model_file_bytes"] = log.modelFileBytes;
        j["model_file_line"] = log.modelFileLine;
    }
    return j;
}

nlohmann::json logCheckToJson(const LogCheck& check)
{
    nlohmann::json j{{"log", startupLogToJson(check.log)}};
    nlohmann::json& options = j["scenario_options"] = nlohmann::json::array();
    for (const auto& [name, value] : check.options)
        options.push_back({{"option", name}, {"value", value}});
    nlohmann::json& assumed = j["assumed"] = nlohmann::json::array();
    for (const LogAssumption assumption : check.assumed)
        assumed.push_back(assumptionText(assumption, check));
    j["predicted"] = check.predicted();
    if (check.noPrediction)
        j["not_predicted"] = check.noPrediction->message();
    nlohmann::json& rows = j["figures"] = nlohmann::json::array();
    for (const LogCheckRow& row : check.rows) {
        const std::optional<double> difference = row.differencePercent();
        nlohmann::json entry{
            {"id", logFigureId(row.figure)},
            {"logged", json_numbers::real(row.logged)},
            {"predicted", row.predicted ? json_numbers::real(*row.predicted) : nlohmann::json()},
            {"difference_percent", difference ? json_numbers::real(*difference) : nlohmann::json()},
            {"line", row.line}};
        if (!row.predicted)
            entry["null_because"] = check.predicted()
                                        ? "the figure depends on the GPU, which the log does not "
                                          "name"
                                        : "the log names no model kvscope has";
        else if (!difference)
            entry["null_because"] = "the log states 0";
        rows.push_back(std::move(entry));
    }
    j["logged_kv_cache_tokens"] = check.loggedKvCacheTokens;
    return j;
}

} // namespace kvscope
