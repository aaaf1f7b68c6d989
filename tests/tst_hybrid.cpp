// SPDX-License-Identifier: GPL-3.0-or-later
// Hybrid and vision-language checkpoints as their config.json describes them: recurrent layers
// (gated DeltaNet, Mamba 1 and 2) hold a fixed state per sequence instead of a KV cache, and a
// VLM's image encoder is in the weights. Expected bytes are worked by hand from the shapes of
// vLLM's MambaStateShapeCalculator and llama.cpp's F32 recurrent cache (the sums are in the
// comments); files: tests/data/configs/checkpoints/SOURCES.md.

#include "suite_registry.h"
#include "testutils.h"

#include "kvscope/evaluation/evaluation.h"
#include "kvscope/formats/config_import.h"
#include "kvscope/io/result_json.h"
#include "kvscope/model/kv_cache.h"
#include "kvscope/settings/scenario_file.h"

#include <QtTest>

using namespace kvscope;

Q_DECLARE_METATYPE(kvscope::ModelSpec)

namespace {

std::string configPath(const char* name)
{
    return std::string(KVSCOPE_TEST_DATA_DIR "/data/configs/") + name;
}

ModelSpec imported(const nlohmann::json& config)
{
    auto m = modelFromConfig(config, "test");
    if (!m.ok())
        qFatal("config refused: %s", m.error().message().c_str());
    return *m;
}

std::string pattern(int layers, std::initializer_list<int> attention, char other)
{
    std::string p(size_t(layers), other);
    for (int i : attention)
        p[size_t(i)] = '*';
    return p;
}

// NVIDIA-Nemotron-Nano-9B-v2's keys as transcribed in three independent copies (SOURCES.md).
nlohmann::json nemotronNano9b()
{
    return {{"model_type", "nemotron_h"},
            {"hidden_size", 4480},
            {"num_hidden_layers", 56},
            {"num_attention_heads", 40},
            {"num_key_value_heads", 8},
            {"head_dim", 128},
            {"intermediate_size", 15680},
            {"vocab_size", 131072},
            {"hybrid_override_pattern", "M-M-M-MM-M-M-M*-M-M-M*-M-M-M-M*-M-M-M-M*-M-MM-M-M-M-M-M-"},
            {"mamba_num_heads", 128},
            {"mamba_head_dim", 80},
            {"n_groups", 8},
            {"ssm_state_size", 128},
            {"conv_kernel", 4},
            {"torch_dtype", "bfloat16"}};
}

// granite-4.0-h-tiny's Mamba2 keys (an FP8 copy of its config.json; attention at 5, 15, 25, 35).
nlohmann::json graniteTiny()
{
    nlohmann::json types = nlohmann::json::array();
    for (int i = 0; i < 40; ++i)
        types.push_back(i % 10 == 5 ? "attention" : "mamba");
    return {{"model_type", "granitemoehybrid"},
            {"hidden_size", 1536},
            {"num_hidden_layers", 40},
            {"num_attention_heads", 12},
            {"num_key_value_heads", 4},
            {"intermediate_size", 512},
            {"vocab_size", 100352},
            {"layer_types", types},
            {"mamba_n_heads", 48},
            {"mamba_d_head", 64},
            {"mamba_d_state", 128},
            {"mamba_n_groups", 1},
            {"mamba_d_conv", 4},
            {"mamba_expand", 2}};
}

// Falcon-H1-7B: Mamba2 and attention side by side in all 44 layers.
nlohmann::json falconH1_7b()
{
    return {{"model_type", "falcon_h1"},  {"hidden_size", 3072},      {"num_hidden_layers", 44},
            {"num_attention_heads", 12},  {"num_key_value_heads", 2}, {"head_dim", 128},
            {"intermediate_size", 12288}, {"vocab_size", 130049},     {"mamba_d_ssm", 3072},
            {"mamba_n_heads", 24},        {"mamba_d_head", 128},      {"mamba_d_state", 256},
            {"mamba_n_groups", 1},        {"mamba_d_conv", 4}};
}

} // namespace

