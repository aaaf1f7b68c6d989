// SPDX-License-Identifier: GPL-3.0-or-later
// The validation set as a regression guard, and the validation module's own rows: hand-made
// cases checked by hand arithmetic, skips with their reasons, and malformed case files.

#include "suite_registry.h"
#include "testutils.h"

#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/validation/validation_set.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

using namespace kvscope;
using namespace kvscope::test;
using namespace Qt::StringLiterals;

namespace {

// What the current model reaches on resources/validation (see `kvscope-cli validate`). These are
// a floor to raise when the model improves, never a target to tune the model to: a change that
// makes any of them worse is a regression. Shares are fractions of the cases compared.
struct Floor
{
    ValidationKind kind;
    int minEvaluated;      // cases compared (fewer means cases started to be skipped)
    double maxMedianError; // median |predicted / measured - 1|
    double minWithin5;
    double minWithin10;
};
// Reached when this was written (hbm_efficiency 0.78, no per-layer cost, activation peak of the
// larger of the forward and vLLM's sampler (Model Runner V2's greedy profile for dense models
// from v0.25, the classic runner's sorted top-k/top-p otherwise, none beyond the logits under
// FlashInfer), vLLM's batch defaults by GPU memory from v0.9, MXFP4 experts as vLLM's kernels
// hold them, llama.cpp KV buffers compared without a GPU, each GPU's CUDA-visible memory, vLLM's
// CUDA graphs outside the budget before v0.21, and for dense models on Model Runner V2 from v0.25
// until v0.28): capacity 2.01 % / 45 of 64 / 55 of 64, decode
// 9.28 % / 11 of 40 / 21 of 40, PCIe 7.09 % / 11 of 28 / 16 of 28. The medians carry a hair of
// slack for floating-point noise only.
constexpr Floor kFloors[] = {
    // Issue 46's three SGLang pools (capacity-sglang.json, fit; sglang-capacity-holdout-v1.json):
    // +9.2 %, +0.8 % and +108 % (--tp 16 across two nodes, not modelled) move the median from
    // 2.01 % to 2.04 % (0.02043); tensor parallel across nodes then brings the last to +4.2 %.
    // The second blind set's three pools (+5.0 %, +36.1 % with a draft model, +2.5 %): median
    // 2.37 % of 70, 49 within 5 %, 60 within 10 %; the dense LoRA pool (+5.3 %): 2.50 % of 71,
    // 49 within 5 %, 61 within 10 %.
    {ValidationKind::Capacity, 71, 0.0251, 49.0 / 71, 61.0 / 71},
    // 47 held out (see rules suite); the 71 before -nkvo, partial -ngl and the small models keep
    // 12 within 5 % and 29 within 10 %; the 20 added (decode-holdout-offload-small.json,
    // decode-holdout-partial-ngl.json) bring 2 within 5 % and 7 within 10 %; the 7 with and
    // without CUDA graphs (decode-cuda-graphs.json, fit; decode-holdout-cuda-graphs.json) bring 2
    // within 5 % and 4 within 10 % (median 14.89 % of 98; layer_overhead_eager_us 19 µs). The 17
    // transformers cases (decode-transformers.json, fit; decode-holdout-transformers.json), with
    // python_dispatch_us_per_layer 440: median 15.49 % of 115, 17 within 5 %, 44 within 10 %.
    // The 21 vLLM cases (decode-vllm.json, fit; decode-holdout-vllm.json), with vLLM's step and
    // MoE-layer costs and all-reduce latency by link: median 15.49 % of 136, 22 within 5 %, 50
    // within 10 %. Counting each measurement once (5 repeats removed) and the pre-CUDA-graph
    // llama.cpp builds run eagerly (issue 43 item 7): median 15.49 % of 131, 20 within 5 %, 47
    // within 10 %. transformers' generate() step cost (4,250 us per token) fitted with the
    // per-layer dispatch (320 us) on the two compiled and eight eager 16-bit runs: 133 cases,
    // median 15.49 %, 24 within 5 %, 50 within 10 %. TGI's 15 single-user runs
    // (decode-tgi.json, fit; step and per-layer costs fitted on its nine 16-bit ones): 148 cases,
    // median 15.87 %, 27 within 5 %, 55 within 10 %. Modern vLLM on Llama 3.1 8B
    // (decode-holdout-vllm-v2.json, scored once): 153, median 15.53 %, 27 within 5 %, 56 within
    // 10 %.
    {ValidationKind::Decode, 153, 0.1553, 27.0 / 153, 56.0 / 153},
    {ValidationKind::Pcie, 28, 0.0710, 11.0 / 28, 16.0 / 28},
};

constexpr double kMiB = 1024.0 * 1024.0;

// Capacity and decode cases name a model and an engine (rows override them); PCIe copies do not.
nlohmann::json baseCase(const std::string& id, const std::string& kind)
{
    nlohmann::json c{{"id", id}, {"kind", kind}, {"source", "hand-made for tst_validation"}};
    if (kind != "pcie")
        c.update({{"engine", "llamacpp"}, {"model", "llama-2-7b"}});
    return c;
}

ValidationCase parseOne(const nlohmann::json& c)
{
    auto cases = validationCasesFromJson(nlohmann::json::array({c}), "hand.json");
    if (!cases)
        qFatal("hand-made case refused: %s", cases.error().message().c_str());
    return cases->front();
}

} // namespace

