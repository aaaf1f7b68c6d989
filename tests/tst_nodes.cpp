// SPDX-License-Identifier: GPL-3.0-or-later
// Several nodes (issues 44 and 46): tensor parallel inside each node, one pipeline stage per node,
// the stages handing their hidden state over the network between them. Hand-checked figures for
// DeepSeek-R1 FP8 on 2 x 8 H100 under vLLM, the refusals, the launch command, the serving
// curve's batches in flight and the plan search that reaches for a second node.
#include "cli_runner.h"
#include "kvscope/engines/launch_command.h"
#include "kvscope/io/plan_csv.h"
#include "kvscope/model/kv_cache.h"
#include "kvscope/model/parameters.h"
#include "kvscope/model/weights.h"
#include "kvscope/planning/plan_search.h"
#include "kvscope/planning/remedies.h"
#include "kvscope/planning/serving.h"
#include "kvscope/scenario/parallel_layout.h"
#include "suite_registry.h"
#include "testutils.h"

#include <QtTest>

using namespace kvscope;
using test::scenarioFrom;

namespace {

using Options = std::vector<std::pair<std::string, std::string>>;

Options deepSeekOn(const char* gpus, const char* nodes)
{
    return {{"model", "deepseek-r1"}, {"gpu", "h100-sxm"}, {"gpus", gpus},     {"nodes", nodes},
            {"engine", "vllm"},       {"weights", "fp8"},  {"context", "8192"}};
}

} // namespace

namespace {

// Llama 3.1 405B in 16 bits on vLLM and H100s: more than one node holds.
PlanRequest wholeLlama405bOnH100s()
{
    PlanRequest r;
    r.base = test::scenarioFrom({{"model", "llama-3.1-405b"}, {"context", "8192"}});
    r.gpus = {"h100-sxm"};
    r.engines = {"vllm"};
    r.minWeightBits = 16;
    r.minKvBits = 16;
    return r;
}

} // namespace

class TestNodes : public QObject
{
    Q_OBJECT

private slots:
    // Each GPU holds a sixteenth of the weights and half the layers' KV; the step is the one
    // node's tensor-parallel step plus one hand-over between the nodes.
    void twoNodesOfEightH100()
    {
        const test::Checked two = test::checked(deepSeekOn("16", "2"));
        const Scenario& s = two.scenario;
        QCOMPARE(tensorWays(s), 8);
        QCOMPARE(pipelineWays(s), 2);
        const Evaluation& e = two.evaluation;
        QVERIFY(qFuzzyCompare(e.vram.weightsBytes, e.weightsBytesTotal / 16));
        // MLA's latent is whole on every tensor-parallel GPU; the stage holds 61 / 2 layers.
        QVERIFY(qFuzzyCompare(e.kv.bytesPerToken, kvBytesPerToken(s.model, s.kvDtype, 8) / 2));
        QVERIFY(two.verdict.runs);

        const DecodeTiming& d = e.decode;
        QCOMPARE(d.allReduces, int64_t(2 * 61));
        QCOMPARE(d.nodeHandovers, int64_t(1));
        QCOMPARE(s.nodeLink.id, std::string("ib-ndr"));
        QCOMPARE(d.nodeHandoverLatencyUs, 19.9);
        // Hidden state and residual of one token, 7,168 wide in 16 bits, split over 8 GPUs.
        QVERIFY(qFuzzyCompare(d.nodeHandoverBytes, 2.0 * 7168 * 2 / 8));
        QVERIFY(qFuzzyCompare(d.nodeLinkGBps, 400.0 / 8 * s.efficiency.interconnect));
        const double handover = 19.9 / 1e3 + d.nodeHandoverBytes / (d.nodeLinkGBps * 1e6);
        QVERIFY(qFuzzyCompare(d.nodeHandoverMs, handover));
        QVERIFY(qFuzzyCompare(d.interconnectMs, d.allReduceMs + d.nodeHandoverMs));

        // One node of the same eight-way tensor parallel reads and computes the same per GPU
        // (it cannot hold the weights, but its step is still timed).
        const Evaluation one = *evaluate(scenarioFrom(deepSeekOn("8", "1")));
        QVERIFY(qFuzzyCompare(d.memoryMs, one.decode.memoryMs));
        QVERIFY(qFuzzyCompare(d.computeMs, one.decode.computeMs));
        QVERIFY(qFuzzyCompare(d.allReduceMs, one.decode.allReduceMs));
        QVERIFY(qFuzzyCompare(d.selectedMs - one.decode.selectedMs, d.nodeHandoverMs));
        QVERIFY(!one.vram.fits);
    }

