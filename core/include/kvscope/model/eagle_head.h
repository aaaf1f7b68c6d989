// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An EAGLE draft head (Li et al., EAGLE and EAGLE-3): one decoder layer fed the model's own
// hidden states, drafting tokens for speculative decoding. Trained heads follow the model's
// shape, so kvscope derives one from the model rather than reading the head's checkpoint.

#include "kvscope/model/model_spec.h"
#include "kvscope/model/parameters.h"

namespace kvscope {

// vLLM's methods "eagle" and "eagle3" (SGLang's --speculative-algorithm EAGLE and EAGLE3).
enum class EagleMethod { Off, Eagle, Eagle3 };

const char* eagleMethodId(EagleMethod method);   // "off", "eagle", "eagle3"
const char* eagleMethodName(EagleMethod method); // "EAGLE", "EAGLE-3" (as its papers write it)

struct EagleHead
{
    ModelSpec layer;     // its decoder layer as a one-layer model (attention as the model's)
    ParameterCount held; // what it loads beside the model: the layer, fc, EAGLE-3's own lm_head
    // What one drafted token reads: the held weights, and for EAGLE the model's lm_head, which
    // it shares (EAGLE-3 has its own over a smaller vocabulary).
    ParameterCount read;
    double fc = 0;        // of held, the fc joining hidden states: whole on every GPU
    int64_t mlpWidth = 0; // the layer's dense MLP
    int64_t vocab = 0;    // the vocabulary its lm_head scores
};

// The head for `model` (not MLA: DeepSeek drafts with its MTP layers). Off gives an empty head.
EagleHead eagleHead(const ModelSpec& model, EagleMethod method);

} // namespace kvscope