class TestHybrid : public QObject
{
    Q_OBJECT

private slots:
    void recurrentStateFollowsTheLayerShapes_data()
    {
        QTest::addColumn<ModelSpec>("model");
        QTest::addColumn<qint64>("stateLayers");
        QTest::addColumn<qint64>("kvLayers");
        QTest::addColumn<double>("kvPerToken");
        QTest::addColumn<double>("vllmState");
        QTest::addColumn<double>("llamaCppState");
        auto file = [](const char* name) {
            auto m = modelFromConfigFile(configPath(name));
            if (!m.ok())
                qFatal("%s: %s", name, m.error().message().c_str());
            return *m;
        };
        // 36 gated DeltaNet layers: conv 3 x (2 x 16 x 128 + 32 x 128) = 24,576, state 32 x 128 x
        // 128 = 524,288 elements; x 2 B x 36 = 39,518,208; llama.cpp's F32 doubles it. KV: 12
        // attention layers x 2 x 2 heads x 256 x 2 B = 24,576 per token.
        QTest::newRow("Qwen3-Next 80B")
            << file("checkpoints/qwen3-next-80b-a3b-thinking.json") << qint64(36) << qint64(12)
            << 24'576.0 << 39'518'208.0 << 79'036'416.0;
        // Mamba 1 in 28 of 32 layers: conv 3 x 8,192, state 8,192 x 16; (24,576 + 131,072) x 2 B
        // x 28 = 8,716,288. KV: 4 layers x 2 x 8 x 128 x 2 B = 16,384.
        QTest::newRow("Jamba v0.1") << file("checkpoints/jamba-v0.1.json") << qint64(28)
                                    << qint64(4) << 16'384.0 << 8'716'288.0 << 17'432'576.0;
        // 27 Mamba2 layers: conv 3 x (10,240 + 2 x 8 x 128) = 36,864 at 2 B, state 128 x 80 x
        // 128 = 1,310,720 at vLLM's float32: 5,316,608 x 27 = 143,548,416; llama.cpp all F32:
        // 1,347,584 x 4 x 27 = 145,539,072.
        QTest::newRow("Nemotron Nano 9B v2")
            << imported(nemotronNano9b()) << qint64(27) << qint64(4) << 16'384.0 << 143'548'416.0
            << 145'539'072.0;
        // 36 Mamba2 layers: conv 3 x (3,072 + 256) = 9,984, state 48 x 64 x 128 = 393,216;
        // x 2 B x 36 = 29,030,400. KV: 4 layers x 2 x 4 x 128 x 2 B = 8,192.
        QTest::newRow("Granite 4.0 H Tiny") << imported(graniteTiny()) << qint64(36) << qint64(4)
                                            << 8'192.0 << 29'030'400.0 << 58'060'800.0;
        // Every layer: conv 3 x (3,072 + 512) = 10,752, state 24 x 128 x 256 = 786,432; x 2 B
        // x 44 = 70,152,192. KV in all 44 layers: 2 x 2 x 128 x 2 B x 44 = 45,056.
        QTest::newRow("Falcon-H1 7B") << imported(falconH1_7b()) << qint64(44) << qint64(44)
                                      << 45'056.0 << 70'152'192.0 << 140'304'384.0;
    }
    void recurrentStateFollowsTheLayerShapes()
    {
        QFETCH(ModelSpec, model);
        QFETCH(qint64, stateLayers);
        QFETCH(qint64, kvLayers);
        QFETCH(double, kvPerToken);
        QFETCH(double, vllmState);
        QFETCH(double, llamaCppState);
        QCOMPARE(model.recurrent.count, stateLayers);
        QCOMPARE(model.kvLayers(), kvLayers);
        const KvShape vllm = kvShapeKeepingState(model, false);
        QCOMPARE(kvBytesPerToken(vllm, test::kvDtype("fp16"), 1), kvPerToken);
        QCOMPARE(stateBytesPerSequence(vllm, 1), vllmState);
        QCOMPARE(stateBytesPerSequence(kvShapeKeepingState(model, true), 1), llamaCppState);
        // Tensor parallelism splits the heads, so each GPU holds its share of the state.
        QCOMPARE(stateBytesPerSequence(vllm, 2), vllmState / 2);

        // Through the evaluation: 4 sequences of 8,192 tokens hold their KV and 4 states.
        Scenario s = test::scenario("llama-2-7b", "h200");
        s.model = model;
        s.context = 8192;
        s.batch = 4;
        KVSCOPE_EVALUATE(e, s);
        QCOMPARE(e.kv.stateBytesPerSequence, vllmState);
        QCOMPARE(e.kv.totalBytes, 4 * (kvPerToken * 8192 + vllmState));
        const auto json = evaluationToJson(s, e);
        QCOMPARE(json["kv_cache"]["recurrent_state_per_sequence_per_gpu_bytes"].get<double>(),
                 vllmState);
        QCOMPARE(json["model"]["recurrent_layers"].get<qint64>(), stateLayers);
        // The state does not grow with the context: 16,384 tokens add KV only.
        s.context = 16384;
        KVSCOPE_EVALUATE(longer, s);
        QCOMPARE(longer.kv.totalBytes - e.kv.totalBytes, 4 * kvPerToken * 8192);
    }

