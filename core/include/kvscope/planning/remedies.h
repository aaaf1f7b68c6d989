// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What to change when a scenario does not run or misses a target, in the seed article's order:
// quantize the weights (8-bit, then 4-bit), quantize the KV cache, a MoE model's experts to host
// RAM (llama.cpp --n-cpu-moe), offload weights, offload the
// KV cache, a paged serving engine, a shorter context or fewer sequences, more GPUs of the same
// kind, a larger GPU, then steps combined (4-bit weights on 4 GPUs under vLLM). Each remedy is a
// list of options (the CLI's, so `calc` applies it as the window does) and the verdict of the
// scenario it gives, evaluated by the same evaluate().

#include "kvscope/catalog/catalog.h"
#include "kvscope/planning/cost.h"
#include "kvscope/planning/verdict.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kvscope {

enum class RemedyKind {
    QuantizeWeights8,
    QuantizeWeights4,
    QuantizeKv,
    OffloadExperts,
    OffloadWeights,
    OffloadKv,
    PagedEngine,
    ShorterContext,
    FewerSequences,
    MoreGpus,
    LargerGpu,
    QuantizeOnMoreGpus,      // two steps together: fewer bits and more GPUs (and vLLM, where the
                             // engine is the problem), when neither alone runs on as few GPUs
    ShorterContextSmallerKv, // a shorter context with an 8-bit KV cache, longer than the
                             // context that runs with the cache as it is
    MoreNodes,               // the model as it is over several nodes, where one cannot hold it
};
const char* remedyId(RemedyKind kind); // "quantize_weights_8bit", ..., "larger_gpu"

using OptionList = std::vector<std::pair<std::string, std::string>>; // flag without dashes, value

struct Remedy
{
    RemedyKind kind = RemedyKind::QuantizeWeights8;
    OptionList options; // what applies it, on top of the scenario's own settings
    Scenario scenario;  // the scenario with the remedy applied
    Verdict verdict;
    // Per sequence at the remedy's batch, and sequences of its context at once; none where GPU
    // memory does not limit them (no KV on the GPU, or every layer windowed: TokensFit::room).
    std::optional<int64_t> longestContext;
    std::optional<int64_t> concurrency;
    double decodeMs = 0;   // one decode step at the remedy's placement
    double tokensPerS = 0; // all sequences together
    Cost cost;
};

// Whether the planner offers a weight format for a model: MXFP4 checkpoints exist for MoE
// experts (gpt-oss), not for dense models.
bool formatSuits(const WeightFormat& format, const ModelSpec& model);

// Remedies for `scenario` (empty when it runs and meets its targets). A remedy is listed when
// its scenario runs and meets the targets, or, for the steps that shrink memory, when it gets
// closer; the search remedies (shorter, fewer, more, larger) only when they find one that runs.
std::vector<Remedy> remedies(const Scenario& scenario, const Verdict& verdict,
                             const Catalog& catalog);

} // namespace kvscope
