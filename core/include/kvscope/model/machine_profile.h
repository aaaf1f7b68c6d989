// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A machine profile: the factors fitted to one machine's own measurements (a start-up log, a
// benchmark), saved under a name so every later scenario on that machine uses them. The user's
// data directory holds them (profiles/NAME.json); scenario files carry the one they use.

#include <optional>
#include <string>
#include <string_view>

namespace kvscope {

// The factor a measured figure is fitted by: "decode_tokens_per_s" -> "hbm_efficiency",
// "kv_cache_tokens" and "kv_cache_memory_bytes" -> "runtime_overhead_mib",
// "activation_peak_bytes" -> "activation_bytes";
// nullptr for any other figure. One table for calibration, profiles and scenario files.
const char* factorFittedTo(std::string_view figure);
// The figures above, as a list for messages: "decode_tokens_per_s, kv_cache_tokens or ...".
const char* fittedFigureIds();

// One measured figure a profile was fitted to, with kvscope's prediction of it before and after.
struct ProfileFit
{
    std::string figure;  // a figure factorFittedTo() knows
    double measured = 0; // in that figure's unit
    double before = 0;
    double after = 0;
};

struct MachineProfile
{
    std::string id;      // its name: letters, digits, '.', '_' and '-'
    std::string gpu;     // the catalog GPU it was fitted on
    std::string engine;  // the engine id
    std::string release; // the engine release of the measurement ("" = the default)
    int gpus = 1;        // GPUs of the measured deployment
    std::optional<double> runtimeOverheadMiB; // the engine's memory besides weights, activations
                                              // and KV, per GPU
    std::optional<double> hbmEfficiency;      // the share of peak memory bandwidth reached
    std::optional<double> activationBytes;    // bytes per activation element at the peak
    std::optional<ProfileFit> kvFit; // the runtime overhead's: to the KV cache size, else memory
    std::optional<ProfileFit> decodeFit;
    std::optional<ProfileFit> activationFit;
    std::string source; // what it was fitted from: "start-up log vllm.log (line 12)"
};

} // namespace kvscope