    void hybridWeightsMatchTheModelCards()
    {
        // Mixers replace attention in the recurrent layers and MoE blocks stay where the config
        // puts them. Jamba v0.1: 52B total (the Hub's safetensors count: 51.6B), 12B active;
        // Qwen3-Next: 80B total (its MTP head, loaded only for speculative decoding, aside).
        auto counts = [](const char* name) {
            Scenario s = test::scenario("llama-2-7b", "h200");
            s.model = *modelFromConfigFile(configPath(name));
            auto e = evaluate(s);
            if (!e.ok())
                qFatal("%s", e.error().message().c_str());
            return e->parameters;
        };
        const ParameterCount jamba = counts("checkpoints/jamba-v0.1.json");
        QVERIFY2(std::abs(jamba.total() / 51.6e9 - 1) < 0.005,
                 qPrintable(QString::number(jamba.total())));
        QVERIFY2(std::abs(jamba.active() / 12e9 - 1) < 0.02,
                 qPrintable(QString::number(jamba.active())));
        const ParameterCount next = counts("checkpoints/qwen3-next-80b-a3b-thinking.json");
        QVERIFY2(std::abs(next.total() / 80e9 - 1) < 0.015,
                 qPrintable(QString::number(next.total())));
    }

    void llamaCppKeepsTheStateInFloat32()
    {
        const Scenario s = test::scenarioFrom({{"model", configPath("checkpoints/jamba-v0.1.json")},
                                               {"engine", "llamacpp"},
                                               {"weights", "q4_k_m"},
                                               {"gpu", "h200"},
                                               {"context", "4096"}});
        KVSCOPE_EVALUATE(e, s);
        QCOMPARE(e.kv.stateBytesPerSequence, 17'432'576.0);
    }