class TestValidation : public QObject
{
    Q_OBJECT

private slots:
    void shippedSetHoldsItsFloor();
    void everyShippedCaseIsComparedOrSaysWhy();
    void llamaCppKvBufferByHand_data();
    void llamaCppKvBufferByHand();
    void vllmKvPoolByHand_data();
    void vllmKvPoolByHand();
    void pcieCopyByHand();
    void decodeWithoutContextRunsTg128();
    void unknownEngineIsTheDefaultOne();
    void skips_data();
    void skips();
    void kvBufferNeedsNoGpu();
    void availableKvMemoryIsFreeForKv();
    void modelRunnerV2GraphsByVersion_data();
    void modelRunnerV2GraphsByVersion();
    void vllmKvDtypeAndEagerMode();
    void vllmReleaseBesideThePlatforms_data();
    void vllmReleaseBesideThePlatforms();
    void malformedFiles_data();
    void malformedFiles();
};

void TestValidation::shippedSetHoldsItsFloor()
{
    const auto dir =
        findValidationDir(defaultDataDirs(QCoreApplication::applicationFilePath().toStdString()));
    QVERIFY2(dir, "no validation/ in the staged data directory");
    auto cases = loadValidationDir(*dir);
    QVERIFY2(cases, cases ? "" : cases.error().message().c_str());
    const ValidationReport report = runValidation(*cases, catalog());
    for (const Floor& floor : kFloors) {
        const ValidationSummary& s = report.summary(floor.kind);
        const QByteArray where = validationKindId(floor.kind);
        qInfo("%s: %d compared, %d skipped, median |error| %.4f, within 5%% %.3f, within 10%% %.3f",
              where.constData(), s.evaluated, s.skipped, s.medianAbsError, s.within5, s.within10);
        QVERIFY2(s.evaluated >= floor.minEvaluated, where.constData());
        QVERIFY2(s.medianAbsError <= floor.maxMedianError + 1e-9, where.constData());
        QVERIFY2(s.within5 >= floor.minWithin5 - 1e-9, where.constData());
        QVERIFY2(s.within10 >= floor.minWithin10 - 1e-9, where.constData());
    }
}

void TestValidation::everyShippedCaseIsComparedOrSaysWhy()
{
    const auto dir =
        findValidationDir(defaultDataDirs(QCoreApplication::applicationFilePath().toStdString()));
    QVERIFY(dir);
    auto cases = loadValidationDir(*dir);
    QVERIFY(cases);
    QVERIFY2(cases->size() >= 15 + 25 + 6, qPrintable(QString::number(cases->size())));
    const ValidationReport report = runValidation(*cases, catalog());
    QCOMPARE(report.results.size(), cases->size());
    for (const ValidationResult& r : report.results) {
        if (r.skipped()) {
            QVERIFY2(!skipReasonText(r).empty(), r.id.c_str());
            continue;
        }
        QVERIFY2(std::isfinite(r.predicted) && r.predicted > 0, r.id.c_str());
        QVERIFY2(std::isfinite(r.error), r.id.c_str());
        // Off by ten or more means a mapping broke (a unit, a setting), not a model to tune. A
        // first token under load may really be that far off (queueing kvscope does not model:
        // SGLang's closed-loop run of 64 users on 8 x B200 waited 31 times kvscope's steady
        // first token), so there only fifty-fold flags a mapping.
        const double limit = r.kind == ValidationKind::Ttft ? 50.0 : 10.0;
        QVERIFY2(r.error > 1.0 / limit - 1.0 && r.error < limit - 1.0,
                 qPrintable(qs(r.id) + u": "_s + QString::number(r.error)));
    }
}

void TestValidation::llamaCppKvBufferByHand_data()
{
    QTest::addColumn<QString>("cacheType");
    QTest::addColumn<int>("nCtx");
    QTest::addColumn<double>("mib");
    // Llama 3 8B: 32 layers x 2 (K, V) x 8 KV heads x 128 head_dim = 65,536 elements per token.
    // f16: 65,536 x 2 B x 8,192 = 1,073,741,824 B = 1,024 MiB exactly.
    QTest::addRow("f16 8192") << "f16" << 8192 << 1024.0;
    // q8_0: 34 bytes per 32 elements (8.5 bits): 65,536 x 8.5 / 8 x 8,192 B = 544 MiB.
    QTest::addRow("q8_0 8192") << "q8_0" << 8192 << 544.0;
    // q4_0: 18 bytes per 32 (4.5 bits): 65,536 x 4.5 / 8 x 8,192 B = 288 MiB.
    QTest::addRow("q4_0 8192") << "q4_0" << 8192 << 288.0;
    // n_ctx is padded to 256 cells: 8,000 -> 8,192, the same 1,024 MiB.
    QTest::addRow("f16 8000 padded") << "f16" << 8000 << 1024.0;
}

