// SPDX-License-Identifier: GPL-3.0-or-later
// The terms a plan is signed on (issue 44): the replicas a request rate takes, recomputed from
// the serving curve; the cautions every lossy or GeForce row carries, each with its source; the
// deployment class deciding which GPUs may run; and no GPU priced on another basis, or without a
// price, ranked among the others.
#include "kvscope/planning/plan_search.h"
#include "kvscope/planning/poisson_queue.h"
#include "kvscope/planning/remedies.h"
#include "kvscope/planning/serving.h"
#include "suite_registry.h"
#include "testutils.h"

#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace kvscope;

namespace {

using Options = std::vector<std::pair<std::string, std::string>>;

PlanRequest requestFor(const Options& options)
{
    PlanRequest r;
    r.base = test::scenarioFrom(options);
    return r;
}

bool hasCaution(const PlanEntry& p, CautionKind kind)
{
    return std::any_of(p.cautions.begin(), p.cautions.end(), [&](const Caution& c) {
        return c.kind == kind && c.source.rfind("https://", 0) == 0;
    });
}

} // namespace

class TestPlanTerms : public QObject
{
    Q_OBJECT

private slots:
    // 20 requests/s of 2,048 prompt and 256 output tokens, the first token within 2 s: a replica
    // runs as many requests at once as the busiest point of its serving curve where they all
    // run and meet the targets; requests arrive at random, and a row takes the fewest replicas
    // whose 90th-percentile first token, bursts' waits for a slot included, is within 2 s (at
    // least the steady ceil(20 / capacity), one fewer would not do); rows rank by what all their
    // replicas cost.
    void rateGivesReplicasFromTheServingCurve()
    {
        PlanRequest r = requestFor({{"model", "llama-3.1-70b"},
                                    {"context", "8192"},
                                    {"prompt-tokens", "2048"},
                                    {"output-tokens", "256"},
                                    {"max-ttft-ms", "2000"}});
        r.ratePerS = 20;
        const PlanResult result = plan(r, test::catalog());
        QVERIFY(result.ranked.size() >= 5);
        const Targets targets = planTargets(r.base);
        for (size_t i = 0; i < result.ranked.size(); ++i) {
            const PlanEntry& p = result.ranked[i];
            QVERIFY(p.rate.serves());
            double best = 0, holdMs = 0;
            for (const ServingPoint& point : servingCurve(p.scenario).points)
                if (point.running >= point.users &&
                    point.perUserTokensPerS >= targets.minTokensPerSUser &&
                    point.ttftMs <= targets.maxTtftMs && point.aggregateTokensPerS / 256.0 > best) {
                    best = point.aggregateTokensPerS / 256.0;
                    holdMs = point.ttftMs + 256.0 * point.stepMs;
                }
            QVERIFY(best > 0);
            QVERIFY(qFuzzyCompare(p.rate.capacityPerS, best));
            QVERIFY(p.rate.replicas >= int64_t(std::ceil(20.0 / best - 1e-9)));
            QVERIFY(p.rate.ttftP50Ms <= p.rate.ttftP90Ms && p.rate.ttftP90Ms <= 2000);
            QVERIFY(p.rate.ttftP50Ms >= p.rate.ttftMs);
            const auto fewer =
                poissonSlotWait(20.0 / double(p.rate.replicas - 1), p.rate.usersPerReplica, holdMs);
            QVERIFY(p.rate.replicas == 1 || !fewer || p.rate.ttftMs + fewer->p90Ms > 2000);
            QVERIFY(qFuzzyCompare(p.costPerHourAtRate(), p.cost.perHour * double(p.rate.replicas)));
            if (i > 0)
                QVERIFY(result.ranked[i - 1].costPerHourAtRate() <= p.costPerHourAtRate());
        }
        // Without a rate, one replica each.
        r.ratePerS = 0;
        for (const PlanEntry& p : plan(r, test::catalog()).ranked)
            QVERIFY(!p.rate.serves() && p.replicas() == 1);
    }

    // Random arrivals at one slot held a fixed time (M/D/1): the mean wait is the
    // Pollaczek-Khinchine rho D / (2 (1 - rho)); past the slots' capacity the queue never
    // settles; far below it nobody waits; and the same inputs give the same figures.
    void poissonWaitsByHand()
    {
        const auto half = poissonSlotWait(5.0, 1, 100.0); // rho = 5/s x 0.1 s = 0.5
        QVERIFY(half);
        const double expected = 0.5 * 100.0 / (2 * (1 - 0.5)); // 50 ms
        QVERIFY2(std::fabs(half->meanMs - expected) < 0.1 * expected,
                 qPrintable(QString::number(half->meanMs)));
        QVERIFY(half->p50Ms <= half->p90Ms);
        QVERIFY(!poissonSlotWait(10.0, 1, 100.0)); // rho = 1
        QVERIFY(!poissonSlotWait(100.0, 8, 100.0));
        const auto idle = poissonSlotWait(1.0, 64, 100.0);
        QVERIFY(idle && idle->p90Ms == 0);
        const auto again = poissonSlotWait(5.0, 1, 100.0);
        QCOMPARE(again->p90Ms, half->p90Ms);
    }