    // Tensor parallel over both nodes (--node-split tensor, SGLang's --tp 16 --nnodes 2): no
    // stages; every GPU holds every layer's MLA latent (twice the stage's), and each all-reduce
    // runs in two levels: NCCL over the node's NVLink (the engines' own kernel stops at the
    // node), then the network, where each GPU sends its eighth of the nodes' ring share.
    void tensorParallelAcrossNodes()
    {
        Options across = deepSeekOn("16", "2");
        across.push_back({"node-split", "tensor"});
        const test::Checked tp16 = test::checked(across);
        const Scenario& s = tp16.scenario;
        QCOMPARE(tensorWays(s), 16);
        QCOMPARE(pipelineWays(s), 1);
        const Evaluation& e = tp16.evaluation;
        QVERIFY(qFuzzyCompare(e.kv.bytesPerToken, kvBytesPerToken(s.model, s.kvDtype, 16)));
        QVERIFY(qFuzzyCompare(e.vram.weightsBytes, e.weightsBytesTotal / 16));
        const DecodeTiming& d = e.decode;
        QCOMPARE(d.nodeHandovers, int64_t(0));
        QCOMPARE(d.allReduces, int64_t(2 * 61));
        QCOMPARE(d.nodeAllReduces, int64_t(2 * 61));
        QCOMPARE(d.allReduceLatencyUs, s.allReduce.nvlinkNccl.us(8));
        QCOMPARE(d.nodeAllReduceLatencyUs, 19.9);
        // 7,168 x 2 B of one token, 2 x (2 - 1) / 2 of it over the network, an eighth per GPU.
        QVERIFY(qFuzzyCompare(d.nodeAllReduceBytes, 7168.0 * 2 * 2 * 0.5 / 8));
        const double network = 122 * (19.9 / 1e3 + d.nodeAllReduceBytes / (d.nodeLinkGBps * 1e6));
        QVERIFY(qFuzzyCompare(d.nodeAllReduceMs, network));
        QVERIFY(qFuzzyCompare(d.interconnectMs, d.allReduceMs + d.nodeAllReduceMs));
        // A prefill's chunks are reduced the same way, in both levels: a slower network between
        // the nodes makes the first token later, by the network's share of every chunk's
        // all-reduces (here more than its decode step's).
        Options hdr = across;
        hdr.push_back({"node-link", "ib-hdr"});
        const Evaluation slower = test::checked(hdr).evaluation;
        QVERIFY(slower.decode.nodeLinkGBps < d.nodeLinkGBps);
        QVERIFY(slower.breakeven.recomputeMs - e.breakeven.recomputeMs >
                slower.decode.nodeAllReduceMs - d.nodeAllReduceMs);
        // Half the KV tokens of two stages of eight: each GPU holds all 61 layers' latent.
        const test::Checked stages = test::checked(deepSeekOn("16", "2"));
        QVERIFY(e.tokensFit.model < stages.evaluation.tokensFit.model * 0.55);

        for (const char* engine : {"vllm", "sglang"}) {
            Options launch = across;
            launch.push_back({"engine", engine});
            const LaunchCommand c = launchCommand(scenarioFrom(launch));
            QVERIFY2(c.text.find(std::string(engine) == "vllm"
                                     ? "--tensor-parallel-size 16"
                                     : "--tp-size 16") != std::string::npos,
                     c.text.c_str());
            QVERIFY(c.text.find("pipeline-parallel") == std::string::npos &&
                    c.text.find("--pp-size") == std::string::npos);
        }
    }

    // A slower network costs more per hand-over; a layer split over every GPU hands over at each
    // GPU boundary, one of them between the nodes.
    void theNetworkAndTheSplitDecideTheHandovers()
    {
        Options roce = deepSeekOn("16", "2");
        roce.push_back({"node-link", "roce-400g"});
        const Evaluation viaRoce = test::checked(roce).evaluation;
        const Evaluation viaIb = test::checked(deepSeekOn("16", "2")).evaluation;
        QVERIFY(viaRoce.decode.nodeHandoverMs > viaIb.decode.nodeHandoverMs);
        QCOMPARE(viaRoce.decode.nodeHandoverLatencyUs, 35.15);

        Options layer = deepSeekOn("16", "2");
        layer.push_back({"split-mode", "layer"});
        const test::Checked split = test::checked(layer);
        QCOMPARE(pipelineWays(split.scenario), 16);
        QCOMPARE(tensorWays(split.scenario), 1);
        QCOMPARE(split.evaluation.decode.allReduces, int64_t(0));
        QCOMPARE(split.evaluation.decode.nodeHandovers, int64_t(1));
    }

