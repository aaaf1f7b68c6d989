// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/text/explain.h"
#include "text/step_arithmetic.h"

#include "kvscope/engines/engine_module.h"
#include "kvscope/model/roofline.h"
#include "kvscope/scenario/parallel_layout.h"

#include <algorithm>
#include <cmath>

namespace kvscope {

using text_detail::times;

namespace {

// Bits with only the decimals they need: 16, 4.5, 4.156.
std::string bits(double value, const NumberStyle& st)
{
    std::string text = formatNumber(value, 3, st);
    if (text.find(st.decimalPoint) != std::string::npos) {
        while (!text.empty() && text.back() == '0')
            text.pop_back();
        if (text.size() >= st.decimalPoint.size() &&
            text.compare(text.size() - st.decimalPoint.size(), st.decimalPoint.size(),
                         st.decimalPoint) == 0)
            text.erase(text.size() - st.decimalPoint.size());
    }
    return text;
}

// One scenario's arithmetic, one line per figure. Holds what every line formats with.
class Explainer
{
public:
    Explainer(const Scenario& s, const Evaluation& e, ByteUnits units, const NumberStyle& st,
              const ExplainWords& w)
        : s(s), e(e), units(units), st(st), w(w)
    {
    }

    std::string kvPerToken() const;
    std::string kvTotal() const;
    std::string sequencesTerm() const;
    std::string weights() const;
    std::string fit() const;
    // What drafts tokens beside the model: its MTP layers, a draft model or an EAGLE head.
    const std::string& drafter() const
    {
        return s.speculative.mtp                         ? w.mtpLayers
               : s.speculative.eagle != EagleMethod::Off ? w.eagleHead
                                                         : w.draftModel;
    }
    // What a token adds to a drafter's layers, after the model's own.
    std::string draftKvTerm() const
    {
        return e.kv.draftBytesPerToken > 0
                   ? " + " + bytes(e.kv.draftBytesPerToken) + " " + drafter()
                   : std::string();
    }
    // Layers holding KV beyond the model's: the MTP layers vLLM loads to draft tokens.
    std::string mtpLayersNote() const
    {
        return e.kv.layers > s.model.kvLayers() ? w.noteOpen + w.mtpIncluded + w.noteClose
                                                : std::string();
    }
    // Drafting with MTP layers: tokens a step yields, the step that drafts and checks them.
    std::string speculative() const
    {
        const SpeculativeTiming& x = e.speculative;
        const std::string tokens = num(x.tokensPerStep, 2);
        const std::string step = formatDuration(x.stepMs, st);
        return speculativeTokensPerStep(x, st) + "; " + formatDuration(x.verifyMs, st) + " + " +
               integer(x.draftTokens) + " \u00d7 " + formatDuration(x.draftMs, st) + " = " + step +
               "; " + integer(s.batch) + " \u00d7 " + tokens + " \u00f7 " + step + " = " +
               formatTokensPerSecond(x.tokensPerS, st) + " " + w.tokensPerS;
    }
    // The engine's own memory, and beside it the LoRA adapters' slots.
    std::string overhead() const
    {
        const VramSplit& v = e.vram;
        return bytes(v.overheadBytes - v.loraBytes) + " " + w.runtimeAndGraphs + " + " +
               bytes(v.loraBytes) + " " + w.loraSlots + w.noteOpen + integer(s.lora.maxLoras) +
               " \u00d7 " + w.rank + " " + integer(s.lora.maxRank) + w.noteClose + " = " +
               bytes(v.overheadBytes);
    }
    std::string decode() const;
    std::string longestContext() const;