void TestValidation::llamaCppKvBufferByHand()
{
    QFETCH(QString, cacheType);
    QFETCH(int, nCtx);
    QFETCH(double, mib);
    nlohmann::json c = baseCase("llama3-kv", "capacity");
    c["engine"] = "llamacpp";
    c["model"] = "llama-3-8b";
    c["gpu"] = "rtx-4090";
    c["settings"] = {{"n_ctx", nCtx},
                     {"cache_type_k", cacheType.toStdString()},
                     {"cache_type_v", cacheType.toStdString()}};
    c["measured"] = {{"kv_buffer_mib", mib}};
    const ValidationResult r = validateCase(parseOne(c), catalog());
    QVERIFY2(!r.skipped(), skipReasonText(r).c_str());
    QCOMPARE(r.unit, std::string("MiB"));
    QCOMPARE(r.predicted, mib);
    QCOMPARE(r.error, 0.0);
}

void TestValidation::vllmKvPoolByHand_data()
{
    QTest::addColumn<QString>("engineVersion");
    QTest::addColumn<bool>("graphsInBudget");
    QTest::addColumn<QString>("sampler");
    QTest::addColumn<bool>("legacyOverhead");
    QTest::addColumn<bool>("classicRunner");
    QTest::newRow("version not stated: today's vLLM")
        << QString() << true << QString() << false << false;
    QTest::newRow("v0.25.0 runs dense models on Model Runner V2, graphs outside the budget")
        << QStringLiteral("v0.25.0 V1") << false << QString() << false << false;
    QTest::newRow("v0.27.1 still leaves them outside")
        << QStringLiteral("v0.27.1 V1") << false << QString() << false << false;
    QTest::newRow("v0.28.0 Model Runner V2 counts graphs in the budget")
        << QStringLiteral("v0.28.0 V1") << true << QString() << false << false;
    QTest::newRow("v0.21.0 counts graphs in the budget, on the classic runner")
        << QStringLiteral("v0.21.0") << true << QString() << false << true;
    QTest::newRow("v0.6.4 left them to the headroom, and counted the CUDA context")
        << QStringLiteral("v0.6.4 V0") << false << QString() << true << true;
    QTest::newRow("v0.6.5 took a baseline after the context")
        << QStringLiteral("v0.6.5 V0") << false << QString() << false << true;
    QTest::newRow("v0.7.x-era: an unstated patch counts as .0")
        << QStringLiteral("v0.7.x-era V0") << false << QString() << false << true;
    QTest::newRow("V0 engine, release not stated: before v0.21")
        << QStringLiteral("ROCm fork checkout V0, Dec 2024") << false << QString() << false << true;
    QTest::newRow("v0.10.2 V1 too")
        << QStringLiteral("0.10.2") << false << QString() << false << true;
    QTest::newRow("FlashInfer sampler: no sorted copies")
        << QStringLiteral("v0.10.1.1 V1") << false << QStringLiteral("flashinfer") << false << true;
    QTest::newRow("PyTorch sampler: the catalog's copies")
        << QStringLiteral("v0.10.1.1 V1") << false << QStringLiteral("pytorch") << false << true;
}

