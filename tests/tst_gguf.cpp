// SPDX-License-Identifier: GPL-3.0-or-later
// GGUF model files: the header reader, the model it describes, weights to the byte, the doors
// that take a file (--model, scenario files, launch commands) and files that lie.

#include "cli_runner.h"
#include "gguf_builder.h"
#include "suite_registry.h"
#include "testutils.h"

#include "kvscope/engines/launch_command.h"
#include "kvscope/formats/gguf.h"
#include "kvscope/model/weights.h"
#include "kvscope/settings/scenario_file.h"

#include <QTemporaryDir>
#include <QtTest>

#include <fstream>
#include <limits>
#include <sstream>

using namespace kvscope;
using test::GgufBuilder;

namespace {

enum : uint32_t { F32 = 0, F16 = 1, Q8_0 = 8, Q4_K = 12, Q6_K = 14 };

// A two-layer Llama-style model whose every byte is counted by hand below:
// hidden 256, 4 query heads and 2 KV heads of 64, MLP 512, vocabulary 1,000.
GgufBuilder tinyLlama()
{
    GgufBuilder b;
    b.str("general.architecture", "llama");
    b.str("general.name", "Tiny Llama");
    b.u32("general.file_type", 15); // MOSTLY_Q4_K_M
    b.u32("llama.block_count", 2);
    b.u32("llama.context_length", 4096);
    b.u32("llama.embedding_length", 256);
    b.u32("llama.feed_forward_length", 512);
    b.u32("llama.attention.head_count", 4);
    b.u32("llama.attention.head_count_kv", 2);
    b.strings("tokenizer.ggml.tokens", 1000);
    b.tensor("token_embd.weight", {256, 1000}, Q4_K);
    for (int i = 0; i < 2; ++i) {
        const std::string blk = "blk." + std::to_string(i) + ".";
        b.tensor(blk + "attn_norm.weight", {256}, F32);
        b.tensor(blk + "attn_q.weight", {256, 256}, Q4_K);
        b.tensor(blk + "attn_k.weight", {256, 128}, Q4_K);
        b.tensor(blk + "attn_v.weight", {256, 128}, Q6_K);
        b.tensor(blk + "attn_output.weight", {256, 256}, Q4_K);
        b.tensor(blk + "ffn_norm.weight", {256}, F32);
        b.tensor(blk + "ffn_gate.weight", {256, 512}, Q4_K);
        b.tensor(blk + "ffn_up.weight", {256, 512}, Q4_K);
        b.tensor(blk + "ffn_down.weight", {512, 256}, Q6_K);
    }
    b.tensor("output_norm.weight", {256}, F32);
    b.tensor("output.weight", {256, 1000}, Q6_K);
    return b;
}

// Q4_K: 144 bytes per 256 weights; Q6_K: 210 per 256; F32: 4 per weight.
// A layer: q 65,536/256x144 = 36,864; k 18,432; v 128x210 = 26,880; o 36,864; gate and up
// 73,728 each; down 512x210 = 107,520; two norms 1,024 each: 376,064.
// Embedding 1,000 blocks x 144 = 144,000; output 1,000 x 210 = 210,000; final norm 1,024.
constexpr double kTinyBytes = 2 * 376'064.0 + 144'000 + 210'000 + 1'024; // 1,107,152

Expected<ModelSpec> modelOf(const GgufBuilder& b, bool withData = false)
{
    const std::string bytes = b.bytes(withData);
    std::istringstream in(bytes);
    auto header = readGgufHeader(in, bytes.size());
    if (!header)
        return header.error();
    return modelFromGguf(*header, "tiny");
}

std::string errorField(const std::string& bytes)
{
    std::istringstream in(bytes);
    auto header = readGgufHeader(in, bytes.size());
    if (!header)
        return header.error().field;
    auto model = modelFromGguf(*header, "x");
    return model ? std::string() : model.error().field;
}

} // namespace

