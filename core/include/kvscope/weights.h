// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/formats.h"
#include "kvscope/parameters.h"

#include <cstdint>

namespace kvscope {

// Bytes of all weights at `format`: the body at its bits per weight (scales included), the
// embeddings and lm_head at the format's embedding precision.
double weightBytes(const ParameterCount& parameters, const WeightFormat& format);

// Share of a layer's routed experts that a decode step of `batch` tokens touches:
// 1 - (1 - k/E)^batch, the expected union of the tokens' top-k choices under uniform routing.
double expertShareTouched(const ModelSpec& model, int64_t batch);

// Bytes of weights one decode step reads: everything but the embedding table (a lookup reads
// `batch` rows), the lm_head (or the tied embedding it reuses) in full, and only touched experts.
double weightBytesReadPerStep(const ModelSpec& model, const ParameterCount& parameters,
                              const WeightFormat& format, int64_t batch);

} // namespace kvscope
