// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/text/remedy_text.h"

#include "kvscope/text/options_text.h"

#include <sstream>

namespace kvscope {

std::string remedyTitle(const Remedy& r)
{
    const Scenario& s = r.scenario;
    switch (r.kind) {
    case RemedyKind::QuantizeWeights8:
        return "Quantize the weights to 8 bits (" + s.weights.name + ")";
    case RemedyKind::QuantizeWeights4:
        return "Quantize the weights to 4 bits (" + s.weights.name + ")";
    case RemedyKind::QuantizeKv:
        return "Quantize the KV cache (" + s.kvDtype.name + ")";
    case RemedyKind::OffloadExperts:
        return "Keep the experts of the first " + formatInteger(s.cpuMoeLayers) +
               " layers in host RAM (--n-cpu-moe " + std::to_string(s.cpuMoeLayers) + ")";
    case RemedyKind::OffloadWeights:
        return s.gpuLayers ? "Keep " + formatInteger(*s.gpuLayers) + " of " +
                                 formatInteger(s.model.layers) + " layers on the GPU (-ngl)"
                           : std::string("Offload weights to CPU RAM (device_map=\"auto\")");
    case RemedyKind::OffloadKv:
        return "Keep the KV cache in CPU RAM";
    case RemedyKind::PagedEngine:
        return "Serve with " + s.engine.name + " (paged KV cache)";
    case RemedyKind::ShorterContext:
        return "Shorten the context to " + formatInteger(s.context) + " tokens";
    case RemedyKind::FewerSequences:
        return "Run " + formatInteger(s.batch) + (s.batch == 1 ? " sequence" : " sequences") +
               " at once";
    case RemedyKind::MoreGpus:
        return "Use " + std::to_string(s.gpuCount) + " x " + s.gpu.name;
    case RemedyKind::LargerGpu:
        return "Use " + (s.gpuCount > 1 ? std::to_string(s.gpuCount) + " x " : "") + s.gpu.name;
    case RemedyKind::QuantizeOnMoreGpus:
        return "Quantize the weights (" + s.weights.name + ") and use " +
               std::to_string(s.gpuCount) + " x " + s.gpu.name + " under " + s.engine.name;
    case RemedyKind::ShorterContextSmallerKv:
        return "Shorten the context to " + formatInteger(s.context) + " tokens, the KV cache in " +
               s.kvDtype.name;
    case RemedyKind::MoreNodes:
        return "Spread over " + std::to_string(s.nodes) + " nodes of " +
               std::to_string(s.gpuCount / s.nodes) + " x " + s.gpu.name + " under " +
               s.engine.name;
    }
    return "";
}

std::string remedyEffect(const Remedy& r, ByteUnits units, const NumberStyle& st)
{
    std::ostringstream out;
    if (!r.verdict.runs) {
        // Where it is short, as the verdict says: moving weights to the host can leave the GPU
        // fitting and the host RAM short.
        const Verdict& v = r.verdict;
        out << "still does not fit: ";
        if (v.binding == Binding::HostRam)
            out << "host RAM is " << formatBytes(v.shortBytes(), units, st)
                << " short (the offloaded part needs " << formatBytes(v.hostNeededBytes, units, st)
                << ", the host has " << formatBytes(v.hostOfferedBytes, units, st) << ")";
        else
            out << formatBytes(v.shortBytes(), units, st) << " short on each GPU";
        return out.str();
    }
    out << (r.verdict.meetsTargets() ? "runs" : "runs, misses a target") << "; longest context "
        << (r.longestContext ? formatInteger(*r.longestContext, st) + " tokens"
                             : std::string("not limited by GPU memory"))
        << ", "
        << (r.concurrency ? formatInteger(*r.concurrency, st) +
                                (*r.concurrency == 1 ? " sequence" : " sequences")
                          : std::string("sequences not limited by GPU memory"))
        << "; decode " << formatDuration(r.decodeMs, st) << " ("
        << formatTokensPerSecond(r.tokensPerS, st) << " tokens/s)";
    if (r.cost.known)
        out << "; " << formatNumber(r.cost.perHour, 2, st) << " " << r.scenario.cost.currency
            << "/h";
    return out.str();
}

std::string remediesText(const std::vector<Remedy>& remedies, ByteUnits units,
                         const NumberStyle& st)
{
    std::ostringstream out;
    out << "Remedies, in the order to try them\n";
    int n = 0;
    for (const Remedy& r : remedies)
        out << "  " << ++n << ". " << remedyTitle(r) << ": " << remedyEffect(r, units, st)
            << "\n     " << optionsText(r.options) << "\n";
    return out.str();
}

} // namespace kvscope
