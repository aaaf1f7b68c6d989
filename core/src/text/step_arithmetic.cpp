// SPDX-License-Identifier: GPL-3.0-or-later
#include "text/step_arithmetic.h"

#include "kvscope/base/number_format.h"

#include <algorithm>
#include <cmath>

namespace kvscope::text_detail {

namespace {

// A cost paid per layer or per hand-over is tens of microseconds: in milliseconds to two
// decimals it would round (65 µs to 0.07 ms) and its product would not recompute.
std::string perItemCost(double us, const NumberStyle& st)
{
    return us >= 1e3 ? formatDuration(us / 1e3, st)
                     : formatNumber(us, us == std::round(us) ? 0 : 1, st) + " \u00b5s";
}

} // namespace

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
        text += "; \u00f7 " + formatInteger(s.gpuCount, st) +
                " GPU = " + bytes(e.vram.expertsOffloadedBytes);
    out.push_back({"experts_offloaded", text});

    const DecodeTiming& d = e.decode;
    const int64_t handovers = 2 * layers;
    out.push_back({"host_experts",
                   bytes(d.hostExpertsReadBytes) + " \u00f7 " + formatRate(d.hostExpertsGBps, st) +
                       " = " + formatDuration(d.hostExpertsReadMs, st) + "; + " +
                       formatInteger(handovers, st) + " " + w.handovers + times() +
                       perItemCost(d.hostExpertsHandoverMs * 1e3 / double(handovers), st) + " = " +
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

// A step's traffic between GPUs: each tensor-parallel all-reduce pays the link's latency and
// carries its share of the hidden state; each hand-over between pipeline stages pays the GPUs'
// link inside a node, the network between nodes; then the parts' sum.
std::string gpuLinkArithmetic(const DecodeTiming& d, const NumberStyle& st, const ExplainWords& w,
                              ByteUnits units)
{
    const std::string link = d.allReduceOverNvlink ? "NVLink " : "PCIe ";
    auto part = [&](int64_t count, const std::string& what, const std::string& latency,
                    double latencyUs, double bytes, double gbps, double ms) {
        return formatInteger(count, st) + " " + what + times() + "(" + latency + w.latency + " " +
               formatNumber(latencyUs, 1, st) + " \u00b5s + " + formatBytes(bytes, units, st) +
               " \u00f7 " + formatRate(gbps, st) + ") = " + formatDuration(ms, st);
    };
    std::vector<std::string> parts;
    std::vector<double> partMs;
    if (d.allReduces > 0) {
        parts.push_back(part(d.allReduces, w.allReduces, link, d.allReduceLatencyUs,
                             d.allReduceBytes, d.allReduceGBps, d.allReduceMs));
        partMs.push_back(d.allReduceMs);
    }
    if (d.allToAlls > 0) {
        parts.push_back(formatInteger(d.allToAlls, st) + " " + w.allToAlls + times() +
                        formatNumber(d.allToAllUs, 1, st) +
                        " \u00b5s = " + formatDuration(d.allToAllMs, st));
        partMs.push_back(d.allToAllMs);
    }
    if (d.nodeAllReduces > 0) {
        parts.push_back(part(d.nodeAllReduces, w.allReducesBetweenNodes, "",
                             d.nodeAllReduceLatencyUs, d.nodeAllReduceBytes, d.nodeLinkGBps,
                             d.nodeAllReduceMs));
        partMs.push_back(d.nodeAllReduceMs);
    }
    if (d.gpuHandovers > 0) {
        parts.push_back(part(d.gpuHandovers, d.gpuHandovers == 1 ? w.gpuHandover : w.gpuHandovers,
                             link, d.gpuHandoverLatencyUs, d.gpuHandoverBytes, d.allReduceGBps,
                             d.gpuHandoverMs));
        partMs.push_back(d.gpuHandoverMs);
    }
    if (d.nodeHandovers > 0) {
        parts.push_back(
            part(d.nodeHandovers, d.nodeHandovers == 1 ? w.nodeHandover : w.nodeHandovers, "",
                 d.nodeHandoverLatencyUs, d.nodeHandoverBytes, d.nodeLinkGBps, d.nodeHandoverMs));
        partMs.push_back(d.nodeHandoverMs);
    }
    std::string text;
    for (const std::string& p : parts)
        text += (text.empty() ? "" : "; ") + p;
    if (partMs.size() > 1) {
        std::string sum;
        for (double ms : partMs)
            sum += (sum.empty() ? "" : " + ") + formatDuration(ms, st);
        text += "; " + sum + " = " + formatDuration(d.interconnectMs, st);
    }
    return text;
}

// A step's fixed cost, part by part: the layers' launches, the step's own host work and the MoE
// layers' routing.
std::string fixedCostArithmetic(const Scenario& s, const DecodeTiming& d, const NumberStyle& st,
                                const ExplainWords& w)
{
    if (d.fixedMs <= 0)
        return {};
    std::vector<std::string> parts;
    if (d.layerOverheadUs > 0)
        parts.push_back(formatInteger(s.model.layers, st) + " " + w.layers + times() +
                        perItemCost(d.layerOverheadUs, st));
    if (d.stepOverheadUs > 0)
        parts.push_back(formatDuration(d.stepOverheadUs / 1e3, st) + " " + w.perStep);
    if (d.moeLayerUs > 0) {
        // A MoE share below 1 (ROCm) divides the engine's own per-layer cost: both are shown.
        const double share = s.moeKernelShare();
        parts.push_back(formatInteger(s.model.moeLayers(), st) + " " + w.moeLayers + times() +
                        (share < 1.0 ? perItemCost(d.moeLayerUs * share, st) + " \u00f7 " +
                                           formatNumber(share, 2, st)
                                     : perItemCost(d.moeLayerUs, st)));
    }
    std::string sum;
    for (const std::string& part : parts)
        sum += (sum.empty() ? "" : " + ") + part;
    return sum + " = " + formatDuration(d.fixedMs, st);
}

} // namespace kvscope::text_detail
