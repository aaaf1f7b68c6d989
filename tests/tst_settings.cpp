// SPDX-License-Identifier: GPL-3.0-or-later
// The settings registry is the one door: the README's option table, --help and the man page list
// exactly its flags; every flag is accepted by calc; a value outside a setting's range is refused
// with the same words by the CLI and by scenario files; and a vLLM validation case's options,
// given to `kvscope-cli calc`, reproduce the figure `validate` computes for it.
#include "cli.h"
#include "cli_runner.h"
#include "kvscope/catalog/catalog.h"
#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/settings/scenario_file.h"
#include "kvscope/settings/settings_registry.h"
#include "kvscope/validation/validation_set.h"
#include "suite_registry.h"
#include "testutils.h"

#include <QCoreApplication>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>

#include <cmath>

#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

using namespace kvscope;

namespace {

using test::CliResult;
using test::runCli;

std::set<QString> registryFlags()
{
    std::set<QString> flags{QStringLiteral("scenario")};
    for (const Setting& s : settingsRegistry()) {
        flags.insert(QString::fromLatin1(s.flag));
        for (const char* alias : s.flagAliases)
            flags.insert(QString::fromLatin1(alias));
    }
    return flags;
}

QString readSourceFile(const char* relative)
{
    QFile file(QStringLiteral(KVSCOPE_TEST_DATA_DIR "/../") + QLatin1String(relative));
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// A value each setting accepts, and the options it needs beside it.
std::vector<std::string> acceptedArgs(const Setting& s)
{
    const std::string flag = std::string("--") + s.flag;
    const std::string id = s.id;
    if (id == "engine_version")
        return {"--engine", "vllm", flag, "0.6.4"};
    if (id == "vllm_use_v1")
        return {"--engine", "vllm", "--engine-version", "0.8.2", flag, "off"};
    if (id == "preemption_mode") // vLLM's V0 engine alone swaps
        return {"--engine", "vllm", "--engine-version", "0.6.4", flag, "swap"};
    if (id == "max_loras" || id == "max_lora_rank" || id == "fully_sharded_loras") // vLLM's
        return {"--engine", "vllm", "--max-loras",
                "2",        flag,   id == "max_loras" ? "4" : id == "max_lora_rank" ? "64" : "on"};
    if (id == "draft_model") // a smaller model of the same vocabulary, on vLLM
        return {"--model", "llama-3.1-70b", "--engine", "vllm", flag, "llama-3.1-8b"};
    if (id == "eagle") // a model of plain attention, on vLLM
        return {"--engine", "vllm", flag, "eagle3"};
    if (id == "eagle_topk" || id == "verify_tokens") // SGLang's EAGLE tree
        return {"--engine", "sglang",       "--eagle", "eagle3",          "--speculative-tokens",
                "3",        "--eagle-topk", "2",       "--verify-tokens", "6"};
    if (id == "mtp") // a model with MTP layers, on vLLM
        return {"--model", "deepseek-v3", "--engine", "vllm", flag, "on"};
    if (id == "prefix_caching") // transformers has no prefix cache
        return {"--engine", "vllm", flag, "off"};
    if (id == "flash_attention") // llama.cpp's switch
        return {"--engine", "llamacpp", flag, "off"};
    if (id == "shared_prefix_tokens") // part of the prompt
        return {"--prompt-tokens", "4096", flag, "2048"};
    if (id == "model")
        return {flag, "llama-3.1-8b"};
    if (id == "gpu")
        return {flag, "h100-sxm"};
    if (id == "engine")
        return {flag, "vllm"};
    if (id == "weights")
        return {flag, "q4_k_m"};
    if (id == "kv_dtype")
        return {flag, "fp8"};
    if (id == "nvme")
        return {flag, "nvme-gen5"};
    if (id == "pcie") // a link no faster than the GPU's own (an H100 SXM5 is PCIe 5.0)
        return {"--gpu", "h100-sxm", flag, "5"};
    if (id == "sata")
        return {flag, "sata"};
    if (id == "nodes") // GPUs spread evenly over nodes, under an engine that spans machines
        return {"--engine", "vllm", "--gpus", "256", flag, "128"};
    if (id == "node_link")
        return {"--engine", "vllm", "--gpus", "16", "--nodes", "2", flag, "roce-400g"};
    if (id == "node_split") // over several nodes
        return {"--engine", "sglang", "--gpus", "16", "--nodes", "2", flag, "tensor"};
    if (id == "moe_a2a_backend") // SGLang's expert parallel
        return {"--engine",          "sglang", "--model", "qwen3-30b-a3b", "--gpus", "4",
                "--expert-parallel", "on",     flag,      "deepep"};
    if (id == "expert_parallel") // a MoE model over several GPUs
        return {"--engine", "vllm", "--model", "qwen3-30b-a3b", "--gpus", "4", flag, "on"};
    if (id == "attention_ranks") // ranks of data-parallel attention dividing the GPUs
        return {"--engine", "sglang", "--gpus", "8", "--dp-attention", "on", flag, "2"};
    if (id == "dp_attention") // SGLang's, over several GPUs
        return {"--engine", "sglang", "--gpus", "8", flag, "on"};
    if (id == "host_memory")
        return {flag, "ddr5-4800-dual"};
    if (id == "n_cpu_moe" || id == "cpu_moe") // llama.cpp's own, refused by other engines
        return {"--engine",      "llamacpp", "--model",
                "qwen3-30b-a3b", flag,       s.type == SettingType::Switch ? "on" : "100000"};
    if (id == "currency")
        return {flag, "JPY", "--usd-rate", "150"};
    switch (s.type) {
    case SettingType::Integer:
        return {flag, std::to_string(int64_t(s.hi))};
    case SettingType::Real:
        return {flag, std::to_string(s.hi)};
    case SettingType::Switch:
        return {flag, "on"};
    case SettingType::Choice:
        return {flag, s.choices.back()};
    case SettingType::Entry:
        break;
    }
    return {};
}

} // namespace

class TestSettings : public QObject
{
    Q_OBJECT
private slots:
    void readmeTableIsTheRegistry();
    void helpListsTheRegistry();
    void manPageListsTheRegistry();
    void calcAcceptsEveryFlag();
    void outOfRangeIsRefusedAlikeEverywhere_data();
    void outOfRangeIsRefusedAlikeEverywhere();
    void unknownReleaseNamesTheKnownOnes();
    void calcReproducesEveryVllmValidationCase();
    void validationCasesStateRegistrySettingsByEngineName();
};

void TestSettings::readmeTableIsTheRegistry()
{
    const QString readme = readSourceFile("README.md");
    const qsizetype begin = readme.indexOf(QStringLiteral("<!-- settings:begin -->"));
    const qsizetype end = readme.indexOf(QStringLiteral("<!-- settings:end -->"));
    QVERIFY(begin >= 0 && end > begin);
    std::set<QString> listed{QStringLiteral("scenario")}; // named in the sentence above the table
    static const QRegularExpression flag(QStringLiteral("`--([a-z0-9-]+)"));
    for (const QString& line : readme.mid(begin, end - begin).split(QLatin1Char('\n'))) {
        if (!line.startsWith(QLatin1String("| `--")))
            continue;
        const QString first = line.section(QStringLiteral(" | "), 0, 0);
        for (auto m = flag.globalMatch(first); m.hasNext();)
            listed.insert(m.next().captured(1));
    }
    QCOMPARE(listed, registryFlags());
    // Each row's range is the registry's own words.
    for (const Setting& s : settingsRegistry())
        QVERIFY2(readme.contains(QString::fromStdString(acceptedText(s))
                                     .replace(QLatin1Char('|'), QStringLiteral("\\|"))),
                 s.id);
}

void TestSettings::helpListsTheRegistry()
{
    const CliResult r = runCli({"--help"});
    QCOMPARE(r.code, cli::exitOk);
    std::set<QString> listed;
    static const QRegularExpression option(QStringLiteral("^  --([a-z0-9-]+) "),
                                           QRegularExpression::MultilineOption);
    const QString help = QString::fromStdString(r.out);
    const qsizetype from = help.indexOf(QStringLiteral("Scenario options"));
    const qsizetype to = help.indexOf(QStringLiteral("Other options"));
    QVERIFY(from > 0 && to > from);
    for (auto m = option.globalMatch(help.mid(from, to - from)); m.hasNext();)
        listed.insert(m.next().captured(1));
    QCOMPARE(listed, registryFlags());
}

void TestSettings::manPageListsTheRegistry()
{
    const QString man = readSourceFile("packaging/man/kvscope-cli.1");
    QVERIFY(!man.isEmpty());
    for (const QString& flag : registryFlags()) {
        const QString escaped = QStringLiteral("\\-\\-") +
                                QString(flag).replace(QLatin1Char('-'), QStringLiteral("\\-"));
        QVERIFY2(man.contains(escaped + QLatin1Char(' ')) ||
                     man.contains(escaped + QLatin1Char('"')),
                 qPrintable(flag));
    }
}

void TestSettings::calcAcceptsEveryFlag()
{
    for (const Setting& s : settingsRegistry()) {
        std::vector<std::string> args{"calc", "--json"};
        for (const std::string& a : acceptedArgs(s))
            args.push_back(a);
        const CliResult r = runCli(args);
        QVERIFY2(r.code == cli::exitOk, (std::string(s.id) + ": " + r.err).c_str());
        for (const char* alias : s.flagAliases) {
            args.back() = "512";
            args[args.size() - 2] = std::string("--") + alias;
            QVERIFY2(runCli(args).code == cli::exitOk, alias);
        }
    }
}

void TestSettings::outOfRangeIsRefusedAlikeEverywhere_data()
{
    QTest::addColumn<QString>("id");
    for (const Setting& s : settingsRegistry())
        if (s.type == SettingType::Integer || s.type == SettingType::Real)
            QTest::addRow("%s", s.id) << QString::fromLatin1(s.id);
}

void TestSettings::outOfRangeIsRefusedAlikeEverywhere()
{
    QFETCH(QString, id);
    const Setting* s = settingById(id.toStdString());
    QVERIFY(s);
    const double tooHigh = s->hi + (s->type == SettingType::Integer ? 1 : s->hi + 1);
    const std::string text = s->type == SettingType::Integer ? std::to_string(int64_t(tooHigh))
                                                             : std::to_string(tooHigh);
    const std::string accepted = acceptedText(*s);
    const CliResult cli = runCli({"calc", std::string("--") + s->flag, text});
    QCOMPARE(cli.code, cli::exitBadInput);
    QCOMPARE(QString::fromStdString(cli.err),
             QStringLiteral("kvscope-cli: --%1: got %2; accepted: %3\n")
                 .arg(QLatin1String(s->flag), QString::fromStdString(text),
                      QString::fromStdString(accepted)));

    nlohmann::json file{{"kvscope_scenario", 1}};
    if (*s->fileSection)
        file[s->fileSection][s->id] = tooHigh;
    else if (s->type == SettingType::Integer)
        file[s->id] = int64_t(tooHigh);
    else
        file[s->id] = tooHigh;
    const auto loaded = scenarioFromJson(file, kvscope::test::catalog());
    QVERIFY(!loaded);
    QCOMPARE(loaded.error().accepted, accepted);

    // The scenario checks every evaluation runs use the same range.
    auto scenario = defaultScenario(kvscope::test::catalog());
    QVERIFY(scenario);
    QVERIFY(!checkSetting(s->id, (s->lo + s->hi) / 2));
    const auto error = checkSetting(s->id, tooHigh);
    QVERIFY(error);
    QCOMPARE(error->accepted, accepted);

    // A value that reached the scenario some other way is refused by the evaluation itself.
    QVERIFY(s->number && !s->current);
    const SettingValue high =
        s->type == SettingType::Integer ? SettingValue(int64_t(tooHigh)) : SettingValue(tooHigh);
    Scenario changed = *scenario;
    QVERIFY(!s->apply(changed, high, kvscope::test::catalog()));
    QCOMPARE(s->number(changed), std::optional<double>(double(tooHigh)));
    const auto refused = validate(changed);
    QVERIFY(refused);
    QCOMPARE(QString::fromStdString(refused->field), id);
    QCOMPARE(refused->accepted, accepted);

    // validate() reads every number in place (no call per setting), and refuses below the range
    // and a NaN just as it refuses above it.
    QVERIFY(s->field.kind != NumberField::Kind::None);
    const double tooLow = s->type == SettingType::Integer ? s->lo - 1
                          : s->loOpen                     ? s->lo
                                                          : s->lo - (std::abs(s->lo) + 1);
    const SettingValue low =
        s->type == SettingType::Integer ? SettingValue(int64_t(tooLow)) : SettingValue(tooLow);
    std::vector<SettingValue> refusedValues{low};
    if (s->type == SettingType::Real)
        refusedValues.emplace_back(std::nan(""));
    for (const SettingValue& value : refusedValues) {
        Scenario below = *scenario;
        QVERIFY(!s->apply(below, value, kvscope::test::catalog()));
        const auto lowRefused = validate(below);
        QVERIFY2(lowRefused, settingValueText(value).c_str());
        QCOMPARE(QString::fromStdString(lowRefused->field), id);
    }
    Scenario inside = *scenario;
    const double middle = (s->lo + s->hi) / 2;
    QVERIFY(!s->apply(inside,
                      s->type == SettingType::Integer ? SettingValue(int64_t(middle))
                                                      : SettingValue(middle),
                      kvscope::test::catalog()));
    const auto insideError = validate(inside);
    // (Another check may still refuse it, e.g. --n-cpu-moe with an engine other than llama.cpp.)
    QVERIFY2(!insideError || insideError->accepted != accepted, id.toLatin1().constData());
}

void TestSettings::unknownReleaseNamesTheKnownOnes()
{
    const CliResult r = runCli({"calc", "--engine", "vllm", "--engine-version", "9.9.9"});
    QCOMPARE(r.code, cli::exitBadInput);
    QVERIFY2(r.err.find("--engine-version: got 9.9.9; accepted: a vLLM release from 0.2.0 to") !=
                 std::string::npos,
             r.err.c_str());
    QVERIFY(r.err.find("0.21.0") != std::string::npos); // the releases where rules change
    const CliResult v1 =
        runCli({"calc", "--engine", "vllm", "--engine-version", "0.6.4", "--vllm-use-v1", "on"});
    QCOMPARE(v1.code, cli::exitBadInput);
    QVERIFY2(v1.err.find("--vllm-use-v1") != std::string::npos, v1.err.c_str());
}

void TestSettings::calcReproducesEveryVllmValidationCase()
{
    const auto dir = findValidationDir(defaultDataDirs(""));
    QVERIFY(dir);
    const auto cases = loadValidationDir(*dir);
    QVERIFY(cases);
    int compared = 0;
    for (const ValidationCase& v : *cases) {
        if (v.engine != "vllm" || v.kind != ValidationKind::Capacity) // memory figures only
            continue;
        const ValidationResult expected = validateCase(v, kvscope::test::catalog());
        if (expected.skipped())
            continue;
        const CaseScenario cs = scenarioForCase(v, kvscope::test::catalog());
        std::vector<std::string> args{"calc", "--json"};
        for (const auto& [flag, value] : cs.options) {
            args.push_back("--" + flag);
            args.push_back(value);
        }
        const CliResult r = runCli(args);
        QVERIFY2(r.code == cli::exitOk, (v.id + ": " + r.err).c_str());
        const auto j = nlohmann::json::parse(r.out);
        double figure = 0;
        switch (v.figure) {
        case MeasuredFigure::KvCacheTokens:
        case MeasuredFigure::GpuBlocks:
            figure = j["engine"]["kv_cache_tokens"].get<double>();
            break;
        case MeasuredFigure::AvailableKvGiB:
            figure =
                j["tokens_fit"]["free_for_kv_per_gpu_bytes"].get<double>() / (1024.0 * 1024 * 1024);
            break;
        default:
            QFAIL(("unexpected vLLM figure in " + v.id).c_str());
        }
        // calc --json prints whole bytes: a GiB figure may differ by under one byte.
        const double tolerance = v.figure == MeasuredFigure::AvailableKvGiB ? 1.0 / (1 << 30) : 0;
        QVERIFY2(std::abs(figure - expected.predicted) <= tolerance,
                 (v.id + ": calc " + std::to_string(figure) + ", validate " +
                  std::to_string(expected.predicted))
                     .c_str());
        ++compared;
    }
    QVERIFY2(compared >= 40, std::to_string(compared).c_str()); // the set holds over 40 today
}

void TestSettings::validationCasesStateRegistrySettingsByEngineName()
{
    // A case may state any registry setting under the engine's own name (VLLM_USE_V1 here):
    // it reaches the scenario as that setting's option, in that setting's range.
    auto caseWith = [](const nlohmann::json& settings) {
        nlohmann::json c{{"id", "v0"},           {"kind", "capacity"},
                         {"engine", "vllm"},     {"model", "llama-3.1-8b"},
                         {"gpu", "a100-80gb"},   {"source", "test"},
                         {"settings", settings}, {"measured", {{"kv_cache_tokens", 100000}}}};
        return validationCasesFromJson(nlohmann::json::array({c}), "case.json");
    };
    const nlohmann::json base{{"gpu_memory_utilization", 0.9}, {"max_model_len", 8192}};
    nlohmann::json byName = base;
    byName["engine_version"] = "0.8.2";
    byName["VLLM_USE_V1"] = false;
    nlohmann::json byText = base;
    byText["engine_version"] = "v0.8.2 V0";
    const auto a = caseWith(byName);
    const auto b = caseWith(byText);
    QVERIFY(a && b);
    const CaseScenario sa = scenarioForCase(a->front(), kvscope::test::catalog());
    const CaseScenario sb = scenarioForCase(b->front(), kvscope::test::catalog());
    QVERIFY(sa.scenario && sb.scenario);
    QCOMPARE(sa.scenario->vllmUseV1, std::optional<bool>(false));
    QCOMPARE(sa.scenario->engine.profileTokensFloor, 2048); // the V0 rule applied
    QCOMPARE(validateCase(a->front(), kvscope::test::catalog()).predicted,
             validateCase(b->front(), kvscope::test::catalog()).predicted);

    nlohmann::json bad = base;
    bad["VLLM_USE_FLASHINFER_SAMPLER"] = "sometimes";
    const auto refused = caseWith(bad);
    QVERIFY(!refused);
    QCOMPARE(QString::fromStdString(refused.error().field),
             QStringLiteral("case.json: v0.settings.VLLM_USE_FLASHINFER_SAMPLER"));
    QCOMPARE(refused.error().accepted, std::string("on or off"));
}

KVSCOPE_TEST_SUITE(TestSettings, "tst_settings", kvscope::test::SuiteApp::Core)
#include "tst_settings.moc"