    // The driver keeps part of the board's memory; engines budget from what CUDA reports.
    std::string capacity() const
    {
        return bytes(s.gpu.memoryGiB * 1073741824.0) + times() + num(s.gpu.usableFraction, 4) +
               " = " + bytes(e.vram.capacityBytes) + " " + w.cudaReports;
    }
    // Time to first token (the verdict's ttftMs): the prompt's prefill, then one decode step.
    // It names its prompt: a full-context one, alone, unlike serving's request among its users.
    std::string ttft() const
    {
        const DecodeTiming& d = e.decode;
        return formatDuration(e.breakeven.recomputeMs, st) + " " + w.prefill + " + " +
               formatDuration(d.selectedMs, st) + " " + w.firstStep + " = " +
               formatDuration(e.breakeven.recomputeMs + d.selectedMs, st) + w.noteOpen +
               integer(s.context) + w.tokenPromptAlone + w.noteClose;
    }

private:
    std::string bytes(double b) const { return formatBytes(b, units, st); }
    std::string num(double v, int d) const { return formatNumber(v, d, st); }
    std::string integer(int64_t v) const { return formatInteger(v, st); }
    // Split by layers (llama.cpp, pipeline parallel), each GPU holds its share of the layers.
    std::string layerShare() const { return pipelineWays(s) > 1 ? " \u00f7 " + stages() : ""; }
    // The pipeline's stages: every GPU under a layer split, else one per node.
    std::string stages() const
    {
        return integer(pipelineWays(s)) + (s.engine.layerSplit ? " GPU" : " " + w.nodes);
    }
    std::string weightTerms() const;
    // A named term of a decode step's sum.
    struct Term
    {
        std::string word;
        double ms;
    };
    std::string gpuReads(double kvBytes, double memoryMs) const;
    std::string stepSum(double memoryMs, const std::vector<Term>& extra, double resultMs) const;
    std::string decodeAttendedOnHost() const;
    std::string kvOverlap(double kvMs) const;
    std::string kvRoom() const;
    std::string tokensIn(const std::string& room, double roomBytes, int64_t result,
                         const std::string& unit) const;