    // Every row in a format below 8 bits says what it may cost in accuracy, with a source; a
    // model shipped in its 4-bit format (gpt-oss in MXFP4) loses nothing and says nothing.
    void lossyRowsCarryTheirCautions()
    {
        // 70B on at most two 24 GB cards: only 4-bit weights (and, at 16K x 4, a 4-bit KV
        // cache on some) fit.
        PlanRequest r = requestFor({{"model", "llama-3.1-70b"},
                                    {"context", "16384"},
                                    {"users", "4"},
                                    {"max-ttft-ms", "600000"}});
        r.minWeightBits = 2;
        r.minKvBits = 4;
        r.maxGpusPerNode = 2;
        r.gpus = {"rtx-4090", "rtx-3090", "rtx-a5000", "rtx-4080"};
        r.limit = 200;
        const PlanResult result = plan(r, test::catalog());
        int lossyWeights = 0, lossyKv = 0;
        for (const PlanEntry& p : result.ranked) {
            const bool weights = p.scenario.weights.bitsPerWeight < kLossyBits;
            const bool kv = p.scenario.kvDtype.bitsPerElement < kLossyBits;
            QCOMPARE(hasCaution(p, CautionKind::LossyWeights), weights);
            QCOMPARE(hasCaution(p, CautionKind::LossyKvCache), kv);
            lossyWeights += weights;
            lossyKv += kv;
        }
        QVERIFY(lossyWeights > 0 && lossyKv > 0);
        const std::string shipped = test::model("gpt-oss-120b").checkpointWeights;
        QVERIFY(!shipped.empty());
        const Scenario gptOss =
            test::scenarioFrom({{"model", "gpt-oss-120b"}, {"weights", shipped}});
        QVERIFY(gptOss.weights.bitsPerWeight < kLossyBits);
        QVERIFY(formatCautions(gptOss).empty());
        const Scenario q4 = test::scenarioFrom({{"model", "gpt-oss-120b"}, {"weights", "q4_k_m"}});
        QCOMPARE(formatCautions(q4).size(), size_t(1));
    }

    // A consumer's PC runs consumer cards and Apple silicon; a datacenter no Apple silicon, its
    // GeForce rows noting the driver licence; a workstation no datacenter card.
    void deploymentClassDecidesTheGpus()
    {
        const Options o{{"model", "llama-3.1-8b"}, {"context", "8192"}};
        auto rows = [&](Deployment d) {
            PlanRequest r = requestFor(o);
            r.deployment = d;
            r.limit = 500;
            r.base.cost.basis = CostBasis::Own;
            return plan(r, test::catalog()).ranked;
        };
        bool geForceSeen = false;
        for (const PlanEntry& p : rows(Deployment::Datacenter)) {
            QVERIFY(!p.scenario.gpu.unifiedMemory);
            QCOMPARE(hasCaution(p, CautionKind::GeForceLicence), isGeForce(p.scenario.gpu));
            geForceSeen = geForceSeen || isGeForce(p.scenario.gpu);
        }
        QVERIFY(geForceSeen);
        const auto consumer = rows(Deployment::Consumer);
        QVERIFY(!consumer.empty());
        for (const PlanEntry& p : consumer) {
            QVERIFY(p.scenario.gpu.group == "Consumer" || p.scenario.gpu.unifiedMemory);
            QVERIFY(!hasCaution(p, CautionKind::GeForceLicence));
        }
        for (const PlanEntry& p : rows(Deployment::Workstation))
            QVERIFY(p.scenario.gpu.group != "Data center");
        Deployment parsed = Deployment::Any;
        QVERIFY(parseDeployment("workstation", &parsed) && parsed == Deployment::Workstation);
        QVERIFY(!parseDeployment("cloud", &parsed));
    }

    // Ranked by cost on one basis, every row is priced on it; a GPU with no price there is left
    // out and named, never ranked after the others with a "-".
    void unpricedGpusAreLeftOutAndNamed()
    {
        for (CostBasis basis : {CostBasis::Rent, CostBasis::Own}) {
            PlanRequest r =
                requestFor({{"model", "llama-3.1-70b"}, {"context", "32768"}, {"users", "8"}});
            r.base.cost.basis = basis;
            r.limit = 500;
            const PlanResult result = plan(r, test::catalog());
            QVERIFY(!result.ranked.empty());
            for (const PlanEntry& p : result.ranked) {
                QVERIFY(p.cost.known && p.cost.basis == basis);
                QVERIFY(p.scenario.gpu.prices.on(basis).kind != GpuPrice::Kind::Unknown);
                QVERIFY(std::find(result.unpriced.begin(), result.unpriced.end(),
                                  p.scenario.gpu.name) == result.unpriced.end());
            }
            for (const std::string& name : result.unpriced) {
                const auto gpu =
                    std::find_if(test::catalog().gpus.begin(), test::catalog().gpus.end(),
                                 [&](const GpuSpec& g) { return g.name == name; });
                QVERIFY(gpu != test::catalog().gpus.end());
                QCOMPARE(gpu->prices.on(basis).kind, GpuPrice::Kind::Unknown);
            }
        }
    }

