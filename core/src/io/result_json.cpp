// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/io/result_json.h"
#include "kvscope/io/serving_json.h"

#include "io/json_numbers.h"
#include "kvscope/catalog/machine_profile_json.h"

#include "kvscope/engines/engine_module.h"
#include "kvscope/model/weights.h"
#include "kvscope/planning/expert_fit.h"
#include "kvscope/scenario/parallel_layout.h"
#include "kvscope/scenario/speed_class.h"

#include <cmath>

#include <nlohmann/json.hpp>

namespace kvscope {

using json_numbers::bytes;
using json_numbers::real;

nlohmann::json scenarioSummaryJson(const Scenario& s)
{
    nlohmann::json j;
    j["model"] = s.model.id;
    j["gpu"] = s.gpu.id;
    j["gpus"] = s.gpuCount;
    j["nodes"] = s.nodes;
    if (s.nodes > 1)
        j["node_link"] = s.nodeLink.id;
    j["weights"] = s.weights.id;
    j["kv_dtype"] = s.kvDtype.id;
    j["engine"] = s.engine.id;
    j["context"] = s.context;
    j["batch"] = s.batch;
    j["pcie"] = s.pcie.gen;
    j["lanes"] = s.pcieLanes;
    j["kv_placement"] = kvPlacementId(s.kvPlacement);
    j["gpu_mem_util"] = s.effectiveMemoryFraction();
    if (s.profile)
        j["profile"] = machineProfileToJson(*s.profile);
    return j;
}

namespace {

nlohmann::json modelJson(const Scenario& s, const Evaluation& e)
{
    return {{"attention", attentionKindId(s.model.attentionKind())},
            {"parameters", bytes(e.parameters.total())},
            {"active_parameters", bytes(e.parameters.active())},
            {"layers", s.model.layers},
            {"kv_heads", s.model.kvHeads},
            {"head_dim", s.model.headDim},
            {"windowed_layers", e.kv.windowedLayers},
            {"sliding_window", s.model.slidingWindow},
            {"recurrent_layers", s.model.recurrent.count},
            {"vision_parameters", bytes(e.parameters.vision)},
            {"tokens_per_image", s.model.vision.tokensPerImage}};
}

nlohmann::json kvCacheJson(const Scenario& s, const Evaluation& e)
{
    const double gpus = double(s.gpuCount);
    return {{"bytes_per_token_per_layer_per_gpu", bytes(e.kv.bytesPerTokenPerLayer)},
            {"bytes_per_token_per_gpu", bytes(e.kv.bytesPerToken)},
            {"per_gpu_bytes", bytes(e.kv.totalBytes)},
            {"all_gpus_bytes", bytes(e.kv.totalBytes * gpus)},
            {"allocated_per_gpu_bytes", bytes(e.kv.allocatedBytes)},
            {"allocated_all_gpus_bytes", bytes(e.kv.allocatedBytes * gpus)},
            {"recurrent_state_per_sequence_per_gpu_bytes", bytes(e.kv.stateBytesPerSequence)},
            {"kv_heads_per_gpu", e.kv.kvHeadsPerGpu},
            {"mha_per_gpu_bytes", bytes(e.kv.totalMhaBytes)},
            {"gqa_per_gpu_bytes", bytes(e.kv.totalGqaBytes)},
            {"mqa_per_gpu_bytes", bytes(e.kv.totalMqaBytes)}};
}

nlohmann::json weightsJson(const Scenario& s, const Evaluation& e)
{
    const double gpus = double(s.gpuCount);
    return {{"all_gpus_bytes", bytes(e.weightsBytesTotal)},
            {"per_gpu_bytes", bytes(e.vram.weightsBytes + e.vram.weightsOffloadedBytes)},
            {"offloaded_per_gpu_bytes", bytes(e.vram.weightsOffloadedBytes)},
            {"offloaded_all_gpus_bytes", bytes(e.vram.weightsOffloadedBytes * gpus)}};
}

nlohmann::json vramJson(const Evaluation& e)
{
    return {{"capacity_bytes", bytes(e.vram.capacityBytes)},
            {"budget_bytes", bytes(e.vram.budgetBytes)},
            {"reserved_bytes", bytes(e.vram.reservedBytes)},
            {"weights_bytes", bytes(e.vram.weightsBytes)},
            {"kv_cache_bytes", bytes(e.vram.kvCacheBytes)},
            {"activation_bytes", bytes(e.vram.activationBytes)},
            {"overhead_bytes", bytes(e.vram.overheadBytes)},
            {"lora_bytes", bytes(e.vram.loraBytes)},
            {"free_bytes", bytes(e.vram.freeBytes)},
            {"fits", e.vram.fits}};
}

// A count GPU memory does not limit is null, never its ceiling; "null_because" says why.
nlohmann::json tokensFitJson(const Evaluation& e)
{
    const TokensFit& f = e.tokensFit;
    auto context = [&](int64_t count) {
        return f.contextUnbounded(count) ? nlohmann::json(nullptr) : nlohmann::json(count);
    };
    nlohmann::json fit = {{"free_for_kv_per_gpu_bytes", bytes(f.freeForKvBytes)},
                          {"model", context(f.model)},
                          {"mha", context(f.mha)},
                          {"gqa", context(f.gqa)},
                          {"gqa_kv_heads", f.gqaKvHeads},
                          {"mqa", context(f.mqa)},
                          {"per_sequence", context(f.perSequence)},
                          {"max_concurrency", f.concurrencyUnbounded()
                                                  ? nlohmann::json(nullptr)
                                                  : nlohmann::json(f.maxConcurrency)},
                          {"capped", f.room != KvRoom::GpuMemory}};
    if (f.mla >= 0)
        fit["mla"] = context(f.mla);
    if (f.room != KvRoom::GpuMemory)
        fit["null_because"] = kvRoomId(f.room);
    return fit;
}

nlohmann::json engineJson(const Evaluation& e)
{
    // As the engine logs them at start-up (vLLM's blocks and concurrency, llama.cpp's KV buffer);
    // with no layer's KV on the GPU the engine sizes no GPU pool, so those three are null.
    const EngineFigures& f = e.engine;
    auto pool = [&](nlohmann::json value) {
        return f.kvOnGpu ? std::move(value) : nlohmann::json(nullptr);
    };
    nlohmann::json j = {{"kv_blocks_per_gpu", pool(f.kvBlocks)},
                        {"kv_cache_tokens", pool(f.kvCacheTokens)},
                        {"max_concurrency", pool(real(f.maxConcurrency))},
                        {"kv_buffer_all_gpus_bytes", bytes(f.kvBufferBytes)},
                        {"gpu_layers", f.gpuLayers}};
    if (!f.kvOnGpu)
        j["null_because"] = kvRoomId(KvRoom::NotOnGpu);
    return j;
}

// A MoE model on an engine that can keep experts in host RAM: where they are and the
// --n-cpu-moe that fits (null when none does).
nlohmann::json expertsJson(const Scenario& s, const Evaluation& e)
{
    const double gpus = double(s.gpuCount);
    const auto fit = fitExpertOffload(s);
    return {{"moe_layers", e.engine.moeLayers},
            {"layers_in_host_ram", e.engine.expertLayersOnHost},
            {"host_ram_all_gpus_bytes", bytes(e.vram.expertsOffloadedBytes * gpus)},
            {"cpu_read_bytes_per_step", bytes(e.decode.hostExpertsReadBytes)},
            {"cpu_ms", real(e.decode.hostExpertsMs)},
            {"fitted_n_cpu_moe", fit ? nlohmann::json(fit->nCpuMoe) : nlohmann::json(nullptr)}};
}

nlohmann::json latencyJson(const Evaluation& e)
{
    nlohmann::json decode;
    for (Tier t : allTiers)
        decode[tierId(t)] = real(e.decode.tierMs[size_t(t)]);
    return {{"pcie_effective_gb_per_s", real(e.decode.pcieEffectiveGBps)},
            {"nvme_effective_gb_per_s", real(e.decode.nvmeEffectiveGBps)},
            {"sata_effective_gb_per_s", real(e.decode.sataEffectiveGBps)},
            {"kv_transfer_ms", real(e.decode.kvTransferMs)},
            {"weights_read_per_gpu_bytes", bytes(e.decode.weightsReadBytes)},
            {"memory_ms", real(e.decode.memoryMs)},
            {"compute_ms", real(e.decode.computeMs)},
            {"weights_offload_ms", real(e.decode.weightsOffloadMs)},
            {"host_layers_ms", real(e.decode.hostLayersMs)},
            {"fixed_ms", real(e.decode.fixedMs)},
            {"fixed_parts",
             {{"per_layer_us", real(e.decode.layerOverheadUs)},
              {"per_step_us", real(e.decode.stepOverheadUs)},
              {"per_moe_layer_us", real(e.decode.moeLayerUs)}}},
            {"interconnect_ms", real(e.decode.interconnectMs)},
            {"all_reduce",
             {{"per_step", e.decode.allReduces},
              {"latency_us", real(e.decode.allReduceLatencyUs)},
              {"link", e.decode.allReduces == 0       ? "none"
                       : e.decode.allReduceOverNvlink ? "nvlink"
                                                      : "pcie"}}},
            {"all_to_all",
             {{"per_step", e.decode.allToAlls},
              {"latency_us", real(e.decode.allToAllUs)},
              {"ms", real(e.decode.allToAllMs)}}},
            {"node_all_reduce",
             {{"per_step", e.decode.nodeAllReduces},
              {"latency_us", real(e.decode.nodeAllReduceLatencyUs)},
              {"bytes_per_gpu", real(e.decode.nodeAllReduceBytes)},
              {"ms", real(e.decode.nodeAllReduceMs)}}},
            {"node_handover",
             {{"per_step", e.decode.nodeHandovers},
              {"latency_us", real(e.decode.nodeHandoverLatencyUs)},
              {"bytes_per_gpu", real(e.decode.nodeHandoverBytes)},
              {"link_gb_per_s", real(e.decode.nodeLinkGBps)},
              {"ms", real(e.decode.nodeHandoverMs)}}},
            {"compute_bound", e.decode.computeBound},
            {"decode_ms_per_token", decode},
            {"selected_ms", real(e.decode.selectedMs)},
            {"tokens_per_s", real(e.decode.tokensPerS)}};
}

nlohmann::json breakevenJson(const Evaluation& e)
{
    // The crossings are 0 unless the evaluation searched them (EvaluateOptions::
    // breakevenCrossings): calc asks for them, so its JSON always carries them.
    nlohmann::json reload, cross;
    for (ReloadTier t : allReloadTiers) {
        reload[reloadTierId(t)] = real(e.breakeven.reloadMs[size_t(t)]);
        cross[reloadTierId(t)] = e.breakeven.crossTokens[size_t(t)];
    }
    return {{"recompute_ms", real(e.breakeven.recomputeMs)},
            {"reload_ms", reload},
            {"reload_faster_from_tokens", cross},
            {"searched_up_to_tokens", e.breakeven.searchedUpTo}};
}

} // namespace

nlohmann::json evaluationToJson(const Scenario& s, const Evaluation& e)
{
    // Byte figures name their scope: "per_gpu" (one GPU's share) or "all_gpus" (summed).
    nlohmann::json j;
    j["scenario"] = scenarioSummaryJson(s);
    j["model"] = modelJson(s, e);
    j["kv_cache"] = kvCacheJson(s, e);
    j["weights"] = weightsJson(s, e);
    j["vram_per_gpu"] = vramJson(e);
    j["tokens_fit"] = tokensFitJson(e);
    j["engine"] = engineJson(e);
    if (e.engine.moeLayers > 0 && engineModule(s.engine).offloadsExperts())
        j["experts"] = expertsJson(s, e);
    j["latency"] = latencyJson(e);
    j["latency"]["band"] = speedBandJson(s, SpeedFigure::Decode);
    j["breakeven"] = breakevenJson(e);
    if (s.dpAttention)
        j["dp_attention"] = {
            {"ranks", attentionRanks(s)},
            {"sequences_per_gpu", e.kv.sequencesPerGpu},
            {"attention_replica_bytes_per_gpu", bytes(e.vram.attentionReplicaBytes)}};
    if (s.expertParallel)
        j["expert_parallel"] = {
            {"ways", expertWays(s)},
            {"experts_on_fullest_gpu", expertsOnFullestGpu(s.model, expertWays(s))},
            {"uneven_bytes_per_gpu", bytes(e.vram.expertSpreadBytes)},
            {"decode_imbalance", real(expertParallelImbalance(s.model, expertWays(s), s.batch))}};
    if (e.speculative.draftTokens > 0) {
        const SpeculativeTiming& x = e.speculative;
        const char* method = s.speculative.draft ? "draft_model"
                             : s.speculative.eagle != EagleMethod::Off
                                 ? eagleMethodId(s.speculative.eagle)
                                 : "mtp";
        j["speculative"] = {{"method", method},
                            {"eagle_topk", s.speculative.eagleTopk},
                            {"verified_tokens", x.verifiedTokens},
                            {"draft_model", s.speculative.draft
                                                ? nlohmann::json(s.speculative.draft->id)
                                                : nlohmann::json()},
                            {"mtp_layers", s.model.mtpLayers},
                            {"drafter_bytes_per_gpu", bytes(e.vram.drafterBytes)},
                            {"draft_tokens", x.draftTokens},
                            {"acceptance_rate", real(x.acceptance)},
                            {"tokens_per_step", real(x.tokensPerStep)},
                            {"verify_ms", real(x.verifyMs)},
                            {"draft_ms", real(x.draftMs)},
                            {"step_ms", real(x.stepMs)},
                            {"tokens_per_s", real(x.tokensPerS)},
                            {"speedup", real(x.speedup)}};
    }
    return j;
}

} // namespace kvscope
