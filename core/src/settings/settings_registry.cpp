// SPDX-License-Identifier: GPL-3.0-or-later
// The registry: every scenario input once. Entries that pick a catalog entry come first and are
// applied first (later defaults depend on them: an engine's batch defaults follow the GPU, its
// release rules follow the engine). Catalog lookups live in catalog_settings.cpp.
#include "kvscope/settings/settings_registry.h"

#include "kvscope/scenario/scenario.h"
#include "scenario/field_access.h"
#include "settings/catalog_settings.h"

#include <algorithm>

namespace kvscope {

namespace {

using V = std::optional<SettingValue>;
using N = std::optional<double>;
using namespace settings_detail;

// One efficiency factor: its file key sits in the scenario's "efficiency" object.
Setting factor(const char* id, const char* flag, const char* label, double lo, double hi,
               const char* unit, const char* help,
               std::optional<FieldError> (*apply)(Scenario&, const SettingValue&, const Catalog&),
               const NumberAccess& number)
{
    Setting s = makeSetting(id, flag, "F", SettingType::Real, lo, hi);
    s.unit = unit;
    s.defaultText = "the catalog's (efficiency.json, with its source)";
    s.help = help;
    s.fileSection = "efficiency";
    s.place = ControlPlace::EfficiencyDrawer;
    s.texts.label = label;
    s.apply = apply;
    setNumber(s, number);
    return s;
}

std::vector<Setting> workloadSettings()
{
    std::vector<Setting> r;
    {
        Setting s =
            makeSetting("gpus", "gpus", "N", SettingType::Integer, 1, double(limits::maxGpus));
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "GPUs");
        s.unit = "GPUs";
        s.defaultText = "1";
        s.help = "GPUs working together, in all nodes (tensor parallel in each node unless "
                 "--split-mode layer)";
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            sc.gpuCount = int(integerOf(v));
            return std::nullopt;
        };
        setNumber(s, KVSCOPE_FIELD_NUMBER(gpuCount));
        r.push_back(std::move(s));
    }
    appendSettings(r, nodeSettings());
    {
        Setting s = makeSetting("context", "context", "N", SettingType::Integer,
                                double(limits::minContext), double(limits::maxContext));
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Context length");
        s.unit = "tokens";
        s.defaultText = "2,048";
        s.help = "tokens per sequence (prompt + generated)";
        s.engineNames = {
            {"vllm", "max_model_len"}, {"llamacpp", "n_ctx"}, {"sglang", "context_length"}};
        s.apply = KVSCOPE_FIELD_SETTER(context, integerOf);
        setNumber(s, KVSCOPE_FIELD_NUMBER(context));
        r.push_back(std::move(s));
    }
    {
        Setting s =
            makeSetting("batch", "batch", "N", SettingType::Integer, 1, double(limits::maxBatch));
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Concurrent sequences");
        s.unit = "sequences";
        s.defaultText = "1";
        s.help = "concurrent sequences decoded together (--users: the users served at once)";
        s.flagAliases = {"users"};
        s.apply = KVSCOPE_FIELD_SETTER(batch, integerOf);
        setNumber(s, KVSCOPE_FIELD_NUMBER(batch));
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("lanes", "lanes", "N", SettingType::Choice);
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "PCIe lanes");
        s.choices = {"1", "2", "4", "8", "16"};
        s.unit = "lanes";
        s.defaultText = "16";
        s.help = "PCIe lanes of the host link";
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            sc.pcieLanes = std::stoi(textOf(v));
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V {
            return SettingValue(std::to_string(sc.pcieLanes));
        };
        r.push_back(std::move(s));
    }
    return r;
}