void TestValidation::vllmKvPoolByHand()
{
    // Llama 3.1 8B on one H100 SXM, vLLM, gpu_memory_utilization 0.9,
    // max_num_batched_tokens 2,048, max_num_seqs 256, block_size 16:
    //   budget      the memory CUDA reports (80 GiB x the catalog's usable fraction) x 0.9
    //   weights     8,030,261,248 parameters x 2 B                = 16,060,522,496 B
    //   activations the forward: 2,048 tokens x (2 x 4,096 residual and its normed copy + the
    //               larger of the attention phase (4,096 q + 2,048 k/v + 4,096 attention out +
    //               4,096 o-proj = 14,336) and the MLP phase (3 x 14,336 gate/up/product +
    //               4,096 down-proj = 47,104)) x 2 B = 226,492,416 B, plus 256 x 128,256 x 4 B
    //               logits = 131,334,144 B; the classic runner's sampler: 9.5 x the logits =
    //               1,247,674,368 B, the larger (catalog classic_sampler_logit_copies 9.5 when
    //               this was written); Model Runner V2's greedy profile holds 1.5 x the logits,
    //               so there the forward is the larger
    //   overhead    the engine's runtime MiB (before v0.6.5 its legacy figure, which counted the
    //               CUDA context), plus its CUDA-graph MiB where the version counts graphs in the
    //               budget (catalog values 133 or 358, and 369 MiB, when this was written)
    //   KV          131,072 B per token (32 x 2 x 8 x 128 x 2 B), 2,097,152 B per 16-token block
    // With the full 80 GiB and 707 MiB: free 59,259,871,232 B / 2,097,152 = 28,257 blocks =
    // 452,112 tokens.
    QFETCH(QString, engineVersion);
    QFETCH(bool, graphsInBudget);
    QFETCH(QString, sampler);
    QFETCH(bool, legacyOverhead);
    QFETCH(bool, classicRunner);
    const EngineProfile* vllm = catalog().engine("vllm");
    const GpuSpec* h100 = catalog().gpu("h100-sxm");
    QVERIFY(vllm && h100);
    // The release rule before v0.6.5 in engines.json sets the runtime overhead to 358 MiB.
    const double legacyRuntimeOverheadMiB = 358;
    QVERIFY(legacyRuntimeOverheadMiB != vllm->runtimeOverheadMiB);
    const double runtime = legacyOverhead ? legacyRuntimeOverheadMiB : vllm->runtimeOverheadMiB;
    const double overhead = (runtime + (graphsInBudget ? vllm->cudaGraphMiB : 0.0)) * kMiB;
    const double activationBytes = catalog().efficiencyDefaults.activationBytes;
    const double logits = 256.0 * 128256 * 4;
    const double forward = 2048.0 *
                           (2 * 4096 + std::max(4096 + 2048 + 4096 + 4096, 3 * 14336 + 4096)) *
                           activationBytes;
    const double copies = sampler == QLatin1String("flashinfer") ? 1.0
                          : classicRunner                        ? vllm->classicSamplerLogitCopies
                                                                 : vllm->samplerLogitCopies;
    const double activations = std::max(forward + logits, logits * copies);
    const double reported = 80.0 * 1024 * kMiB * h100->usableFraction;
    const double free = reported * 0.9 - 8030261248.0 * 2 - activations - overhead;
    const double tokens = std::floor(free / (131072.0 * 16)) * 16;
    if (overhead == 707 * kMiB && activationBytes == 2 && copies == 9.5)
        QCOMPARE(std::floor((80.0 * 1024 * kMiB * 0.9 - 8030261248.0 * 2 - activations - overhead) /
                            (131072.0 * 16)) *
                     16,
                 452112.0);

    nlohmann::json c = baseCase("vllm-hand", "capacity");
    c["engine"] = "vllm";
    c["model"] = "llama-3.1-8b";
    c["gpu"] = "h100-sxm";
    c["settings"] = {{"gpu_memory_utilization", 0.9},
                     {"max_model_len", 8192},
                     {"max_num_batched_tokens", 2048},
                     {"max_num_seqs", 256},
                     {"block_size", 16}};
    if (!engineVersion.isEmpty())
        c["settings"]["engine_version"] = engineVersion.toStdString();
    if (!sampler.isEmpty())
        c["settings"]["sampler"] = sampler.toStdString();
    c["measured"] = {{"gpu_blocks", 28689}, {"block_size", 16}};
    const ValidationResult r = validateCase(parseOne(c), catalog());
    QVERIFY2(!r.skipped(), skipReasonText(r).c_str());
    QCOMPARE(r.unit, std::string("tokens"));
    QCOMPARE(r.measured, 28689.0 * 16);
    QCOMPARE(r.predicted, tokens);
}

void TestValidation::pcieCopyByHand()
{
    // PCIe 4.0 x16: 16 GT/s x 128/130 / 8 bits = 1.969 GB/s per lane, x 16 lanes x the protocol
    // efficiency (0.80 -> 25.206 GB/s). The catalog stores 128/130 rounded, so read it there.
    nlohmann::json c = baseCase("pcie-hand", "pcie");
    c["gpu"] = "rtx-4090";
    c["settings"] = {{"pcie_gen", 4}, {"lanes", 16}, {"tool", "nvbandwidth"}};
    c["measured"] = {{"gb_per_s", 25.0}};
    const ValidationResult r = validateCase(parseOne(c), catalog());
    QVERIFY2(!r.skipped(), skipReasonText(r).c_str());
    const PcieGeneration* gen4 = catalog().pcieGeneration(4);
    QVERIFY(gen4);
    QVERIFY(std::fabs(gen4->encodingEfficiency - 128.0 / 130) < 1e-4);
    const double expected =
        16.0 * gen4->encodingEfficiency / 8 * 16 * catalog().efficiencyDefaults.pcieProtocol;
    QCOMPARE(r.predicted, expected);
    QCOMPARE(r.error, expected / 25.0 - 1);
}

