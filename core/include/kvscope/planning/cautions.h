// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What runs but deserves a second look: a context past what the model was trained on, a GPU
// filled so close to its budget that the engine's allocator may not find room, and a setting the
// chosen engine does not have (a q4_0 KV cache under vLLM, vLLM on Apple silicon). The headline
// strip, `calc` (text and JSON) and the report state the same cautions.

#include "kvscope/base/number_format.h"
#include "kvscope/evaluation/evaluation.h"
#include "kvscope/planning/verdict.h"

#include <string>
#include <vector>

namespace kvscope {

enum class CautionKind {
    ContextBeyondModel,
    LowHeadroom,
    EngineLacksSetting,
    LossyWeights,  // weights below 8 bits that are not the checkpoint's own format
    LossyKvCache,  // a KV cache below 8 bits
    GeForceLicence // a GeForce card where a datacenter may deploy it (the planner's rows)
};
// "context_beyond_model", "low_headroom", "engine_lacks_setting", "lossy_weights",
// "lossy_kv_cache", "geforce_licence"
const char* cautionId(CautionKind kind);

// Below this many bits a format is a lossy choice the user should weigh (8-bit formats keep
// accuracy within about 1 %; the cautions' sources measure what 4 bits cost).
inline constexpr double kLossyBits = 8;

// Which setting an engine lacks.
enum class EngineSetting { Weights, KvDtype, KvPlacement, GpuVendor };

// Below this share of the engine's budget left free, a fit is shown as a caution: PyTorch's
// caching allocator fragments, and activation peaks vary with the batch's prompt lengths, by
// more than a few percent of the memory it manages.
inline constexpr double kLowHeadroomShare = 0.05;

struct Caution
{
    CautionKind kind;
    double value = 0; // the context (tokens), or the free bytes per GPU
    double limit = 0; // the model's maximum context (tokens), or the engine's budget per GPU
    // EngineLacksSetting: which setting, its value, and the values the engine offers.
    EngineSetting setting = EngineSetting::Weights;
    std::string engine; // its display name
    std::string given;
    std::vector<std::string> offered;
    std::string source; // where what the caution says was measured or written (a URL)
};

// The cautions of the scenario's formats alone: weights and a KV cache below kLossyBits (the
// planner notes them on its rows; cautionsOf includes them).
std::vector<Caution> formatCautions(const Scenario& scenario);

// The caution for a GeForce card deployed in a datacenter (the planner adds it to such rows).
Caution geForceLicenceCaution();
bool isGeForce(const GpuSpec& gpu);

std::vector<Caution> cautionsOf(const Scenario& scenario, const Evaluation& evaluation,
                                const Verdict& verdict);

// The caution in English, e.g. "Caution: a context of 8,192 tokens is past the model's trained
// maximum of 4,096; quality past it is not assured." The window writes its own.
std::string cautionText(const Caution& caution, ByteUnits units, const NumberStyle& style = {});

} // namespace kvscope