// Where the KV cache and the weights that do not fit live while decoding.
std::vector<Setting> kvPlacementSettings()
{
    std::vector<Setting> r;
    {
        Setting s =
            makeSetting("kv_placement", "kv-placement", "gpu|cpu|nvme|sata", SettingType::Choice);
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "KV cache placement");
        s.choices = {"gpu", "cpu", "nvme", "sata"};
        s.defaultText = "the engine's (CPU RAM for hf-offloaded, else the GPU)";
        s.help = "where the KV cache lives while decoding";
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            parseKvPlacement(textOf(v), &sc.kvPlacement);
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V {
            return SettingValue(std::string(kvPlacementId(sc.kvPlacement)));
        };
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("prefetch_kv", "prefetch", "on|off", SettingType::Switch);
        s.defaultText = "on";
        s.help = "offloaded KV: prefetch the next layer while computing (pipelined)";
        s.apply = KVSCOPE_FIELD_SETTER(prefetchKv, switchOf);
        s.current = KVSCOPE_FIELD_GETTER(prefetchKv);
        r.push_back(std::move(s));
    }
    {
        Setting s =
            makeSetting("offload_weights", "offload-weights", "on|off", SettingType::Switch);
        s.defaultText = "off";
        s.help = "device_map=\"auto\": weights that do not fit go to CPU RAM";
        s.apply = KVSCOPE_FIELD_SETTER(offloadWeights, switchOf);
        s.current = KVSCOPE_FIELD_GETTER(offloadWeights);
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting",
                                               "Offload weights that do not fit to CPU RAM");
        r.push_back(std::move(s));
    }
    return r;
}

// The engine's share of GPU memory and the granularity it allocates KV in.
std::vector<Setting> engineMemorySettings()
{
    std::vector<Setting> r;
    {
        Setting s = makeSetting("gpu_mem_util", "gpu-mem-util", "F", SettingType::Real, 0.01, 1);
        s.unit = "fraction";
        s.defaultText = "the engine's (vLLM 0.92, TGI 0.9, SGLang by the GPU's memory, others 1)";
        s.help = "share of GPU memory the engine may use (vLLM's gpu_memory_utilization, SGLang's "
                 "mem_fraction_static)";
        s.engineNames = {{"vllm", "gpu_memory_utilization"},
                         {"tgi", "cuda_memory_fraction x TGI_WIGGLE_ROOM"},
                         {"sglang", "mem_fraction_static"}};
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            sc.memoryFraction = realOf(v);
            return std::nullopt;
        };
        setNumber(s, {[](const Scenario& sc) -> N { return sc.memoryFraction; },
                      KVSCOPE_FIELD_AT(memoryFraction)});
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "GPU memory fraction");
        s.texts.toolTip = KVSCOPE_TRANSLATE_NOOP(
            "kvscope::Setting",
            "Share of GPU memory the engine may use (vLLM: gpu_memory_utilization)");
        s.shownWhenUnset = [](const Scenario& sc) { return sc.effectiveMemoryFraction(); };
        r.push_back(std::move(s));
    }
    {
        Setting s =
            makeSetting("block_size", "block-size", "N", SettingType::Integer, 1, 1'048'576);
        s.unit = "tokens";
        s.defaultText = "the engine's (vLLM 16, llama.cpp 256, transformers 1)";
        s.help = "KV allocation granularity in tokens (vLLM --block-size)";
        s.engineNames = {{"vllm", "block_size"}};
        s.apply = KVSCOPE_FIELD_SETTER(engine.kvBlockTokens, integerOf);
        setNumber(s, KVSCOPE_FIELD_NUMBER(engine.kvBlockTokens));
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "KV block size (tokens)");
        r.push_back(std::move(s));
    }
    return r;
}

