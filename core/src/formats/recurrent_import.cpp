// SPDX-License-Identifier: GPL-3.0-or-later
// Sizes follow vLLM's MambaStateShapeCalculator (model_executor/layers/mamba/mamba_utils.py) at
// one GPU; layer maps follow each family's transformers config and vLLM model file. Weights of a
// mixer follow the transformers modules (Mamba, Mamba2, Qwen3NextGatedDeltaNet).
#include "formats/recurrent_import.h"

#include "kvscope/base/limits.h"

#include <nlohmann/json.hpp>

namespace kvscope {

namespace {

constexpr const char* kKey = "kvscope_recurrent";
constexpr int64_t kDim = limits::maxDimension;

// Mamba2 (Nemotron-H, Granite 4.0-H, Falcon-H1): heads x head_dim channels, n_groups B/C groups.
struct Mamba2Dims
{
    int64_t inner = 0, heads = 0, headDim = 0, groups = 0, state = 0, conv = 0;
};

void setMamba2(ModelSpec& m, const Mamba2Dims& d)
{
    RecurrentLayers& s = m.recurrent;
    s.kind = "mamba2";
    const int64_t convWidth = d.inner + 2 * d.groups * d.state;
    s.convElements = (d.conv - 1) * convWidth;
    s.ssmElements = d.heads * d.headDim * d.state;
    // in_proj (z, x, B, C, dt), conv1d with bias, dt_bias, A_log, D, gated RMSNorm, out_proj.
    s.mixerParameters = m.hiddenSize * (2 * d.inner + 2 * d.groups * d.state + d.heads) +
                        convWidth * d.conv + convWidth + 3 * d.heads + d.inner +
                        d.inner * m.hiddenSize;
}

// Counts layers of a per-layer list: `recurrent` names hold state, `attention` names attend.
bool countLayerTypes(JsonReader& r, const char* key, const char* recurrent, const char* attention,
                     ModelSpec& m)
{
    const nlohmann::json* types = r.find({key});
    if (!types)
        return false;
    const std::string accepted = std::string("an array of \"") + recurrent + "\" and \"" +
                                 attention + "\", one per layer (" + std::to_string(m.layers) + ")";
    if (!types->is_array() || int64_t(types->size()) != m.layers) {
        r.fail(key, describeJson(*types), accepted);
        return true;
    }
    for (const auto& t : *types) {
        if (t == recurrent)
            ++m.recurrent.count;
        else if (t == attention || t == "sliding_attention")
            ++m.recurrent.attentionLayers;
        else {
            r.fail(key, describeJson(t), accepted);
            return true;
        }
    }
    return true;
}

// Qwen3-Next: gated DeltaNet linear attention in three of every four layers.
void readQwen3Next(JsonReader& r, ModelSpec& m)
{
    RecurrentLayers& s = m.recurrent;
    if (!countLayerTypes(r, "layer_types", "linear_attention", "full_attention", m)) {
        const int64_t every = r.integer({"full_attention_interval"}, 1, m.layers, 4);
        s.attentionLayers = m.layers / every;
        s.count = m.layers - s.attentionLayers;
    }
    const int64_t nk = r.integer({"linear_num_key_heads"}, 1, kDim, 16);
    const int64_t nv = r.integer({"linear_num_value_heads"}, 1, kDim, 32);
    const int64_t dk = r.integer({"linear_key_head_dim"}, 1, kDim, 128);
    const int64_t dv = r.integer({"linear_value_head_dim"}, 1, kDim, 128);
    const int64_t conv = r.integer({"linear_conv_kernel_dim"}, 2, 64, 4);
    s.kind = "gated_deltanet";
    const int64_t convWidth = 2 * nk * dk + nv * dv;
    s.convElements = (conv - 1) * convWidth;
    s.ssmElements = nv * dv * dk;
    // in_proj_qkvz, in_proj_ba, conv1d (no bias), dt_bias, A_log, norm, out_proj.
    s.mixerParameters = m.hiddenSize * (2 * nk * dk + 2 * nv * dv) + m.hiddenSize * 2 * nv +
                        convWidth * conv + 2 * nv + dv + nv * dv * m.hiddenSize;
    s.mlpLayers = m.layers;
}

// Jamba: attention where i % attn_layer_period == attn_layer_offset, Mamba (v1) elsewhere; MoE
// where i % expert_layer_period == expert_layer_offset.
void readJamba(JsonReader& r, ModelSpec& m)
{
    RecurrentLayers& s = m.recurrent;
    const int64_t period = r.integer({"attn_layer_period"}, 1, m.layers, 8);
    const int64_t offset = r.integer({"attn_layer_offset"}, 0, period - 1, 4);
    for (int64_t i = 0; i < m.layers; ++i)
        ++(i % period == offset ? s.attentionLayers : s.count);
    if (m.isMoe()) {
        const int64_t ePeriod = r.integer({"expert_layer_period"}, 1, m.layers, 2);
        const int64_t eOffset = r.integer({"expert_layer_offset"}, 0, ePeriod - 1, 1);
        int64_t moe = 0;
        for (int64_t i = 0; i < m.layers; ++i)
            moe += i % ePeriod == eOffset;
        m.denseLayers = m.layers - moe; // counted, not leading: only the count matters
    }
    const int64_t inner = r.integer({"mamba_expand"}, 1, 64, 2) * m.hiddenSize;
    const int64_t state = r.integer({"mamba_d_state"}, 1, kDim, 16);
    const int64_t conv = r.integer({"mamba_d_conv"}, 2, 64, 4);
    const int64_t dtRank = r.integer({"mamba_dt_rank"}, 1, kDim, (m.hiddenSize + 15) / 16);
    s.kind = "mamba";
    s.convElements = (conv - 1) * inner;
    s.ssmElements = inner * state;
    // in_proj, conv1d with bias, x_proj, dt_proj with bias, A_log, D, out_proj.
    s.mixerParameters = m.hiddenSize * 2 * inner + inner * conv + inner +
                        inner * (dtRank + 2 * state) + dtRank * inner + inner + inner * state +
                        inner + inner * m.hiddenSize;
    s.mlpLayers = m.layers;
}

// Nemotron-H: one character a layer, M = Mamba2, * = attention, - = MLP, E = MoE; each layer is
// only that block. Its MLP is up and down with squared ReLU (no gate).
void readNemotronH(JsonReader& r, ModelSpec& m)
{
    RecurrentLayers& s = m.recurrent;
    const std::string pattern = r.text({"hybrid_override_pattern"}, "");
    const std::string accepted = "one of M, *, - or E per layer (" + std::to_string(m.layers) + ")";
    if (int64_t(pattern.size()) != m.layers) {
        r.fail("hybrid_override_pattern", "\"" + pattern + "\"", accepted);
        return;
    }
    for (char c : pattern) {
        if (c == 'M')
            ++s.count;
        else if (c == '*')
            ++s.attentionLayers;
        else if (c == '-' || c == 'E')
            ++s.mlpLayers;
        else {
            r.fail("hybrid_override_pattern", std::string("'") + c + "'", accepted);
            return;
        }
    }
    m.gatedMlp = false;
    Mamba2Dims d;
    d.heads = r.integer({"mamba_num_heads"}, 1, kDim, 128);
    d.headDim = r.integer({"mamba_head_dim"}, 1, kDim, 64);
    d.inner = d.heads * d.headDim;
    d.groups = r.integer({"n_groups"}, 1, kDim, 8);
    d.state = r.integer({"ssm_state_size"}, 1, kDim, 128);
    d.conv = r.integer({"conv_kernel"}, 2, 64, 4);
    setMamba2(m, d);
    // vLLM's NemotronHForCausalLMConfig: "Only float32 is known to have no accuracy issues".
    const std::string dtype = r.text({"mamba_ssm_cache_dtype"}, "float32");
    s.ssmBytes = dtype == "float32" ? 4 : 2;
}

// Granite 4.0-H (layer_types "mamba" / "attention") and Falcon-H1 (Mamba2 beside attention in
// every layer).
void readMamba2Family(JsonReader& r, ModelSpec& m, bool everyLayer)
{
    RecurrentLayers& s = m.recurrent;
    if (everyLayer) {
        s.count = m.layers;
        s.attentionLayers = m.layers;
    } else if (!countLayerTypes(r, "layer_types", "mamba", "attention", m)) {
        s.count = m.layers; // transformers: no layer_types means every layer is Mamba
    }
    Mamba2Dims d;
    d.heads = r.integer({"mamba_n_heads"}, 1, kDim, 128);
    d.headDim = r.integer({"mamba_d_head"}, 1, kDim, 64);
    d.inner =
        r.integer({"mamba_d_ssm"}, 1, kDim, r.integer({"mamba_expand"}, 1, 64, 2) * m.hiddenSize);
    d.groups = r.integer({"mamba_n_groups"}, 1, kDim, 1);
    d.state = r.integer({"mamba_d_state"}, 1, kDim, 128);
    d.conv = r.integer({"mamba_d_conv"}, 2, 64, 4);
    setMamba2(m, d);
    s.mlpLayers = m.layers;
}

std::optional<FieldError> readSaved(const nlohmann::json& j, JsonReader& parent, ModelSpec& m)
{
    if (!j.is_object())
        return FieldError{parent.field(kKey), describeJson(j),
                          "an object with kind, count and the state's elements"};
    JsonReader r(j, parent.field(kKey));
    RecurrentLayers& s = m.recurrent;
    s.kind = r.text({"kind"}, "");
    s.count = r.integer({"count"}, 1, m.layers, 0);
    s.attentionLayers = r.integer({"attention_layers"}, 0, m.layers, 0);
    s.mlpLayers = r.integer({"mlp_layers"}, 0, m.layers, m.layers);
    s.convElements = r.integer({"conv_elements"}, 0, int64_t(1) << 40, 0);
    s.ssmElements = r.integer({"ssm_elements"}, 0, int64_t(1) << 40, 0);
    s.ssmBytes = r.integer({"ssm_bytes"}, 1, 8, 2);
    s.mixerParameters = r.integer({"mixer_parameters"}, 0, int64_t(1) << 44, 0);
    r.require({"count"});
    return r.error();
}

} // namespace

std::optional<FieldError> readRecurrentLayers(const nlohmann::json& cfg, JsonReader& r,
                                              ModelSpec& m)
{
    m.recurrent = {};
    if (const nlohmann::json* saved = r.find({kKey}))
        return readSaved(*saved, r, m);
    const std::string type = r.text({"model_type"}, "");
    if (type == "qwen3_next")
        readQwen3Next(r, m);
    else if (type == "jamba")
        readJamba(r, m);
    else if (type == "nemotron_h")
        readNemotronH(r, m);
    else if (type == "granitemoehybrid")
        readMamba2Family(r, m, false);
    else if (type == "falcon_h1")
        readMamba2Family(r, m, true);
    else {
        // Recurrent layers of another family: read as attention, the cache would be several times
        // too large, so the config is refused by name.
        const char* accepted = "a hybrid family kvscope models (qwen3_next, jamba, nemotron_h, "
                               "granitemoehybrid, falcon_h1) or attention layers only";
        if (auto types = cfg.find("layer_types"); types != cfg.end() && types->is_array())
            for (const auto& t : *types)
                if (t.is_string() && t != "sliding_attention" && t != "full_attention" &&
                    t != "attention" && t != "chunked_attention") {
                    r.fail("layer_types", t.get<std::string>(), accepted);
                    return r.error();
                }
        for (const char* key :
             {"hybrid_override_pattern", "attn_layer_period", "mamba_d_state", "mamba_d_ssm",
              "ssm_state_size", "linear_num_value_heads", "full_attention_interval"})
            if (cfg.contains(key)) {
                r.fail(key, describeJson(cfg[key]), std::string("model_type ") + accepted);
                return r.error();
            }
        return std::nullopt;
    }
    if (!r.error() && m.recurrent.attentionLayers == 0)
        r.fail("layer_types", "no attention layer",
               "a hybrid with at least one attention layer (pure state-space models are not "
               "modelled)");
    return r.error();
}

nlohmann::json recurrentToJson(const RecurrentLayers& s)
{
    return {{"kind", s.kind},
            {"count", s.count},
            {"attention_layers", s.attentionLayers},
            {"mlp_layers", s.mlpLayers},
            {"conv_elements", s.convElements},
            {"ssm_elements", s.ssmElements},
            {"ssm_bytes", s.ssmBytes},
            {"mixer_parameters", s.mixerParameters}};
}

} // namespace kvscope
