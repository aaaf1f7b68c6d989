// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// SGLang's memory defaults, which follow the GPU: its --mem-fraction-static leaves a reserve
// outside the static budget (weights and the KV pool) for activations and captured CUDA graphs,
// and its chunked prefill and decode graph batch sizes come from a table by GPU memory
// (server_args.py _handle_gpu_memory_settings; engines.json "reserved_memory").

#include <cstdint>

namespace kvscope {

struct Scenario;

struct ReservedMemoryDefaults
{
    int64_t chunkedPrefillTokens = 0; // --chunked-prefill-size
    int64_t graphMaxBatch = 0;        // --cuda-graph-max-bs
    double reservedMiB = 0;           // what --mem-fraction-static leaves out
    double memoryFraction = 0;        // (GPU memory - reserve) / GPU memory, to 3 decimals
};

// The defaults for the scenario's GPU, parallel layout and model; all 0 when its engine has no
// reserved_memory rule.
ReservedMemoryDefaults reservedMemoryDefaults(const Scenario& scenario);

} // namespace kvscope
