// SPDX-License-Identifier: GPL-3.0-or-later
// A GGUF header as a ModelSpec. Key names are llama.cpp's (gguf-py/gguf/constants.py, Keys);
// which layers use a sliding window follows llama.cpp's loader (src/llama-model.cpp,
// hparams.set_swa_pattern), since llama.cpp is what runs these files.
#include "formats/file_names.h"
#include "kvscope/base/limits.h"
#include "kvscope/formats/gguf.h"
#include "kvscope/scenario/scenario.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace kvscope {

namespace {

class Keys
{
public:
    Keys(const GgufHeader& h, std::string arch) : m_h(h), m_arch(std::move(arch)) {}

    const GgufValue* find(const std::string& key) const
    {
        auto it = m_h.metadata.find(key);
        return it == m_h.metadata.end() ? nullptr : &it->second;
    }
    const GgufValue* arch(const std::string& key) const { return find(m_arch + "." + key); }

    // A whole number (scalar), or the largest of a per-layer array; nullopt when absent.
    std::optional<int64_t> count(const std::string& key) const
    {
        const GgufValue* v = arch(key);
        if (!v)
            return std::nullopt;
        if (const auto* u = std::get_if<uint64_t>(v))
            return *u > uint64_t(limits::maxContext) ? -1 : int64_t(*u);
        if (const auto* i = std::get_if<int64_t>(v))
            return *i;
        if (const auto* a = std::get_if<GgufArray>(v); a && !a->numbers.empty()) {
            // Float arrays may hold NaN or 1e300: only whole numbers in range are counts.
            const bool counts = std::all_of(a->numbers.begin(), a->numbers.end(), [](double x) {
                return std::isfinite(x) && x >= 0 && x <= double(limits::maxContext);
            });
            return counts ? int64_t(*std::max_element(a->numbers.begin(), a->numbers.end())) : -1;
        }
        return -1; // present but not a count: refused by the range check
    }
    const std::vector<double>* perLayer(const std::string& key) const
    {
        const GgufValue* v = arch(key);
        const auto* a = v ? std::get_if<GgufArray>(v) : nullptr;
        return a ? &a->numbers : nullptr;
    }
    std::string text(const std::string& key) const
    {
        const GgufValue* v = find(key);
        const auto* s = v ? std::get_if<std::string>(v) : nullptr;
        return s ? *s : std::string();
    }

private:
    const GgufHeader& m_h;
    std::string m_arch;
};

enum class Role { Embedding, LmHead, Attention, DenseMlp, Experts, Other };

Role roleOf(const std::string& name)
{
    if (name.rfind("token_embd.", 0) == 0)
        return Role::Embedding;
    if (name.rfind("output.", 0) == 0)
        return Role::LmHead;
    if (name.rfind("blk.", 0) != 0)
        return Role::Other; // output_norm, rope_freqs, ...
    const size_t dot = name.find('.', 4);
    const std::string part = dot == std::string::npos ? name : name.substr(dot + 1);
    if (part.find("_exps") != std::string::npos)
        return Role::Experts;
    if (part.find("norm") != std::string::npos || part.rfind("ffn_gate_inp", 0) == 0)
        return Role::Other;
    if (part.rfind("attn_", 0) == 0)
        return Role::Attention;
    if (part.rfind("ffn_", 0) == 0)
        return Role::DenseMlp; // dense MLPs and shared experts (ffn_*_shexp)
    return Role::Other;
}

double& roleIn(WeightRoles& roles, Role role)
{
    switch (role) {
    case Role::Embedding:
        return roles.embedding;
    case Role::LmHead:
        return roles.lmHead;
    case Role::Attention:
        return roles.attention;
    case Role::DenseMlp:
        return roles.denseMlp;
    case Role::Experts:
        return roles.experts;
    case Role::Other:
        break;
    }
    return roles.other;
}

// llama.cpp's names for general.file_type (LlamaFileType in gguf-py/gguf/constants.py).
const char* fileTypeName(uint64_t id)
{
    static const char* const names[] = {
        "F32",   "F16",     "Q4_0",   "Q4_1",   nullptr,  nullptr,   nullptr,  "Q8_0",   "Q5_0",
        "Q5_1",  "Q2_K",    "Q3_K_S", "Q3_K_M", "Q3_K_L", "Q4_K_S",  "Q4_K_M", "Q5_K_S", "Q5_K_M",
        "Q6_K",  "IQ2_XXS", "IQ2_XS", "Q2_K_S", "IQ3_XS", "IQ3_XXS", "IQ1_S",  "IQ4_NL", "IQ3_S",
        "IQ3_M", "IQ2_S",   "IQ2_M",  "IQ4_XS", "IQ1_M",  "BF16"};
    return id < std::size(names) ? names[id] : nullptr;
}

FileWeights fileWeightsOf(const GgufHeader& h, const Keys& keys)
{
    FileWeights w;
    std::map<uint32_t, uint64_t> bytesByType; // of matrices, to name a file without file_type
    for (const GgufTensor& t : h.tensors) {
        const Role role = roleOf(t.name);
        roleIn(w.elements, role) += double(t.elements);
        roleIn(w.bytes, role) += double(t.bytes);
        if (t.dims.size() >= 2)
            bytesByType[t.type] += t.bytes;
    }
    const GgufValue* fileType = keys.find("general.file_type");
    const auto* id = fileType ? std::get_if<uint64_t>(fileType) : nullptr;
    if (const char* name = id ? fileTypeName(*id) : nullptr) {
        w.fileType = name;
    } else if (!bytesByType.empty()) {
        const auto most = std::max_element(bytesByType.begin(), bytesByType.end(),
                                           [](auto& a, auto& b) { return a.second < b.second; });
        w.fileType = std::string("mostly ") + ggmlType(most->first)->name;
    }
    return w;
}

bool hasTensor(const GgufHeader& h, const std::string& prefix)
{
    return std::any_of(h.tensors.begin(), h.tensors.end(),
                       [&](const GgufTensor& t) { return t.name.rfind(prefix, 0) == 0; });
}

// llama.cpp's layer pattern for architectures whose windowed layers it fixes in code: with
// period n, layer i slides when i % n < n - 1 (the last of every n is global).
int64_t swaPeriod(const std::string& arch)
{
    if (arch == "gemma2" || arch == "gpt-oss")
        return 2;
    if (arch == "cohere2")
        return 4;
    if (arch == "gemma3")
        return 6;
    return 0;
}

void readWindowing(const Keys& keys, const std::string& arch, ModelSpec& m)
{
    const int64_t window = keys.count("attention.sliding_window").value_or(0);
    if (window <= 0)
        return;
    std::vector<bool> windowed(size_t(m.layers), false);
    if (const auto* pattern = keys.perLayer("attention.sliding_window_pattern");
        pattern && pattern->size() == windowed.size()) {
        for (size_t i = 0; i < windowed.size(); ++i)
            windowed[i] = (*pattern)[i] != 0;
    } else {
        int64_t period = keys.count("attention.sliding_window_pattern").value_or(0);
        if (period <= 0)
            period = swaPeriod(arch);
        if (period <= 0)
            return; // llama.cpp runs this architecture with full attention everywhere
        for (size_t i = 0; i < windowed.size(); ++i)
            windowed[i] = int64_t(i) % period < period - 1;
    }
    m.slidingWindow = window;
    m.windowedLayers = std::move(windowed);
}

// Reads whole-number keys of the model's architecture in turn; the first refusal is kept and
// every later read is skipped.
class DimensionReader
{
public:
    DimensionReader(const Keys& keys, const std::string& arch) : m_keys(keys), m_arch(arch) {}