    void whatCannotSpanNodesIsRefused()
    {
        const auto uneven =
            test::runCli({"calc", "--engine", "vllm", "--gpus", "16", "--nodes", "3"});
        QCOMPARE(uneven.code, cli::exitBadInput);
        QVERIFY2(uneven.err.find("nodes: got 3; accepted: a count that divides the 16 GPUs") !=
                     std::string::npos,
                 uneven.err.c_str());
        for (const char* engine : {"llamacpp", "tgi", "hf"}) {
            const auto r =
                test::runCli({"calc", "--engine", engine, "--gpus", "2", "--nodes", "2"});
            QCOMPARE(r.code, cli::exitBadInput);
            QVERIFY2(r.err.find("serves from one machine") != std::string::npos, r.err.c_str());
        }
        const auto link = test::runCli({"calc", "--engine", "vllm", "--gpus", "2", "--nodes", "2",
                                        "--node-link", "carrier-pigeon"});
        QCOMPARE(link.code, cli::exitBadInput);
        QVERIFY2(link.err.find("--node-link") != std::string::npos, link.err.c_str());
    }

    void launchCarriesTheParallelFlags()
    {
        const LaunchCommand c = launchCommand(scenarioFrom(deepSeekOn("16", "2")));
        QVERIFY2(c.refusal.empty(), c.refusal.c_str());
        for (const char* part : {"--tensor-parallel-size 8", "--pipeline-parallel-size 2",
                                 "--distributed-executor-backend ray"})
            QVERIFY2(c.text.find(part) != std::string::npos, c.text.c_str());
        QVERIFY(std::any_of(c.notes.begin(), c.notes.end(), [](const std::string& n) {
            return n.find("Ray cluster of the 2 nodes") != std::string::npos;
        }));
    }

    // vLLM keeps one batch per stage in flight: two users on two stages each decode alone,
    // where one node's tensor parallel decodes both in one step.
    void eachStageRunsItsOwnBatch()
    {
        const ServingCurve piped = servingCurve(scenarioFrom(deepSeekOn("16", "2")));
        Options tensor = deepSeekOn("16", "1");
        const ServingCurve together = servingCurve(scenarioFrom(tensor));
        auto at = [](const ServingCurve& c, int64_t users) {
            for (const ServingPoint& p : c.points)
                if (p.users == users)
                    return p.stepMs;
            return -1.0;
        };
        QVERIFY(at(piped, 1) > 0 && at(together, 1) > 0);
        QCOMPARE(at(piped, 2), at(piped, 1));
        QVERIFY(at(together, 2) > at(together, 1));
    }

    // A remedy where no count of GPUs in one node holds the model as it is.
    void aRemedySpreadsOverNodes()
    {
        const test::Checked one =
            test::checked({{"model", "llama-3.1-405b"}, {"gpu", "h100-sxm"}, {"engine", "vllm"}});
        QVERIFY(!one.verdict.runs);
        const auto found = remedies(one.scenario, one.verdict, test::catalog());
        const auto spread = std::find_if(found.begin(), found.end(), [](const Remedy& r) {
            return r.kind == RemedyKind::MoreNodes;
        });
        QVERIFY(spread != found.end());
        QCOMPARE(spread->scenario.nodes, 2);
        QCOMPARE(spread->scenario.gpuCount, 16);
        QVERIFY(spread->verdict.meetsTargets());
        QVERIFY(std::none_of(found.begin(), found.end(),
                             [](const Remedy& r) { return r.kind == RemedyKind::MoreGpus; }));
    }