// How much the engine puts through one forward: the prefill chunk and the profiled sequences.
std::vector<Setting> engineBatchSettings()
{
    std::vector<Setting> r;
    {
        Setting s = makeSetting("prefill_chunk_tokens", "max-num-batched-tokens", "N",
                                SettingType::Integer, 0, double(limits::maxContext));
        s.unit = "tokens";
        s.defaultText = "follows the engine and GPU (vLLM 2,048, or 8,192 on 70 GiB GPUs but "
                        "A100; TGI from the GPU's FLOP/s; SGLang 2,048 to 16,384 by the GPU's "
                        "memory)";
        s.help = "tokens per prefill forward, sizing the activation peak (0 = the whole prompt)";
        s.engineNames = {{"vllm", "max_num_batched_tokens"},
                         {"llamacpp", "n_ubatch"},
                         {"tgi", "max_batch_prefill_tokens"},
                         {"sglang", "chunked_prefill_size"}};
        s.flagAliases = {"ubatch", "max-batch-prefill-tokens", "chunked-prefill-size"};
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            sc.engine.prefillChunkTokens = integerOf(v);
            return std::nullopt;
        };
        setNumber(s, KVSCOPE_FIELD_NUMBER(engine.prefillChunkTokens));
        s.place = ControlPlace::EngineDrawer;
        s.texts.label =
            KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Prefill chunk (tokens, 0 = whole prompt)");
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("max_num_seqs", "max-num-seqs", "N", SettingType::Integer, 0,
                                double(limits::maxBatch));
        s.unit = "sequences";
        s.defaultText = "follows the engine and GPU (vLLM 256, or 1,024 on 70 GiB GPUs but A100)";
        s.help = "vLLM --max-num-seqs: logit rows its profiling run samples (0 = the batch)";
        s.engineNames = {{"vllm", "max_num_seqs"}};
        s.apply = KVSCOPE_FIELD_SETTER(engine.maxNumSeqs, integerOf);
        setNumber(s, KVSCOPE_FIELD_NUMBER(engine.maxNumSeqs));
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting",
                                               "Max concurrent sequences (vLLM max_num_seqs)");
        s.texts.unsetText = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "as the batch");
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("flash_attention", "flash-attn", "on|off", SettingType::Switch);
        s.defaultText = "the release's (llama.cpp: on from b6325, off before)";
        s.help = "llama.cpp -fa: attention in one fused kernel; off, each GPU's compute buffer "
                 "holds a layer's attention scores over the whole cache";
        s.engineNames = {{"llamacpp", "flash_attn"}};
        s.apply = KVSCOPE_FIELD_SETTER(flashAttention, switchOf);
        s.current = KVSCOPE_OPTIONAL_GETTER(flashAttention);
        s.shownWhenUnset = [](const Scenario& sc) { return sc.engine.flashAttention ? 1.0 : 0.0; };
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Flash attention (llama.cpp)");
        r.push_back(std::move(s));
    }
    return r;
}

// What the engine holds besides weights, KV and activations: its runtime and CUDA graphs.
std::vector<Setting> engineOverheadSettings()
{
    std::vector<Setting> r;
    {
        Setting s = makeSetting("runtime_overhead_mib", "runtime-overhead-mib", "MIB",
                                SettingType::Real, 0, 1e7);
        s.unit = "MiB";
        s.defaultText = "the engine's (CUDA context, allocator; calibrate sets it)";
        s.help = "memory the engine holds besides weights, KV, activations and CUDA graphs";
        s.apply = KVSCOPE_FIELD_SETTER(engine.runtimeOverheadMiB, realOf);
        setNumber(s, KVSCOPE_FIELD_NUMBER(engine.runtimeOverheadMiB));
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Runtime overhead");
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("enforce_eager", "enforce-eager", "on|off", SettingType::Switch);
        s.defaultText = "off";
        s.help = "vLLM --enforce-eager: no CUDA graphs are captured";
        s.engineNames = {{"vllm", "enforce_eager"}};
        s.apply = KVSCOPE_FIELD_SETTER(enforceEager, switchOf);
        s.current = KVSCOPE_FIELD_GETTER(enforceEager);
        r.push_back(std::move(s));
    }
    return r;
}

// vLLM's sampler and what it does past its KV capacity (preemption, swap space).
std::vector<Setting> vllmSamplingAndSwapSettings()
{
    std::vector<Setting> r;
    {
        Setting s =
            makeSetting("flashinfer_sampler", "flashinfer-sampler", "on|off", SettingType::Switch);
        s.defaultText = "off";
        s.help = "vLLM samples top-k/top-p with FlashInfer (its log says so), sorting no logits";
        s.engineNames = {{"vllm", "VLLM_USE_FLASHINFER_SAMPLER"}};
        s.apply = KVSCOPE_FIELD_SETTER(flashinferSampler, switchOf);
        s.current = KVSCOPE_FIELD_GETTER(flashinferSampler);
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("preemption_mode", "preemption-mode", "recompute|swap",
                                SettingType::Choice);
        s.choices = {"recompute", "swap"};
        s.defaultText = "recompute";
        s.help = "vLLM past its KV capacity: recompute a preempted request, or swap its KV to "
                 "CPU RAM (V0 engine only)";
        s.engineNames = {{"vllm", "preemption_mode"}};
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            sc.preemptBySwap = textOf(v) == "swap";
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V {
            return sc.preemptBySwap ? V(SettingValue(std::string("swap"))) : std::nullopt;
        };
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("swap_space", "swap-space", "GIB", SettingType::Real, 0, 1e5);
        s.unit = "GiB";
        s.defaultText = "4";
        s.help = "vLLM --swap-space: CPU RAM per GPU that holds swapped KV blocks";
        s.engineNames = {{"vllm", "swap_space"}};
        s.apply = KVSCOPE_FIELD_SETTER(swapSpaceGiB, realOf);
        setNumber(s, KVSCOPE_FIELD_NUMBER(swapSpaceGiB));
        r.push_back(std::move(s));
    }
    return r;
}

