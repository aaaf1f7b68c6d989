// SPDX-License-Identifier: GPL-3.0-or-later
// llama.cpp's MoE expert offload (--n-cpu-moe, --cpu-moe): which layers' experts move, what that
// takes from VRAM and puts in host RAM, what a decode step and a prefill then cost, the
// --n-cpu-moe that fits, the remedy that offers it, the launch command, the engines that refuse
// it, and the cited measurements in resources/validation/expert-offload.json.
#include "kvscope/engines/engine_module.h"
#include "kvscope/evaluation/expert_offload.h"
#include "kvscope/planning/expert_fit.h"
#include "kvscope/planning/remedies.h"
#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/settings/scenario_options.h"
#include "kvscope/validation/validation_set.h"
#include "suite_registry.h"
#include "testutils.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace kvscope;

namespace {

using test::scenarioFrom;

using Options = std::vector<std::pair<std::string, std::string>>;

Evaluation evaluated(const Scenario& s)
{
    auto e = evaluate(s);
    if (!e)
        qFatal("evaluate: %s", e.error().message().c_str());
    return *e;
}

// gpt-oss-120b in MXFP4 on one RTX 4090 with llama.cpp, the way its users run it.
// A desktop with 64 GiB of RAM, enough for the experts it takes off the GPU.
const Options kGptOss{{"model", "gpt-oss-120b"}, {"weights", "mxfp4"}, {"gpu", "rtx-4090"},
                      {"engine", "llamacpp"},    {"context", "32768"}, {"host-ram-gib", "64"}};

Options with(Options base, const Options& more)
{
    base.insert(base.end(), more.begin(), more.end());
    return base;
}

} // namespace