    // Llama 3.1 405B in 16 bits needs more than one node of H100s holds: the plan reaches for two.
    void thePlanReachesForASecondNode()
    {
        PlanRequest r = wholeLlama405bOnH100s();
        const PlanResult result = plan(r, test::catalog());
        QVERIFY(!result.ranked.empty());
        const PlanEntry& first = result.ranked.front();
        QCOMPARE(first.scenario.nodes, 2);
        QCOMPARE(first.scenario.gpuCount, 16);
        QVERIFY(first.verdict.runs);
        QCOMPARE(first.options[2], (std::pair<std::string, std::string>("nodes", "2")));
        // The CSV names the nodes, and a closest miss that does not fit has no speed or first
        // token (empty cells, as an unknown cost has), not 0 tokens/s.
        const std::string csv = planToCsv(result);
        QVERIFY(csv.rfind("rank,gpu,gpus,nodes,engine,", 0) == 0);
        QVERIFY2(csv.find("\n1,h100-sxm,16,2,vllm,") != std::string::npos, csv.c_str());
        r.maxNodes = 1;
        const PlanResult oneNode = plan(r, test::catalog());
        QVERIFY(oneNode.ranked.empty() && !oneNode.closestMisses.empty());
        const std::string misses = planToCsv(oneNode);
        const auto notFitting =
            std::count_if(oneNode.closestMisses.begin(), oneNode.closestMisses.end(),
                          [](const PlanEntry& p) { return !p.verdict.runs; });
        size_t emptyRows = 0;
        for (size_t at = misses.find(",gpu,,,,"); at != std::string::npos;
             at = misses.find(",gpu,,,,", at + 1))
            ++emptyRows;
        QVERIFY(notFitting > 0);
        QCOMPARE(qsizetype(emptyRows), qsizetype(notFitting));
    }

    // Over two nodes the search tries both splits, tensor parallel in each node with a stage per
    // node and tensor parallel over all 16, and keeps the faster where speed ranks; the row
    // names the split it chose so loading it reproduces it.
    void thePlanTriesEachSplitOverNodes()
    {
        PlanRequest r = wholeLlama405bOnH100s();
        r.objective = PlanObjective::Fastest;
        const PlanResult result = plan(r, test::catalog());
        QVERIFY(!result.ranked.empty());
        const PlanEntry& first = result.ranked.front();
        QCOMPARE(first.scenario.gpuCount, 16);
        double speed[2] = {0, 0};
        for (bool across : {false, true}) {
            Scenario s = first.scenario;
            s.tensorAcrossNodes = across;
            s.targets = planTargets(r.base);
            const auto e = evaluate(s);
            QVERIFY(e);
            speed[across] = verdictOf(s, *e).tokensPerSUser;
        }
        QVERIFY(speed[0] != speed[1]);
        QCOMPARE(first.verdict.tokensPerSUser, std::max(speed[0], speed[1]));
        QCOMPARE(first.scenario.tensorAcrossNodes, speed[1] > speed[0]);
        const bool named = std::find(first.options.begin(), first.options.end(),
                                     std::pair<std::string, std::string>("node-split", "tensor")) !=
                           first.options.end();
        QCOMPARE(named, first.scenario.tensorAcrossNodes);
    }

    // DeepSeek-R1's MLA latent is copied onto every tensor-parallel GPU; SGLang's data-parallel
    // attention keeps one copy of each request's, so 48 users at 32K tokens fit on 8 H200 only
    // with it, and the plan finds it (and says so in the row's options). Without MLA and with
    // KV heads to spare, it is not tried: it would only copy the attention weights.
    void thePlanTriesDataParallelAttentionWhereKvIsCopied()
    {
        PlanRequest r;
        r.base = scenarioFrom({{"model", "deepseek-r1"}, {"context", "32768"}, {"users", "48"}});
        r.gpus = {"h200"};
        r.engines = {"sglang"};
        r.minWeightBits = 8;
        r.maxNodes = 1;
        r.base.targets.maxTtftMs = 1e9;
        const PlanResult result = plan(r, test::catalog());
        const PlanEntry* eight = nullptr;
        for (const PlanEntry& p : result.ranked)
            if (p.scenario.gpuCount == 8)
                eight = &p;
        QVERIFY(eight);
        QVERIFY(eight->scenario.dpAttention);
        QVERIFY(std::find(eight->options.begin(), eight->options.end(),
                          std::pair<std::string, std::string>("dp-attention", "on")) !=
                eight->options.end());
        Scenario plain = eight->scenario;
        plain.dpAttention = false;
        const auto e = evaluate(plain);
        QVERIFY(e);
        QVERIFY(!verdictOf(plain, *e).runs);

        r.base = scenarioFrom({{"model", "llama-3.1-70b"}, {"context", "8192"}, {"users", "8"}});
        const PlanResult dense = plan(r, test::catalog());
        QVERIFY(!dense.ranked.empty());
        for (const PlanEntry& p : dense.ranked)
            QVERIFY(!p.scenario.dpAttention);
    }

