// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// LoRA adapter slots as vLLM and SGLang lay them out in GPU memory: per slot and layer, an A
// [rank, in] and a B [out, rank] for each linear layer, in the model's 16-bit dtype; tensor
// parallel splits a column layer's B and a row layer's A and repeats the other half.

#include "kvscope/scenario/scenario.h"

namespace kvscope::engines {

// Whether the input embedding and lm_head hold slots too: vLLM always, SGLang only with
// --lora-target-modules all.
enum class LoraEnds { Included, Left };

// Bytes on each GPU of every decoder layer's slots (and the ends'), routed experts apart.
double loraLayerSlotBytes(const Scenario& scenario, LoraEnds ends);

// Bytes on each GPU of the routed experts' slots (every expert of every MoE layer).
double loraExpertSlotBytes(const Scenario& scenario);

} // namespace kvscope::engines
