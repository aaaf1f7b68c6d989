// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Calibration: the user measured one figure for the current scenario, and kvscope fits the one
// factor that sets it, so every other prediction of the scenario moves with it.
//   decode tokens per second -> Efficiency::hbm (the share of peak memory bandwidth reached),
//                               by bisection over the factor's accepted range
//   vLLM's "GPU KV cache size" in tokens -> the engine's runtimeOverheadMiB (memory the engine
//                               holds besides weights, activations and KV), never negative
//   the activation peak one GPU holds (vLLM's profiled peak, llama.cpp's compute buffers)
//                            -> Efficiency::activationBytes (bytes per activation element)
//   the memory one GPU leaves for the KV cache (vLLM's "Available KV cache memory")
//                            -> the engine's runtimeOverheadMiB, as the KV cache size does
// Each searches with evaluate() itself, so no formula is written twice.

#include "kvscope/base/field_error.h"
#include "kvscope/catalog/catalog.h"
#include "kvscope/scenario/scenario.h"

#include <string>

namespace kvscope {

enum class CalibrationKind {
    DecodeTokensPerS,
    KvCacheTokens,
    ActivationPeakBytes,
    KvCacheMemoryBytes,
};
// "decode_tokens_per_s", "kv_cache_tokens", "activation_peak_bytes", "kv_cache_memory_bytes"
const char* calibrationKindId(CalibrationKind kind);
// "hbm_efficiency", "runtime_overhead_mib" (for both KV figures), "activation_bytes": the
// factor's setting id
const char* calibrationFactorId(CalibrationKind kind);

struct CalibrationResult
{
    CalibrationKind kind = CalibrationKind::DecodeTokensPerS;
    double measured = 0;
    double before = 0;        // predicted figure with the scenario as it was
    double after = 0;         // predicted figure with the fitted value
    double previousValue = 0; // the factor before fitting
    double fittedValue = 0;   // hbm efficiency (fraction), runtime overhead (MiB) or bytes per
                              // activation element
    double lowest = 0;        // the predicted figure over the factor's whole range, lowest and
    double highest = 0;       // highest: what fitting can reach
    bool reachable = true;    // false: the measurement lies outside [lowest, highest], and the
                              // fitted value is the end of the range nearest to it
    Scenario calibrated;      // the scenario with the fitted value and its CalibrationRecord
};

// Accepted range of the HBM efficiency: the catalog's hbm_efficiency entry, else 0.05 to 1.
std::pair<double, double> hbmEfficiencyRange(const Catalog& catalog);

// Fits the factor to `measured` (tokens per second, tokens, or bytes). Errors name "measured" when
// it is not a positive finite number, or the scenario's field when it does not evaluate.
Expected<CalibrationResult> calibrate(const Scenario& scenario, const Catalog& catalog,
                                      CalibrationKind kind, double measured);

// The predicted figure a calibration compares with: decode tokens per second, the engine's KV
// cache size in tokens, the activation peak on one GPU in bytes, or the memory one GPU leaves for
// the KV cache in bytes.
Expected<double> calibrationFigure(const Scenario& scenario, CalibrationKind kind);

} // namespace kvscope