// What llama.cpp computes on the CPU: the layers left off the GPU and the routed experts.
std::vector<Setting> hostOffloadSettings()
{
    std::vector<Setting> r;
    {
        Setting s =
            makeSetting("n_gpu_layers", "n-gpu-layers", "N", SettingType::Integer, 0, 100'000);
        s.unit = "layers";
        s.defaultText = "all layers";
        s.help = "llama.cpp -ngl: the last N layers on the GPU, the rest computed by the CPU; "
                 "the output layer too when N exceeds the layer count";
        s.engineNames = {{"llamacpp", "n_gpu_layers"}};
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            sc.gpuLayers = integerOf(v);
            return std::nullopt;
        };
        setNumber(s, {[](const Scenario& sc) -> N {
                          return sc.gpuLayers ? N(double(*sc.gpuLayers)) : std::nullopt;
                      },
                      KVSCOPE_FIELD_AT(gpuLayers)});
        s.place = ControlPlace::EngineDrawer;
        s.texts.label =
            KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Layers on the GPU (llama.cpp -ngl)");
        s.texts.unsetText = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "all");
        r.push_back(std::move(s));
    }
    {
        // llama.cpp keeps the routed experts (blk.N.ffn_*_exps) of layers 0..N-1 in host RAM
        // (common/arg.cpp, --n-cpu-moe); N beyond the layer count means every layer.
        Setting s = makeSetting("n_cpu_moe", "n-cpu-moe", "N", SettingType::Integer, 0, 100'000);
        s.unit = "layers";
        s.defaultText = "0 (experts on the GPU)";
        s.help = "llama.cpp --n-cpu-moe: routed experts of the first N layers in host RAM";
        s.engineNames = {{"llamacpp", "n_cpu_moe"}};
        s.apply = KVSCOPE_FIELD_SETTER(cpuMoeLayers, integerOf);
        setNumber(s, {[](const Scenario& sc) -> N {
                          return sc.cpuMoeLayers != 0 ? N(double(sc.cpuMoeLayers)) : std::nullopt;
                      },
                      KVSCOPE_FIELD_AT(cpuMoeLayers)});
        r.push_back(std::move(s));
    }
    {
        Setting s = makeSetting("cpu_moe", "cpu-moe", "on|off", SettingType::Switch);
        s.defaultText = "off";
        s.help = "llama.cpp --cpu-moe (-ot exps=CPU): every routed expert in host RAM";
        s.engineNames = {{"llamacpp", "cpu_moe"}};
        s.apply = KVSCOPE_FIELD_SETTER(cpuMoeAll, switchOf);
        s.current = [](const Scenario& sc) -> V {
            return sc.cpuMoeAll ? V(SettingValue(true)) : std::nullopt;
        };
        r.push_back(std::move(s));
    }
    return r;
}

