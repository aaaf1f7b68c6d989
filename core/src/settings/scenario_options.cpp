// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/settings/scenario_options.h"

#include "kvscope/text/number_format.h"
#include "kvscope/io/config_import.h"
#include "kvscope/io/scenario_file.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace kvscope {

namespace {

const std::vector<ScenarioOption> kOptions = {
    {"scenario", "FILE.json", "start from a saved scenario (other options override it)"},
    {"model", "ID|CONFIG.json", "model preset id, or a Hugging Face config.json"},
    {"gpu", "ID|GPU.json", "GPU catalog id, or a GPU JSON file of the catalog's schema"},
    {"gpus", "N", "GPUs in tensor parallel (1-1024)"},
    {"weights", "FORMAT", "weight format: fp16, bf16, fp8, int8, gptq-int4, q4_k_m, ..."},
    {"kv-dtype", "DTYPE", "KV cache element type: fp16, bf16, fp8, int8, q8_0, q4_0"},
    {"context", "N", "tokens per sequence (1-100,000,000)"},
    {"batch", "N", "concurrent sequences (1-65,536)"},
    {"pcie", "3|4|5|6", "PCIe generation of the host link"},
    {"lanes", "N", "PCIe lanes: 1, 2, 4, 8 or 16"},
    {"engine", "ID", "engine profile: hf, hf-static, hf-offloaded, vllm, llamacpp"},
    {"kv-placement", "gpu|cpu|nvme|sata", "where the KV cache lives while decoding"},
    {"prefetch", "on|off", "offloaded KV: prefetch the next layer while computing (pipelined)"},
    {"offload-weights", "on|off", "device_map=\"auto\": weights that do not fit go to CPU RAM"},
    {"gpu-mem-util", "F", "share of GPU memory the engine may use (0-1; vLLM's knob)"},
    {"block-size", "N", "KV block size in tokens (vLLM --block-size)"},
    {"max-num-batched-tokens", "N", "vLLM prefill chunk, sizing its activation peak"},
    {"ubatch", "N", "llama.cpp --ubatch-size, sizing its compute buffer"},
    {"max-num-seqs", "N", "vLLM --max-num-seqs: logit rows its profiling run reserves"},
    {"n-gpu-layers", "N", "llama.cpp -ngl: layers on the GPU, the rest computed by the CPU"},
    {"split-mode", "tensor|layer", "several GPUs: split every layer (tensor parallel) or whole layers"},
    {"nvme", "ID", "NVMe tier: nvme-gen3, nvme-gen4, nvme-gen5"},
    {"host-memory", "ID", "host memory, e.g. ddr5-4800-dual"},
    {"hbm-efficiency", "F", "share of peak memory bandwidth a decode step reaches"},
    {"compute-efficiency", "F", "share of peak tensor FLOP/s a prefill reaches"},
    {"pcie-protocol-efficiency", "F", "PCIe payload share after protocol overhead"},
    {"disk-efficiency", "F", "share of a drive's rated read reached"},
    {"host-memory-efficiency", "F", "share of host memory peak reached"},
    {"realtime-tokens-per-s", "F", "decode speed treated as real time"},
    {"activation-bytes", "F", "bytes per activation element"},
};

bool looksLikePath(const std::string& value)
{
    return value.find('/') != std::string::npos ||
           (value.size() > 5 && value.compare(value.size() - 5, 5, ".json") == 0);
}

template <typename T>
std::string idList(const std::vector<T>& items)
{
    std::string list = "one of ";
    for (size_t i = 0; i < items.size(); ++i)
        list += (i ? ", " : "") + items[i].id;
    return list;
}

std::optional<int64_t> parseInteger(const std::string& text)
{
    int64_t value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end)
        return std::nullopt;
    return value;
}

std::optional<double> parseReal(const std::string& text)
{
    double value = 0;
    const char* end = text.data() + text.size();
    auto [ptr, ec] = std::from_chars(text.data(), end, value);
    if (ec != std::errc() || ptr != end || !std::isfinite(value))
        return std::nullopt;
    return value;
}

