// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Whether a scenario runs, what binds it and by how much, and whether it meets the user's
// targets: the one sentence the headline strip, the report and `calc` open with.

#include "kvscope/base/number_format.h"
#include "kvscope/evaluation/evaluation.h"
#include "kvscope/planning/host_ram.h"

#include <string>

namespace kvscope {

// What stops the scenario, in the order memory fills: the weights alone, then the activation
// peak (with the runtime overhead), then the KV cache; or the host RAM that offloading fills; or,
// before any memory, a tensor-parallel GPU count that does not divide the attention heads (the
// engine refuses to start: splitsHeadsEvenly()).
enum class Binding { None, Weights, Activations, KvCache, HostRam, HeadSplit };
const char* bindingId(Binding binding); // "none", "weights", "activations", "kv_cache", "host_ram",
                                        // "head_split"

struct Verdict
{
    bool runs = true; // fits on each GPU (and in host RAM, where its size is known)
    Binding binding = Binding::None;
    double neededBytes = 0;      // on each GPU: weights + KV + activations + overhead
    double offeredBytes = 0;     // on each GPU: the engine's budget
    double hostNeededBytes = 0;  // host RAM the offloaded weights and KV fill
    double hostOfferedBytes = 0; // host RAM (stated, or the platform's); 0 = unknown
    HostRamBasis hostRamBasis = HostRamBasis::Unknown;
    double tokensPerSUser = 0;     // decode tokens per second per sequence; 0 when it cannot run
    double ttftMs = 0;             // time to first token for a full-context prompt
    double ttftLastMs = 0;         // the last of the batch's full-context prompts sent together:
                                   // it waits for the prefills of those before it
    bool missesTokensPerS = false; // below Targets::minTokensPerSUser
    bool missesTtft = false;       // the last prompt's above Targets::maxTtftMs
    // Where the KV cache is what overflows but the engine admits requests into the KV it has
    // (continuous batching over a pool: vLLM, TGI), the sequences of this context it still runs
    // at once; the others wait. 0 where the engine allocates every sequence up front.
    int64_t runsAtOnce = 0;

    bool meetsTargets() const { return runs && !missesTokensPerS && !missesTtft; }
    double shortBytes() const; // what is missing: on each GPU, or in host RAM
};

Verdict verdictOf(const Scenario& scenario, const Evaluation& evaluation);

// `prompts` prompts sent together and prefilled one after another: the first pays its whole
// prefill (the weights read, its compute), each further one its compute.
inline double prefillsInTurnMs(double firstMs, double eachMoreMs, double prompts)
{
    return firstMs + (prompts > 1.0 ? prompts - 1.0 : 0.0) * eachMoreMs;
}

// The sentence in English, e.g. "Does not fit: needs 149 GiB on each GPU; one NVIDIA GeForce
// RTX 4090 offers 23.6 GiB. The weights alone need 131 GiB." The window writes its own from the
// same Verdict in the user's language.
std::string verdictText(const Scenario& scenario, const Verdict& verdict, ByteUnits units,
                        const NumberStyle& style = {});

} // namespace kvscope