void TestValidation::decodeWithoutContextRunsTg128()
{
    nlohmann::json c = baseCase("tg128", "decode");
    c["engine"] = "llamacpp";
    c["model"] = "llama-2-7b";
    c["gpu"] = "rtx-4090";
    c["settings"] = {{"weights", "q4_0"}, {"n_ctx", 4096}};
    c["measured"] = {{"tokens_per_s", 150}};
    const ValidationCase vcase = parseOne(c);
    const CaseScenario cs = scenarioForCase(vcase, catalog());
    QVERIFY(cs.scenario);
    QCOMPARE(cs.scenario->context, int64_t(128)); // n_ctx is the allocation, not what is held
    QVERIFY(cs.result.defaultContext);
    KVSCOPE_EVALUATE(e, *cs.scenario, EvaluateOptions{false});
    const ValidationResult r = validateCase(vcase, catalog());
    QCOMPARE(r.predicted, e.decode.tokensPerS);

    c["settings"]["context"] = 512;
    const CaseScenario stated = scenarioForCase(parseOne(c), catalog());
    QCOMPARE(stated.scenario->context, int64_t(512));
    QVERIFY(!stated.result.defaultContext);
}

void TestValidation::unknownEngineIsTheDefaultOne()
{
    nlohmann::json c = baseCase("unknown-engine", "decode");
    c["engine"] = "unknown";
    c["model"] = "llama-2-7b";
    c["gpu"] = "h100-sxm";
    c["measured"] = {{"tokens_per_s", 100}};
    const CaseScenario cs = scenarioForCase(parseOne(c), catalog());
    QVERIFY(cs.scenario);
    QVERIFY(cs.result.defaultEngine);
    QCOMPARE(cs.scenario->engine.id, defaultScenario(catalog())->engine.id);
}

void TestValidation::skips_data()
{
    QTest::addColumn<QByteArray>("caseJson");
    QTest::addColumn<int>("reason");
    QTest::addColumn<QString>("detail");
    auto row = [](const char* name, nlohmann::json c, SkipReason reason, const char* detail) {
        QTest::addRow("%s", name) << QByteArray::fromStdString(c.dump()) << int(reason)
                                  << QString::fromLatin1(detail);
    };
    nlohmann::json vllm = baseCase("v", "capacity");
    vllm["engine"] = "vllm";
    vllm["model"] = "llama-3.1-8b";
    vllm["gpu"] = "a100-80gb";
    vllm["settings"] = {{"max_model_len", 4096}};
    vllm["measured"] = {{"kv_cache_tokens", 100000}};
    row("vLLM pool without gpu_memory_utilization", vllm, SkipReason::SettingNotStated,
        "gpu_memory_utilization");
    nlohmann::json noLen = vllm;
    noLen["settings"] = {{"gpu_memory_utilization", 0.9}};
    row("vLLM pool without max_model_len", noLen, SkipReason::SettingNotStated, "max_model_len");
    nlohmann::json hub = vllm;
    hub["model"] = "mistralai/Ministral-3-3B-Instruct-2512";
    hub["settings"] = {{"gpu_memory_utilization", 0.9}, {"max_model_len", 4096}};
    row("a Hub id outside the catalog", hub, SkipReason::NotInCatalog,
        "model mistralai/Ministral-3-3B-Instruct-2512");
    nlohmann::json buffer = baseCase("b", "capacity");
    buffer["engine"] = "llamacpp";
    buffer["model"] = "qwen3-8b";
    buffer["gpu"] = "rtx-4090";
    buffer["measured"] = {{"kv_buffer_mib", 360}};
    row("KV buffer without n_ctx", buffer, SkipReason::SettingNotStated, "n_ctx");
    nlohmann::json noGpu = baseCase("g", "decode");
    noGpu["gpu"] = nullptr;
    noGpu["measured"] = {{"tokens_per_s", 100}};
    row("GPU null for a decode speed", noGpu, SkipReason::GpuNotStated, "");
    nlohmann::json mixed = buffer;
    mixed["settings"] = {{"n_ctx", 2560}, {"cache_type_k", "q8_0"}, {"cache_type_v", "q4_0"}};
    row("K and V types differ", mixed, SkipReason::MixedKvTypes, "q8_0 / q4_0");
    nlohmann::json model = buffer;
    model["model"] = "llama-9-1t";
    model["settings"] = {{"n_ctx", 2560}};
    row("model not in the catalog", model, SkipReason::NotInCatalog, "model llama-9-1t");
    nlohmann::json weights = baseCase("w", "decode");
    weights["gpu"] = "rtx-4090";
    weights["settings"] = {{"weights", "q1_0"}};
    weights["measured"] = {{"tokens_per_s", 100}};
    row("weights not in the catalog", weights, SkipReason::NotInCatalog, "weights q1_0");
    nlohmann::json bounce = baseCase("p", "pcie");
    bounce["gpu"] = "h100-pcie";
    bounce["settings"] = {{"memory", "encrypted bounce buffer"}, {"tool", "bandwidthTest"}};
    bounce["measured"] = {{"gb_per_s", 8.6}};
    row("confidential-computing copy", bounce, SkipReason::NotPinnedCopy,
        "encrypted bounce buffer");
    nlohmann::json defect = vllm;
    defect["settings"] = {{"gpu_memory_utilization", 0.95}, {"max_model_len", 16384}};
    defect["engine_defect"] = "a profiling regression in v0.2.5";
    row("engine defect named by the source", defect, SkipReason::EngineDefect,
        "a profiling regression in v0.2.5");
    nlohmann::json pinned = bounce;
    pinned["settings"]["memory"] = "pinned";
    QTest::addRow("pinned copy is compared")
        << QByteArray::fromStdString(pinned.dump()) << int(SkipReason::None) << QString();
}