std::optional<bool> parseSwitch(const std::string& text)
{
    if (text == "on" || text == "true" || text == "yes" || text == "1")
        return true;
    if (text == "off" || text == "false" || text == "no" || text == "0")
        return false;
    return std::nullopt;
}

class OptionApplier
{
public:
    OptionApplier(Scenario& s, const Catalog& c) : m_s(s), m_c(c) {}

    std::optional<FieldError> apply(const std::string& name, const std::string& value);

private:
    std::optional<FieldError> integer(const std::string& name, const std::string& value,
                                      int64_t lo, int64_t hi, int64_t* out)
    {
        const auto v = parseInteger(value);
        if (!v || *v < lo || *v > hi)
            return FieldError{"--" + name, value,
                              "an integer from " + formatInteger(lo) + " to " + formatInteger(hi)};
        *out = *v;
        return std::nullopt;
    }

    std::optional<FieldError> real(const std::string& name, const std::string& value, double lo,
                                   double hi, double* out)
    {
        const auto v = parseReal(value);
        if (!v || *v <= lo || *v > hi)
            return FieldError{"--" + name, value,
                              "a number above " + formatPlain(lo) + " up to " + formatPlain(hi)};
        *out = *v;
        return std::nullopt;
    }

    Scenario& m_s;
    const Catalog& m_c;
};