    // Expert parallel: DeepSeek-R1's 256 experts shared out whole over 8 H200, 32 each. One
    // token touches 8 experts, each GPU's count Binomial(32, 1/32): the busiest GPU holds
    // sum_j (1 - P(X <= j)^8) = 2.5445 of them on average, against an even share of 1, so a step
    // reads 2.5445 times the touched experts' even share (worked in Python's math.comb); at 64
    // tokens on Qwen3-30B-A3B over 4 GPUs nearly every expert is touched (1.0155). On 6 GPUs
    // Qwen3-30B-A3B's 128 experts split 22 on the fullest: 22/128 - 1/6 of its 57,982,058,496
    // expert bytes (48 x 128 x 3 x 2,048 x 768 x 2 B) = 301,989,888 B more than an even share.
    void expertParallelSharesWholeExperts()
    {
        const Scenario r1 = scenarioFrom({{"engine", "vllm"},
                                          {"model", "deepseek-r1"},
                                          {"weights", "fp8"},
                                          {"gpu", "h200"},
                                          {"gpus", "8"},
                                          {"expert-parallel", "on"}});
        QCOMPARE(expertWays(r1), 8);
        QVERIFY(std::fabs(expertParallelImbalance(r1.model, 8, 1) - 2.5444873983613885) < 1e-9);
        Scenario tp = r1;
        tp.expertParallel = false;
        KVSCOPE_EVALUATE(ep, r1);
        KVSCOPE_EVALUATE(even, tp);
        const ParameterCount p = countParameters(r1.model);
        const double touched = p.experts * expertShareTouched(r1.model, 1) * 1.0 / 8; // FP8
        QVERIFY(std::fabs(ep.decode.weightsReadBytes - even.decode.weightsReadBytes -
                          touched * 1.5444873983613885) < touched * 1e-9);
        QVERIFY(ep.decode.tokensPerS < even.decode.tokensPerS);
        const Scenario qwen = scenarioFrom(
            {{"engine", "sglang"}, {"model", "qwen3-30b-a3b"}, {"gpu", "h100-sxm"}, {"gpus", "4"}});
        QVERIFY(std::fabs(expertParallelImbalance(qwen.model, 4, 64) - 1.0154841460334838) < 1e-9);
        Scenario six = qwen;
        six.gpuCount = 6;
        six.expertParallel = true;
        KVSCOPE_EVALUATE(uneven, six);
        QCOMPARE(uneven.vram.expertSpreadBytes, 301989888.0);
        QVERIFY(launchCommand(r1).text.find("--enable-expert-parallel") != std::string::npos);
        Scenario sglang = six;
        sglang.gpuCount = 4;
        const std::string text = launchCommand(sglang).text;
        QVERIFY2(text.find("--ep-size 4") != std::string::npos, text.c_str());
        // SGLang exchanging by DeepEP: each of R1's 58 MoE layers trades its MLP all-reduce
        // for an all-to-all at DeepEP's EP 8 figure, 77 + 114 = 191 us (interconnects.json).
        Scenario deepEp = r1;
        deepEp.engine = *test::catalog().engine("sglang");
        deepEp.deepEp = true;
        KVSCOPE_EVALUATE(a2a, deepEp);
        QCOMPARE(a2a.decode.allToAlls, qint64(58));
        QCOMPARE(a2a.decode.allReduces, qint64(2 * 61 - 58));
        QCOMPARE(a2a.decode.allToAllUs, 191.0);
        QVERIFY(std::fabs(a2a.decode.allToAllMs - 58 * 0.191) < 1e-9);
        QVERIFY(launchCommand(deepEp).text.find("--ep-size 8 --moe-a2a-backend deepep") !=
                std::string::npos);
        // Over two nodes its all-to-all spans them itself: only the other 64 reduce there.
        Scenario wide = deepEp;
        wide.gpu = *test::catalog().gpu("h100-sxm");
        wide.gpuCount = 16;
        wide.nodes = 2;
        wide.tensorAcrossNodes = true;
        KVSCOPE_EVALUATE(across, wide);
        QCOMPARE(across.decode.nodeAllReduces, qint64(2 * 61 - 58));
        QCOMPARE(across.decode.allToAllUs, 118.0 + 195.0);
        // Beyond DeepEP's 128 measured tokens a GPU, the time grows with the tokens.
        QCOMPARE(deepEp.deepEpAllToAll.us(8, 256), 382.0);
        QCOMPARE(deepEp.deepEpAllToAll.us(12, 1), 191.0);
        // Refused where it cannot be: a dense model, one GPU, replicas, another engine, DeepEP
        // under vLLM.
        for (const auto& [key, value] :
             std::vector<std::pair<const char*, const char*>>{{"model", "llama-3.1-70b"},
                                                              {"gpus", "1"},
                                                              {"replicas", "2"},
                                                              {"engine", "llamacpp"},
                                                              {"moe-a2a-backend", "deepep"}}) {
            std::vector<std::pair<std::string, std::string>> options{{"engine", "vllm"},
                                                                     {"model", "qwen3-30b-a3b"},
                                                                     {"gpus", "4"},
                                                                     {"expert-parallel", "on"}};
            options.push_back({key, value});
            const auto refused = scenarioFromOptions(options, test::catalog());
            QVERIFY2(!refused.ok() || validate(*refused), key);
        }
    }

