// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/verdict.h"

#include "kvscope/engines/launch_command.h"
#include "kvscope/planning/host_ram.h"

#include <algorithm>
#include <sstream>

namespace kvscope {

const char* bindingId(Binding b)
{
    switch (b) {
    case Binding::None:
        return "none";
    case Binding::Weights:
        return "weights";
    case Binding::Activations:
        return "activations";
    case Binding::KvCache:
        return "kv_cache";
    case Binding::HostRam:
        return "host_ram";
    case Binding::HeadSplit:
        return "head_split";
    }
    return "none";
}

double Verdict::shortBytes() const
{
    if (binding == Binding::HostRam)
        return hostNeededBytes - hostOfferedBytes;
    return neededBytes > offeredBytes ? neededBytes - offeredBytes : 0.0;
}

Verdict verdictOf(const Scenario& s, const Evaluation& e)
{
    Verdict v;
    const VramSplit& m = e.vram;
    v.offeredBytes = m.budgetBytes;
    v.neededBytes = m.weightsBytes + m.kvCacheBytes + m.activationBytes + m.overheadBytes;
    // Host RAM holds what was offloaded: weights beyond the GPUs (experts included), a KV cache
    // placed there, and the KV of layers left on the CPU (llama.cpp -ngl below all layers).
    v.hostNeededBytes = m.weightsOffloadedBytes * double(s.gpuCount);
    if (s.kvPlacement == KvPlacement::CpuRam || s.kvPlacement == KvPlacement::Gpu)
        v.hostNeededBytes +=
            std::max(0.0, e.kv.allocatedBytes - m.kvCacheBytes) * double(s.gpuCount);
    const HostRam host = hostRamOf(s);
    v.hostOfferedBytes = host.gib * 1073741824.0;
    v.hostRamBasis = host.basis;

    if (!splitsHeadsEvenly(s)) {
        v.runs = false; // the engine refuses the layout before it allocates anything
        v.binding = Binding::HeadSplit;
    } else if (!m.fits) {
        v.runs = false;
        if (m.weightsBytes + m.overheadBytes > m.budgetBytes)
            v.binding = Binding::Weights;
        else if (m.weightsBytes + m.overheadBytes + m.activationBytes > m.budgetBytes)
            v.binding = Binding::Activations;
        else
            v.binding = Binding::KvCache;
        const EngineProfile::Serving& serving = s.engine.serving;
        if (v.binding == Binding::KvCache && serving.continuousBatching &&
            serving.kvHeld != EngineProfile::KvHeld::MaxLength)
            v.runsAtOnce = std::min(e.tokensFit.maxConcurrency, s.batch);
    } else if (v.hostOfferedBytes > 0 && v.hostNeededBytes > v.hostOfferedBytes) {
        v.runs = false;
        v.binding = Binding::HostRam;
    }
    v.ttftMs = e.breakeven.recomputeMs + e.decode.selectedMs;
    v.ttftLastMs =
        prefillsInTurnMs(e.breakeven.recomputeMs, e.breakeven.prefillComputeMs, double(s.batch)) +
        e.decode.selectedMs;
    if (v.runs && e.decode.selectedMs > 0)
        v.tokensPerSUser = 1e3 / e.decode.selectedMs;
    v.missesTokensPerS =
        v.runs && s.targets.minTokensPerSUser > 0 && v.tokensPerSUser < s.targets.minTokensPerSUser;
    v.missesTtft = v.runs && s.targets.maxTtftMs > 0 && v.ttftLastMs > s.targets.maxTtftMs;
    return v;
}

std::string verdictText(const Scenario& s, const Verdict& v, ByteUnits units,
                        const NumberStyle& style)
{
    auto bytes = [&](double b) { return formatBytes(b, units, style); };
    std::ostringstream out;
    const std::string gpus = s.gpuCount == 1
                                 ? "one " + s.gpu.name
                                 : "each of " + std::to_string(s.gpuCount) + " " + s.gpu.name;
    switch (v.binding) {
    case Binding::None:
        out << "Runs: needs " << bytes(v.neededBytes) << " of the " << bytes(v.offeredBytes) << " "
            << gpus << " offers.";
        if (v.missesTokensPerS)
            out << " Misses the target of "
                << formatTokensPerSecond(s.targets.minTokensPerSUser, style)
                << " tokens/s per sequence: " << formatTokensPerSecond(v.tokensPerSUser, style)
                << ".";
        if (v.missesTtft)
            out << " Misses the target of " << formatDuration(s.targets.maxTtftMs, style)
                << " to the first token: " << formatDuration(v.ttftLastMs, style)
                << (s.batch > 1
                        ? " for the last of " + std::to_string(s.batch) + " prompts sent together"
                        : std::string())
                << ".";
        break;
    case Binding::HostRam:
        out << "Does not fit in host RAM: the offloaded part needs " << bytes(v.hostNeededBytes)
            << "; the host has " << bytes(v.hostOfferedBytes);
        if (v.hostRamBasis == HostRamBasis::Platform)
            out << " (usual for " << s.gpu.name << " systems; --host-ram-gib states yours)";
        else if (v.hostRamBasis == HostRamBasis::UnifiedMemory)
            out << " (the unified memory the GPU may not use)";
        out << ".";
        break;
    case Binding::HeadSplit:
        out << "Does not start: " << headSplitRefusal(s);
        break;
    default:
        out << "Does not fit: needs " << bytes(v.neededBytes) << " on each GPU; " << gpus
            << " offers " << bytes(v.offeredBytes) << ". ";
        if (v.binding == Binding::Weights)
            out << "The weights alone take more than that.";
        else if (v.binding == Binding::Activations)
            out << "The weights fit; the activation peak does not.";
        else
            out << "The weights fit; the KV cache is " << bytes(v.shortBytes()) << " too large.";
        if (v.runsAtOnce > 0)
            out << " " << s.engine.name << " still starts and runs "
                << formatInteger(v.runsAtOnce, style) << " of the " << formatInteger(s.batch, style)
                << " sequences at once; the others wait (see serving).";
        break;
    }
    return out.str();
}

} // namespace kvscope