std::optional<FieldError> OptionApplier::apply(const std::string& name, const std::string& value)
{
    auto unknown = [&](const std::string& accepted) {
        return FieldError{"--" + name, value, accepted};
    };
    if (name == "model") {
        if (looksLikePath(value)) {
            auto model = modelFromConfigFile(value);
            if (!model)
                return model.error();
            m_s.model = std::move(model).value();
            m_s.model.imported = true;
        } else if (const ModelSpec* m = m_c.model(value)) {
            m_s.model = *m;
        } else {
            return unknown("a model id (see `kvscope-cli list models`) or a path to a config.json");
        }
    } else if (name == "gpu") {
        if (looksLikePath(value)) {
            auto gpu = gpuFromFile(value);
            if (!gpu)
                return gpu.error();
            GpuSpec custom = std::move(gpu).value();
            custom.custom = true;
            applyGpu(m_s, std::move(custom));
        } else if (const GpuSpec* g = m_c.gpu(value)) {
            applyGpu(m_s, *g);
        } else {
            return unknown("a GPU id (see `kvscope-cli list gpus`) or a path to a GPU JSON file");
        }
    } else if (name == "gpus") {
        int64_t n = 0;
        if (auto e = integer(name, value, 1, limits::maxGpus, &n))
            return e;
        m_s.gpuCount = int(n);
    } else if (name == "weights") {
        const WeightFormat* f = m_c.weightFormat(value);
        if (!f)
            return unknown(idList(m_c.weightFormats));
        m_s.weights = *f;
    } else if (name == "kv-dtype") {
        const KvDtype* d = m_c.kvDtype(value);
        if (!d)
            return unknown(idList(m_c.kvDtypes));
        m_s.kvDtype = *d;
    } else if (name == "context") {
        return integer(name, value, limits::minContext, limits::maxContext, &m_s.context);
    } else if (name == "batch") {
        return integer(name, value, 1, limits::maxBatch, &m_s.batch);
    } else if (name == "pcie") {
        const auto gen = parseInteger(value);
        const PcieGeneration* p = gen ? m_c.pcieGeneration(int(*gen)) : nullptr;
        if (!p)
            return unknown("3, 4, 5 or 6");
        m_s.pcie = *p;
    } else if (name == "lanes") {
        const auto lanes = parseInteger(value);
        if (!lanes || (*lanes != 1 && *lanes != 2 && *lanes != 4 && *lanes != 8 && *lanes != 16))
            return unknown("1, 2, 4, 8 or 16");
        m_s.pcieLanes = int(*lanes);
    } else if (name == "engine") {
        const EngineProfile* e = m_c.engine(value);
        if (!e)
            return unknown(idList(m_c.engines));
        applyEngine(m_s, *e);
    } else if (name == "kv-placement") {
        if (!parseKvPlacement(value, &m_s.kvPlacement))
            return unknown("gpu, cpu, nvme or sata");
    } else if (name == "prefetch" || name == "offload-weights") {
        const auto on = parseSwitch(value);
        if (!on)
            return unknown("on or off");
        (name == "prefetch" ? m_s.prefetchKv : m_s.offloadWeights) = *on;
    } else if (name == "gpu-mem-util") {
        double f = 0;
        if (auto e = real(name, value, 0, 1, &f))
            return e;
        m_s.memoryFraction = f;
    } else if (name == "block-size") {
        return integer(name, value, 1, 1 << 20, &m_s.engine.kvBlockTokens);
    } else if (name == "max-num-batched-tokens" || name == "ubatch") {
        return integer(name, value, 1, limits::maxContext, &m_s.engine.prefillChunkTokens);
    } else if (name == "max-num-seqs") {
        return integer(name, value, 1, limits::maxBatch, &m_s.engine.maxNumSeqs);
    } else if (name == "n-gpu-layers") {
        int64_t layers = 0;
        if (auto e = integer(name, value, 0, 100'000, &layers))
            return e;
        m_s.gpuLayers = layers;
    } else if (name == "split-mode") {
        if (value != "tensor" && value != "layer")
            return unknown("tensor or layer");
        m_s.engine.layerSplit = value == "layer";
    } else if (name == "nvme") {
        const StorageTier* t = m_c.storageTier(value);
        if (!t || t->kind != "nvme")
            return unknown("an NVMe tier id (nvme-gen3, nvme-gen4, nvme-gen5)");
        m_s.nvme = *t;
    } else if (name == "host-memory") {
        const HostMemory* h = m_c.host(value);
        if (!h)
            return unknown(idList(m_c.hostMemory));
        m_s.hostMemory = *h;
    } else {
        std::string id = name;
        std::replace(id.begin(), id.end(), '-', '_');
        double* field = efficiencyField(m_s.efficiency, id);
        if (!field)
            return FieldError{"--" + name, value, "a known option (see --help)"};
        const bool microseconds = id == "layer_overhead_us" || id == "all_reduce_latency_us";
        const double hi = id == "realtime_tokens_per_s" || microseconds ? 10'000
                          : id == "activation_bytes"                    ? 8
                                                                        : 1;
        return real(name, value, 0, hi, field);
    }
    return std::nullopt;
}

} // namespace

const std::vector<ScenarioOption>& scenarioOptions()
{
    return kOptions;
}

bool isScenarioOption(const std::string& name)
{
    return std::any_of(kOptions.begin(), kOptions.end(),
                       [&](const ScenarioOption& o) { return name == o.name; });
}

Expected<Scenario> scenarioFromOptions(const std::vector<std::pair<std::string, std::string>>& options,
                                       const Catalog& catalog)
{
    auto start = defaultScenario(catalog);
    if (!start)
        return start.error();
    Scenario s = std::move(start).value();
    for (const auto& [name, value] : options) {
        if (name != "scenario")
            continue;
        auto loaded = loadScenarioFile(value, catalog);
        if (!loaded)
            return loaded.error();
        s = std::move(loaded).value();
    }
    // The catalog entries first, so settings given with them apply whatever their order
    // (an engine's batch defaults depend on the GPU).
    OptionApplier applier(s, catalog);
    auto choosesEntry = [](const std::string& name) {
        return name == "model" || name == "gpu" || name == "engine";
    };
    for (const bool entries : {true, false})
        for (const auto& [name, value] : options) {
            if (name == "scenario" || choosesEntry(name) != entries)
                continue;
            if (auto error = applier.apply(name, value))
                return *error;
        }
    if (auto error = validate(s))
        return *error;
    return s;
}

} // namespace kvscope