void TestValidation::kvBufferNeedsNoGpu()
{
    // llama.cpp's KV buffer is arithmetic on the model alone: Qwen3 8B, 2,560 cells, f16:
    // 36 layers x 8 KV heads x 128 x 2 (K, V) x 2 B x 2,560 = 360 MiB, whatever the GPU.
    nlohmann::json c = baseCase("b", "capacity");
    c["engine"] = "llamacpp";
    c["model"] = "qwen3-8b";
    c["gpu"] = nullptr;
    c["settings"] = {{"n_ctx", 2560}, {"cache_type_k", "f16"}, {"cache_type_v", "f16"}};
    c["measured"] = {{"kv_buffer_mib", 360}};
    const ValidationResult r = validateCase(parseOne(c), catalog());
    QVERIFY(!r.skipped());
    QVERIFY(r.defaultGpu);
    QCOMPARE(r.predicted, 360.0);
    QCOMPARE(r.error, 0.0);
}

void TestValidation::availableKvMemoryIsFreeForKv()
{
    // vLLM V1's "Available KV cache memory: X GiB" is what is left for KV on one GPU: the
    // evaluation's free-for-KV bytes, compared in GiB.
    nlohmann::json c = baseCase("gib", "capacity");
    c["engine"] = "vllm";
    c["model"] = "llama-3.1-8b";
    c["gpu"] = "h100-sxm";
    c["settings"] = {{"gpu_memory_utilization", 0.9},
                     {"max_model_len", 16000},
                     {"max_num_seqs", 1024},
                     {"max_num_batched_tokens", 8192},
                     {"engine_version", "v0.11.0 V1"}};
    c["measured"] = {{"available_kv_gib", 51.38}};
    const ValidationCase vcase = parseOne(c);
    QCOMPARE(int(vcase.figure), int(MeasuredFigure::AvailableKvGiB));
    const ValidationResult r = validateCase(vcase, catalog());
    QVERIFY2(!r.skipped(), skipReasonText(r).c_str());
    QCOMPARE(r.unit, std::string("GiB"));
    QCOMPARE(r.measured, 51.38);
    const CaseScenario cs = scenarioForCase(vcase, catalog());
    QVERIFY(cs.scenario);
    auto e = evaluate(*cs.scenario);
    QVERIFY(e);
    QCOMPARE(r.predicted, e->tokensFit.freeForKvBytes / (1024.0 * kMiB));
    // By hand: 80 GiB x 0.9901 x 0.9 = 71.29 GiB, less 14.96 GiB of BF16 weights, the sampler's
    // 9.5 x 1,024 x 128,256 x 4 B = 4.65 GiB and 133 MiB of runtime overhead: 51.55 GiB, where
    // vLLM v0.11.0 logged 51.38 (llm-d's H100 runs).
    QCOMPARE(std::round(r.predicted * 100) / 100, 51.55);
}

void TestValidation::modelRunnerV2GraphsByVersion_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("graphsOutsideOnV026");
    QTest::newRow("dense: Model Runner V2 left graphs out") << QStringLiteral("qwen3-8b") << true;
    QTest::newRow("MoE: the classic runner kept them in")
        << QStringLiteral("qwen3-30b-a3b") << false;
}

