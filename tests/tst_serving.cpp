// SPDX-License-Identifier: GPL-3.0-or-later
// Serving many users: how long each engine's requests hold KV, how many run at once, and the
// throughput and latency that follow, each figure rebuilt from evaluate() by hand.
#include "arithmetic_check.h"
#include "cli_runner.h"
#include "kvscope/planning/cost.h"
#include "kvscope/planning/serving.h"
#include "kvscope/settings/scenario_options.h"
#include "kvscope/text/text_summary.h"
#include "suite_registry.h"
#include "testutils.h"

#include <QtTest>

#include <cmath>
#include <tuple>

#include <nlohmann/json.hpp>

using namespace kvscope;
using test::scenarioFrom;

namespace {

const ServingCurve& curveOf(const Serving& s, const std::string& id)
{
    for (const ServingCurve& c : s.curves)
        if (c.engineId == id)
            return c;
    qFatal("no curve for %s", id.c_str());
}

const ServingPoint& pointAt(const ServingCurve& c, int64_t users)
{
    for (const ServingPoint& p : c.points)
        if (p.users == users)
            return p;
    qFatal("no point at %lld users", static_cast<long long>(users));
}

Evaluation evaluated(Scenario s, int64_t batch, int64_t context)
{
    s.batch = batch;
    s.context = context;
    auto e = evaluate(s);
    if (!e)
        qFatal("%s", e.error().message().c_str());
    return *e;
}

bool near(double a, double b)
{
    return std::fabs(a - b) <= 1e-9 * std::max(1.0, std::fabs(b));
}

} // namespace