    // The plan says why its first row is first: against the second (it costs less, here), and
    // against the cheapest configuration it turned away, which is cheaper and, fed back to the
    // same evaluation, misses a target.
    void planExplainsItsFirstRow()
    {
        const PlanRequest r =
            requestFor({{"model", "llama-3.1-70b"}, {"context", "32768"}, {"users", "8"}});
        const PlanResult result = plan(r, test::catalog());
        QVERIFY(result.ranked.size() >= 2);
        const PlanEntry& first = result.ranked[0];
        QCOMPARE(whyFirst(first, result.ranked[1]), PlanPreference::Cheaper);
        QVERIFY(result.cheapestRejected);
        const PlanEntry& turned = *result.cheapestRejected;
        QVERIFY(turned.cost.known && turned.cost.perHour < first.cost.perHour);
        QVERIFY(!turned.lacks.empty());
        Scenario s = turned.scenario;
        s.targets = planTargets(r.base);
        const auto e = evaluate(s);
        QVERIFY(e);
        QVERIFY(!verdictOf(s, *e).meetsTargets());
    }

    // At the same cost and formats a speed nobody measured does not win, nor one whose own
    // measurements say it is optimistic: the tie goes to the faster at the slow end of its band.
    void measuredSpeedWinsTies()
    {
        const PlanRequest r =
            requestFor({{"model", "llama-3.1-70b"}, {"context", "32768"}, {"users", "8"}});
        const PlanResult result = plan(r, test::catalog());
        QVERIFY(!result.ranked.empty());
        for (const PlanEntry& p : result.ranked)
            QVERIFY2(p.band.usable(), p.scenario.engine.id.c_str());
        PlanEntry measured = result.ranked[0];
        PlanEntry unmeasured = measured;
        unmeasured.band = {};
        unmeasured.verdict.tokensPerSUser = measured.verdict.tokensPerSUser * 2;
        QCOMPARE(whyFirst(measured, unmeasured), PlanPreference::Measured);
        // Faster on its face, slower at the slow end of a band that says it is optimistic.
        PlanEntry optimistic = measured;
        optimistic.band = {-0.1, 1.0, 9, "x"};
        optimistic.verdict.tokensPerSUser = measured.verdict.tokensPerSUser * 1.5;
        measured.band = {-0.1, 0.1, 9, "y"};
        QCOMPARE(whyFirst(measured, optimistic), PlanPreference::Faster);
        // Ranked by speed, the faster per user is first for that, whatever it costs; ranked by
        // GPUs, the one on fewer.
        QCOMPARE(whyFirst(optimistic, measured, PlanObjective::Fastest),
                 PlanPreference::FasterPerUser);
        PlanEntry larger = measured;
        larger.scenario.gpuCount = measured.scenario.gpuCount * 2;
        larger.cost.perHour = measured.cost.perHour / 2;
        QCOMPARE(whyFirst(measured, larger, PlanObjective::FewestGpus), PlanPreference::FewerGpus);
        QVERIFY(optimistic.band.signableTokensPerS(optimistic.verdict.tokensPerSUser) <
                measured.band.signableTokensPerS(measured.verdict.tokensPerSUser));
    }

    // Llama 3.1 70B at 32K on a 24 GB card: neither 8-bit nor 4-bit weights alone fit, eight
    // cards do; quantized on four, it runs. The two steps together are offered, on fewer GPUs
    // than more GPUs alone, and run through the same evaluation.
    void remediesCombineSteps()
    {
        const Scenario s = test::scenarioFrom(
            {{"model", "llama-3.1-70b"}, {"gpu", "rtx-4090"}, {"context", "32768"}});
        const auto e = evaluate(s);
        QVERIFY(e);
        const std::vector<Remedy> found = remedies(s, verdictOf(s, *e), test::catalog());
        int moreGpus = 0;
        const Remedy* combined = nullptr;
        for (const Remedy& r : found) {
            if (r.kind == RemedyKind::QuantizeWeights8 || r.kind == RemedyKind::QuantizeWeights4)
                QVERIFY(!r.verdict.runs);
            if (r.kind == RemedyKind::MoreGpus)
                moreGpus = r.scenario.gpuCount;
            if (r.kind == RemedyKind::QuantizeOnMoreGpus)
                combined = &r;
        }
        QVERIFY(combined && moreGpus > 0);
        QVERIFY(combined->scenario.gpuCount < moreGpus);
        QVERIFY(combined->verdict.meetsTargets());
        QVERIFY(combined->scenario.weights.bitsPerWeight < 16);
    }
};

KVSCOPE_TEST_SUITE(TestPlanTerms, "tst_plan_terms", kvscope::test::SuiteApp::Core)
#include "tst_plan_terms.moc"