    // vLLM's --data-parallel-size over a MoE model is data-parallel attention: each rank (tensor
    // parallel 1) runs whole attention for its own requests and holds the dense layers whole too,
    // while the experts span every rank. DeepSeek-R1 in FP8 on 8 x H200, by hand: attention 61 x
    // 187,105,280 = 11,413,422,080 parameters, dense MLP and shared experts 3 x 396,361,728 + 58 x
    // 44,040,192 = 3,743,416,320, norms and router gates 107,312,128, a byte each; embedding and
    // lm_head 2 x 926,679,040 in 16 bits: 18,970,866,688 bytes, of which each GPU holds 7/8
    // beyond its share, 16,599,508,352. SGLang's ranks hold only the attention whole.
    void vllmDataParallelRanksHoldTheDenseLayersWhole()
    {
        const Options r1{
            {"engine", "vllm"}, {"model", "deepseek-r1"}, {"weights", "fp8"},       {"gpu", "h200"},
            {"gpus", "8"},      {"dp-attention", "on"},   {"expert-parallel", "on"}};
        const Scenario dp = scenarioFrom(r1);
        KVSCOPE_EVALUATE(e, dp);
        QVERIFY2(std::fabs(e.vram.attentionReplicaBytes - 16599508352.0) < 1.0,
                 qPrintable(QString::number(e.vram.attentionReplicaBytes, 'f', 0)));
        Scenario sglang = dp;
        sglang.engine = *test::catalog().engine("sglang");
        KVSCOPE_EVALUATE(attentionOnly, sglang);
        QCOMPARE(attentionOnly.vram.attentionReplicaBytes, 11413422080.0 * 7 / 8);
        const std::string text = launchCommand(dp).text;
        QVERIFY2(text.find("--data-parallel-size 8") != std::string::npos &&
                     text.find("--enable-expert-parallel") != std::string::npos &&
                     text.find("--tensor-parallel-size") == std::string::npos,
                 text.c_str());
        // Two nodes: a rank per GPU, eight on each; the head node serves the API.
        Options twoNodes = r1;
        for (auto& [key, value] : twoNodes)
            if (key == "gpus")
                value = "16";
        twoNodes.push_back({"nodes", "2"});
        twoNodes.push_back({"node-split", "tensor"});
        const LaunchCommand two = launchCommand(scenarioFrom(twoNodes));
        const std::string notes = two.notes.empty() ? "" : two.notes.front();
        QVERIFY2(two.text.find("--data-parallel-size 16") != std::string::npos &&
                     two.text.find("--data-parallel-size-local 8") != std::string::npos &&
                     two.text.find("--distributed-executor-backend ray") == std::string::npos,
                 two.text.c_str());
        QVERIFY2(notes.find("--headless") != std::string::npos &&
                     notes.find("--data-parallel-start-rank 8") != std::string::npos,
                 notes.c_str());
        // A dense model's ranks are whole copies (--replicas), and each rank runs every layer.
        for (const auto& [key, value] :
             Options{{"model", "llama-3.1-70b"}, {"node-split", "pipeline"}}) {
            Options options = twoNodes;
            for (auto& [k, v] : options)
                if (k == key)
                    v = value;
            if (key == "model")
                options.push_back({"weights", "fp8"});
            const auto refused = scenarioFromOptions(options, test::catalog());
            QVERIFY2(!refused.ok() || validate(*refused), key.c_str());
        }
    }