void TestValidation::modelRunnerV2GraphsByVersion()
{
    // Model Runner V2, vLLM's default for dense models from v0.25.0, reserved nothing for CUDA
    // graphs until v0.28.0 (vllm-project/vllm#49224); MoE models stayed on the classic runner,
    // which counts them. The memory left for KV differs by exactly the engine's graph MiB.
    QFETCH(QString, model);
    QFETCH(bool, graphsOutsideOnV026);
    auto freeGiB = [&](const char* version) {
        nlohmann::json c = baseCase("graphs", "capacity");
        c["engine"] = "vllm";
        c["model"] = model.toStdString();
        c["gpu"] = "h100-sxm";
        c["settings"] = {
            {"gpu_memory_utilization", 0.9}, {"max_model_len", 8192}, {"engine_version", version}};
        c["measured"] = {{"available_kv_gib", 20.0}};
        const ValidationResult r = validateCase(parseOne(c), catalog());
        return r.predicted;
    };
    const EngineProfile* vllm = catalog().engine("vllm");
    QVERIFY(vllm && vllm->cudaGraphMiB > 0);
    const double graphsGiB = graphsOutsideOnV026 ? vllm->cudaGraphMiB / 1024.0 : 0.0;
    QCOMPARE(freeGiB("v0.26.0 V1") - freeGiB("v0.28.0 V1"), graphsGiB);
    QCOMPARE(freeGiB("v0.25.0 V1"), freeGiB("v0.27.1 V1"));
}

// An image tag or a note names the platform's version beside vLLM's: ROCm's and CUDA's are
// never taken for vLLM's release.
void TestValidation::vllmReleaseBesideThePlatforms_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("release");
    QTest::newRow("rocm image") << u"rocm/vllm:rocm6.3.1_instinct_vllm0.8.3_20250410"_s
                                << u"0.8.3"_s;
    QTest::newRow("rocm in words")
        << u"v0.5.5-v0.6.0 dev V0 (vLLM main built with ROCm 6.2)"_s << u"0.5.5"_s;
    QTest::newRow("cuda tag") << u"vllm/vllm-openai:v0.10.1-cu128"_s << u"0.10.1"_s;
    QTest::newRow("cuda first") << u"CUDA 12.4, vLLM 0.6.3"_s << u"0.6.3"_s;
    QTest::newRow("plain") << u"v0.11.0 V1"_s << u"0.11.0"_s;
}

void TestValidation::vllmReleaseBesideThePlatforms()
{
    QFETCH(QString, text);
    QFETCH(QString, release);
    nlohmann::json c = baseCase("release", "capacity");
    c["engine"] = "vllm";
    c["model"] = "llama-3.1-8b";
    c["gpu"] = "h100-sxm";
    c["settings"] = {{"gpu_memory_utilization", 0.9},
                     {"max_model_len", 8192},
                     {"engine_version", text.toStdString()}};
    c["measured"] = {{"available_kv_gib", 20.0}};
    const CaseScenario cs = scenarioForCase(parseOne(c), catalog());
    const auto version = std::find_if(cs.options.begin(), cs.options.end(),
                                      [](const auto& o) { return o.first == "engine-version"; });
    QVERIFY(version != cs.options.end());
    QCOMPARE(QString::fromStdString(version->second), release);
}

void TestValidation::vllmKvDtypeAndEagerMode()
{
    nlohmann::json c = baseCase("fp8", "capacity");
    c["engine"] = "vllm";
    c["model"] = "llama-3-8b";
    c["gpu"] = "mi300x";
    c["settings"] = {{"gpu_memory_utilization", 0.9}, {"max_model_len", 8192}};
    c["measured"] = {{"gpu_blocks", 1000}, {"block_size", 16}};
    const CaseScenario plain = scenarioForCase(parseOne(c), catalog());
    c["settings"]["kv_cache_dtype"] = "fp8_e4m3";
    c["settings"]["enforce_eager"] = true;
    const CaseScenario fp8 = scenarioForCase(parseOne(c), catalog());
    QVERIFY(plain.scenario && fp8.scenario);
    QCOMPARE(plain.scenario->kvDtype.bitsPerElement, 16.0);
    QCOMPARE(fp8.scenario->kvDtype.bitsPerElement, 8.0);
    // Eager mode captures no graphs: the engine module leaves their MiB out of the overhead.
    QVERIFY(!plain.scenario->enforceEager && fp8.scenario->enforceEager);
    QVERIFY(plain.scenario->engine.cudaGraphMiB > 0);
    const auto plainEval = evaluate(*plain.scenario);
    const auto eagerEval = evaluate(*fp8.scenario);
    QVERIFY(plainEval && eagerEval);
    QCOMPARE(plainEval->vram.overheadBytes - eagerEval->vram.overheadBytes,
             plain.scenario->engine.cudaGraphMiB * kMiB);
    c["settings"]["kv_cache_dtype"] = "int4";
    auto bad = validationCasesFromJson(nlohmann::json::array({c}), "bad.json");
    QVERIFY(!bad);
    QCOMPARE(qs(bad.error().field), QStringLiteral("bad.json: fp8.settings.kv_cache_dtype"));
}