    // `out` = the key's value in [low, high], or `fallback` when the key is absent.
    void take(int64_t& out, const std::string& key, int64_t low, int64_t high,
              std::optional<int64_t> fallback = std::nullopt)
    {
        if (error)
            return;
        const std::optional<int64_t> v = m_keys.count(key);
        if (!v && fallback) {
            out = *fallback;
            return;
        }
        if (!v || *v < low || *v > high) {
            error = FieldError{"gguf." + m_arch + "." + key, v ? std::to_string(*v) : "",
                               "a whole number from " + std::to_string(low) + " to " +
                                   std::to_string(high)};
            return;
        }
        out = *v;
    }

    std::optional<FieldError> error;

private:
    const Keys& m_keys;
    const std::string& m_arch;
};

// Layers, hidden size and heads; attention in every layer.
std::optional<FieldError> readLayersAndHeads(const Keys& keys, const std::string& arch,
                                             DimensionReader& r, ModelSpec& m)
{
    const int64_t dim = limits::maxDimension;
    r.take(m.layers, "block_count", 1, 100'000);
    r.take(m.hiddenSize, "embedding_length", 1, dim);
    r.take(m.queryHeads, "attention.head_count", 1, dim);
    r.take(m.kvHeads, "attention.head_count_kv", 1, dim, m.queryHeads);
    if (r.error)
        return r.error;
    if (const auto* kv = keys.perLayer("attention.head_count_kv");
        kv && std::count(kv->begin(), kv->end(), 0.0) > 0)
        return FieldError{"gguf." + arch + ".attention.head_count_kv",
                          "0 for " + std::to_string(std::count(kv->begin(), kv->end(), 0.0)) +
                              " layers",
                          "attention in every layer (kvscope reads hybrid models with recurrent "
                          "layers from their config.json)"};
    return std::nullopt;
}

// Head sizes (MLA's among them), the MLP's width, the context and the expert count.
std::optional<FieldError> readHeadSizes(DimensionReader& r, ModelSpec& m)
{
    const int64_t dim = limits::maxDimension;
    const int64_t byHeads = m.hiddenSize / m.queryHeads;
    int64_t keyLength = 0, valueLength = 0;
    r.take(keyLength, "attention.key_length", 1, 65'536, byHeads);
    r.take(valueLength, "attention.value_length", 1, 65'536, keyLength);
    r.take(m.intermediateSize, "feed_forward_length", 0, dim, 0);
    r.take(m.maxContext, "context_length", 0, limits::maxContext, 0);
    r.take(m.kvLoraRank, "attention.kv_lora_rank", 0, dim, 0);
    r.take(m.experts, "expert_count", 0, 100'000, 0);
    if (r.error)
        return r.error;
    if (m.kvLoraRank > 0) {
        // DeepSeek-style MLA; newer conversions state the per-head sizes under *_mla keys.
        r.take(m.qLoraRank, "attention.q_lora_rank", 0, dim, 0);
        r.take(m.qkRopeHeadDim, "rope.dimension_count", 1, 65'536);
        r.take(keyLength, "attention.key_length_mla", 1, 65'536, keyLength);
        r.take(valueLength, "attention.value_length_mla", 1, 65'536, valueLength);
        m.qkNopeHeadDim = std::max<int64_t>(0, keyLength - m.qkRopeHeadDim);
        m.vHeadDim = valueLength;
    }
    // One head_dim holds K and V alike in ModelSpec; their mean keeps the cache's bytes.
    m.headDim = m.kvLoraRank > 0 ? keyLength : (keyLength + valueLength) / 2;
    return std::nullopt;
}

void readExperts(DimensionReader& r, ModelSpec& m)
{
    if (m.experts == 0)
        return;
    r.take(m.expertsPerToken, "expert_used_count", 1, m.experts);
    r.take(m.expertIntermediate, "expert_feed_forward_length", 0, limits::maxDimension, 0);
    r.take(m.sharedExperts, "expert_shared_count", 0, 100'000, 0);
    r.take(m.denseLayers, "leading_dense_block_count", 0, m.layers, 0);
}

// The vocabulary: stated, else the tokenizer's tokens or the embedding tensor's rows.
std::optional<FieldError> readVocabulary(const GgufHeader& h, const Keys& keys, DimensionReader& r,
                                         ModelSpec& m)
{
    const GgufTensor* embedding = nullptr;
    for (const GgufTensor& t : h.tensors)
        if (t.name == "token_embd.weight")
            embedding = &t;
    int64_t vocabFromTokens = 0;
    if (const GgufValue* tokens = keys.find("tokenizer.ggml.tokens"))
        if (const auto* a = std::get_if<GgufArray>(tokens))
            vocabFromTokens = int64_t(std::min<uint64_t>(a->count, limits::maxVocab + 1));
    const int64_t vocabFromTensor =
        embedding && embedding->dims.size() == 2
            ? int64_t(std::min<uint64_t>(embedding->dims[1], limits::maxVocab + 1))
            : 0;
    r.take(m.vocabSize, "vocab_size", 1, limits::maxVocab,
           vocabFromTensor > 0 ? vocabFromTensor : vocabFromTokens);
    if (!r.error && m.vocabSize == 0)
        r.error = FieldError{"gguf.tokenizer.ggml.tokens", "",
                             "a vocabulary (vocab_size, the tokenizer's tokens or token_embd)"};
    return r.error;
}

std::optional<FieldError> readDimensions(const GgufHeader& h, const Keys& keys,
                                         const std::string& arch, ModelSpec& m)
{
    DimensionReader r(keys, arch);
    if (auto error = readLayersAndHeads(keys, arch, r, m))
        return error;
    if (auto error = readHeadSizes(r, m))
        return error;
    readExperts(r, m);
    if (r.error)
        return r.error;
    return readVocabulary(h, keys, r, m);
}

// What the metadata says: the name, dimensions and sliding windows, with no tensor read.
Expected<ModelSpec> modelFromKeys(const GgufHeader& h, const std::string& fallbackId)
{
    const GgufValue* archValue = nullptr;
    if (auto it = h.metadata.find("general.architecture"); it != h.metadata.end())
        archValue = &it->second;
    const auto* arch = archValue ? std::get_if<std::string>(archValue) : nullptr;
    if (!arch || arch->empty() || arch->size() > 64)
        return FieldError{"gguf.general.architecture", "",
                          "the architecture's name (llama, qwen3, gemma3, ...)"};
    const Keys keys(h, *arch);

    ModelSpec m;
    m.id = utf8Text(fallbackId);
    m.name = utf8Text(keys.text("general.name"));
    if (m.name.empty())
        m.name = m.id;
    m.family = "GGUF " + *arch;
    m.imported = true;
    if (auto error = readDimensions(h, keys, *arch, m))
        return *error;
    m.architecture = *arch;
    readWindowing(keys, *arch, m);
    return m;
}

} // namespace

Expected<ModelSpec> modelFromGguf(const GgufHeader& h, const std::string& fallbackId)
{
    auto keys = modelFromKeys(h, fallbackId);
    if (!keys)
        return keys.error();
    ModelSpec m = std::move(keys).value();
    m.gatedMlp = hasTensor(h, "blk.0.ffn_gate") || m.experts > 0;
    m.tiedEmbeddings = !hasTensor(h, "output.weight");
    m.attentionBias = hasTensor(h, "blk.0.attn_q.bias") || hasTensor(h, "blk.0.attn_qkv.bias");
    m.fileWeights = fileWeightsOf(h, Keys(h, m.architecture));
    if (!m.fileWeights.present())
        return FieldError{"gguf.tensor_count", "0", "a model file with its weight tensors"};
    if (auto error = validateModel(m))
        return *error;
    return m;
}

Expected<ModelSpec> modelFromGgufMetadata(const GgufHeader& h, const std::string& fallbackId)
{
    auto keys = modelFromKeys(h, fallbackId);
    if (!keys)
        return keys.error();
    ModelSpec m = std::move(keys).value();
    // No tensor names: the gated MLP every current architecture llama.cpp runs has (the
    // weights' estimate only; the KV cache does not depend on it).
    m.gatedMlp = true;
    if (auto error = validateModel(m))
        return *error;
    return m;
}

Expected<ModelSpec> modelFromGgufFile(const std::filesystem::path& path)
{
    auto header = readGgufFile(path);
    if (!header)
        return header.error();
    auto model = modelFromGguf(*header, basenameStem(path));
    if (!model)
        return model.error();
    ModelSpec spec = std::move(model).value();
    spec.source = utf8Text(path.string());
    return spec;
}

} // namespace kvscope
