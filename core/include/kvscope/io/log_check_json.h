// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// `kvscope-cli check-log --json`: what the log states, the scenario options built from it and
// each logged figure beside its prediction (bytes in bytes, ratios as numbers).

#include "kvscope/planning/log_check.h"

#include <nlohmann/json.hpp>

namespace kvscope {

nlohmann::json startupLogToJson(const StartupLog& log);
nlohmann::json logCheckToJson(const LogCheck& check);

} // namespace kvscope
