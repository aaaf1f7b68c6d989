// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A machine profile fitted to a start-up log (planning/log_check.h): the engine's runtime
// overhead to the KV cache size the log states, and, given a decode speed measured on the same
// machine (or the one llama.cpp logs for its run), the memory bandwidth efficiency to it. Both fits
// are calibrate()'s, on the log's own scenario, so every later scenario on that machine moves with
// them.

#include "kvscope/planning/log_check.h"

#include <optional>
#include <string>

namespace kvscope {

// Why a profile cannot be fitted to the check (before a name is given), nothing when it can: the
// errors below but "profile" and "measured".
std::optional<FieldError> whyNoProfile(const LogCheck& check,
                                       std::optional<double> decodeTokensPerS);

// Errors name "profile" (a name no file can take), "gpu" (the log names no GPU of the catalog:
// a profile belongs to one), "model" (nothing was predicted), "log" (nothing to fit: no KV cache
// size in tokens and no decode speed) or "measured" (no factor reaches the measurement).
Expected<MachineProfile> profileFromLog(const LogCheck& check, const Catalog& catalog,
                                        const std::string& name,
                                        std::optional<double> decodeTokensPerS,
                                        const std::string& logName);

} // namespace kvscope