void TestValidation::skips()
{
    QFETCH(QByteArray, caseJson);
    QFETCH(int, reason);
    QFETCH(QString, detail);
    const ValidationResult r =
        validateCase(parseOne(nlohmann::json::parse(caseJson.toStdString())), catalog());
    QCOMPARE(int(r.skip), reason);
    QCOMPARE(qs(r.skipDetail), detail);
    const bool skipped = SkipReason(reason) != SkipReason::None;
    QCOMPARE(skipReasonText(r).empty(), !skipped);
    const ValidationReport report =
        runValidation({parseOne(nlohmann::json::parse(caseJson.toStdString()))}, catalog());
    QCOMPARE(report.summary(r.kind).skipped, skipped ? 1 : 0);
    QCOMPARE(report.summary(r.kind).evaluated, skipped ? 0 : 1);
}

void TestValidation::malformedFiles_data()
{
    QTest::addColumn<QByteArray>("text");
    QTest::addColumn<QString>("field");
    const std::string ok =
        R"({"id": "c1", "kind": "decode", "gpu": "t4", "source": "s", "model": "m", "engine": "e",
                               "measured": {"tokens_per_s": 10})";
    QTest::addRow("not an array") << QByteArray(R"({"id": "c1"})") << "bad.json";
    QTest::addRow("case not an object") << QByteArray("[3]") << "bad.json: case 1";
    QTest::addRow("no id") << QByteArray(R"([{"kind": "decode"}])") << "bad.json: case 1.id";
    QTest::addRow("bad block_size")
        << QByteArray::fromStdString("[" + ok + ", \"settings\": {\"block_size\": -16}}]")
        << "bad.json: c1.settings.block_size";
    QTest::addRow("unknown setting")
        << QByteArray::fromStdString("[" + ok + ", \"settings\": {\"max_model_length\": 4096}}]")
        << "bad.json: c1.settings.max_model_length";
    QTest::addRow("dtype") << QByteArray::fromStdString("[" + ok +
                                                        ", \"settings\": {\"dtype\": \"fp64\"}}]")
                           << "bad.json: c1.settings.dtype";
    QTest::addRow("sampler") << QByteArray::fromStdString(
                                    "[" + ok + ", \"settings\": {\"sampler\": \"triton\"}}]")
                             << "bad.json: c1.settings.sampler";
    QTest::addRow("string for a number")
        << QByteArray::fromStdString(
               R"([{"id": "c2", "kind": "decode", "source": "s", "measured": {"tokens_per_s": "fast"}}])")
        << "bad.json: c2.measured.tokens_per_s";
    QTest::addRow("negative measurement")
        << QByteArray::fromStdString(
               R"([{"id": "c2", "kind": "pcie", "source": "s", "measured": {"gb_per_s": -1}}])")
        << "bad.json: c2.measured.gb_per_s";
    QTest::addRow("no measured figure")
        << QByteArray::fromStdString(
               R"([{"id": "c3", "kind": "capacity", "source": "s", "measured": {"kv_cache_gib": 6}}])")
        << "bad.json: c3.measured.kv_cache_tokens";
    QTest::addRow("unknown kind")
        << QByteArray::fromStdString(
               R"([{"id": "c4", "kind": "prefill", "source": "s", "measured": {}}])")
        << "bad.json: c4.kind";
    QTest::addRow("unknown key")
        << QByteArray::fromStdString(
               R"([{"id": "c5", "kind": "decode", "source": "s", "mesured": {}}])")
        << "bad.json: c5.mesured";
    QTest::addRow("no source")
        << QByteArray::fromStdString(
               R"([{"id": "c6", "kind": "decode", "measured": {"tokens_per_s": 1}}])")
        << "bad.json: c6.source";
    QTest::addRow("duplicate id") << QByteArray::fromStdString("[" + ok + "}, " + ok + "}]")
                                  << "bad.json: c1.id";
    // A serving row needs its users or a rate of requests; with neither the load is unknown.
    const std::string serving =
        R"([{"id": "s1", "kind": "serving", "source": "s", "measured": {"ttft_ms": 90},)";
    QTest::addRow("serving without users or a rate")
        << QByteArray::fromStdString(serving +
                                     R"( "workload": {"input_tokens": 230, "output_tokens": 50,
                               "concurrency": null, "request_rate": "inf"}}])")
        << "bad.json: s1.workload.concurrency";
    QTest::addRow("negative rate")
        << QByteArray::fromStdString(serving +
                                     R"( "workload": {"input_tokens": 230, "output_tokens": 50,
                               "request_rate": -2}}])")
        << "bad.json: s1.workload.request_rate";
}

void TestValidation::malformedFiles()
{
    QFETCH(QByteArray, text);
    QFETCH(QString, field);
    const auto json = nlohmann::json::parse(text.toStdString(), nullptr, false);
    QVERIFY2(!json.is_discarded(), text.constData());
    auto cases = validationCasesFromJson(json, "bad.json");
    QVERIFY(!cases);
    QCOMPARE(qs(cases.error().field), field);
    QVERIFY(!cases.error().accepted.empty());
}

KVSCOPE_TEST_SUITE(TestValidation, "tst_validation", kvscope::test::SuiteApp::Core)
#include "tst_validation.moc"