class TestServing : public QObject
{
    Q_OBJECT

private slots:
    // A request's own prompt is prefilled once, before its first token: alone, the first token
    // is that prefill and one decode step, and the steps between its tokens carry only other
    // requests' prompts (none at one user). The run's average step carries every prompt, its
    // own too, and sets the output of all users. A 10,000-token prompt answered in one token
    // read 948 ms at one user, its prefill counted twice, where the prompt alone read 482 ms.
    void aRequestPrefillsItsOwnPromptOnce_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<int>("outputTokens");
        for (const char* engine : {"vllm", "sglang", "llamacpp"})
            for (const int output : {1, 16, 256}) {
                QTest::addRow("%s, %d tokens out", engine, output)
                    << QString::fromLatin1(engine) << output;
            }
    }
    void aRequestPrefillsItsOwnPromptOnce()
    {
        QFETCH(QString, engine);
        QFETCH(int, outputTokens);
        const Scenario s = scenarioFrom({{"model", "llama-3.1-8b"},
                                         {"gpu", "h100-sxm"},
                                         {"engine", engine.toStdString()},
                                         {"context", "12000"},
                                         {"prompt-tokens", "10000"},
                                         {"output-tokens", std::to_string(outputTokens)},
                                         {"users", "1"}});
        const ServingCurve c = servingCurve(s);
        QVERIFY2(c.unavailable.empty(), c.unavailable.c_str());
        const ServingPoint& one = c.atUsers;
        QCOMPARE(one.running, int64_t(1));
        QVERIFY(near(one.ttftMs, c.prefillMs + one.stepMs));
        // The step between tokens is a decode step: far below a 10,000-token prefill.
        QVERIFY2(one.stepMs < 0.1 * c.prefillMs,
                 qPrintable(
                     QStringLiteral("step %1 ms, prefill %2 ms").arg(one.stepMs).arg(c.prefillMs)));
        QVERIFY(one.averageStepMs >= one.stepMs);
        QVERIFY(near(one.aggregateTokensPerS, 1e3 / one.averageStepMs));
    }

    // Little's law by hand: at 10 requests/s of 50 output tokens, the point at 8 users keeps
    // 10 x (200 + 49 x 20) ms = 11.8 in flight, more than its 8; the one at 16 keeps
    // 10 x (300 + 49 x 25) ms = 15.25, fewer than 16. Between them (excess 3.8 and -0.75):
    // t = 3.8 / 4.55, step 20 + 5t = 24.18 ms, first token 200 + 100t = 283.5 ms.
    void rateSetsTheUsersInFlight()
    {
        ServingCurve curve;
        for (auto [users, ttft, step] :
             {std::tuple{1, 100.0, 10.0}, {4, 130.0, 15.0}, {8, 200.0, 20.0}, {16, 300.0, 25.0}}) {
            ServingPoint p;
            p.users = users;
            p.ttftMs = ttft;
            p.stepMs = step;
            curve.points.push_back(p);
        }
        const auto at = pointAtRate(curve, 10.0, 50);
        QVERIFY(at);
        const double t = 3.8 / 4.55;
        QVERIFY(std::fabs(at->stepMs - (20.0 + 5.0 * t)) < 1e-9);
        QVERIFY(std::fabs(at->ttftMs - (200.0 + 100.0 * t)) < 1e-9);
        QCOMPARE(at->users, qint64(15));
        // A trickle keeps under one request in flight: the first point.
        QCOMPARE(pointAtRate(curve, 0.5, 50)->ttftMs, 100.0);
        // More than the curve reaches, or no rate: nothing.
        QVERIFY(!pointAtRate(curve, 100.0, 50));
        QVERIFY(!pointAtRate(curve, 0.0, 50));
        QVERIFY(!pointAtRate(ServingCurve(), 1.0, 50));
    }

    void eachEngineHoldsWhatItAllocates()
    {
        // The seed scenario (Llama 2 7B, FP16, RTX 4090, 2,048 tokens), requests of 1,024 + 256.
        const Scenario s = scenarioFrom({});
        const Serving all = serving(s, test::catalog().engines);
        QVERIFY(!all.refused);
        QCOMPARE(all.curves.front().engineId, std::string("hf"));
        QVERIFY(all.curves.front().selected);
        // vLLM's blocks follow the sequence: the prompt and half the answer on average.
        QCOMPARE(curveOf(all, "vllm").kvTokensPerRequest, qint64(1024 + 128));
        // TGI reserves max_new_tokens up front; a dynamic cache ends its batch that long.
        QCOMPARE(curveOf(all, "tgi").kvTokensPerRequest, qint64(1280));
        QCOMPARE(curveOf(all, "hf").kvTokensPerRequest, qint64(1280));
        // A static cache and llama.cpp's slots hold the maximum length whatever the request.
        QCOMPARE(curveOf(all, "hf-static").kvTokensPerRequest, qint64(2048));
        QCOMPARE(curveOf(all, "llamacpp").kvTokensPerRequest, qint64(2048));
        QVERIFY(curveOf(all, "hf-static").memoryConcurrency < curveOf(all, "hf").memoryConcurrency);
        // The offloaded cache is not a GPU engine: no curve.
        for (const ServingCurve& c : all.curves)
            QVERIFY(c.engineId != "hf-offloaded");
    }

    void vllmRunsWhatItsKvPoolHolds()
    {
        // vLLM's pool on the seed scenario: 17,408 tokens (1,088 blocks of 16); a request holds
        // 72 blocks (1,152 tokens), so 17,408 / 1,152 = 15.1: 15 run at once.
        const Scenario s = scenarioFrom({{"engine", "vllm"}});
        const Evaluation e = evaluated(s, 1, 2048);
        QCOMPARE(e.engine.kvCacheTokens, qint64(17'408));
        const ServingCurve c = servingCurve(s);
        QCOMPARE(c.memoryConcurrency, qint64(15));
        QCOMPARE(c.maxRunning, qint64(15));
        QCOMPARE(c.limitedBy, std::string("memory"));
        // Each count up to it fits, one more does not.
        QVERIFY(evaluated(s, 15, 1152).vram.fits);
        QVERIFY(!evaluated(s, 16, 1152).vram.fits);
    }

    void continuousBatchingFromItsSteps()
    {
        const Scenario s = scenarioFrom({{"engine", "vllm"}, {"users", "40"}});
        const ServingCurve c = servingCurve(s);
        const Evaluation prompt = evaluated(s, 1, 1024);
        // One user: a decode step at the average length (1,024 + 128), plus the FLOPs of the
        // 1/256 of a prompt that rides in each step where it outlasts the step's reads.
        const ServingPoint& one = pointAt(c, 1);
        const DecodeTiming d = evaluated(s, 1, 1152).decode;
        const double share = prompt.breakeven.prefillComputeMs / 256;
        const double step =
            d.selectedMs + std::max(0.0, d.computeMs + share - std::max(d.memoryMs, d.computeMs));
        QVERIFY(near(one.stepMs, step));
        QVERIFY(near(one.aggregateTokensPerS, 1e3 / step));
        QVERIFY(near(one.perUserTokensPerS, one.aggregateTokensPerS));
        QVERIFY(near(one.ttftMs, prompt.breakeven.recomputeMs + step));
        // 40 users, 15 running: the rest wait their turn. The aggregate stays at 15's; each
        // user gets 1/40 of it; the first token waits (40/15 - 1) answers of 256 steps.
        const ServingPoint& full = c.atUsers;
        QCOMPARE(full.users, qint64(40));
        QCOMPARE(full.running, qint64(15));
        QVERIFY(near(full.aggregateTokensPerS, pointAt(c, 15).aggregateTokensPerS));
        QVERIFY(near(full.perUserTokensPerS, full.aggregateTokensPerS / 40));
        QVERIFY(near(full.ttftMs, (40.0 / 15 - 1) * 256 * full.stepMs +
                                      prompt.breakeven.recomputeMs + full.stepMs));
    }

    void promptsArrivingTogetherWaitForEachOther()
    {
        // 8 users of vLLM send their 1,024-token prompts at the same moment: the first prefills
        // alone, each later one after the prompts before it (their compute), then one step.
        const Scenario s = scenarioFrom({{"engine", "vllm"}, {"users", "8"}});
        const ServingPoint& p = servingCurve(s).atUsers;
        const Evaluation prompt = evaluated(s, 1, 1024);
        QCOMPARE(p.running, qint64(8));
        const double first = prompt.breakeven.recomputeMs;
        const double more = prompt.breakeven.prefillComputeMs;
        QVERIFY(near(p.togetherTtftLastMs, first + 7 * more + p.stepMs));
        QVERIFY(near(p.togetherTtftMeanMs, first + 3.5 * more + p.stepMs));
        // Staggered (one prompt at a time into a free slot) is the first prompt's alone.
        QVERIFY(p.togetherTtftMeanMs > p.ttftMs && p.togetherTtftLastMs > p.togetherTtftMeanMs);
        // 40 users, 15 running: the last waits (40/15 - 1) rounds of prefills and answers.
        const Scenario crowd = scenarioFrom({{"engine", "vllm"}, {"users", "40"}});
        const ServingPoint& c = servingCurve(crowd).atUsers;
        const double batch = first + 14 * more;
        QVERIFY(near(c.togetherRoundMs, batch + 256 * c.stepMs));
        QVERIFY(near(c.togetherTtftLastMs, (40.0 / 15 - 1) * c.togetherRoundMs + batch + c.stepMs));
        // A static batch prefills together: every prompt waits for the whole batch.
        const ServingPoint& hf = servingCurve(scenarioFrom({{"users", "4"}})).atUsers;
        QVERIFY(near(hf.togetherTtftMeanMs, hf.togetherTtftLastMs));
        QVERIFY(near(hf.togetherTtftLastMs, hf.ttftMs));
        // calc's row says how the last one's time adds up, and it recomputes.
        for (const Scenario& scenario : {s, crowd}) {
            const std::string text = textSummary(
                scenario, evaluated(scenario, scenario.batch, scenario.context), ByteUnits::Binary);
            const size_t row = text.find("prompts at once");
            QVERIFY(row != std::string::npos);
            const std::string line = text.substr(row, text.find('\n', row) - row);
            QVERIFY2(line.find("last: ") != std::string::npos, line.c_str());
            const auto wrong =
                test::ArithmeticCheck::mismatch(line.substr(line.find("last: ")), 0.0);
            QVERIFY2(!wrong, wrong ? wrong->c_str() : "");
        }
    }

    void staticBatchesRunToTheirEnd()
    {
        // transformers: 4 prompts prefill together (one weights read, four prompts' FLOPs),
        // then 256 steps of 4, and only then the next batch.
        const Scenario s = scenarioFrom({{"users", "4"}});
        const ServingCurve c = servingCurve(s);
        const ServingPoint& p = c.atUsers;
        const Evaluation prompt = evaluated(s, 1, 1024);
        const double prefill = prompt.breakeven.recomputeMs + 3 * prompt.breakeven.prefillComputeMs;
        const double step = evaluated(s, 4, 1152).decode.selectedMs;
        QVERIFY(near(p.stepMs, step));
        QVERIFY(near(p.aggregateTokensPerS, 4 * 256 * 1e3 / (prefill + 256 * step)));
        QVERIFY(near(p.ttftMs, prefill + step));
        // Without continuous batching the prompts cost more than vLLM's: less throughput.
        const Scenario v = scenarioFrom({{"users", "4"}, {"engine", "vllm"}});
        QVERIFY(servingCurve(v).atUsers.aggregateTokensPerS > p.aggregateTokensPerS);
    }

    void throughputBendsWhereComputeTakesOver()
    {
        // Llama 3.1 8B on an H100: memory-bound steps at few users, compute-bound (decode and
        // the prompts riding along) at many; the aggregate never falls while more run at once,
        // and past them, with users waiting, preemption's recompute costs it a little.
        const Scenario s = scenarioFrom({{"engine", "vllm"},
                                         {"model", "llama-3.1-8b"},
                                         {"gpu", "h100-sxm"},
                                         {"context", "8192"},
                                         {"users", "64"}});
        const ServingCurve c = servingCurve(s);
        QVERIFY(!c.points.front().computeBound);
        QVERIFY(c.points.back().computeBound);
        for (size_t i = 1; i < c.points.size() && c.points[i].users <= c.maxRunning; ++i)
            QVERIFY(c.points[i].aggregateTokensPerS >= c.points[i - 1].aggregateTokensPerS * 0.999);
        QCOMPARE(c.points.back().running, c.maxRunning);
        const ServingPoint& full = pointAt(c, c.maxRunning);
        QCOMPARE(full.preemptionMs, 0.0);
        QVERIFY(c.points.back().preemptionMs > 0);
        QVERIFY(c.points.back().aggregateTokensPerS < full.aggregateTokensPerS);
    }

    void preemptionRecomputesWhatVllmAdmitsTooEarly()
    {
        // Llama 2 7B on an A100 80GB, requests of 1,024 + 128 tokens: 112 fit at once. With
        // 2,000 users waiting, vLLM fills the blocks freed for the running requests' growth with
        // waiting prompts and preempts them as the growth comes: 112 prompt tokens recomputed a
        // step, beside the 111 / 128 of a prompt that replaces the other finished requests
        // (112 / 128 over the run, the request's own prompt shared in).
        const Scenario s = scenarioFrom({{"engine", "vllm"},
                                         {"gpu", "a100-80gb"},
                                         {"context", "2048"},
                                         {"prompt-tokens", "1024"},
                                         {"output-tokens", "128"},
                                         {"users", "2000"}});
        const ServingCurve c = servingCurve(s);
        QCOMPARE(c.maxRunning, qint64(112));
        QCOMPARE(c.preemption, std::string("recompute"));
        const double prefill = evaluated(s, 1, 1024).breakeven.prefillComputeMs;
        const DecodeTiming d = evaluated(s, 112, 1024 + 64).decode;
        auto step = [&](double extra) {
            return d.selectedMs +
                   std::max(0.0, d.computeMs + extra - std::max(d.memoryMs, d.computeMs));
        };
        const double riding = 111.0 / 128 * prefill, recomputed = 112.0 / 1024 * prefill;
        const ServingPoint& p = c.atUsers;
        QVERIFY(near(p.stepMs, step(riding + recomputed)));
        QVERIFY(near(p.averageStepMs, step(riding + prefill / 128 + recomputed)));
        QVERIFY(near(p.preemptionMs, step(riding + recomputed) - step(riding)));
        QVERIFY(p.preemptionMs > 0.05 * p.stepMs);   // compute-bound: the FLOPs show
        QCOMPARE(pointAt(c, 112).preemptionMs, 0.0); // nobody waits: nothing preempted
        // The text says where the step went.
        const std::string text =
            textSummary(s, evaluated(s, s.batch, s.context), ByteUnits::Binary);
        QVERIFY(text.find("recomputing preempted requests") != std::string::npos);
    }

    void v0SwapsPreemptedKvOverPcie()
    {
        // vLLM 0.6.4 (the V0 engine) with --preemption-mode swap: the same 112 tokens' KV a
        // step (524,288 bytes each: 2 x 32 layers x 4,096 x FP16) goes to CPU RAM and back.
        const std::vector<std::pair<std::string, std::string>> options = {
            {"engine", "vllm"},  {"engine-version", "0.6.4"}, {"gpu", "a100-80gb"},
            {"context", "2048"}, {"prompt-tokens", "1024"},   {"output-tokens", "128"},
            {"users", "2000"},   {"preemption-mode", "swap"}};
        const Scenario s = scenarioFrom(options);
        const ServingCurve c = servingCurve(s);
        QCOMPARE(c.preemption, std::string("swap"));
        QVERIFY(!c.swapSpaceShort);
        const DecodeTiming d = evaluated(s, 1, 1024).decode;
        QVERIFY(near(c.atUsers.preemptionMs, 2.0 * 112 * 524'288 / (d.pcieEffectiveGBps * 1e6)));
        // 0.1 GiB of swap space holds no request (1,088 tokens, 544 MiB): V0 aborts past 112.
        auto small = options;
        small.emplace_back("swap-space", "0.1");
        const ServingCurve aborts = servingCurve(scenarioFrom(small));
        QVERIFY(aborts.swapSpaceShort && aborts.refusesUsers);
        QCOMPARE(aborts.points.back().users, qint64(112));
        QCOMPARE(aborts.atUsers.users, qint64(112));
        // V1 (the default from 0.8.0) recomputes only: swap is refused with the reason.
        auto v1 = options;
        v1.erase(v1.begin() + 1);
        const auto refused = scenarioFromOptions(v1, test::catalog());
        QVERIFY(!refused);
        QCOMPARE(refused.error().field, std::string("preemption_mode"));
        // Engines that wait instead of preempting charge nothing.
        auto tgi = scenarioFrom({{"engine", "tgi"}, {"users", "400"}});
        QVERIFY(servingCurve(tgi).preemption.empty());
    }

    void capsAndRefusals()
    {
        // Llama 3.2 1B leaves an H100 room for more requests than vLLM's max_num_seqs (1,024
        // on a GPU of 70 GiB or more): that cap sets the running count.
        const Scenario small = scenarioFrom({{"engine", "vllm"},
                                             {"model", "llama-3.2-1b"},
                                             {"gpu", "h100-sxm"},
                                             {"prompt-tokens", "256"},
                                             {"output-tokens", "64"}});
        const ServingCurve v = servingCurve(small);
        QVERIFY(v.memoryConcurrency > 1024);
        QCOMPARE(v.maxRunning, qint64(1024));
        QCOMPARE(v.limitedBy, std::string("max_num_seqs"));
        // TGI answers 429 beyond --max-concurrent-requests (128): its curve stops there.
        const Scenario tgi = scenarioFrom({{"engine", "tgi"}, {"users", "200"}});
        const ServingCurve t = servingCurve(tgi);
        QVERIFY(t.refusesUsers);
        QCOMPARE(t.points.back().users, qint64(128));
        // calc's text says so, and at how many users its figures are.
        const std::string text =
            textSummary(tgi, evaluated(tgi, 200, tgi.context), ByteUnits::Binary);
        QVERIFY(text.find("Serving 200 users, requests of 1,024 + 256 tokens") !=
                std::string::npos);
        QVERIFY(text.find("the figures below are at 128 users") != std::string::npos);
        // A request longer than the maximum length is refused by every engine, by name.
        const Serving refused =
            serving(scenarioFrom({{"prompt-tokens", "2000"}}), test::catalog().engines);
        QVERIFY(refused.refused);
        QCOMPARE(refused.refused->field, std::string("prompt_tokens"));
        QVERIFY(refused.curves.empty());
        // Asked alone, one engine's curve says so too, with no point to divide by zero.
        const ServingCurve alone =
            servingCurve(scenarioFrom({{"engine", "vllm"}, {"prompt-tokens", "4000"}}));
        QVERIFY(!alone.unavailable.empty());
        QVERIFY(alone.points.empty());
    }

    // Two times to first token meet in calc: the verdict's, of one full-context prompt alone,
    // and serving's, of the workload's request among its users. Each names its workload, in the
    // text and in the JSON (DeepSeek-R1 on 8 x H100: 145 ms and 29.6 ms, both unnamed before).
    void timesToFirstTokenNameTheirWorkload()
    {
        const std::vector<std::string> args{
            "calc",     "--model", "deepseek-r1", "--gpu",    "h100-sxm",  "--gpus", "8",
            "--engine", "vllm",    "--weights",   "awq-int4", "--context", "4096"};
        const test::CliResult text = test::runCli(args);
        QCOMPARE(text.code, 0);
        QVERIFY2(text.out.find("time to first token (4,096-token prompt, alone)") !=
                     std::string::npos,
                 text.out.c_str());
        QVERIFY2(text.out.find("time to first token (1,024-token request, 1 user)") !=
                     std::string::npos,
                 text.out.c_str());
        std::vector<std::string> json = args;
        json.push_back("--json");
        const test::CliResult out = test::runCli(json);
        QCOMPARE(out.code, 0);
        const auto j = nlohmann::json::parse(out.out);
        QCOMPARE(j["verdict"]["ttft_prompt_tokens"].get<int64_t>(), int64_t(4096));
        QCOMPARE(j["verdict"]["ttft_users"].get<int64_t>(), int64_t(1));
        bool named = false;
        for (const auto& engine : j["serving"]["engines"])
            if (engine.contains("at_users")) {
                QCOMPARE(engine["at_users"]["ttft_prompt_tokens"].get<int64_t>(), int64_t(1024));
                QCOMPARE(engine["at_users"]["ttft_users"].get<int64_t>(),
                         engine["at_users"]["users"].get<int64_t>());
                named = true;
            }
        QVERIFY(named);
    }

    void enginesThatCannotRunTheScenarioSayWhy()
    {
        // A GGUF k-quant runs only on llama.cpp.
        const Scenario s = scenarioFrom({{"engine", "llamacpp"}, {"weights", "q4_k_m"}});
        const Serving all = serving(s, test::catalog().engines);
        QVERIFY(curveOf(all, "llamacpp").unavailable.empty());
        QVERIFY(!curveOf(all, "vllm").unavailable.empty());
        QVERIFY(curveOf(all, "vllm").points.empty());
        // What kvscope models for vLLM only (LoRA slots) leaves the others out, saying so, not
        // "does not fit".
        const Serving lora = serving(
            scenarioFrom({{"engine", "vllm"}, {"model", "llama-3.1-8b"}, {"max-loras", "4"}}),
            test::catalog().engines);
        QVERIFY(curveOf(lora, "vllm").unavailable.empty());
        QVERIFY2(curveOf(lora, "tgi").unavailable.find("max_loras") != std::string::npos,
                 curveOf(lora, "tgi").unavailable.c_str());
        // A model too large for the GPU has no curve on any engine.
        const ServingCurve big = servingCurve(scenarioFrom({{"model", "llama-3.1-70b"}}));
        QCOMPARE(big.unavailable, std::string("does not fit one sequence of the maximum length"));
        QVERIFY(big.points.empty());
    }

    void aSharedPrefixIsPrefilledOnceAndHeldOnce()
    {
        // Llama 3.1 8B under vLLM on an H100, requests of 4,096 + 256 whose first 2,048 tokens
        // are the same (a long system prompt), the cache warm.
        const std::vector<std::pair<std::string, std::string>> base{
            {"model", "llama-3.1-8b"}, {"gpu", "h100-sxm"},       {"engine", "vllm"},
            {"context", "8192"},       {"prompt-tokens", "4096"}, {"output-tokens", "256"}};
        auto with = [&](std::vector<std::pair<std::string, std::string>> more) {
            auto all = base;
            all.insert(all.end(), more.begin(), more.end());
            return scenarioFrom(all);
        };
        const ServingCurve cached = servingCurve(with({{"shared-prefix-tokens", "2048"}}));
        QCOMPARE(cached.cachedPrefixTokens, qint64(2048));
        QVERIFY(cached.prefixHeldOnce);
        // The prefill skips the cached tokens' FLOPs: what a 4,096-token prompt computes beyond
        // a 2,048-token one (both one chunk of vLLM's 8,192 on this GPU, so one forward each).
        const Scenario plain = with({});
        const Evaluation whole = evaluated(plain, 1, 4096), half = evaluated(plain, 1, 2048);
        QVERIFY(near(cached.prefillMsUncached, whole.breakeven.recomputeMs));
        const double skippedCompute =
            whole.breakeven.prefillComputeMs - half.breakeven.prefillComputeMs;
        QVERIFY(
            near(cached.prefillMs, whole.breakeven.recomputeMs - half.breakeven.prefillComputeMs));
        QVERIFY(std::fabs(cached.prefillMs - cached.prefillMsUncached +
                          half.breakeven.prefillComputeMs) < 1e-9 * skippedCompute + 1e-9);
        // Memory: a request holds 4,096 + 128 tokens on average, 2,048 of them the prefix's
        // blocks held once. As many requests fit as requests of 2,048 + 128 tokens, less the
        // one request's room the prefix itself takes.
        const ServingCurve own = servingCurve(with({{"prompt-tokens", "2048"}}));
        QCOMPARE(own.kvTokensPerRequest, qint64(2048 + 128));
        QCOMPARE(cached.memoryConcurrency, own.memoryConcurrency - 1);
        QCOMPARE(cached.memoryConcurrencyUncached, servingCurve(plain).memoryConcurrency);
        QVERIFY(cached.memoryConcurrency > 19 * cached.memoryConcurrencyUncached / 10);
        // Without the cache nothing changes.
        const ServingCurve off =
            servingCurve(with({{"shared-prefix-tokens", "2048"}, {"prefix-caching", "off"}}));
        QCOMPARE(off.cachedPrefixTokens, qint64(0));
        QCOMPARE(off.memoryConcurrency, servingCurve(plain).memoryConcurrency);
        QVERIFY(near(off.prefillMs, off.prefillMsUncached));
    }

    void replicasMultiplyWhatOneCopyServes()
    {
        // Four copies of Llama 3.1 8B on one H100 each, 64 users each: the copy's figures stand,
        // users, output, GPUs and cost multiply.
        const std::vector<std::pair<std::string, std::string>> one{
            {"model", "llama-3.1-8b"}, {"gpu", "h100-sxm"}, {"engine", "vllm"}, {"users", "64"}};
        auto four = one;
        four.push_back({"replicas", "4"});
        const Scenario s1 = scenarioFrom(one), s4 = scenarioFrom(four);
        const ServingCurve c1 = servingCurve(s1), c4 = servingCurve(s4);
        QCOMPARE(c4.atUsers.aggregateTokensPerS, c1.atUsers.aggregateTokensPerS);
        const Evaluation e1 = evaluated(s1, 64, s1.context), e4 = evaluated(s4, 64, s4.context);
        QCOMPARE(costOf(s4, e4, true).perHour, 4 * costOf(s1, e1, true).perHour);
        QCOMPARE(costOf(s4, e4, true).perMillionOutputTokens,
                 costOf(s1, e1, true).perMillionOutputTokens);
        const test::CliResult r =
            test::runCli({"calc", "--model", "llama-3.1-8b", "--gpu", "h100-sxm", "--engine",
                          "vllm", "--users", "64", "--replicas", "4"});
        QCOMPARE(r.code, 0);
        QVERIFY2(r.out.find("all 4 replicas") != std::string::npos, r.out.c_str());
        QVERIFY2(r.out.find("256 users") != std::string::npos, r.out.c_str());
        QVERIFY(r.out.find("Serving 64 users per replica") != std::string::npos);
        const test::CliResult j =
            test::runCli({"calc", "--json", "--users", "64", "--replicas", "4"});
        QCOMPARE(nlohmann::json::parse(j.out)["serving"]["replicas"].get<int>(), 4);
    }

    void eachEngineCachesPrefixesItsOwnWay()
    {
        auto curve = [](std::vector<std::pair<std::string, std::string>> options) {
            options.insert(options.end(), {{"model", "llama-3.1-8b"},
                                           {"gpu", "h100-sxm"},
                                           {"context", "8192"},
                                           {"prompt-tokens", "4096"},
                                           {"shared-prefix-tokens", "2050"}});
            return servingCurve(scenarioFrom(options));
        };
        // vLLM caches whole 16-token blocks only; TGI's FlashInfer blocks hold one token.
        QCOMPARE(curve({{"engine", "vllm"}}).cachedPrefixTokens, qint64(2048));
        QCOMPARE(curve({{"engine", "vllm"}, {"block-size", "32"}}).cachedPrefixTokens,
                 qint64(2048));
        QCOMPARE(curve({{"engine", "vllm"}, {"block-size", "1024"}}).cachedPrefixTokens,
                 qint64(2048));
        QCOMPARE(curve({{"engine", "tgi"}}).cachedPrefixTokens, qint64(2050));
        // vLLM's V0 engine cached prefixes only when asked.
        QCOMPARE(curve({{"engine", "vllm"}, {"engine-version", "0.6.4"}}).cachedPrefixTokens,
                 qint64(0));
        QCOMPARE(curve({{"engine", "vllm"}, {"engine-version", "0.6.4"}, {"prefix-caching", "on"}})
                     .cachedPrefixTokens,
                 qint64(2048));
        // A llama.cpp slot reuses its own last prompt: the prefill is saved, no memory.
        const ServingCurve slot = curve({{"engine", "llamacpp"}, {"weights", "q4_k_m"}});
        QCOMPARE(slot.cachedPrefixTokens, qint64(2050));
        QVERIFY(!slot.prefixHeldOnce);
        QCOMPARE(slot.memoryConcurrency, slot.memoryConcurrencyUncached);
        QVERIFY(slot.prefillMs < slot.prefillMsUncached);
        // transformers keeps nothing between requests, and says so when asked for a cache.
        QCOMPARE(curve({{"engine", "hf"}}).cachedPrefixTokens, qint64(0));
        auto refused =
            scenarioFromOptions({{"engine", "hf"}, {"prefix-caching", "on"}}, test::catalog());
        QVERIFY(!refused);
        QCOMPARE(refused.error().field, std::string("prefix_caching"));
        // The shared prefix is part of the prompt.
        auto tooLong = scenarioFromOptions(
            {{"prompt-tokens", "1024"}, {"shared-prefix-tokens", "1025"}}, test::catalog());
        QVERIFY(!tooLong);
        QCOMPARE(tooLong.error().field, std::string("shared_prefix_tokens"));
    }
};

KVSCOPE_TEST_SUITE(TestServing, "tst_serving", kvscope::test::SuiteApp::Core)
#include "tst_serving.moc"