// How several GPUs share the model: every layer split, or whole layers per GPU.
std::vector<Setting> splitModeSettings()
{
    std::vector<Setting> r;
    {
        Setting s = makeSetting("split_mode", "split-mode", "tensor|layer", SettingType::Choice);
        s.choices = {"tensor", "layer"};
        s.defaultText = "the engine's (llama.cpp layer, others tensor)";
        s.help = "several GPUs: split every layer (tensor parallel) or whole layers per GPU";
        s.apply = [](Scenario& sc, const SettingValue& v,
                     const Catalog&) -> std::optional<FieldError> {
            sc.engine.layerSplit = textOf(v) == "layer";
            return std::nullopt;
        };
        s.current = [](const Scenario& sc) -> V {
            return SettingValue(std::string(sc.engine.layerSplit ? "layer" : "tensor"));
        };
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Multi-GPU split");
        s.texts.choices = {
            KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Tensor parallel (every layer split)"),
            KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Layer split (GPUs take turns)")};
        r.push_back(std::move(s));
    }
    return r;
}

// The efficiency factors, each read from efficiency.json unless set.
std::vector<Setting> efficiencySettings()
{
    std::vector<Setting> r;
    r.push_back(factor("hbm_efficiency", "hbm-efficiency",
                       KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Memory bandwidth efficiency"),
                       0.05, 1, "fraction", "share of peak memory bandwidth a decode step reaches",
                       KVSCOPE_FIELD_SETTER(efficiency.hbm, realOf),
                       KVSCOPE_FIELD_NUMBER(efficiency.hbm)));
    r.push_back(factor("compute_efficiency", "compute-efficiency",
                       KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Compute efficiency (prefill)"),
                       0.05, 1, "fraction", "share of peak tensor FLOP/s a prefill reaches",
                       KVSCOPE_FIELD_SETTER(efficiency.compute, realOf),
                       KVSCOPE_FIELD_NUMBER(efficiency.compute)));
    r.push_back(
        factor("moe_compute_efficiency", "moe-compute-efficiency",
               KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Compute efficiency (MoE models)"), 0.01,
               1, "fraction",
               "share of peak tensor FLOP/s a MoE model's prefill and compute-bound "
               "steps reach: its experts' grouped GEMMs see few tokens each",
               KVSCOPE_FIELD_SETTER(efficiency.moeCompute, realOf),
               KVSCOPE_FIELD_NUMBER(efficiency.moeCompute)));
    r.push_back(factor("rocm_moe_efficiency", "rocm-moe-efficiency",
                       KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "MoE efficiency on ROCm (AMD)"),
                       0.05, 1, "fraction",
                       "a MoE model's decode step on an AMD GPU (ROCm): its weight reads, FLOPs "
                       "and per-MoE-layer cost, as a share of the CUDA path's speed",
                       KVSCOPE_FIELD_SETTER(efficiency.rocmMoe, realOf),
                       KVSCOPE_FIELD_NUMBER(efficiency.rocmMoe)));
    r.push_back(factor("pcie_protocol_efficiency", "pcie-protocol-efficiency",
                       KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "PCIe protocol efficiency"), 0.05,
                       1, "fraction", "PCIe payload share after protocol overhead",
                       KVSCOPE_FIELD_SETTER(efficiency.pcieProtocol, realOf),
                       KVSCOPE_FIELD_NUMBER(efficiency.pcieProtocol)));
    r.push_back(factor("disk_efficiency", "disk-efficiency",
                       KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Disk read efficiency"), 0.05, 1,
                       "fraction", "share of a drive's rated read reached",
                       KVSCOPE_FIELD_SETTER(efficiency.disk, realOf),
                       KVSCOPE_FIELD_NUMBER(efficiency.disk)));
    r.push_back(factor("host_memory_efficiency", "host-memory-efficiency",
                       KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Host memory efficiency"), 0.05,
                       1, "fraction", "share of host memory peak bandwidth reached",
                       KVSCOPE_FIELD_SETTER(efficiency.hostMemory, realOf),
                       KVSCOPE_FIELD_NUMBER(efficiency.hostMemory)));
    r.push_back(factor("realtime_tokens_per_s", "realtime-tokens-per-s",
                       KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Reading speed (tokens/s)"), 1,
                       100, "tokens/s", "decode speed treated as real time (reading speed)",
                       KVSCOPE_FIELD_SETTER(efficiency.realtimeTokensPerS, realOf),
                       KVSCOPE_FIELD_NUMBER(efficiency.realtimeTokensPerS)));
    r.push_back(factor("activation_bytes", "activation-bytes",
                       KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Bytes per activation"), 1, 4,
                       "bytes", "bytes per activation element",
                       KVSCOPE_FIELD_SETTER(efficiency.activationBytes, realOf),
                       KVSCOPE_FIELD_NUMBER(efficiency.activationBytes)));
    r.push_back(factor("layer_overhead_us", "layer-overhead-us",
                       KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Fixed cost per layer (µs)"), 0,
                       1000, "µs",
                       "fixed time per layer per decode step (launches, synchronisation)",
                       KVSCOPE_FIELD_SETTER(efficiency.layerOverheadUs, realOf),
                       KVSCOPE_FIELD_NUMBER(efficiency.layerOverheadUs)));
    r.push_back(factor(
        "layer_overhead_eager_us", "layer-overhead-eager-us",
        KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Fixed cost per layer without CUDA graphs (µs)"),
        0, 1000, "µs", "the same per layer without CUDA graphs (--enforce-eager, transformers)",
        KVSCOPE_FIELD_SETTER(efficiency.layerOverheadEagerUs, realOf),
        KVSCOPE_FIELD_NUMBER(efficiency.layerOverheadEagerUs)));
    r.push_back(
        factor("interconnect_efficiency", "interconnect-efficiency",
               KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "GPU link efficiency (all-reduce)"), 0.05,
               1, "fraction", "share of NVLink / PCIe bandwidth an all-reduce reaches",
               KVSCOPE_FIELD_SETTER(efficiency.interconnect, realOf),
               KVSCOPE_FIELD_NUMBER(efficiency.interconnect)));
    r.push_back(factor(
        "all_reduce_latency_us", "all-reduce-latency-us",
        KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "All-reduce latency (µs, 0 = by link)"), 0, 1000,
        "µs", "fixed latency of one all-reduce; 0 takes it from the link and GPU count",
        KVSCOPE_FIELD_SETTER(efficiency.allReduceLatencyUs, realOf),
        KVSCOPE_FIELD_NUMBER(efficiency.allReduceLatencyUs)));
    r.push_back(factor("host_handover_us", "host-handover-us",
                       KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "GPU–CPU hand-over (µs)"), 0,
                       10'000, "µs",
                       "one hand-over between GPU and CPU (llama.cpp experts in host RAM)",
                       KVSCOPE_FIELD_SETTER(efficiency.hostHandoverUs, realOf),
                       KVSCOPE_FIELD_NUMBER(efficiency.hostHandoverUs)));
    r.push_back(factor(
        "plan_ttft_target_ms", "plan-ttft-target-ms",
        KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Planner's first-token bound (ms)"), 100,
        3'600'000, "ms", "the plan's time-to-first-token target when --max-ttft-ms sets none",
        KVSCOPE_FIELD_SETTER(efficiency.planTtftTargetMs, realOf),
        KVSCOPE_FIELD_NUMBER(efficiency.planTtftTargetMs)));
    return r;
}