class TestGguf : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void readsDimensionsFromTheHeader()
    {
        auto m = modelOf(tinyLlama());
        QVERIFY2(m.ok(), m.ok() ? "" : m.error().message().c_str());
        QCOMPARE(m->layers, int64_t(2));
        QCOMPARE(m->hiddenSize, int64_t(256));
        QCOMPARE(m->queryHeads, int64_t(4));
        QCOMPARE(m->kvHeads, int64_t(2));
        QCOMPARE(m->headDim, int64_t(64));
        QCOMPARE(m->intermediateSize, int64_t(512));
        QCOMPARE(m->vocabSize, int64_t(1000));
        QCOMPARE(m->maxContext, int64_t(4096));
        QVERIFY(m->gatedMlp);
        QVERIFY(!m->tiedEmbeddings);
        QCOMPARE(m->name, std::string("Tiny Llama"));
        QCOMPARE(m->fileWeights.fileType, std::string("Q4_K_M"));
        QCOMPARE(m->attentionKind(), AttentionKind::Gqa);
    }

    void weightsMatchTheFileToTheByte()
    {
        auto m = modelOf(tinyLlama());
        QVERIFY(m.ok());
        QCOMPARE(m->fileWeights.bytes.total(), kTinyBytes);
        QCOMPARE(m->fileWeights.bytes.embedding, 144'000.0);
        QCOMPARE(m->fileWeights.bytes.lmHead, 210'000.0);
        QCOMPARE(m->fileWeights.elements.embedding, 256'000.0);
        // The evaluation charges exactly those bytes, through the format the file defines.
        Scenario s = test::scenario();
        s.model = *m;
        s.weights = fileWeightFormat(*m, test::weightFormat("q4_k_m"));
        KVSCOPE_EVALUATE(e, s);
        QCOMPARE(e.weightsBytesTotal, kTinyBytes);
        QCOMPARE(countParameters(*m).total(), m->fileWeights.elements.total());
        // Total elements: 2 x (2 x 256 + 65,536 x 2 + 32,768 x 2 + 131,072 x 3) + 256 + 512,000.
        QCOMPARE(countParameters(*m).total(),
                 2.0 * (512 + 131'072 + 65'536 + 393'216) + 256 + 512'000);
    }

    void moeExpertsKeepTheirOwnBits()
    {
        GgufBuilder b;
        b.str("general.architecture", "qwen3moe");
        b.u32("qwen3moe.block_count", 1);
        b.u32("qwen3moe.embedding_length", 256);
        b.u32("qwen3moe.feed_forward_length", 512);
        b.u32("qwen3moe.attention.head_count", 4);
        b.u32("qwen3moe.attention.head_count_kv", 4);
        b.u32("qwen3moe.expert_count", 8);
        b.u32("qwen3moe.expert_used_count", 2);
        b.u32("qwen3moe.expert_feed_forward_length", 256);
        b.tensor("token_embd.weight", {256, 100}, Q8_0);
        b.tensor("blk.0.attn_q.weight", {256, 256}, Q8_0);
        b.tensor("blk.0.ffn_gate_inp.weight", {256, 8}, F32);
        b.tensor("blk.0.ffn_gate_exps.weight", {256, 256, 8}, Q4_K);
        b.tensor("blk.0.ffn_up_exps.weight", {256, 256, 8}, Q4_K);
        b.tensor("blk.0.ffn_down_exps.weight", {256, 256, 8}, Q6_K);
        auto m = modelOf(b);
        QVERIFY2(m.ok(), m.ok() ? "" : m.error().message().c_str());
        QVERIFY(m->isMoe());
        QVERIFY(m->tiedEmbeddings);
        // Experts: 2 x 2,048 blocks x 144 + 2,048 x 210 = 1,019,904 bytes for 1,572,864 weights.
        QCOMPARE(m->fileWeights.bytes.experts, 1'019'904.0);
        const WeightFormat f = fileWeightFormat(*m, test::weightFormat("q4_k_m"));
        QVERIFY(f.expertsOnly);
        QCOMPARE(f.bitsPerWeight, 1'019'904.0 * 8 / 1'572'864);
        const ParameterCount p = countParameters(*m);
        QCOMPARE(p.expertsActive, p.experts * 2 / 8);
        QCOMPARE(weightBytes(p, f), m->fileWeights.bytes.total());
    }

    void slidingWindowFollowsLlamaCpp()
    {
        // gemma2 keeps its pattern in llama.cpp's code: every other layer slides, the last of
        // each pair is global.
        GgufBuilder b;
        b.str("general.architecture", "gemma2");
        b.u32("gemma2.block_count", 4);
        b.u32("gemma2.embedding_length", 256);
        b.u32("gemma2.attention.head_count", 2);
        b.u32("gemma2.attention.sliding_window", 4096);
        b.tensor("token_embd.weight", {256, 10}, F16);
        auto m = modelOf(b);
        QVERIFY2(m.ok(), m.ok() ? "" : m.error().message().c_str());
        QCOMPARE(m->slidingWindow, int64_t(4096));
        QCOMPARE(m->windowedLayers, (std::vector<bool>{true, false, true, false}));
        QVERIFY(!m->gatedMlp); // no ffn_gate tensor
        // A per-layer pattern in the file wins over the architecture's.
        b.u32s("gemma2.attention.sliding_window_pattern", {0, 0, 1, 1});
        auto own = modelOf(b);
        QVERIFY(own.ok());
        QCOMPARE(own->windowedLayers, (std::vector<bool>{false, false, true, true}));
    }

    void mlaFromDeepSeekKeys()
    {
        GgufBuilder b;
        b.str("general.architecture", "deepseek2");
        b.u32("deepseek2.block_count", 1);
        b.u32("deepseek2.embedding_length", 512);
        b.u32("deepseek2.attention.head_count", 4);
        b.u32("deepseek2.attention.head_count_kv", 4);
        b.u32("deepseek2.attention.key_length", 192);
        b.u32("deepseek2.attention.value_length", 128);
        b.u32("deepseek2.attention.kv_lora_rank", 512);
        b.u32("deepseek2.rope.dimension_count", 64);
        b.tensor("token_embd.weight", {512, 10}, F16);
        auto m = modelOf(b);
        QVERIFY2(m.ok(), m.ok() ? "" : m.error().message().c_str());
        QVERIFY(m->isMla());
        QCOMPARE(m->qkRopeHeadDim, int64_t(64));
        QCOMPARE(m->qkNopeHeadDim, int64_t(128));
        QCOMPARE(m->vHeadDim, int64_t(128));
    }

    void cliTakesAGgufFile()
    {
        const std::string path = writeFile("tiny-q4_k_m.gguf", tinyLlama().bytes(true));
        const auto r = test::runCli({"calc", "--json", "--model", path, "--engine", "llamacpp"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        QCOMPARE(j["scenario"]["weights"].get<std::string>(), std::string("file"));
        QCOMPARE(j["weights"]["all_gpus_bytes"].get<double>(), kTinyBytes);
        // llama.cpp loads its own file: no caution that it lacks the "file" weights (the engine
        // family was once compared as "llama.cpp" against the catalog's "llamacpp").
        for (const auto& caution : j["cautions"])
            QVERIFY2(caution["id"] != "engine_lacks_setting" ||
                         caution["message"].get<std::string>().find("weights") == std::string::npos,
                     caution.dump().c_str());
        // The launch command names the file itself.
        const auto launch = test::runCli({"launch", "--model", path, "--engine", "llamacpp"});
        QVERIFY2(launch.code == 0, launch.err.c_str());
        QVERIFY2(launch.out.find("llama-server -m " + path) != std::string::npos,
                 launch.out.c_str());
        // --weights still asks "and at Q8_0?": the file's tensors at the catalog's bits.
        const auto q8 = test::runCli({"calc", "--json", "--model", path, "--weights", "q8_0"});
        QVERIFY2(q8.code == 0, q8.err.c_str());
        QVERIFY(nlohmann::json::parse(q8.out)["weights"]["all_gpus_bytes"].get<double>() !=
                kTinyBytes);
    }

    void scenarioFilesKeepTheFileWeights()
    {
        const std::string path = writeFile("keep.gguf", tinyLlama().bytes());
        Scenario s = test::scenarioFrom({{"model", path}});
        QCOMPARE(s.weights.id, std::string(kFileWeightFormatId));
        const std::string saved = scenarioToText(s);
        std::filesystem::remove(path); // the scenario no longer needs the file
        auto reopened = scenarioFromText(saved, test::catalog());
        QVERIFY2(reopened.ok(), reopened.ok() ? "" : reopened.error().message().c_str());
        QCOMPARE(reopened->weights.id, std::string(kFileWeightFormatId));
        KVSCOPE_EVALUATE(e, *reopened);
        QCOMPARE(e.weightsBytesTotal, kTinyBytes);
        QCOMPARE(scenarioToText(*reopened), saved);
        // Choosing a preset model afterwards leaves the file's format for its nearest kin.
        Scenario preset = *reopened;
        QVERIFY(!applyOptions(preset, {{"model", "llama-2-7b"}}, test::catalog()));
        QCOMPARE(preset.weights.id, std::string("q4_k_m"));
    }

    void hostileHeadersAreRefused_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("field");
        const GgufBuilder good = tinyLlama();
        const std::string whole = good.bytes();
        auto row = [](const char* name, const std::string& bytes, const char* field) {
            QTest::newRow(name) << QByteArray::fromStdString(bytes) << QString::fromUtf8(field);
        };
        row("empty", "", "gguf.magic");
        row("json", R"({"num_hidden_layers": 32})", "gguf.magic");
        std::string v1 = whole;
        v1[4] = 1;
        row("version 1", v1, "gguf.version");
        std::string bigEndian = whole;
        std::swap(bigEndian[4], bigEndian[7]);
        row("big-endian version", bigEndian, "gguf.version");
        std::string tensors = whole;
        for (int i = 8; i < 16; ++i)
            tensors[size_t(i)] = char(0xff);
        row("absurd tensor count", tensors, "gguf.tensor_count");
        std::string keys = whole;
        for (int i = 16; i < 24; ++i)
            keys[size_t(i)] = char(0x7f);
        row("absurd key count", keys, "gguf.metadata_kv_count");
        row("cut in the metadata", whole.substr(0, 200), "gguf");
        row("cut in the tensor infos", whole.substr(0, whole.size() - 10), "gguf.tensors");

        GgufBuilder longString;
        std::string len;
        GgufBuilder::appendTo(len, uint64_t(1) << 60);
        longString.raw("general.name", GgufBuilder::String, len);
        row("string of 2^60 bytes", longString.bytes(), "general.name");
        GgufBuilder longArray;
        std::string arr;
        GgufBuilder::appendTo(arr, uint32_t(GgufBuilder::U32));
        GgufBuilder::appendTo(arr, uint64_t(1) << 62);
        longArray.raw("tokenizer.ggml.tokens", GgufBuilder::Array, arr);
        row("array of 2^62 items", longArray.bytes(), "tokenizer.ggml.tokens.count");
        GgufBuilder nested;
        std::string nest;
        GgufBuilder::appendTo(nest, uint32_t(GgufBuilder::Array));
        GgufBuilder::appendTo(nest, uint64_t(1));
        nested.raw("x", GgufBuilder::Array, nest);
        row("array of arrays", nested.bytes(), "gguf.x");
        GgufBuilder badType;
        badType.raw("x", 99, "");
        row("value type 99", badType.bytes(), "gguf.x.type");

        GgufBuilder fiveDims = tinyLlama();
        fiveDims.tensors()[0].dims = {1, 1, 1, 1, 256};
        row("five dimensions", fiveDims.bytes(), "n_dims");
        GgufBuilder unknownType = tinyLlama();
        unknownType.tensors()[0].type = 77;
        row("unknown tensor type", unknownType.bytes(), "tensors[0].type");
        GgufBuilder notBlocks = tinyLlama();
        notBlocks.tensors()[0].dims = {100, 1000};
        row("row not a whole block", notBlocks.bytes(), "tensors[0].ne[0]");
        GgufBuilder huge = tinyLlama();
        huge.tensors()[0].dims = {uint64_t(1) << 40, uint64_t(1) << 20};
        row("2^60 elements", huge.bytes(), "tensors[0].ne[1]");
        GgufBuilder overlap = tinyLlama();
        overlap.tensors()[1].offset = 0;
        row("overlapping tensors", overlap.bytes(), "offset");
        GgufBuilder misaligned = tinyLlama();
        misaligned.tensors()[1].offset += 1;
        row("misaligned tensor", misaligned.bytes(), "offset");
        GgufBuilder lyingOffset = tinyLlama();
        lyingOffset.tensors()[1].offset = uint64_t(1) << 63;
        row("offset past 64 TiB", lyingOffset.bytes(), "offset");

        GgufBuilder noArch;
        noArch.tensor("token_embd.weight", {256, 10}, F16);
        row("no architecture", noArch.bytes(), "gguf.general.architecture");
        GgufBuilder noLayers;
        noLayers.str("general.architecture", "llama");
        noLayers.tensor("token_embd.weight", {256, 10}, F16);
        row("no block_count", noLayers.bytes(), "gguf.llama.block_count");
        GgufBuilder hybrid = tinyLlama();
        hybrid.u32s("llama.attention.head_count_kv", {2, 0});
        row("layers without attention", hybrid.bytes(), "gguf.llama.attention.head_count_kv");
        GgufBuilder nanHeads = tinyLlama();
        std::string nan;
        GgufBuilder::appendTo(nan, uint32_t(GgufBuilder::F32));
        GgufBuilder::appendTo(nan, uint64_t(2));
        GgufBuilder::appendTo(nan, std::numeric_limits<float>::quiet_NaN());
        GgufBuilder::appendTo(nan, 2.0f);
        nanHeads.raw("llama.attention.head_count", GgufBuilder::Array, nan);
        row("NaN in a per-layer count", nanHeads.bytes(), "gguf.llama.attention.head_count");
        GgufBuilder noTensors;
        noTensors.str("general.architecture", "llama");
        noTensors.u32("llama.block_count", 1);
        noTensors.u32("llama.embedding_length", 64);
        noTensors.u32("llama.attention.head_count", 1);
        noTensors.u32("llama.vocab_size", 10);
        row("no tensors", noTensors.bytes(), "gguf.tensor_count");
    }

    void hostileHeadersAreRefused()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, field);
        const std::string named = errorField(bytes.toStdString());
        QVERIFY2(!named.empty(), "accepted");
        QVERIFY2(QString::fromStdString(named).contains(field), named.c_str());
    }

    void everyCutIsRefusedCleanly()
    {
        // Every prefix of a real header: an error each time, never a crash or a model.
        const std::string whole = tinyLlama().bytes();
        for (size_t n = 0; n < whole.size(); ++n)
            QVERIFY2(!errorField(whole.substr(0, n)).empty(), qPrintable(QString::number(n)));
        QVERIFY(errorField(whole).empty());
    }

    void cliNamesTheFieldOfABadFile()
    {
        GgufBuilder b = tinyLlama();
        b.tensors()[2].type = 77;
        const std::string path = writeFile("bad.gguf", b.bytes());
        const auto r = test::runCli({"calc", "--model", path});
        QCOMPARE(r.code, 2);
        QVERIFY2(r.err.find("gguf.tensors[2].type: got 77") != std::string::npos, r.err.c_str());
    }

private:
    std::string writeFile(const std::string& name, const std::string& bytes)
    {
        const std::string path = m_dir.filePath(QString::fromStdString(name)).toStdString();
        std::ofstream(path, std::ios::binary) << bytes;
        return path;
    }

    QTemporaryDir m_dir;
};

KVSCOPE_TEST_SUITE(TestGguf, "tst_gguf", kvscope::test::SuiteApp::Core)
#include "tst_gguf.moc"
