// SPDX-License-Identifier: GPL-3.0-or-later
// evaluate(): one scenario in, one Evaluation out. Its parts live beside it (evaluation_parts.h):
// memory, decode timing, prefill and break-even.
#include "kvscope/evaluation/evaluation.h"

#include "evaluation/evaluation_parts.h"
#include "kvscope/model/weights.h"

namespace kvscope {

using namespace evaluation_parts;

const char* tierId(Tier tier)
{
    switch (tier) {
    case Tier::Gpu:
        return "gpu";
    case Tier::CpuSerial:
        return "cpu_serial";
    case Tier::CpuPipelined:
        return "cpu_pipelined";
    case Tier::Nvme:
        return "nvme";
    case Tier::Sata:
        return "sata";
    }
    return "gpu";
}

const char* reloadTierId(ReloadTier tier)
{
    switch (tier) {
    case ReloadTier::CpuRam:
        return "cpu";
    case ReloadTier::Nvme:
        return "nvme";
    case ReloadTier::Sata:
        return "sata";
    }
    return "cpu";
}

const char* kvRoomId(KvRoom room)
{
    switch (room) {
    case KvRoom::GpuMemory:
        return "gpu_memory";
    case KvRoom::WindowCapped:
        return "window_capped";
    case KvRoom::NotOnGpu:
        return "not_on_gpu";
    }
    return "gpu_memory";
}

Expected<Evaluation> evaluate(const Scenario& s, const EvaluateOptions& options)
{
    if (auto error = validate(s)) [[unlikely]]
        return std::move(*error);
    // The parts are built in order, each from the ones before, and the result is made once from
    // them: an Evaluation is a large struct, and the planner's search evaluates millions a
    // second, so it is not cleared and then filled, and the last two parts are written in place.
    const Setup x(s);
    const ParameterCount parameters = countParameters(s.model);
    const ExpertStorage storage =
        expertStorage(s.model, parameters, s.weights, s.gpu.computeCapability, expertShardWays(s));
    const double weightsBytesTotal = weightBytes(parameters, s.weights, storage);
    const KvFigures kv = kvFigures(x);
    const ExpertOffload experts = expertOffload(s, x.engine.expertLayersOnHost(s), storage);
    const VramSplit vram = vramSplit(x, kv, x.engine.placeWeights(s, parameters, weightsBytesTotal),
                                     experts, unevenExpertBytes(s, storage));
    const TokensFit fit = tokensFit(x, vram);
    EngineFigures engine =
        x.engine.startupFigures(s, kv, kvRoomForWholeModel(s, fit.freeForKvBytes));
    engine.expertLayersOnHost = experts.layers;
    engine.moeLayers = experts.moeLayers;
    Expected<Evaluation> result(std::in_place, parameters, storage, weightsBytesTotal, kv, vram,
                                fit, engine, DecodeTiming{}, Breakeven{}, SpeculativeTiming{});
    Evaluation& e = result.value();
    decodeTiming(x, parameters, kv, vram, experts, e.decode);
    speculativeTiming(x, parameters, kv, e.decode, e.speculative);
    breakeven(x, parameters, e.decode, experts, options.breakevenCrossings, e.breakeven);
    return result;
}

} // namespace kvscope