// The order is visible (--help, the README table, the man page): catalog entries first, as they
// are applied first.
std::vector<Setting> buildRegistry()
{
    std::vector<Setting> r = catalogEntrySettings();
    appendSettings(r, workloadSettings());
    appendSettings(r, kvPlacementSettings());
    appendSettings(r, engineMemorySettings());
    appendSettings(r, engineBatchSettings());
    appendSettings(r, engineOverheadSettings());
    appendSettings(r, vllmSamplingAndSwapSettings());
    appendSettings(r, loraSettings());
    appendSettings(r, speculativeSettings());
    appendSettings(r, hostOffloadSettings());
    appendSettings(r, splitModeSettings());
    appendSettings(r, storageSettings());
    appendSettings(r, planningSettings());
    appendSettings(r, servingSettings());
    appendSettings(r, efficiencySettings());
    return r;
}

} // namespace

const std::vector<Setting>& settingsRegistry()
{
    static const std::vector<Setting> registry = buildRegistry();
    return registry;
}

const Setting* settingById(const std::string& id)
{
    for (const Setting& s : settingsRegistry())
        if (id == s.id)
            return &s;
    return nullptr;
}

const Setting* settingByFlag(const std::string& flag)
{
    for (const Setting& s : settingsRegistry()) {
        if (flag == s.flag)
            return &s;
        for (const char* alias : s.flagAliases)
            if (flag == alias)
                return &s;
    }
    return nullptr;
}

const Setting* settingByEngineName(const std::string& engine, const std::string& name)
{
    for (const Setting& s : settingsRegistry())
        for (const EngineName& n : s.engineNames)
            if (engine == n.engine && name == n.name)
                return &s;
    return nullptr;
}

std::optional<FieldError> checkSetting(const std::string& id, double value)
{
    const Setting* s = settingById(id);
    if (!s || inRange(*s, value))
        return std::nullopt;
    return FieldError{id, showNumber(value), acceptedText(*s)};
}

} // namespace kvscope
