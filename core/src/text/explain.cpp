// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/text/explain.h"

#include "kvscope/engines/engine_module.h"
#include "kvscope/model/roofline.h"

#include <algorithm>

namespace kvscope {

namespace {

std::string times()
{
    return " \u00d7 ";
}

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

// Experts in host RAM (llama.cpp --n-cpu-moe): what moved, per GPU, and what the CPU's share of a
// decode step costs.
void explainExpertOffload(const Scenario& s, const Evaluation& e, ByteUnits units,
                          const NumberStyle& st, const ExplainWords& w,
                          std::vector<Explanation>& out)
{
    const int64_t layers = e.engine.expertLayersOnHost;
    if (layers <= 0)
        return;
    auto bytes = [&](double b) { return formatBytes(b, units, st); };
    const double moved = e.vram.expertsOffloadedBytes * double(s.gpuCount);
    std::string text = formatInteger(layers, st) + " " + w.moeLayers + times() +
                       bytes(moved / double(layers)) + " = " + bytes(moved);
    if (s.gpuCount > 1)
        text += " \u00f7 " + formatInteger(s.gpuCount, st) +
                " GPU = " + bytes(e.vram.expertsOffloadedBytes);
    out.push_back({"experts_offloaded", text});

    const DecodeTiming& d = e.decode;
    const int64_t handovers = 2 * layers;
    out.push_back({"host_experts",
                   bytes(d.hostExpertsReadBytes) + " \u00f7 " + formatRate(d.hostExpertsGBps, st) +
                       " = " + formatDuration(d.hostExpertsReadMs, st) + "; + " +
                       formatInteger(handovers, st) + " " + w.handovers + times() +
                       formatDuration(d.hostExpertsHandoverMs / double(handovers), st) + " = " +
                       formatDuration(d.hostExpertsMs, st)});
}

// What the KV cache in host memory is read at: the unified memory itself on Apple silicon, else
// the PCIe link, or the host memory when that is the slower of the two.
std::string hostLinkArithmetic(const Scenario& s, const Evaluation& e, const NumberStyle& st,
                               const ExplainWords& w)
{
    auto num = [&](double v, int d) { return formatNumber(v, d, st); };
    const std::string result = " = " + formatRate(e.decode.pcieEffectiveGBps, st);
    if (s.gpu.unifiedMemory)
        return w.unifiedMemory + " " + formatRate(s.gpu.bandwidthGBps, st) + times() +
               num(s.efficiency.hbm, 2) + result;
    const double link = s.pcie.laneGBps() * s.pcieLanes * s.efficiency.pcieProtocol;
    const std::string linkText = formatInteger(s.pcieLanes, st) + " " + w.lanes + times() +
                                 num(s.pcie.gtPerS, 0) + " GT/s" + times() +
                                 num(s.pcie.encodingEfficiency, 4) + " \u00f7 8" + times() +
                                 num(s.efficiency.pcieProtocol, 2);
    if (e.decode.pcieEffectiveGBps < link - 1e-9) // the slower of the two sets the pace
        return linkText + " = " + formatRate(link, st) + "; " + w.hostMemory + " " +
               formatRate(s.hostBandwidthGBps(), st) + times() + num(s.efficiency.hostMemory, 2) +
               result;
    return linkText + result;
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
    std::string weights() const;
    std::string fit() const;
    std::string decode() const;
    std::string longestContext() const;

    // The driver keeps part of the board's memory; engines budget from what CUDA reports.
    std::string capacity() const
    {
        return bytes(s.gpu.memoryGiB * 1073741824.0) + times() + num(s.gpu.usableFraction, 4) +
               " = " + bytes(e.vram.capacityBytes) + " " + w.cudaReports;
    }
    // Time to first token (the verdict's ttftMs): the prompt's prefill, then one decode step.
    std::string ttft() const
    {
        const DecodeTiming& d = e.decode;
        return formatDuration(e.breakeven.recomputeMs, st) + " " + w.prefill + " + " +
               formatDuration(d.selectedMs, st) + " " + w.firstStep + " = " +
               formatDuration(e.breakeven.recomputeMs + d.selectedMs, st);
    }

private:
    std::string bytes(double b) const { return formatBytes(b, units, st); }
    std::string num(double v, int d) const { return formatNumber(v, d, st); }
    std::string integer(int64_t v) const { return formatInteger(v, st); }
    // Split by layers (llama.cpp, pipeline parallel), each GPU holds its share of the layers.
    std::string layerShare() const
    {
        return s.engine.layerSplit && s.gpuCount > 1 ? " \u00f7 " + integer(s.gpuCount) + " GPU"
                                                     : "";
    }
    std::string weightTerms() const;
    std::string decodeAdditions() const;
    std::string kvOverlap(double kvMs) const;

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
           integer(m.kvLayers()) + " " + w.layers + layerShare() + " = " +
           bytes(e.kv.bytesPerToken);
}

std::string Explainer::kvTotal() const
{
    std::string total = bytes(e.kv.bytesPerTokenPerLayer) + times() + "(" +
                        integer(s.model.kvLayers() - e.kv.windowedLayers) + " " + w.layers +
                        times() + integer(s.context) + " " + w.tokens;
    if (e.kv.windowedLayers > 0)
        total += " + " + integer(e.kv.windowedLayers) + " " + w.layers + times() +
                 integer(e.kv.tokensHeldPerWindowedLayer) + " " + w.tokens;
    total += ")";
    if (s.batch > 1)
        total += times() + integer(s.batch) + " " + w.sequences;
    total += layerShare();
    // A hybrid model's recurrent layers hold one fixed state per sequence besides.
    if (e.kv.stateBytesPerSequence > 0)
        total += " + " + (s.batch > 1 ? integer(s.batch) + " " + w.sequences + times() : "") +
                 bytes(e.kv.stateBytesPerSequence) + " " + w.recurrentState;
    return total + " = " + bytes(e.kv.totalBytes);
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
    // What the GPU holds of them, when part lives in host RAM (offload, -ngl, --n-cpu-moe).
    if (v.weightsOffloadedBytes > 0.5)
        weights += "; " + bytes(v.weightsBytes + v.weightsOffloadedBytes) + " \u2212 " +
                   bytes(v.weightsOffloadedBytes) + " " + w.inHostRam + " = " +
                   bytes(v.weightsBytes);
    return weights;
}

std::string Explainer::fit() const
{
    const VramSplit& v = e.vram;
    std::string fit = bytes(v.capacityBytes) + times() + num(s.effectiveMemoryFraction(), 2) +
                      " \u2212 " + bytes(v.weightsBytes) + " " + w.weights + " \u2212 " +
                      bytes(v.kvCacheBytes) + " " + w.kvCache + " \u2212 " +
                      bytes(v.activationBytes) + " " + w.activations + " \u2212 " +
                      bytes(v.overheadBytes) + " " + w.overhead + " = ";
    fit += v.fits ? bytes(v.freeBytes) + " " + w.free : w.overflows + " " + bytes(-v.freeBytes);
    return fit;
}

// What a decode step adds to reading weights and KV: compute, offloaded weights, host work,
// fixed costs, the GPU link, and KV read from where it is placed.
// How the KV's copy meets the GPU's step: after it (serial, --prefetch off), or layer by layer
// beside it (pipelined), where only one layer's share of the shorter stream sticks out.
std::string Explainer::kvOverlap(double kvMs) const
{
    const DecodeTiming& d = e.decode;
    if (!s.prefetchKv)
        return "; serial: " + formatDuration(d.gpuMs, st) + " + " + formatDuration(kvMs, st) +
               " = " + formatDuration(d.selectedMs, st);
    return "; pipelined: " + formatDuration(std::max(d.gpuMs, kvMs), st) + " + " +
           formatDuration(std::min(d.gpuMs, kvMs), st) + " \u00f7 " + integer(s.model.layers) +
           " " + w.layers + " = " + formatDuration(d.selectedMs, st);
}

std::string Explainer::decodeAdditions() const
{
    const DecodeTiming& d = e.decode;
    std::string decode;
    if (d.computeBound)
        decode += "; compute " + formatDuration(d.computeMs, st);
    if (d.weightsOffloadMs > 0)
        decode += "; + " + w.weights + " " + formatDuration(d.weightsOffloadMs, st);
    const std::pair<const std::string&, double> extras[] = {{w.cpuExperts, d.hostExpertsMs},
                                                            {w.cpuLayers, d.hostLayersMs},
                                                            {w.fixedCost, d.fixedMs},
                                                            {w.gpuLink, d.interconnectMs}};
    for (const auto& [word, ms] : extras)
        if (ms > 0)
            decode += "; + " + word + " " + formatDuration(ms, st);
    if (s.kvPlacement != KvPlacement::Gpu) {
        const double rate = s.kvPlacement == KvPlacement::Nvme   ? d.nvmeEffectiveGBps
                            : s.kvPlacement == KvPlacement::Sata ? d.sataEffectiveGBps
                                                                 : d.pcieEffectiveGBps;
        const double kvMs = transferMs(e.kv.totalBytes, rate);
        decode += "; " + w.kvCache + " " + bytes(e.kv.totalBytes) + " \u00f7 " +
                  formatRate(rate, st) + " = " + formatDuration(kvMs, st);
        // llama.cpp attends KV in host RAM on the CPU (-nkvo): no copy to overlap.
        const bool copied =
            !(s.kvPlacement == KvPlacement::CpuRam && engineModule(s.engine).computesOnHost(s));
        decode += copied ? kvOverlap(kvMs) : " \u2192 " + formatDuration(d.selectedMs, st);
    }
    return decode;
}

std::string Explainer::decode() const
{
    const DecodeTiming& d = e.decode;
    const std::string achieved =
        formatRate(s.gpu.bandwidthGBps, st) + times() + num(s.efficiency.hbm, 2);
    std::string decode;
    if (s.weights.kernelEfficiency < 1.0) // dequantizing kernels read weights more slowly than KV
        decode = bytes(d.gpuWeightsReadBytes) + " " + w.weights + " \u00f7 (" + achieved + times() +
                 num(s.weights.kernelEfficiency, 2) + ") + " + bytes(d.gpuKvReadBytes) + " " +
                 w.kvCache + " \u00f7 (" + achieved + ") = " + formatDuration(d.memoryMs, st);
    else
        decode = "(" + bytes(d.gpuWeightsReadBytes) + " " + w.weights + " + " +
                 bytes(d.gpuKvReadBytes) + " " + w.kvCache + ") \u00f7 (" + achieved +
                 ") = " + formatDuration(d.memoryMs, st);
    decode += decodeAdditions();
    return decode + " \u2192 " + formatTokensPerSecond(d.tokensPerS, st) + " " + w.tokensPerS;
}

// Tokens of the whole pool first (the figure beside it), then each sequence's share.
// A hybrid's every sequence holds its recurrent state besides its tokens' KV.
std::string Explainer::longestContext() const
{
    if (e.tokensFit.room == KvRoom::NotOnGpu)
        return w.kvNotOnGpu;
    if (e.tokensFit.contextUnbounded(e.tokensFit.model))
        return w.kvStopsGrowing;
    const std::string room = bytes(std::max(0.0, e.tokensFit.freeForKvBytes)) + " " + w.forKv;
    const std::string state =
        e.kv.stateBytesPerSequence > 0
            ? " \u2212 " + bytes(e.kv.stateBytesPerSequence) + " " + w.recurrentState
            : std::string();
    std::string longest = (state.empty() ? room : "(" + room + state + ")") + " \u00f7 " +
                          bytes(e.kv.bytesPerToken) + " " + w.perToken + " = " +
                          integer(e.tokensFit.model) + " " + w.tokens;
    if (s.batch > 1 && !state.empty())
        longest += "; (" + room + " \u00f7 " + integer(s.batch) + " " + w.sequences + state +
                   ") \u00f7 " + bytes(e.kv.bytesPerToken) + " = " +
                   integer(e.tokensFit.perSequence) + " " + w.perSequence;
    else if (s.batch > 1)
        longest += "; \u00f7 " + integer(s.batch) + " " + w.sequences + " = " +
                   integer(e.tokensFit.perSequence) + " " + w.perSequence;
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
    out.push_back({"decode", x.decode()});
    out.push_back({"ttft", x.ttft()});
    explainExpertOffload(s, e, units, st, w, out);
    out.push_back({"longest_context", x.longestContext()});
    out.push_back({"pcie", hostLinkArithmetic(s, e, st, w)});
    return out;
}

std::string explanationFor(const std::vector<Explanation>& all, const std::string& id)
{
    for (const Explanation& e : all)
        if (e.id == id)
            return e.arithmetic;
    return {};
}

} // namespace kvscope
