// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/model/model_spec.h"
#include "kvscope/model/parameters.h"
#include "kvscope/model/storage_formats.h"

#include <cstdint>

namespace kvscope {

// The routed experts as the engine holds them: parameters after any padding, and bits per
// weight with every resident copy of the scales.
struct ExpertStorage
{
    double parameters = 0;
    double bitsPerWeight = 0;
    bool padded = false; // the kernel rounded the experts' dimensions up
    int scaleCopies = 1; // copies of the group scales held
};

// The format's expert layout for a GPU of `computeCapability`, split `tensorWays` ways
// tensor-parallel; the checkpoint's own layout where the format names none for that GPU.
ExpertStorage expertStorage(const ModelSpec& model, const ParameterCount& parameters,
                            const WeightFormat& format, double computeCapability, int tensorWays);

// Bytes of all weights at `format`: the body at its bits per weight (scales included), the
// embeddings and lm_head at the format's embedding precision.
double weightBytes(const ParameterCount& parameters, const WeightFormat& format);
// The same with the experts held as `experts` says.
double weightBytes(const ParameterCount& parameters, const WeightFormat& format,
                   const ExpertStorage& experts);

// `layers` decoder layers of the model's shape as a model of their own: full attention, no
// sliding windows, recurrent state, vision tower, file weights or MTP layers of their own (what
// drafts tokens beside the model: its MTP layers, an EAGLE head).
ModelSpec standaloneLayers(const ModelSpec& model, int64_t layers);

// The model's MTP layers as a model of their own (ModelSpec::mtpLayers decoder layers like its
// last ones, MoE where it is), and their parameters: those layers, and in each the projection
// joining the hidden state with the next token's embedding (eh_proj, 2 x hidden x hidden) and
// its two norms. The embedding and lm_head are the model's own, shared.
ModelSpec mtpModel(const ModelSpec& model);
ParameterCount mtpParameters(const ModelSpec& model);

// The id of the weight format a model file defines for itself (GGUF).
inline constexpr const char* kFileWeightFormatId = "file";

// The weights exactly as `model`'s file stores them: bits per weight from its tensors' bytes
// (experts apart when it has them), kernels as `like`, the catalog format nearest its type.
WeightFormat fileWeightFormat(const ModelSpec& model, const WeightFormat& like);

// Share of a layer's routed experts that a decode step of `batch` tokens touches:
// 1 - (1 - k/E)^batch, the expected union of the tokens' top-k choices under uniform routing.
double expertShareTouched(const ModelSpec& model, int64_t batch);

// Expert parallel: a layer's routed experts shared out whole over `ways` GPUs, each holding
// ceil(E / ways). A step waits for the GPU whose experts its tokens touch most: the expected
// largest of the GPUs' touched counts over their mean (each expert touched at
// expertShareTouched, independently), 1 on one GPU or when every expert is touched.
double expertParallelImbalance(const ModelSpec& model, int ways, int64_t batch);
// The routed experts of a layer the fullest GPU holds, ceil(E / ways), and their share of E.
int64_t expertsOnFullestGpu(const ModelSpec& model, int ways);
double expertParallelHeldShare(const ModelSpec& model, int ways);

// Bytes of weights one decode step reads: everything but the embedding table (a lookup reads
// `batch` rows), the lm_head (or the tied embedding it reuses) in full, and only touched experts.
double weightBytesReadPerStep(const ModelSpec& model, const ParameterCount& parameters,
                              const WeightFormat& format, int64_t batch);

} // namespace kvscope
