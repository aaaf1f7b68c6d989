// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The arithmetic behind each headline figure, with the scenario's numbers substituted
// ("2 x 32 KV heads x 128 head_dim x 2 B x 32 layers = 512 KiB"). One source for the window's
// hover text, the report and the CLI table, so they never disagree.

#include "kvscope/base/number_format.h"
#include "kvscope/evaluation/evaluation.h"
#include "kvscope/scenario/scenario.h"

#include <string>
#include <vector>

namespace kvscope {

// Words the arithmetic uses; the window passes translated ones.
struct ExplainWords
{
    std::string layers = "layers";
    std::string kvHeads = "KV heads";
    std::string headDim = "head_dim";
    std::string tokens = "tokens";
    std::string sequences = "sequences";
    std::string windowed = "windowed layers hold";
    std::string latent = "latent";
    std::string parameters = "parameters";
    std::string embeddings = "embeddings";
    std::string expertParameters = "expert parameters";
    std::string otherParameters = "other parameters";
    std::string paddedForKernel = "as the GPU's MoE kernel pads them";
    std::string scalesHeldTwice = "scales held twice";
    // Brackets around a note in the arithmetic (Japanese sets them full-width, without spaces);
    // grouping brackets in the formulas stay ASCII.
    std::string noteOpen = " (";
    std::string noteClose = ")";
    std::string weights = "weights";
    std::string kvCache = "KV";
    std::string activations = "activations";
    std::string overhead = "overhead";
    std::string free = "free";
    std::string forKv = "for KV";
    std::string perToken = "per token";
    std::string lanes = "lanes";
    std::string fits = "fits";
    std::string overflows = "overflows by";
    std::string fixedCost = "fixed";
    std::string gpuLink = "GPU link";
    std::string allReduces = "all-reduces";
    std::string gpuHandover = "hand-over between GPUs";
    std::string gpuHandovers = "hand-overs between GPUs";
    std::string nodeHandover = "hand-over between nodes";
    std::string nodeHandovers = "hand-overs between nodes";
    std::string allReducesBetweenNodes = "all-reduces between nodes";
    std::string attentionRanks = "attention ranks"; // "(64 ÷ 8 attention ranks)"
    std::string attentionOnEachRank = "attention whole on each rank";
    std::string denseOnEachRank = "attention and dense layers whole on each rank"; // vLLM's ranks
    std::string nodes = "nodes"; // after a count: "2 nodes"
    std::string runtimeAndGraphs = "runtime and CUDA graphs";
    std::string loraSlots = "LoRA slots"; // "705 MiB LoRA slots (8 × rank 16)"
    std::string rank = "rank";
    std::string mtpLayers = "MTP layers"; // "11.2 GiB MTP layers"
    std::string mtpIncluded = "the MTP layers included";
    std::string draftModel = "draft model";
    std::string eagleHead = "EAGLE head";                     // "0.79 GiB EAGLE head"
    std::string unevenExperts = "experts on the fullest GPU"; // expert parallel's ceil(E / GPUs)
    std::string allToAlls = "all-to-alls (DeepEP)"; // "58 all-to-alls (DeepEP) x 191.0 us"
    std::string latency = "latency";                // after "NVLink" or "PCIe"
    std::string perStep = "per step";
    std::string prefill = "prefill";
    std::string firstStep = "first decode step";
    std::string tokenPromptAlone = "-token prompt, alone"; // after the prompt's length
    std::string cpuLayers = "CPU layers";
    std::string step = "step";
    std::string memory = "memory";
    std::string compute = "compute";
    std::string cpuReadsKv = "KV read by the CPU";
    std::string serial = "serial";
    std::string pipelined = "pipelined";
    std::string onTheGpu = "on the GPU";
    std::string cpuExperts = "experts on the CPU";
    std::string moeLayers = "MoE layers";
    std::string handovers = "GPU-CPU hand-overs";
    std::string inHostRam = "in host RAM";
    std::string outputCopy = "output layer's copy of the embedding"; // llama.cpp, tied weights
    std::string cudaReports = "as CUDA reports it";
    std::string tokensPerS = "tokens/s";
    std::string unifiedMemory = "unified memory";
    std::string hostMemory = "host memory";
    std::string perSequence = "per sequence";
    std::string recurrentState = "recurrent state";
    std::string visionEncoder = "vision encoder";
    // Why the longest context has no figure (TokensFit::room).
    std::string kvNotOnGpu = "not limited by GPU memory: the KV cache is in CPU RAM";
    std::string kvStopsGrowing =
        "not limited by GPU memory: every layer keeps at most its window, so the KV cache stops "
        "growing";
};

struct Explanation
{
    std::string id; // kv_per_token, kv_total, weights, capacity, fit, decode, longest_context,
                    // pcie, experts_offloaded and host_experts (experts in host RAM)
    std::string arithmetic; // the formula with numbers, ending "= result"
};

std::vector<Explanation> explain(const Scenario& scenario, const Evaluation& evaluation,
                                 ByteUnits units, const NumberStyle& style = {},
                                 const ExplainWords& words = {});
// The one explanation with `id`, or "" when there is none.
std::string explanationFor(const std::vector<Explanation>& all, const std::string& id);

// Tokens a speculative step yields as the sum it is: the model's own token, then each drafted
// token with the chance that it and those before it are accepted: "1 + 0.80 + 0.64 = 2.44".
std::string speculativeTokensPerStep(const SpeculativeTiming& timing, const NumberStyle& style);

} // namespace kvscope
