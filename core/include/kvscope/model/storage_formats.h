// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace kvscope {

// How an engine holds MoE expert weights on one GPU architecture when that differs from the
// checkpoint: kernels that want padded dimensions, or scales kept twice after a re-layout.
struct ExpertLayout
{
    double minComputeCapability = 0; // CUDA compute capability range the layout applies to
    double maxComputeCapability = 0;
    int64_t intermediateMultiple = 1; // each GPU's expert intermediate size rounded up to this
    int64_t hiddenMultiple = 1;       // the hidden size rounded up to this
    int scaleCopies = 1;              // copies of the group scales left resident (1 or 2)
};

// How weights are stored (resources/catalog/weight_formats.json).
struct WeightFormat
{
    std::string id;                // "fp16", "gptq-int4", "q4_k_m", ...
    std::string name;              // "GGUF Q4_K_M"
    std::string family;            // float, int, gptq, awq, bnb, mx, gguf
    double bitsPerWeight = 16;     // effective bits of quantized linear layers, scales included
    double embeddingBits = 16;     // bits of token embeddings and lm_head under this format
    bool expertsOnly = false;      // only routed MoE experts take bitsPerWeight; attention, dense
                                   // MLPs and the rest stay at embeddingBits (vLLM's MXFP4)
    int groupSize = 0;             // quantization group; 0 = not grouped
    bool dequantizes = false;      // kernels unpack to FP16 before the matmul
    std::string compute = "fp16";  // tensor-core precision the matmuls run at: fp16, fp8, int8
    double kernelEfficiency = 1.0; // share of the FP16 kernels' achieved bandwidth this format's
                                   // decode kernels reach (dequantizing costs instructions)
    std::vector<ExpertLayout> expertLayouts; // by GPU architecture; none = as the checkpoint
    std::string source;
};

// How KV cache elements are stored (resources/catalog/kv_dtypes.json).
struct KvDtype
{
    std::string id; // "fp16", "fp8", "q8_0", ...
    std::string name;
    double bitsPerElement = 16;   // effective storage per element, scales included
    double scaleOverheadBits = 0; // the part of bitsPerElement spent on scales / zero points
    std::string source;

    double bytesPerElement() const { return bitsPerElement / 8.0; }
};

} // namespace kvscope