class TestExpertOffload : public QObject
{
    Q_OBJECT

private slots:
    // 36 layers x 128 experts x (gate, up, down: 3 x 2,880 x 2,880) = 114,661,785,600 expert
    // parameters at 4.25 bits = 60,914,073,600 B; 24 of 36 layers move 2/3 of them.
    void gptOssMovesTwoThirdsOfItsExperts()
    {
        const Scenario s = scenarioFrom(with(kGptOss, {{"n-cpu-moe", "24"}}));
        const Evaluation e = evaluated(s);
        QCOMPARE(e.parameters.experts, 114'661'785'600.0);
        QCOMPARE(e.engine.moeLayers, int64_t(36));
        QCOMPARE(e.engine.expertLayersOnHost, int64_t(24));
        QCOMPARE(e.vram.expertsOffloadedBytes, 40'609'382'400.0);
        // Beside them in host RAM, the input embedding llama.cpp keeps on the CPU at any split:
        // 201,088 x 2,880 BF16 (its lm_head is a tensor of its own, on the GPU).
        const double embedding = 201'088.0 * 2'880.0 * 2.0;
        QCOMPARE(e.vram.weightsPinnedOnHostBytes, embedding);
        QCOMPARE(e.vram.weightsOffloadedBytes, 40'609'382'400.0 + embedding);
        QCOMPARE(e.vram.weightsBytes, e.weightsBytesTotal - 40'609'382'400.0 - embedding);
        QVERIFY(e.vram.fits);
        // The KV cache stays on the GPU, as it was.
        const Evaluation before = evaluated(scenarioFrom(kGptOss));
        QCOMPARE(e.vram.kvCacheBytes, before.vram.kvCacheBytes);
        QCOMPARE(e.vram.weightsBytes + e.vram.expertsOffloadedBytes, before.vram.weightsBytes);
    }

    // One token routes to 4 of 128 experts: the CPU reads 4/128 of the moved bytes, at the host
    // memory's 76.8 GB/s x 0.78, and hands over twice per moved layer (160 µs each plus the
    // 2,880 x 4 B hidden state over PCIe 4.0 x16 at 25.2 GB/s).
    void gptOssDecodeAddsTheCpuShare()
    {
        const Scenario s = scenarioFrom(with(kGptOss, {{"n-cpu-moe", "24"}}));
        const Evaluation e = evaluated(s);
        const double read = 40'609'382'400.0 * 4.0 / 128.0;
        QCOMPARE(e.decode.hostExpertsReadBytes, read);
        const double link = e.decode.pcieEffectiveGBps;
        QVERIFY(std::abs(link - 25.2) < 0.05);
        const double expected =
            read / (76.8e9 * 0.78) * 1e3 + 48.0 * (0.160 + 2880.0 * 4.0 / (link * 1e9) * 1e3);
        QVERIFY2(std::abs(e.decode.hostExpertsMs - expected) < 1e-9,
                 qPrintable(QString::number(e.decode.hostExpertsMs)));
        // The GPU no longer reads what the CPU does.
        const Evaluation before = evaluated(scenarioFrom(with(kGptOss, {{"gpu", "h100-sxm"}})));
        QCOMPARE(e.decode.weightsReadBytes, before.decode.weightsReadBytes);
        QCOMPARE(e.decode.gpuWeightsReadBytes, e.decode.weightsReadBytes - read);
        QVERIFY(std::abs(e.decode.gpuMs - (std::max(e.decode.memoryMs, e.decode.computeMs) +
                                           e.decode.hostExpertsMs)) < 1e-9);
    }

    // llama.cpp -nkvo: the CPU attends the KV in host RAM, so every GPU layer hands its hidden
    // state over and back, as a CPU expert layer does (host_handover_us, FP32 activations).
    void noKvOffloadHandsEveryLayerOver()
    {
        const Scenario s = scenarioFrom({{"engine", "llamacpp"},
                                         {"model", "llama-2-7b"},
                                         {"gpu", "rtx-3090-ti"},
                                         {"weights", "q4_0"},
                                         {"context", "128"},
                                         {"kv-placement", "cpu"}});
        const Evaluation e = evaluated(s);
        const double link = e.decode.pcieEffectiveGBps;
        const double expected = 2.0 * 32.0 * (0.160 + 4096.0 * 4.0 / (link * 1e9) * 1e3);
        QVERIFY2(std::abs(e.decode.hostKvHandoverMs - expected) < 1e-9,
                 qPrintable(QString::number(e.decode.hostKvHandoverMs)));
        QVERIFY(e.decode.selectedMs > expected);
        // KV on the GPU: no hand-over.
        const Scenario onGpu = scenarioFrom({{"engine", "llamacpp"},
                                             {"model", "llama-2-7b"},
                                             {"gpu", "rtx-3090-ti"},
                                             {"weights", "q4_0"},
                                             {"context", "128"}});
        QCOMPARE(evaluated(onGpu).decode.selectedMs, evaluated(onGpu).decode.gpuMs);
    }

    // A prompt of 2,048 tokens is four n_ubatch chunks of 512; llama.cpp copies the host
    // experts to the GPU for each (op offload), over the same PCIe link.
    void gptOssPrefillCopiesTheExpertsPerChunk()
    {
        const Options base = with(kGptOss, {{"context", "2048"}});
        const Evaluation off = evaluated(scenarioFrom(with(base, {{"n-cpu-moe", "24"}})));
        const Evaluation on = evaluated(scenarioFrom(with(base, {{"gpu", "h100-sxm"}})));
        const double copies = 4.0 * 40'609'382'400.0 / (off.decode.pcieEffectiveGBps * 1e9) * 1e3;
        QVERIFY(off.breakeven.recomputeMs > copies);
        // Beside the copies only the prompt's own FLOPs (a MoE model's, at its efficiency).
        QVERIFY(off.breakeven.recomputeMs < (copies + off.breakeven.prefillComputeMs) * 1.05);
        QVERIFY(on.breakeven.recomputeMs < off.breakeven.recomputeMs / 10);
    }

    // Qwen3-30B-A3B Q4_K_M on a 24 GB card with --cpu-moe: all 48 layers' experts go, the rest
    // of the model (attention, embeddings, norms, router) stays.
    void qwenAllExpertsOnTheCpu()
    {
        const Options q{{"model", "qwen3-30b-a3b"}, {"weights", "q4_k_m"}, {"gpu", "rtx-3090"},
                        {"engine", "llamacpp"},     {"context", "32768"},  {"cpu-moe", "on"}};
        const Scenario s = scenarioFrom(q);
        const Evaluation e = evaluated(s);
        QCOMPARE(e.engine.expertLayersOnHost, int64_t(48));
        // 48 x 128 x 3 x 768 x 2,048 expert parameters at Q4_K_M's bits per weight.
        const double experts = 48.0 * 128.0 * 3.0 * 768.0 * 2048.0;
        QCOMPARE(e.parameters.experts, experts);
        QVERIFY(std::abs(e.vram.expertsOffloadedBytes - experts * s.weights.bitsPerWeight / 8.0) <
                1.0);
        QVERIFY(e.vram.weightsBytes < 2.0 * 1073741824.0); // under 2 GiB left on the GPU
        // 8 of 128 experts per token, read by the CPU in every one of the 48 layers.
        QCOMPARE(e.decode.hostExpertsReadBytes, e.vram.expertsOffloadedBytes * 8.0 / 128.0);
    }

    // --n-cpu-moe counts layers from 0 the way llama.cpp's tensor overrides do: the leading dense
    // layers count, and layers -ngl already left on the CPU are not counted twice.
    void layerCountingFollowsLlamaCpp()
    {
        const Options lite{{"model", "deepseek-v2-lite"}, {"engine", "llamacpp"}};
        auto hostLayers = [&](const Options& more) {
            return evaluated(scenarioFrom(with(lite, more))).engine.expertLayersOnHost;
        };
        QCOMPARE(test::model("deepseek-v2-lite").denseLayers, int64_t(1));
        QCOMPARE(hostLayers({{"n-cpu-moe", "1"}}), int64_t(0)); // blk.0 is dense
        QCOMPARE(hostLayers({{"n-cpu-moe", "5"}}), int64_t(4));
        QCOMPARE(hostLayers({{"n-cpu-moe", "1000"}}), int64_t(26)); // every MoE layer
        QCOMPARE(hostLayers({{"cpu-moe", "on"}}), int64_t(26));
        // -ngl 20 of 27 leaves blk.0-6 on the CPU whole; --n-cpu-moe 10 adds blk.7-9's experts.
        QCOMPARE(hostLayers({{"n-gpu-layers", "20"}, {"n-cpu-moe", "10"}}), int64_t(3));
        QCOMPARE(hostLayers({{"n-gpu-layers", "20"}, {"n-cpu-moe", "5"}}), int64_t(0));
        // A dense model has nothing to move.
        const Evaluation dense = evaluated(
            scenarioFrom({{"model", "llama-3.1-8b"}, {"engine", "llamacpp"}, {"n-cpu-moe", "8"}}));
        QCOMPARE(dense.engine.expertLayersOnHost, int64_t(0));
        QCOMPARE(dense.vram.expertsOffloadedBytes, 0.0);
    }

    // Only llama.cpp has the flags: another engine refuses them with the field named, and
    // choosing another engine in the window clears them.
    void otherEnginesRefuseIt()
    {
        auto s = scenarioFromOptions(
            {{"model", "gpt-oss-120b"}, {"engine", "vllm"}, {"n-cpu-moe", "4"}}, test::catalog());
        QVERIFY(!s);
        QCOMPARE(s.error().field, std::string("n_cpu_moe"));
        QVERIFY(s.error().accepted.find("llama.cpp") != std::string::npos);
        Scenario llama = scenarioFrom(with(kGptOss, {{"n-cpu-moe", "24"}, {"cpu-moe", "on"}}));
        applyEngine(llama, *test::catalog().engine("vllm"));
        QCOMPARE(llama.cpuMoeLayers, int64_t(0));
        QVERIFY(!llama.cpuMoeAll);
        QVERIFY(bool(evaluate(llama)));
    }

    // The --n-cpu-moe that fits is the smallest N that fits: N fits and N - 1 does not; at a
    // longer context it is larger; where the model fits whole it is 0.
    void fittedNIsTheSmallestThatFits()
    {
        const Scenario s = scenarioFrom(kGptOss);
        const auto fit = fitExpertOffload(s);
        QVERIFY(fit);
        auto fits = [&](int64_t n) {
            Scenario t = s;
            t.cpuMoeLayers = n;
            return evaluated(t).vram.fits;
        };
        QVERIFY(fits(fit->nCpuMoe));
        QVERIFY(!fits(fit->nCpuMoe - 1));
        QCOMPARE(fit->layersOnHost + fit->layersOnGpu, int64_t(36));
        // It fits the GPU; whether the host holds what moves there is said, not assumed: a
        // desktop host (32 GiB, the RTX 4090's usual) cannot hold all the experts moved there.
        Scenario atFit = s;
        atFit.cpuMoeLayers = fit->nCpuMoe;
        const Verdict v = verdictOf(atFit, evaluated(atFit));
        QCOMPARE(fit->hostShortBytes > 0, !v.runs && v.binding == Binding::HostRam);
        if (fit->hostShortBytes > 0)
            QCOMPARE(fit->hostShortBytes, v.shortBytes());
        const auto roomy = fitExpertOffload(scenarioFrom(with(kGptOss, {{"host-ram-gib", "256"}})));
        QVERIFY(roomy && roomy->hostShortBytes == 0);
        const auto longer = fitExpertOffload(scenarioFrom(with(kGptOss, {{"context", "131072"}})));
        QVERIFY(longer && longer->nCpuMoe > fit->nCpuMoe);
        const auto small = fitExpertOffload(scenarioFrom({{"model", "gpt-oss-20b"},
                                                          {"weights", "mxfp4"},
                                                          {"gpu", "rtx-4090"},
                                                          {"engine", "llamacpp"},
                                                          {"context", "4096"}}));
        QVERIFY(small);
        QCOMPARE(small->nCpuMoe, int64_t(0));
        // Not llama.cpp, or not MoE: no answer.
        QVERIFY(!fitExpertOffload(scenarioFrom({{"model", "gpt-oss-120b"}, {"engine", "vllm"}})));
        QVERIFY(
            !fitExpertOffload(scenarioFrom({{"model", "llama-3.1-8b"}, {"engine", "llamacpp"}})));
    }

    // The planner offers it before whole layers (-ngl), and its options give what it promises.
    void remedyOffersTheFittedN()
    {
        const Scenario s = scenarioFrom(kGptOss);
        const Evaluation e = evaluated(s);
        const Verdict v = verdictOf(s, e);
        QVERIFY(!v.runs);
        const std::vector<Remedy> fixes = remedies(s, v, test::catalog());
        auto experts = std::find_if(fixes.begin(), fixes.end(), [](const Remedy& r) {
            return r.kind == RemedyKind::OffloadExperts;
        });
        auto layers = std::find_if(fixes.begin(), fixes.end(), [](const Remedy& r) {
            return r.kind == RemedyKind::OffloadWeights;
        });
        QVERIFY(experts != fixes.end());
        QVERIFY(layers == fixes.end() || experts < layers);
        QCOMPARE(experts->options,
                 OptionList({{"n-cpu-moe", std::to_string(fitExpertOffload(s)->nCpuMoe)}}));
        QVERIFY(experts->verdict.runs);
        // Faster than keeping whole layers in host RAM, which moves attention and KV too.
        if (layers != fixes.end())
            QVERIFY(experts->tokensPerS > layers->tokensPerS);

        // On the usual desktop's 32 GiB the experts do not fit in host RAM either, and the
        // remedy says so instead of promising a run.
        Scenario desktop = s;
        desktop.hostRamGiB = 0;
        const auto usual =
            remedies(desktop, verdictOf(desktop, evaluated(desktop)), test::catalog());
        auto moved = std::find_if(usual.begin(), usual.end(), [](const Remedy& r) {
            return r.kind == RemedyKind::OffloadExperts;
        });
        QVERIFY(moved != usual.end());
        QVERIFY(!moved->verdict.runs);
        QCOMPARE(moved->verdict.binding, Binding::HostRam);
        QCOMPARE(moved->verdict.hostOfferedBytes, 32.0 * 1073741824.0);
        QCOMPARE(moved->verdict.hostRamBasis, HostRamBasis::Platform);
    }

    void launchCommandCarriesTheFlags()
    {
        const EngineModule& llama = engineModule(*test::catalog().engine("llamacpp"));
        const std::string some =
            llama.launchCommand(scenarioFrom(with(kGptOss, {{"n-cpu-moe", "24"}}))).text;
        QVERIFY2(some.find("--n-cpu-moe 24") != std::string::npos, some.c_str());
        const std::string all =
            llama.launchCommand(scenarioFrom(with(kGptOss, {{"cpu-moe", "on"}}))).text;
        QVERIFY2(all.find("--cpu-moe") != std::string::npos, all.c_str());
        QVERIFY(all.find("--n-cpu-moe") == std::string::npos);
    }

    // Host RAM holds the moved experts: the verdict checks them against its stated size.
    void hostRamHoldsTheExperts()
    {
        const Options moved = with(kGptOss, {{"n-cpu-moe", "24"}});
        const Scenario small = scenarioFrom(with(moved, {{"host-ram-gib", "32"}}));
        const Verdict v = verdictOf(small, evaluated(small));
        QVERIFY(!v.runs);
        QCOMPARE(v.binding, Binding::HostRam);
        QCOMPARE(v.hostNeededBytes, 40'609'382'400.0 + 201'088.0 * 2'880.0 * 2.0); // + embedding
        const Scenario enough = scenarioFrom(with(moved, {{"host-ram-gib", "64"}}));
        QVERIFY(verdictOf(enough, evaluated(enough)).runs);
        // A measured host bandwidth replaces the catalog entry's.
        const Scenario fast = scenarioFrom(with(moved, {{"host-memory-gbps", "153.6"}}));
        QVERIFY(evaluated(fast).decode.hostExpertsMs <
                evaluated(scenarioFrom(moved)).decode.hostExpertsMs);
    }

    // The cited measurements: host_handover_us was fitted to two; the other five are the
    // honest error. Numbers as `kvscope-cli validate resources/validation/expert-offload.json`.
    void validationCases()
    {
        const auto dir = findValidationDir(
            defaultDataDirs(QCoreApplication::applicationFilePath().toStdString()));
        QVERIFY(dir);
        auto cases = loadValidationFile(*dir / "expert-offload.json");
        QVERIFY2(cases, cases ? "" : cases.error().message().c_str());
        QVERIFY(cases->size() >= 6);
        const ValidationReport report = runValidation(*cases, test::catalog());
        std::vector<double> heldOut;
        for (const ValidationResult& r : report.results) {
            QVERIFY2(!r.skipped(), r.id.c_str());
            const bool fitted = r.id == "llamacpp-moe-ik357-4080-qwen3-30b-iq4xs-14l-d0" ||
                                r.id == "llamacpp-moe-pr370-a6000-qwen3-235b-q8_0-80l-d0";
            if (fitted)
                QVERIFY2(std::abs(r.error) < 0.07, r.id.c_str());
            else
                heldOut.push_back(std::abs(r.error));
        }
        QCOMPARE(heldOut.size(), cases->size() - 2);
        std::sort(heldOut.begin(), heldOut.end());
        const double median = heldOut[heldOut.size() / 2];
        QVERIFY2(median < 0.20, qPrintable(QString::number(median)));
        QVERIFY(heldOut.back() < 0.40);
    }
};

KVSCOPE_TEST_SUITE(TestExpertOffload, "tst_expert_offload", kvscope::test::SuiteApp::Core)
#include "tst_expert_offload.moc"