    const Scenario& s;
    const Evaluation& e;
    ByteUnits units;
    const NumberStyle& st;
    const ExplainWords& w;
};

std::string Explainer::kvPerToken() const
{
    const ModelSpec& m = s.model;
    const std::string elem = bits(s.kvDtype.bitsPerElement / 8.0, st) + " B";
    std::string perToken;
    if (m.isMla())
        perToken = "(" + integer(m.kvLoraRank) + " " + w.latent + " + " + integer(m.qkRopeHeadDim) +
                   " RoPE)" + times() + elem;
    else
        perToken = "2 (K, V)" + times() + integer(e.kv.kvHeadsPerGpu) + " " + w.kvHeads + times() +
                   integer(m.headDim) + " " + w.headDim + times() + elem;
    return perToken + " = " + bytes(e.kv.bytesPerTokenPerLayer) + ";" + times() +
           integer(e.kv.layers) + " " + w.layers + layerShare() + draftKvTerm() + " = " +
           bytes(e.kv.bytesPerToken) + mtpLayersNote();
}

// The sequences whose KV one GPU holds: the batch, or under data-parallel attention its share,
// "× 8 sequences (64 ÷ 8 attention ranks)".
std::string Explainer::sequencesTerm() const
{
    const int ranks = attentionRanks(s);
    if (s.batch <= 1 && ranks <= 1)
        return "";
    std::string term = times() + integer(e.kv.sequencesPerGpu) + " " + w.sequences;
    if (ranks > 1)
        term += w.noteOpen + integer(s.batch) + " \u00f7 " + integer(ranks) + " " +
                w.attentionRanks + w.noteClose;
    return term;
}

std::string Explainer::kvTotal() const
{
    // A draft model's layers hold every token beside the model's (no windows: validate()).
    if (e.kv.draftBytesPerToken > 0)
        return "(" + bytes(e.kv.bytesPerTokenPerLayer) + times() + integer(e.kv.layers) + " " +
               w.layers + layerShare() + draftKvTerm() + ")" + times() + integer(s.context) + " " +
               w.tokens + sequencesTerm() + " = " + bytes(e.kv.totalBytes);
    std::string total = bytes(e.kv.bytesPerTokenPerLayer) + times() + "(" +
                        integer(e.kv.layers - e.kv.windowedLayers) + " " + w.layers + times() +
                        integer(s.context) + " " + w.tokens;
    if (e.kv.windowedLayers > 0)
        total += " + " + integer(e.kv.windowedLayers) + " " + w.layers + times() +
                 integer(e.kv.tokensHeldPerWindowedLayer) + " " + w.tokens;
    total += ")" + sequencesTerm() + layerShare();
    // A hybrid model's recurrent layers hold one fixed state per sequence besides.
    if (e.kv.stateBytesPerSequence > 0)
        total +=
            " + " +
            (e.kv.sequencesPerGpu > 1 ? integer(e.kv.sequencesPerGpu) + " " + w.sequences + times()
                                      : "") +
            bytes(e.kv.stateBytesPerSequence) + " " + w.recurrentState;
    return total + " = " + bytes(e.kv.totalBytes) + mtpLayersNote();
}

// Parameters times bits, by the groups the weight format stores apart.
std::string Explainer::weightTerms() const
{
    const ParameterCount& p = e.parameters;
    // A format that quantizes experts only names them apart from everything it leaves at 16 bits.
    // Experts the engine pads or holds with extra scales are shown as it holds them.
    const ExpertStorage& x = e.experts;
    const std::string expertTerm =
        formatParameters(x.parameters, st) + " " + w.expertParameters +
        (x.padded ? w.noteOpen + w.paddedForKernel + w.noteClose : "") + times() +
        bits(x.bitsPerWeight, st) + " bit" +
        (x.scaleCopies > 1 ? w.noteOpen + w.scalesHeldTwice + w.noteClose : "");
    return s.weights.expertsOnly
               ? expertTerm + " + " + formatParameters(p.total() - p.experts, st) + " " +
                     w.otherParameters + times() + bits(s.weights.embeddingBits, st) + " bit"
               : formatParameters(p.body(), st) + " " + w.parameters + times() +
                     bits(s.weights.bitsPerWeight, st) + " bit + " +
                     formatParameters(p.embedding + p.lmHead, st) + " " + w.embeddings +
                     (p.vision > 0 ? " + " + formatParameters(p.vision, st) + " " + w.visionEncoder
                                   : "") +
                     times() + bits(s.weights.embeddingBits, st) + " bit";
}

std::string Explainer::weights() const
{
    const VramSplit& v = e.vram;
    std::string weights =
        weightTerms() + ", \u00f7 8 = " + bytes(e.weightsBytesTotal) +
        (s.gpuCount > 1 ? w.noteOpen + "\u00f7 " + integer(s.gpuCount) + " GPU" + w.noteClose : "");
    // What the GPU holds of them, when part lives in host RAM (offload, -ngl, --n-cpu-moe, the
    // input embedding llama.cpp keeps on the CPU), and the copy of a tied embedding its output
    // layer holds on the GPU besides.
    const double perGpu = e.weightsBytesTotal / double(s.gpuCount);
    const double copy = v.weightsBytes + v.weightsOffloadedBytes - perGpu;
    if (v.weightsOffloadedBytes > 0.5)
        weights += "; " + bytes(perGpu) +
                   (copy > 0.5 ? " + " + bytes(copy) + " " + w.outputCopy : std::string()) +
                   " \u2212 " + bytes(v.weightsOffloadedBytes) + " " + w.inHostRam + " = " +
                   bytes(v.weightsBytes - v.drafterBytes);
    // Beyond an even share: the attention (with vLLM, the dense layers too) every GPU holds whole
    // under data-parallel attention, the experts expert parallel cannot share out evenly.
    double held = v.weightsBytes - v.attentionReplicaBytes - v.expertSpreadBytes - v.drafterBytes;
    const std::string& whole = engineModule(s.engine).dataParallelRanksHoldDenseWhole()
                                   ? w.denseOnEachRank
                                   : w.attentionOnEachRank;
    for (const auto& [extra, word] : {std::pair(v.attentionReplicaBytes, &whole),
                                      std::pair(v.expertSpreadBytes, &w.unevenExperts)})
        if (extra > 0.5) {
            weights += "; " + bytes(held) + " + " + bytes(extra) + " " + *word + " = " +
                       bytes(held + extra);
            held += extra;
        }
    // What drafts tokens, beside the model's weights.
    if (v.drafterBytes > 0.5)
        weights += "; " + bytes(v.weightsBytes - v.drafterBytes) + " + " + bytes(v.drafterBytes) +
                   " " + drafter() + " = " + bytes(v.weightsBytes);
    return weights;
}

std::string Explainer::fit() const
{
    const VramSplit& v = e.vram;
    // SGLang's default share has three decimals (0.785); the others two.
    const double share = s.effectiveMemoryFraction();
    const int decimals = std::abs(share * 100 - std::round(share * 100)) < 1e-6 ? 2 : 3;
    std::string fit = bytes(v.capacityBytes) + times() + num(share, decimals) + " \u2212 " +
                      bytes(v.weightsBytes) + " " + w.weights + " \u2212 " + bytes(v.kvCacheBytes) +
                      " " + w.kvCache + " \u2212 " + bytes(v.activationBytes) + " " +
                      w.activations + " \u2212 " + bytes(v.overheadBytes) + " " + w.overhead +
                      " = ";
    fit += v.fits ? bytes(v.freeBytes) + " " + w.free : w.overflows + " " + bytes(-v.freeBytes);
    return fit;
}

// How the KV's copy meets the GPU's step: after it (serial, --prefetch off), or layer by layer
// beside it (pipelined), where only one layer's share of the shorter stream sticks out.
std::string Explainer::kvOverlap(double kvMs) const
{
    const DecodeTiming& d = e.decode;
    if (!s.prefetchKv)
        return "; " + w.serial + ": " + formatDuration(d.gpuMs, st) + " + " +
               formatDuration(kvMs, st) + " = " + formatDuration(d.selectedMs, st);
    return "; " + w.pipelined + ": " + formatDuration(std::max(d.gpuMs, kvMs), st) + " + " +
           formatDuration(std::min(d.gpuMs, kvMs), st) + " \u00f7 " + integer(s.model.layers) +
           " " + w.layers + " = " + formatDuration(d.selectedMs, st);
}

// The GPU's reads at its achieved bandwidth: weights (slower where dequantizing kernels read
// them) and the KV the GPU holds.
std::string Explainer::gpuReads(double kvBytes, double memoryMs) const
{
    const DecodeTiming& d = e.decode;
    const std::string achieved =
        formatRate(s.gpu.bandwidthGBps, st) + times() + num(s.efficiency.hbm, 2);
    const std::string kvTerm = bytes(kvBytes) + " " + w.kvCache;
    // The weights' own factors: a dequantizing kernel's, and ROCm's MoE kernels'.
    std::string weightFactors;
    if (s.weights.kernelEfficiency < 1.0)
        weightFactors += times() + num(s.weights.kernelEfficiency, 2);
    if (s.moeKernelShare() < 1.0)
        weightFactors += times() + num(s.moeKernelShare(), 2);
    if (!weightFactors.empty())
        return bytes(d.gpuWeightsReadBytes) + " " + w.weights + " \u00f7 (" + achieved +
               weightFactors + ")" +
               (kvBytes > 0 ? " + " + kvTerm + " \u00f7 (" + achieved + ")" : "") + " = " +
               formatDuration(memoryMs, st);
    if (kvBytes <= 0)
        return bytes(d.gpuWeightsReadBytes) + " " + w.weights + " \u00f7 (" + achieved +
               ") = " + formatDuration(memoryMs, st);
    return "(" + bytes(d.gpuWeightsReadBytes) + " " + w.weights + " + " + kvTerm + ") \u00f7 (" +
           achieved + ") = " + formatDuration(memoryMs, st);
}

// One step as its terms add up: the slower of the GPU's reads and its compute, then the work
// beside it (`extra` first: the CPU's share of the KV when it attends the KV itself).
std::string Explainer::stepSum(double memoryMs, const std::vector<Term>& extra,
                               double resultMs) const
{
    const DecodeTiming& d = e.decode;
    const bool computeBound = d.computeMs > memoryMs;
    std::vector<Term> terms = extra;
    const Term beside[] = {{w.weights, d.weightsOffloadMs},
                           {w.cpuExperts, d.hostExpertsMs},
                           {w.fixedCost, d.fixedMs},
                           {w.gpuLink, d.interconnectMs}};
    for (const Term& term : beside)
        if (term.ms > 0)
            terms.push_back(term);
    if (terms.empty() && !computeBound)
        return {}; // the reads alone are the step
    std::string sum = "; " + w.step + ": " + (computeBound ? w.compute : w.memory) + " " +
                      formatDuration(std::max(memoryMs, d.computeMs), st);
    for (const Term& term : terms)
        sum += " + " + term.word + " " + formatDuration(term.ms, st);
    return sum + " = " + formatDuration(resultMs, st);
}

// llama.cpp attends KV in host RAM on the CPU (-nkvo): no copy to overlap. The GPU reads only
// the weights; the CPU reads the KV where it lies, and each GPU layer hands its attention over.
std::string Explainer::decodeAttendedOnHost() const
{
    const DecodeTiming& d = e.decode;
    return gpuReads(0.0, d.hostKvGpuMemoryMs) + "; " + w.cpuReadsKv + " " +
           bytes(d.hostKvReadBytes) + " \u00f7 " + formatRate(d.hostKvGBps, st) + " = " +
           formatDuration(d.hostKvReadMs, st) +
           stepSum(d.hostKvGpuMemoryMs,
                   {{w.cpuReadsKv, d.hostKvReadMs}, {w.handovers, d.hostKvHandoverMs}},
                   d.selectedMs);
}

std::string Explainer::decode() const
{
    const DecodeTiming& d = e.decode;
    const bool attendedOnHost =
        s.kvPlacement == KvPlacement::CpuRam && engineModule(s.engine).computesOnHost(s);
    std::string decode;
    if (attendedOnHost) {
        decode = decodeAttendedOnHost();
    } else {
        // Layers left in host RAM (-ngl) have their KV read there, beside the GPU's step.
        std::vector<Term> host;
        if (d.hostLayersMs > 0)
            host.push_back({w.cpuLayers, d.hostLayersMs});
        decode = gpuReads(d.gpuKvReadBytes, d.memoryMs) + stepSum(d.memoryMs, host, d.gpuMs);
        if (s.kvPlacement != KvPlacement::Gpu) {
            const double rate = s.kvPlacement == KvPlacement::Nvme   ? d.nvmeEffectiveGBps
                                : s.kvPlacement == KvPlacement::Sata ? d.sataEffectiveGBps
                                                                     : d.pcieEffectiveGBps;
            const double kvMs = transferMs(e.kv.totalBytes, rate);
            decode += "; " + w.kvCache + " " + bytes(e.kv.totalBytes) + " \u00f7 " +
                      formatRate(rate, st) + " = " + formatDuration(kvMs, st) + kvOverlap(kvMs);
        }
    }
    return decode + " \u2192 " + formatTokensPerSecond(d.tokensPerS, st) + " " + w.tokensPerS;
}

// The room the whole model's KV would have: each GPU holds only its share of the layers (layer
// split, -ngl), so its free memory stands for that share of every token's KV.
std::string Explainer::kvRoom() const
{
    std::string room = bytes(std::max(0.0, e.tokensFit.freeForKvBytes)) + " " + w.forKv;
    if (pipelineWays(s) > 1)
        room += times() + stages();
    if (s.gpuLayers && *s.gpuLayers < s.model.layers)
        room += times() + integer(s.model.layers) + " " + w.layers + " \u00f7 " +
                integer(std::max<int64_t>(0, *s.gpuLayers)) + " " + w.layers + " " + w.onTheGpu;
    return room;
}

// Tokens that `room` (an expression of bytes) holds: a hybrid's sequence holds its recurrent
// state first; windowed layers stop growing at their window, past which only the full layers
// take each further token.
std::string Explainer::tokensIn(const std::string& room, double roomBytes, int64_t result,
                                const std::string& unit) const
{
    const KvFigures& kv = e.kv;
    const double state = kv.stateBytesPerSequence;
    const std::string stateTerm =
        state > 0 ? " \u2212 " + bytes(state) + " " + w.recurrentState : std::string();
    const int64_t layers = kv.layers; // the MTP layers too, where the engine loads them
    const int64_t windowed = kv.windowedLayers;
    const double window = double(s.model.slidingWindow);
    const double perLayer = kv.bytesPerTokenPerLayer;
    const bool pastWindow =
        windowed > 0 && perLayer > 0 && (roomBytes - state) / (perLayer * double(layers)) >= window;
    if (!pastWindow) {
        const std::string held = stateTerm.empty() ? room : "(" + room + stateTerm + ")";
        // Split by layers, the room is the whole model's, and so is each token's KV.
        const std::string perToken = pipelineWays(s) > 1
                                         ? "(" + bytes(perLayer) + times() + integer(layers) + " " +
                                               w.layers + draftKvTerm() + ")"
                                         : bytes(kv.bytesPerToken) + " " + w.perToken;
        return held + " \u00f7 " + perToken + " = " + integer(result) + " " + unit;
    }
    const std::string windowTerm = bytes(perLayer) + times() + integer(layers) + " " + w.layers +
                                   times() + integer(s.model.slidingWindow) + " " + w.tokens;
    return "(" + room + stateTerm + " \u2212 " + windowTerm + ") \u00f7 (" + bytes(perLayer) +
           times() + integer(layers - windowed) + " " + w.layers + ") + " +
           integer(s.model.slidingWindow) + " " + w.tokens + " = " + integer(result) + " " + unit;
}

// Tokens of the whole pool first (the figure beside it in calc), then each sequence's share
// (the figure the window and the report show).
std::string Explainer::longestContext() const
{
    const TokensFit& f = e.tokensFit;
    if (f.room == KvRoom::NotOnGpu)
        return w.kvNotOnGpu;
    if (f.contextUnbounded(f.model))
        return w.kvStopsGrowing;
    std::string room = kvRoom();
    // As the evaluation counts it: free memory over the share of the layers this GPU holds.
    const double onGpu = gpuLayerShare(s) / double(pipelineWays(s));
    const double share = std::max(0.0, f.freeForKvBytes) / onGpu;
    std::string longest;
    if (room.find(times()) != std::string::npos) { // scaled to the whole model
        longest = room + " = " + bytes(share) + "; ";
        room = bytes(share) + " " + w.forKv;
    }
    longest += tokensIn(room, share, f.model, w.tokens);
    const int64_t sequences = e.kv.sequencesPerGpu; // the batch, or its share on one GPU
    if (sequences > 1)
        longest += "; " + tokensIn(room + " \u00f7 " + integer(sequences) + " " + w.sequences,
                                   share / double(sequences), f.perSequence,
                                   w.tokens + " " + w.perSequence);
    return longest;
}

} // namespace

std::vector<Explanation> explain(const Scenario& s, const Evaluation& e, ByteUnits units,
                                 const NumberStyle& st, const ExplainWords& w)
{
    const Explainer x(s, e, units, st, w);
    std::vector<Explanation> out;
    out.push_back({"kv_per_token", x.kvPerToken()});
    out.push_back({"kv_total", x.kvTotal()});
    out.push_back({"weights", x.weights()});
    if (s.gpu.usableFraction < 1.0)
        out.push_back({"capacity", x.capacity()});
    out.push_back({"fit", x.fit()});
    if (e.vram.loraBytes > 0)
        out.push_back({"overhead", x.overhead()});
    if (e.speculative.draftTokens > 0)
        out.push_back({"speculative", x.speculative()});
    out.push_back({"decode", x.decode()});
    out.push_back({"ttft", x.ttft()});
    text_detail::explainExpertOffload(s, e, units, st, w, out);
    out.push_back({"longest_context", x.longestContext()});
    out.push_back({"pcie", text_detail::hostLinkArithmetic(s, e, st, w)});
    out.push_back({"gpu_link", text_detail::gpuLinkArithmetic(e.decode, st, w, units)});
    out.push_back({"fixed_cost", text_detail::fixedCostArithmetic(s, e.decode, st, w)});
    return out;
}

std::string explanationFor(const std::vector<Explanation>& all, const std::string& id)
{
    for (const Explanation& e : all)
        if (e.id == id)
            return e.arithmetic;
    return {};
}

std::string speculativeTokensPerStep(const SpeculativeTiming& x, const NumberStyle& st)
{
    std::string sum = "1";
    double term = 1.0;
    for (int64_t i = 0; i < x.draftTokens; ++i) {
        term *= x.acceptance;
        sum += " + " + formatNumber(term, 2, st);
    }
    return sum + " = " + formatNumber(x.tokensPerStep, 2, st);
}

} // namespace kvscope