    // Ranks of several GPUs each (vLLM --tensor-parallel-size 4 --data-parallel-size 2, SGLang
    // --tp-size 8 --enable-dp-attention --dp-size 2): each rank splits what it holds whole over
    // its 4 GPUs, (2 - 1) / 8 of it beyond an even share where a rank per GPU holds (8 - 1) / 8,
    // and its KV heads over them too: gpt-oss-120b's 8 KV heads, 2 a GPU, of 25 of 50 users.
    void attentionRanksOfSeveralGpus()
    {
        const Options oss{{"engine", "vllm"},
                          {"model", "gpt-oss-120b"},
                          {"weights", "mxfp4-moe"},
                          {"gpu", "h100-sxm"},
                          {"gpus", "8"},
                          {"users", "50"},
                          {"dp-attention", "on"}};
        Options two = oss;
        two.push_back({"attention-ranks", "2"});
        const Scenario perGpu = scenarioFrom(oss), ranks = scenarioFrom(two);
        QCOMPARE(attentionRanks(ranks), 2);
        QCOMPARE(kvWays(ranks), 4);
        KVSCOPE_EVALUATE(eight, perGpu);
        KVSCOPE_EVALUATE(e, ranks);
        QVERIFY(std::fabs(e.vram.attentionReplicaBytes - eight.vram.attentionReplicaBytes / 7) <
                1.0);
        QCOMPARE(e.kv.kvHeadsPerGpu, int64_t(2));
        QCOMPARE(e.kv.sequencesPerGpu, qint64(25));
        const std::string text = launchCommand(ranks).text;
        QVERIFY2(text.find("--tensor-parallel-size 4") != std::string::npos &&
                     text.find("--data-parallel-size 2") != std::string::npos,
                 text.c_str());
        Scenario sglang = ranks;
        sglang.engine = *test::catalog().engine("sglang");
        const std::string sgl = launchCommand(sglang).text;
        QVERIFY2(sgl.find("--tp-size 8") != std::string::npos &&
                     sgl.find("--enable-dp-attention --dp-size 2") != std::string::npos,
                 sgl.c_str());
        // Not a divisor, one rank, more ranks than GPUs, or without data-parallel attention.
        for (const char* refused : {"3", "1", "16"}) {
            Options options = oss;
            options.push_back({"attention-ranks", refused});
            const auto s = scenarioFromOptions(options, test::catalog());
            QVERIFY2(!s.ok() || validate(*s), refused);
        }
        Options without = two;
        std::erase(without, std::pair<std::string, std::string>("dp-attention", "on"));
        const auto alone = scenarioFromOptions(without, test::catalog());
        QVERIFY(!alone.ok() || validate(*alone));
    }

    // vLLM's --data-parallel-size would make copies of a MoE model share its experts, so its
    // replicas run as separate servers; a dense model's stay vLLM's data-parallel ranks.
    void vllmReplicasOfAMoeModelAreSeparateServers()
    {
        const LaunchCommand moe = launchCommand(scenarioFrom({{"engine", "vllm"},
                                                              {"model", "qwen3-30b-a3b"},
                                                              {"gpu", "h100-sxm"},
                                                              {"replicas", "4"}}));
        QVERIFY2(moe.text.find("--data-parallel-size") == std::string::npos, moe.text.c_str());
        QVERIFY(std::any_of(moe.notes.begin(), moe.notes.end(), [](const std::string& n) {
            return n.find("Run 4 copies") != std::string::npos;
        }));
        const LaunchCommand dense = launchCommand(scenarioFrom(
            {{"engine", "vllm"}, {"model", "qwen3-8b"}, {"gpu", "h100-sxm"}, {"replicas", "4"}}));
        QVERIFY2(dense.text.find("--data-parallel-size 4") != std::string::npos,
                 dense.text.c_str());
    }
};

KVSCOPE_TEST_SUITE(TestNodes, "tst_nodes", kvscope::test::SuiteApp::Core)
#include "tst_nodes.moc"
