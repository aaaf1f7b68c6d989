// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A machine profile fitted to a start-up log (planning/log_check.h), in the order each figure
// depends on the one before:
//   1. bytes per activation element to the activation peak the log states (vLLM's profiled peak,
//      llama.cpp's compute buffers), held at the nearest end of its range when none reaches it;
//   2. the engine's runtime overhead to the KV cache size the log states, else to the memory it
//      leaves for the KV cache (vLLM's "Available KV cache memory");
//   3. given a decode speed measured on the same machine (or the one llama.cpp logs for its run),
//      the memory bandwidth efficiency to it.
// Every fit is calibrate()'s, on the log's own scenario, so every later scenario on that machine
// moves with them.

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
// size in tokens, no activation peak and no decode speed) or "measured" (no factor reaches the
// KV cache size or the decode speed).
Expected<MachineProfile> profileFromLog(const LogCheck& check, const Catalog& catalog,
                                        const std::string& name,
                                        std::optional<double> decodeTokensPerS,
                                        const std::string& logName);

} // namespace kvscope
