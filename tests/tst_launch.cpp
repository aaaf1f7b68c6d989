// SPDX-License-Identifier: GPL-3.0-or-later
// Launch commands: each engine module writes the command that runs a scenario with flags its
// engine documents, and says in a note what the engine cannot be told. Hand-checked commands,
// every engine x weight format x KV dtype against the documented flag lists, and the CLI door.
#include "cli.h"
#include "cli_runner.h"
#include "engine_arguments.h"
#include "kvscope/engines/engine_module.h"
#include "kvscope/engines/launch_command.h"
#include "kvscope/settings/scenario_options.h"
#include "suite_registry.h"
#include "testutils.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

using namespace kvscope;

namespace {

using test::scenarioFrom;

using test::CliResult;
using test::runCli;

// The flags a command passes ("--max-model-len", "-ngl"), in order.
std::vector<std::string> flagsOf(const std::string& command)
{
    std::vector<std::string> flags;
    static const std::regex flag(R"((?:^|\s)(--?[a-z][a-z0-9-]*))");
    for (auto it = std::sregex_iterator(command.begin(), command.end(), flag);
         it != std::sregex_iterator(); ++it)
        flags.push_back((*it)[1]);
    return flags;
}

// The command's model word is the user's checkpoint, the model's own repository where the
// engine makes the weights while loading, or a published checkpoint in those weights.
bool namesAcheckpointInItsWeights(const Scenario& s, const LaunchCommand& c)
{
    const CheckpointChoice choice = chooseCheckpoint(s);
    if (c.text.find(choice.name) == std::string::npos)
        return false;
    const EngineModule& engine = engineModule(s.engine);
    if (choice.name == launchModelName(s)) // made while loading, or already in these weights
        return engine.loadsOriginalAs(s.weights) ||
               (s.model.checkpointWeights == s.weights.id && !engine.readsOnlyGguf());
    for (const PublishedCheckpoint& p : s.model.checkpoints)
        if (p.repo == choice.name)
            return (p.format == s.weights.id && !engine.readsOnlyGguf()) ||
                   std::find(p.ggufTypes.begin(), p.ggufTypes.end(), s.weights.id) !=
                       p.ggufTypes.end();
    return false;
}

bool hasNoteWith(const LaunchCommand& c, const std::string& words)
{
    for (const std::string& n : c.notes)
        if (n.find(words) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestLaunch : public QObject
{
    Q_OBJECT

private slots:
    void vllmTensorParallelFp8Cache()
    {
        const LaunchCommand c = launchCommand(scenarioFrom({{"engine", "vllm"},
                                                            {"gpus", "2"},
                                                            {"context", "32768"},
                                                            {"kv-dtype", "fp8"},
                                                            {"gpu-mem-util", "0.85"}}));
        QCOMPARE(c.language, std::string("sh"));
        QCOMPARE(c.text, std::string("vllm serve meta-llama/Llama-2-7b-hf \\\n"
                                     "  --tensor-parallel-size 2 \\\n"
                                     "  --max-model-len 32768 \\\n"
                                     "  --gpu-memory-utilization 0.85 \\\n"
                                     "  --dtype float16 \\\n"
                                     "  --kv-cache-dtype fp8"));
        QVERIFY(c.notes.empty());
        QVERIFY(c.source.find("docs.vllm.ai") != std::string::npos);
    }

    void vllmStatesOnlyWhatDiffersFromItsDefaults()
    {
        // The engine's own default utilization is always stated (the figure depends on it);
        // batch limits and the block size only when the scenario changes them.
        const LaunchCommand plain = launchCommand(scenarioFrom({{"engine", "vllm"}}));
        QCOMPARE(
            flagsOf(plain.text),
            (std::vector<std::string>{"--max-model-len", "--gpu-memory-utilization", "--dtype"}));
        const LaunchCommand tuned = launchCommand(scenarioFrom({{"engine", "vllm"},
                                                                {"max-num-seqs", "8"},
                                                                {"max-num-batched-tokens", "4096"},
                                                                {"block-size", "32"},
                                                                {"enforce-eager", "on"},
                                                                {"engine-version", "0.8.2"},
                                                                {"vllm-use-v1", "off"}}));
        QVERIFY(tuned.text.rfind("VLLM_USE_V1=0 vllm serve ", 0) == 0);
        for (const char* part : {"--max-num-seqs 8", "--max-num-batched-tokens 4096",
                                 "--block-size 32", "--enforce-eager"})
            QVERIFY2(tuned.text.find(part) != std::string::npos, part);
        QVERIFY(hasNoteWith(tuned, "vLLM 0.8.2"));
        // The prefix cache is named only against the release's default: on in V1, off in V0.
        QVERIFY(flagsOf(launchCommand(scenarioFrom({{"engine", "vllm"}, {"prefix-caching", "on"}}))
                            .text) == flagsOf(plain.text));
        QVERIFY(launchCommand(scenarioFrom({{"engine", "vllm"}, {"prefix-caching", "off"}}))
                    .text.find("--no-enable-prefix-caching") != std::string::npos);
        QVERIFY(launchCommand(scenarioFrom({{"engine", "vllm"},
                                            {"engine-version", "0.6.4"},
                                            {"prefix-caching", "on"}}))
                    .text.find("--enable-prefix-caching") != std::string::npos);
        QVERIFY(launchCommand(scenarioFrom({{"engine", "tgi"}, {"prefix-caching", "off"}}))
                    .text.rfind("PREFIX_CACHING=0 text-generation-launcher", 0) == 0);
        // MTP drafting: vLLM's speculative config, which parses as its JSON option.
        const LaunchCommand mtp = launchCommand(scenarioFrom({{"model", "deepseek-v3"},
                                                              {"weights", "fp8"},
                                                              {"gpu", "h200"},
                                                              {"gpus", "8"},
                                                              {"engine", "vllm"},
                                                              {"mtp", "on"},
                                                              {"speculative-tokens", "2"}}));
        QVERIFY2(mtp.text.find("--speculative-config '{\"method\": \"mtp\", "
                               "\"num_speculative_tokens\": 2}'") != std::string::npos,
                 mtp.text.c_str());
        const std::string problem = test::argumentProblem(test::engineArguments("vllm"), mtp.text);
        QVERIFY2(problem.empty(), problem.c_str());
        // Replicas: vLLM's data parallel in one node, copies of the command elsewhere.
        QVERIFY(launchCommand(scenarioFrom({{"engine", "vllm"}, {"replicas", "2"}}))
                    .text.find("--data-parallel-size 2") != std::string::npos);
        QVERIFY(hasNoteWith(launchCommand(scenarioFrom({{"engine", "tgi"}, {"replicas", "2"}})),
                            "Run 2 copies"));
        // A draft model: its repository in vLLM's speculative config.
        const LaunchCommand draft = launchCommand(scenarioFrom({{"model", "llama-3.1-70b"},
                                                                {"gpus", "4"},
                                                                {"engine", "vllm"},
                                                                {"draft-model", "llama-3.1-8b"}}));
        QVERIFY2(draft.text.find("\"method\": \"draft_model\", \"model\": "
                                 "\"meta-llama/Llama-3.1-8B\"") != std::string::npos,
                 draft.text.c_str());
        QVERIFY(test::argumentProblem(test::engineArguments("vllm"), draft.text).empty());
        // LoRA: the slots and their rank, the default rank unstated.
        const LaunchCommand lora =
            launchCommand(scenarioFrom({{"engine", "vllm"}, {"max-loras", "8"}}));
        QVERIFY(lora.text.find("--enable-lora --max-loras 8") != std::string::npos);
        QVERIFY(lora.text.find("--max-lora-rank") == std::string::npos);
        QVERIFY(hasNoteWith(lora, "--lora-modules"));
        QVERIFY(launchCommand(
                    scenarioFrom({{"engine", "vllm"}, {"max-loras", "8"}, {"max-lora-rank", "64"}}))
                    .text.find("--max-lora-rank 64") != std::string::npos);
    }

    void vllmRefusesToInventFlags()
    {
        const LaunchCommand c = launchCommand(
            scenarioFrom({{"engine", "vllm"}, {"kv-dtype", "q4_0"}, {"kv-placement", "cpu"}}));
        QVERIFY(c.text.find("--kv-cache-dtype") == std::string::npos);
        QVERIFY(hasNoteWith(c, "no Q4_0") || hasNoteWith(c, "no q4_0") || c.notes.size() >= 2);
        QVERIFY(hasNoteWith(c, "KV placement \"cpu\""));
        const LaunchCommand awq = launchCommand(scenarioFrom(
            {{"model", "llama-3.1-70b"}, {"engine", "vllm"}, {"weights", "awq-int4"}}));
        QVERIFY(awq.text.find("--quantization") == std::string::npos);
        QVERIFY(hasNoteWith(awq, "quantization_config"));
        const LaunchCommand nf4 =
            launchCommand(scenarioFrom({{"engine", "vllm"}, {"weights", "nf4"}}));
        QVERIFY(nf4.text.find("--quantization bitsandbytes") != std::string::npos);
    }

    void llamaCppSlotsShareTheContext()
    {
        const LaunchCommand c =
            launchCommand(scenarioFrom({{"engine", "llamacpp"},
                                        {"weights", "q4_k_m"},
                                        {"checkpoint", "llama-2-7b-Q4_K_M.gguf"},
                                        {"batch", "4"},
                                        {"context", "8192"},
                                        {"kv-dtype", "q8_0"},
                                        {"kv-placement", "cpu"},
                                        {"n-gpu-layers", "20"}}));
        // n_ctx is split between the -np slots: 4 x 8,192 = 32,768.
        QCOMPARE(c.text, std::string("llama-server -m llama-2-7b-Q4_K_M.gguf \\\n"
                                     "  -c 32768 \\\n"
                                     "  -np 4 \\\n"
                                     "  -ngl 20 \\\n"
                                     "  -ctk q8_0 -ctv q8_0 \\\n"
                                     "  --flash-attn on \\\n"
                                     "  -nkvo"));
        const LaunchCommand all = launchCommand(scenarioFrom({{"engine", "llamacpp"},
                                                              {"gpus", "2"},
                                                              {"ubatch", "4096"},
                                                              {"checkpoint", "/m/f16.gguf"}}));
        for (const char* part : {"-ngl 999", "--split-mode layer", "-b 4096", "-ub 4096"})
            QVERIFY2(all.text.find(part) != std::string::npos, part);
    }

    void transformersLines()
    {
        const LaunchCommand c = launchCommand(scenarioFrom({{"engine", "hf-static"},
                                                            {"weights", "nf4"},
                                                            {"kv-placement", "cpu"},
                                                            {"context", "4096"},
                                                            {"batch", "2"}}));
        QCOMPARE(c.language, std::string("python"));
        for (const char* part :
             {"from transformers import AutoModelForCausalLM, AutoTokenizer, BitsAndBytesConfig",
              "model_id = \"meta-llama/Llama-2-7b-hf\"",
              "BitsAndBytesConfig(load_in_4bit=True, bnb_4bit_quant_type=\"nf4\"",
              "device_map=\"cuda\"", "prompts = [\"...\"] * 2",
              "max_length=4096, cache_implementation=\"offloaded_static\")"})
            QVERIFY2(c.text.find(part) != std::string::npos, part);
        const LaunchCommand dynamic = launchCommand(
            scenarioFrom({{"engine", "hf"}, {"offload-weights", "on"}, {"kv-dtype", "q4_0"}}));
        QVERIFY(dynamic.text.find("device_map=\"auto\"") != std::string::npos);
        QVERIFY(dynamic.text.find("cache_implementation=\"quantized\", cache_config={\"backend\": "
                                  "\"quanto\", \"nbits\": 4}") != std::string::npos);
    }

    // Every engine x weight format x KV dtype x layout x KV placement x model: the command
    // parses against the engine's argument list read from its source, and names a checkpoint in
    // the chosen weights; or there is no command and a refusal says why.
    void everyCommandParsesAgainstTheEnginesArguments()
    {
        const std::map<EngineFamily, nlohmann::json> specs{
            {EngineFamily::Vllm, test::engineArguments("vllm")},
            {EngineFamily::LlamaCpp, test::engineArguments("llamacpp")},
            {EngineFamily::Tgi, test::engineArguments("tgi")}};
        int commands = 0;
        int parsed = 0;
        int refusals = 0;
        for (const char* model : {"llama-3.1-70b", "llama-2-7b", "gpt-oss-20b", "qwen2.5-7b"})
            for (const EngineProfile& engine : test::catalog().engines)
                for (const WeightFormat& w : test::catalog().weightFormats)
                    for (const KvDtype& kv : test::catalog().kvDtypes)
                        for (const std::string layout : {"1", "2", "2 layer", "16 in 2 nodes"})
                            for (const char* placement : {"gpu", "cpu"}) {
                                Scenario s = scenarioFrom({{"model", model}});
                                s.engine = engine;
                                s.weights = w;
                                s.kvDtype = kv;
                                s.gpuCount = std::stoi(layout);
                                s.engine.layerSplit = layout.ends_with("layer");
                                s.nodes = layout.ends_with("nodes") ? 2 : 1;
                                if (s.nodes > 1 && !engineModule(engine).spansNodes())
                                    continue; // validate() refuses it before any command
                                s.nodeLink = *test::catalog().nodeLink("ib-ndr");
                                s.kvPlacement =
                                    placement[0] == 'c' ? KvPlacement::CpuRam : KvPlacement::Gpu;
                                // and the prefix cache the other way round from the default
                                if (placement[0] == 'c') {
                                    s.prefixCaching = !engine.prefixCache.onByDefault;
                                    s.replicas = 2;
                                }
                                // and llama.cpp's flash attention turned off where it may be
                                if (placement[0] == 'c' &&
                                    engine.family == EngineFamily::LlamaCpp &&
                                    kv.bitsPerElement >= 16)
                                    s.flashAttention = false;
                                // and LoRA slots where kvscope models them
                                if (placement[0] == 'c' && engineModule(engine).servesLora() &&
                                    !s.model.isMoe())
                                    s.lora = {4, 32, s.gpuCount > 1};
                                const LaunchCommand c = launchCommand(s);
                                const std::string where = std::string(model) + " " + engine.id +
                                                          " " + w.id + " " + kv.id + " " + layout +
                                                          " " + placement;
                                QVERIFY2(c.text.empty() != c.refusal.empty(), where.c_str());
                                if (!c.refusal.empty()) {
                                    ++refusals;
                                    continue;
                                }
                                ++commands;
                                QVERIFY2(namesAcheckpointInItsWeights(s, c), where.c_str());
                                if (!specs.count(engine.family))
                                    continue; // transformers: Python, not a command line
                                ++parsed;
                                const std::string problem =
                                    test::argumentProblem(specs.at(engine.family), c.text);
                                QVERIFY2(problem.empty(), (where + ": " + problem).c_str());
                            }
        // Both kinds occur: llama-3.1-70b has published GPTQ, AWQ, FP8, W8A8 and GGUF weights.
        qInfo("%d commands written, %d of them command lines parsed; %d refusals", commands, parsed,
              refusals);
        QVERIFY(commands > 2000);
        QVERIFY(refusals > 0);
    }

    void theCheckpointIsInTheChosenWeights()
    {
        const LaunchCommand gptq = launchCommand(scenarioFrom({{"model", "llama-3.1-70b"},
                                                               {"gpu", "rtx-3090"},
                                                               {"gpus", "4"},
                                                               {"engine", "vllm"},
                                                               {"weights", "gptq-int4"}}));
        QVERIFY2(gptq.text.rfind("vllm serve hugging-quants/Meta-Llama-3.1-70B-Instruct-GPTQ-INT4 "
                                 "\\\n",
                                 0) == 0,
                 gptq.text.c_str());
        const LaunchCommand gguf = launchCommand(scenarioFrom(
            {{"model", "llama-3.1-70b"}, {"engine", "llamacpp"}, {"weights", "q4_k_m"}}));
        QVERIFY(gguf.text.rfind(
                    "llama-server -hf bartowski/Meta-Llama-3.1-70B-Instruct-GGUF:Q4_K_M \\\n", 0) ==
                0);
        // gpt-oss's own repository is MXFP4 safetensors; llama.cpp takes ggml-org's GGUF of it.
        const LaunchCommand oss = launchCommand(scenarioFrom(
            {{"model", "gpt-oss-120b"}, {"engine", "llamacpp"}, {"weights", "mxfp4-moe"}}));
        QVERIFY2(oss.text.rfind("llama-server -hf ggml-org/gpt-oss-120b-GGUF \\\n", 0) == 0,
                 oss.text.c_str());
        const LaunchCommand ossVllm = launchCommand(scenarioFrom(
            {{"model", "gpt-oss-120b"}, {"engine", "vllm"}, {"weights", "mxfp4-moe"}}));
        QVERIFY(ossVllm.text.rfind("vllm serve openai/gpt-oss-120b \\\n", 0) == 0);
        // None listed: no command, and the refusal names the way out.
        const LaunchCommand none =
            launchCommand(scenarioFrom({{"engine", "vllm"}, {"weights", "awq-int4"}}));
        QVERIFY(none.text.empty());
        QVERIFY(none.refusal.find("--checkpoint") != std::string::npos);
        QCOMPARE(none.refusalKind, LaunchRefusal::NoCheckpoint);
        const LaunchCommand own = launchCommand(scenarioFrom(
            {{"engine", "vllm"}, {"weights", "awq-int4"}, {"checkpoint", "/srv/llama-2-7b-awq"}}));
        QVERIFY(own.text.rfind("vllm serve /srv/llama-2-7b-awq \\\n", 0) == 0);
        // The engine loading no such weights refuses as calc's caution says.
        const LaunchCommand lacks =
            launchCommand(scenarioFrom({{"engine", "llamacpp"}, {"weights", "awq-int4"}}));
        QVERIFY(lacks.refusal.find("does not load weights in awq-int4") != std::string::npos);
        QCOMPARE(lacks.refusalKind, LaunchRefusal::Weights);
        QCOMPARE(own.refusalKind, LaunchRefusal::None);
    }

    // checkpoints.json read entry by entry: a bad entry is named in the catalog's problems with
    // its field, and the others still load; never a crash.
    void hostileCheckpointFiles_data()
    {
        QTest::addColumn<QString>("content");
        QTest::addColumn<QString>("problem");
        const QString ok = QStringLiteral(R"({"model": "llama-2-7b", "format": "gptq-int4", )"
                                          R"("repo": "a/b", "source": "s"})");
        QTest::addRow("not JSON") << QStringLiteral("{\"checkpoints\": [") << QStringLiteral("");
        QTest::addRow("not an array") << QStringLiteral(R"({"checkpoints": 3})")
                                      << QStringLiteral("checkpoints must be an array");
        QTest::addRow("no repo")
            << QStringLiteral(
                   R"({"checkpoints": [{"model": "llama-2-7b", "format": "gptq-int4", "source": "s"}]})")
            << QStringLiteral("repo");
        QTest::addRow("unknown model")
            << QString(ok)
                   .replace(QStringLiteral("llama-2-7b"), QStringLiteral("nope"))
                   .prepend(QStringLiteral("{\"checkpoints\": ["))
                   .append(QStringLiteral("]}"))
            << QStringLiteral("no catalog model \"nope\"");
        QTest::addRow("GGUF type as a format")
            << QString(ok)
                   .replace(QStringLiteral("gptq-int4"), QStringLiteral("q4_k_m"))
                   .prepend(QStringLiteral("{\"checkpoints\": ["))
                   .append(QStringLiteral("]}"))
            << QStringLiteral("list it under format \"gguf\"");
        QTest::addRow("GGUF without types")
            << QString(ok)
                   .replace(QStringLiteral("gptq-int4"), QStringLiteral("gguf"))
                   .prepend(QStringLiteral("{\"checkpoints\": ["))
                   .append(QStringLiteral("]}"))
            << QStringLiteral("gguf_types");
        QTest::addRow("types not strings")
            << QStringLiteral(R"({"checkpoints": [{"model": "llama-2-7b", "format": "gguf", )"
                              R"("repo": "a/b", "source": "s", "gguf_types": [4]}]})")
            << QStringLiteral("gguf_types");
    }

    void hostileCheckpointFiles()
    {
        QFETCH(QString, content);
        QFETCH(QString, problem);
        const auto [c, problems] =
            test::catalogWithUserFile(QStringLiteral("checkpoints.json"), content);
        QCOMPARE(problems.size(), 1);
        QVERIFY2(problems[0].contains(problem), qPrintable(problems[0]));
        // The shipped list still loads beside it.
        QVERIFY(!c.model("llama-3.1-70b")->checkpoints.empty());
    }

    void importedModelsLaunchFromTheirDirectory()
    {
        Scenario s = scenarioFrom({{"engine", "vllm"}});
        s.model.hfRepo.clear();
        s.model.imported = true;
        s.model.source = "/srv/models/my model/config.json";
        QVERIFY(launchCommand(s).text.rfind("vllm serve '/srv/models/my model' \\\n", 0) == 0);
    }

    void shellWordsReadBackUnchanged()
    {
        QCOMPARE(shellWord("meta-llama/Llama-2-7b-hf"), std::string("meta-llama/Llama-2-7b-hf"));
        QCOMPARE(shellWord("a b"), std::string("'a b'"));
        QCOMPARE(shellWord("it's"), std::string("'it'\\''s'"));
        QCOMPARE(shellWord("$(rm -rf x)"), std::string("'$(rm -rf x)'"));
        QCOMPARE(shellWord(""), std::string("''"));
    }

    void cliPrintsTheCommandAndItsNotes()
    {
        const CliResult text = runCli({"launch", "--engine", "vllm", "--kv-dtype", "q8_0"});
        QCOMPARE(text.code, 0);
        QVERIFY(text.out.rfind("vllm serve meta-llama/Llama-2-7b-hf \\\n", 0) == 0);
        QVERIFY(text.out.find("\n# vLLM's KV cache is the model's dtype or fp8") !=
                std::string::npos);
        QVERIFY(text.out.find("# Options as documented in https://docs.vllm.ai/") !=
                std::string::npos);

        const CliResult json = runCli({"launch", "--engine", "llamacpp", "--model", "llama-3.1-70b",
                                       "--weights", "q4_k_m", "--json"});
        QCOMPARE(json.code, 0);
        const auto j = nlohmann::json::parse(json.out);
        QCOMPARE(j.at("engine").get<std::string>(), std::string("llamacpp"));
        QCOMPARE(j.at("language").get<std::string>(), std::string("sh"));
        QVERIFY(j.at("command").get<std::string>().rfind("llama-server -hf ", 0) == 0);
        QVERIFY(j.at("notes").is_array());

        const CliResult bad = runCli({"launch", "--context", "0"});
        QCOMPARE(bad.code, 2);
        QVERIFY(bad.err.find("context") != std::string::npos);
        QVERIFY(bad.out.empty());
        QCOMPARE(runCli({"launch", "extra"}).code, 2);
    }
};

KVSCOPE_TEST_SUITE(TestLaunch, "tst_launch", kvscope::test::SuiteApp::Core)
#include "tst_launch.moc"