    void vllmCountsTheStateInItsConcurrency()
    {
        // A sequence needs its KV and its state; the startup log's concurrency divides by both.
        const Scenario s = test::scenarioFrom(
            {{"model", configPath("checkpoints/qwen3-next-80b-a3b-thinking.json")},
             {"engine", "vllm"},
             {"weights", "fp8"},
             {"gpu", "h200"},
             {"context", "32768"}});
        KVSCOPE_EVALUATE(e, s);
        const double perSequence = 24'576.0 * 32768 + 39'518'208.0;
        // The blocks vLLM reports hold kvCacheTokens; its room is at most one block more.
        const double room = double(e.engine.kvCacheTokens) * 24'576.0;
        QVERIFY(e.engine.maxConcurrency >= room / perSequence);
        QVERIFY(e.engine.maxConcurrency < (room + 24'576.0 * 16) / perSequence);
        QVERIFY(e.engine.maxConcurrency < double(e.engine.kvCacheTokens) / 32768.0);
        // The planner's sequences at this context agree with the engine's count.
        QCOMPARE(e.tokensFit.maxConcurrency, int64_t(std::floor(e.engine.maxConcurrency)));
    }

    void stateSurvivesSavingTheScenario()
    {
        const Scenario s = test::scenarioFrom(
            {{"model", configPath("checkpoints/qwen3-next-80b-a3b-thinking.json")}});
        auto reopened = scenarioFromText(scenarioToText(s), test::catalog());
        QVERIFY2(reopened.ok(), reopened.ok() ? "" : reopened.error().message().c_str());
        QCOMPARE(reopened->model.recurrent.count, qint64(36));
        QCOMPARE(stateBytesPerSequence(kvShape(reopened->model), 1), 39'518'208.0);
        // And through the config the window writes for a custom model.
        const ModelSpec again = imported(modelToConfig(s.model));
        QCOMPARE(again.kvLayers(), qint64(12));
        QCOMPARE(again.recurrent.ssmElements, s.model.recurrent.ssmElements);
        QCOMPARE(again.recurrent.mixerParameters, s.model.recurrent.mixerParameters);
    }

    void visionTowerIsInTheWeights_data()
    {
        QTest::addColumn<ModelSpec>("model");
        QTest::addColumn<qint64>("parameters");
        QTest::addColumn<qint64>("tokens");
        auto file = [](const std::string& path) {
            auto m = modelFromConfigFile(path);
            if (!m.ok())
                qFatal("%s: %s", path.c_str(), m.error().message().c_str());
            return *m;
        };
        // SigLIP so400m at 896 px (27 layers of 1,152 / 4,304, 64 x 64 patches) = 416,866,032,
        // + the projector 1,152 x 2,560 + its 1,152-wide norm.
        QTest::newRow("Gemma 3 4B")
            << file(configPath("gemma-3-4b-multimodal.json")) << qint64(419'816'304) << qint64(256);
        // 27 blocks of 15,239,504, patch and position embeddings, the final merger and three
        // deepstack mergers; 1,024 px at 32 px per token = 32 x 32.
        QTest::newRow("Qwen3-VL 235B")
            << test::model("qwen3-vl-235b-a22b") << qint64(576'388'336) << qint64(1024);
        // 32 blocks of 19,702,200 (RMSNorm, gated biased MLP of 3,420), a 1,505,280 patch
        // embedding and a 44,574,864 merger; 1,024 px rounds to 37 cells of 28 px.
        nlohmann::json qwen25 = {{"model_type", "qwen2_5_vl"},
                                 {"hidden_size", 3584},
                                 {"num_hidden_layers", 28},
                                 {"num_attention_heads", 28},
                                 {"num_key_value_heads", 4},
                                 {"intermediate_size", 18944},
                                 {"vocab_size", 152064},
                                 {"vision_config",
                                  {{"depth", 32},
                                   {"hidden_size", 1280},
                                   {"intermediate_size", 3420},
                                   {"out_hidden_size", 3584},
                                   {"patch_size", 14},
                                   {"spatial_merge_size", 2},
                                   {"temporal_patch_size", 2},
                                   {"in_chans", 3},
                                   {"model_type", "qwen2_5_vl"}}}};
        QTest::newRow("Qwen2.5-VL 7B") << imported(qwen25) << qint64(676'550'144) << qint64(1369);
        // CLIP ViT-L/14 at 336 px (303,507,456) and the two-layer projector 1,024 -> 4,096 ->
        // 4,096 with biases (20,979,712); 24 x 24 patches without the class token.
        nlohmann::json llava = {{"model_type", "llava"},
                                {"text_config",
                                 {{"model_type", "llama"},
                                  {"hidden_size", 4096},
                                  {"num_hidden_layers", 32},
                                  {"num_attention_heads", 32},
                                  {"intermediate_size", 11008},
                                  {"vocab_size", 32064}}},
                                {"vision_config",
                                 {{"model_type", "clip_vision_model"},
                                  {"hidden_size", 1024},
                                  {"intermediate_size", 4096},
                                  {"num_hidden_layers", 24},
                                  {"patch_size", 14},
                                  {"image_size", 336}}}};
        QTest::newRow("LLaVA 1.5 7B") << imported(llava) << qint64(324'487'168) << qint64(576);
    }
    void visionTowerIsInTheWeights()
    {
        QFETCH(ModelSpec, model);
        QFETCH(qint64, parameters);
        QFETCH(qint64, tokens);
        QCOMPARE(model.vision.parameters, parameters);
        QCOMPARE(model.vision.tokensPerImage, tokens);
        Scenario s = test::scenario("llama-2-7b", "h200");
        s.model = model;
        KVSCOPE_EVALUATE(e, s);
        QCOMPARE(e.parameters.vision, double(parameters));
        // Loaded with the model but never in the per-token active weights.
        Scenario textOnly = s;
        textOnly.model.vision = {};
        KVSCOPE_EVALUATE(plain, textOnly);
        QCOMPARE(e.parameters.total() - plain.parameters.total(), double(parameters));
        QCOMPARE(e.parameters.active(), plain.parameters.active());
        QCOMPARE(e.weightsBytesTotal - plain.weightsBytesTotal,
                 double(parameters) * s.weights.embeddingBits / 8);
        const auto json = evaluationToJson(s, e);
        QCOMPARE(json["model"]["vision_parameters"].get<qint64>(), parameters);
        QCOMPARE(json["model"]["tokens_per_image"].get<qint64>(), tokens);
        // Saved and reopened, the tower stays.
        QCOMPARE(imported(modelToConfig(model)).vision.parameters, parameters);
    }

    void unknownLayoutsAreRefusedByName_data()
    {
        QTest::addColumn<QString>("config");
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("accepted");
        nlohmann::json llama = modelToConfig(test::model("llama-2-7b"));
        nlohmann::json typed = llama;
        typed["layer_types"] = nlohmann::json::array();
        for (int i = 0; i < 32; ++i)
            typed["layer_types"].push_back(i % 4 == 3 ? "full_attention" : "rwkv");
        QTest::newRow("unknown layer type")
            << QString::fromStdString(typed.dump()) << "config.layer_types"
            << "qwen3_next";
        nlohmann::json foreign = llama;
        foreign["ssm_state_size"] = 16;
        QTest::newRow("state keys of another family")
            << QString::fromStdString(foreign.dump()) << "config.ssm_state_size"
            << "nemotron_h";
        nlohmann::json pureMamba = nemotronNano9b();
        pureMamba["hybrid_override_pattern"] = pattern(56, {}, 'M');
        QTest::newRow("no attention layer")
            << QString::fromStdString(pureMamba.dump()) << "config.layer_types"
            << "at least one attention layer";
        nlohmann::json badPattern = nemotronNano9b();
        badPattern["hybrid_override_pattern"] = pattern(56, {3}, 'X');
        QTest::newRow("pattern letter")
            << QString::fromStdString(badPattern.dump()) << "config.hybrid_override_pattern"
            << "one of M, *, - or E";
        nlohmann::json shortPattern = nemotronNano9b();
        shortPattern["hybrid_override_pattern"] = "M*";
        QTest::newRow("pattern length")
            << QString::fromStdString(shortPattern.dump()) << "config.hybrid_override_pattern"
            << "per layer (56)";
        nlohmann::json vision = llama;
        vision["model_type"] = "idefics3";
        vision["vision_config"] = {{"hidden_size", 1152}};
        QTest::newRow("unknown vision tower")
            << QString::fromStdString(vision.dump()) << "config.model_type"
            << "gemma3";
        nlohmann::json badTower = llama;
        badTower["model_type"] = "llava";
        badTower["vision_config"] = {{"hidden_size", -4}};
        QTest::newRow("negative vision width")
            << QString::fromStdString(badTower.dump()) << "config.vision_config.hidden_size"
            << "";
        // Found by fuzz_model_config: a window over 32 layers of which 24 are recurrent.
        nlohmann::json windowed = llama;
        windowed["model_type"] = "qwen3_next";
        windowed["sliding_window"] = 128;
        QTest::newRow("windowed hybrid")
            << QString::fromStdString(windowed.dump()) << "config.sliding_window"
            << "hybrid model";
        // Found by fuzz_model_config: top-level image keys are checked like the tower's own.
        nlohmann::json gemma = llama;
        gemma["model_type"] = "gemma3";
        gemma["vision_config"] = {{"hidden_size", 1152}};
        gemma["mm_tokens_per_image"] = -16;
        QTest::newRow("negative tokens per image")
            << QString::fromStdString(gemma.dump()) << "config.mm_tokens_per_image"
            << "an integer from 1";
        nlohmann::json pixtral = llama;
        pixtral["model_type"] = "mistral3";
        pixtral["vision_config"] = {{"hidden_size", 1024}};
        pixtral["spatial_merge_size"] = 0;
        QTest::newRow("zero merge size")
            << QString::fromStdString(pixtral.dump()) << "config.spatial_merge_size"
            << "an integer from 1";
        nlohmann::json huge = llama;
        huge["model_type"] = "mistral3";
        huge["vision_config"] = {{"hidden_size", 1024}, {"image_size", 100000}, {"patch_size", 1}};
        huge["spatial_merge_size"] = 1;
        QTest::newRow("ten billion tokens per image")
            << QString::fromStdString(huge.dump()) << "config.vision_config"
            << "at most 100,000,000 tokens per image";
    }
    void unknownLayoutsAreRefusedByName()
    {
        QFETCH(QString, config);
        QFETCH(QString, field);
        QFETCH(QString, accepted);
        auto m = modelFromConfig(nlohmann::json::parse(config.toStdString()), "x");
        QVERIFY(!m.ok());
        QCOMPARE(QString::fromStdString(m.error().field), field);
        QVERIFY2(m.error().accepted.find(accepted.toStdString()) != std::string::npos,
                 m.error().accepted.c_str());
    }
};

KVSCOPE_TEST_SUITE(TestHybrid, "tst_hybrid", kvscope::test::SuiteApp::Core)
#include "tst_hybrid.moc"
