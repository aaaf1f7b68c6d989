// SPDX-License-Identifier: GPL-3.0-or-later
// Launch commands: each engine module writes the command that runs a scenario with flags its
// engine documents, and says in a note what the engine cannot be told. Hand-checked commands,
// every engine x weight format x KV dtype against the documented flag lists, and the CLI door.
#include "cli.h"
#include "cli_runner.h"
#include "kvscope/engines/launch_command.h"
#include "kvscope/settings/scenario_options.h"
#include "suite_registry.h"
#include "testutils.h"

#include <QCoreApplication>
#include <QtTest>

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
    }

    void vllmRefusesToInventFlags()
    {
        const LaunchCommand c = launchCommand(
            scenarioFrom({{"engine", "vllm"}, {"kv-dtype", "q4_0"}, {"kv-placement", "cpu"}}));
        QVERIFY(c.text.find("--kv-cache-dtype") == std::string::npos);
        QVERIFY(hasNoteWith(c, "no Q4_0") || hasNoteWith(c, "no q4_0") || c.notes.size() >= 2);
        QVERIFY(hasNoteWith(c, "KV placement \"cpu\""));
        const LaunchCommand awq =
            launchCommand(scenarioFrom({{"engine", "vllm"}, {"weights", "awq-int4"}}));
        QVERIFY(awq.text.find("--quantization") == std::string::npos);
        QVERIFY(hasNoteWith(awq, "quantization_config"));
        const LaunchCommand nf4 =
            launchCommand(scenarioFrom({{"engine", "vllm"}, {"weights", "nf4"}}));
        QVERIFY(nf4.text.find("--quantization bitsandbytes") != std::string::npos);
    }

    void llamaCppSlotsShareTheContext()
    {
        const LaunchCommand c = launchCommand(scenarioFrom({{"engine", "llamacpp"},
                                                            {"weights", "q4_k_m"},
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
        const LaunchCommand all = launchCommand(
            scenarioFrom({{"engine", "llamacpp"}, {"gpus", "2"}, {"ubatch", "4096"}}));
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

    // Every engine, weight format and KV dtype: a command (or Python) is written, and only the
    // flags the engine documents appear in it.
    void everyCombinationUsesDocumentedFlags()
    {
        const std::set<std::string> vllmFlags{"--tensor-parallel-size",
                                              "--pipeline-parallel-size",
                                              "--max-model-len",
                                              "--gpu-memory-utilization",
                                              "--dtype",
                                              "--quantization",
                                              "--kv-cache-dtype",
                                              "--max-num-seqs",
                                              "--max-num-batched-tokens",
                                              "--block-size",
                                              "--enforce-eager"};
        const std::set<std::string> llamaFlags{"-m",           "-c",   "-np",  "-ngl",
                                               "--split-mode", "-ctk", "-ctv", "--flash-attn",
                                               "-nkvo",        "-b",   "-ub"};
        const std::set<std::string> tgiFlags{"--model-id",
                                             "--num-shard",
                                             "--max-total-tokens",
                                             "--max-batch-prefill-tokens",
                                             "--cuda-memory-fraction",
                                             "--dtype",
                                             "--quantize",
                                             "--kv-cache-dtype",
                                             "--max-concurrent-requests"};
        const std::set<std::string> llamaCacheTypes{"f32",  "f16",    "bf16", "q8_0", "q4_0",
                                                    "q4_1", "iq4_nl", "q5_0", "q5_1"};
        int commands = 0;
        for (const EngineProfile& engine : test::catalog().engines)
            for (const WeightFormat& w : test::catalog().weightFormats)
                for (const KvDtype& kv : test::catalog().kvDtypes) {
                    Scenario s = test::scenario();
                    s.engine = engine;
                    s.weights = w;
                    s.kvDtype = kv;
                    const LaunchCommand c = launchCommand(s);
                    const std::string where = engine.id + " " + w.id + " " + kv.id;
                    QVERIFY2(!c.text.empty() && !c.source.empty(), where.c_str());
                    ++commands;
                    if (engine.family == EngineFamily::Transformers)
                        continue;
                    const auto& allowed = engine.family == EngineFamily::Vllm  ? vllmFlags
                                          : engine.family == EngineFamily::Tgi ? tgiFlags
                                                                               : llamaFlags;
                    for (const std::string& f : flagsOf(c.text))
                        QVERIFY2(allowed.count(f), (where + ": " + f).c_str());
                    if (engine.family == EngineFamily::Vllm && kv.id != "fp8")
                        QVERIFY2(c.text.find("--kv-cache-dtype") == std::string::npos,
                                 where.c_str());
                    const auto ctk = c.text.find("-ctk ");
                    if (ctk != std::string::npos)
                        QVERIFY2(llamaCacheTypes.count(
                                     c.text.substr(ctk + 5, c.text.find(' ', ctk + 5) - ctk - 5)),
                                 where.c_str());
                    else if (engine.family == EngineFamily::LlamaCpp && kv.id != "fp16")
                        QVERIFY2(!c.notes.empty(), where.c_str());
                }
        QCOMPARE(commands,
                 int(test::catalog().engines.size() * test::catalog().weightFormats.size() *
                     test::catalog().kvDtypes.size()));
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

        const CliResult json = runCli({"launch", "--engine", "llamacpp", "--json"});
        QCOMPARE(json.code, 0);
        const auto j = nlohmann::json::parse(json.out);
        QCOMPARE(j.at("engine").get<std::string>(), std::string("llamacpp"));
        QCOMPARE(j.at("language").get<std::string>(), std::string("sh"));
        QVERIFY(j.at("command").get<std::string>().rfind("llama-server -m ", 0) == 0);
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
