// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include "cli_args.h"
#include "cli_commands.h"
#include "kvscope/formats/hub_id.h"
#include "kvscope/io/plan_json.h"
#include "kvscope/io/result_json.h"
#include "kvscope/io/serving_json.h"
#include "kvscope/planning/cautions.h"
#include "kvscope/planning/longest_context.h"
#include "kvscope/settings/scenario_options.h"
#include "kvscope/text/remedy_text.h"
#include "kvscope/text/text_summary.h"

#include <optional>
#include <ostream>

#include <nlohmann/json.hpp>

namespace kvscope::cli {

namespace {

constexpr const char* kCommands = "list, calc, compare, plan, matrix, sweep, launch, export, "
                                  "report, validate, calibrate or check-log (see --help)";

RenderCommand renderCommand = nullptr;
ModelResolver modelResolver = nullptr;
std::vector<std::string> renderChartIds;

// "vram|tokens|...", or "ID" in a build without the chart renderer.
std::string chartChoices()
{
    std::string choices;
    for (const std::string& id : renderChartIds)
        choices += (choices.empty() ? "" : "|") + id;
    return choices.empty() ? "ID" : choices;
}

// The synopsis of every command.
void printUsage(std::ostream& out)
{
    out << "kvscope-cli " KVSCOPE_VERSION " - LLM inference memory and bandwidth planner\n\n"
           "Usage:\n"
           "  kvscope-cli list models|gpus|quants|kv-dtypes|engines|settings [--json]\n"
           "  kvscope-cli calc [scenario options] [--json] [--si]\n"
           "  kvscope-cli compare A.kvscope.json B.kvscope.json [...] [--json|--csv] [--si]\n"
           "  kvscope-cli sweep --vary context|batch|vram --from A --to B --points N\n"
           "                    [scenario options] [--csv|--json]\n"
           "  kvscope-cli plan [scenario options] [--users N] [--objective cost|cost-per-million|\n"
           "                   gpus|speed] [--max-gpus-per-node N] [--max-nodes N]\n"
           "                   [--allow-engines A,B] [--allow-gpus A,B] [--min-weight-bits X]\n"
           "                   [--min-kv-bits X] [--rate R]\n"
           "                   [--class any|datacenter|workstation|consumer]\n"
           "                   [--limit N] [--csv|--json]\n"
           "  kvscope-cli matrix [scenario options] [--columns gpus|formats] [--models A,B]\n"
           "                     [--csv|--json]\n"
           "  kvscope-cli launch [scenario options] [--json]\n"
           "  kvscope-cli export --chart "
        << chartChoices()
        << " --format png|svg|pdf\n"
           "                     --out FILE [--width PX --height PX | --slide] [--compare "
           "FILE]...\n"
           "                     [scenario options]\n"
           "  kvscope-cli report --out FILE.pdf [--page a4|letter] [--compare FILE]...\n"
           "                     [scenario options]\n"
           "  kvscope-cli validate [FILES...] [--json] [--write-bands FILE]\n"
           "  kvscope-cli calibrate --tokens-per-s X | --kv-cache-tokens N [scenario options]\n"
           "                        [--save FILE] [--json]\n"
           "  kvscope-cli check-log FILE [scenario options] [--json] [--si] [--hub]\n"
           "                       [--save-profile NAME [--tokens-per-s X]]\n\n";
}

// What the commands beyond calc do, in a paragraph.
void printCommandNotes(std::ostream& out)
{
    out << "validate compares predictions with the public measurements in the data directory's\n"
           "validation/*.json (or FILES). calibrate fits hbm_efficiency to a measured decode "
           "speed,\n"
           "or the engine's runtime overhead to vLLM's logged \"GPU KV cache size\", and prints "
           "the\n"
           "prediction before and after; --save writes the calibrated scenario. calc also says "
           "whether\n"
           "the scenario runs and, if not, the remedies in the order to try them. compare prints "
           "the\n"
           "headline figures of two to five scenario files side by side, each against the first,\n"
           "and the inputs that differ (a file's pinned scenarios join it). plan searches every\n"
           "catalog GPU x count x engine x format x KV dtype for the model, context and users and\n"
           "ranks what runs and meets the targets (--min-tokens-per-s, --max-ttft-ms); matrix "
           "shows\n"
           "which models fit on which GPUs (or formats). launch prints the\n"
           "command that runs the scenario on its engine (vllm serve, llama-server, or the\n"
           "transformers lines in Python), with what the engine has no flag for as comments.\n"
           "check-log reads a vLLM, llama.cpp (or ollama) or TGI start-up log, builds the "
           "scenario\n"
           "it states (options given override the log) and prints each logged memory figure\n"
           "beside kvscope's prediction. --hub reads the model the log names by its Hugging\n"
           "Face id from the Hub (or kvscope's cache) when the catalog lacks it. --save-profile\n"
           "NAME fits the machine's activation peak, runtime overhead (to the KV cache size the\n"
           "log states) and memory bandwidth efficiency (to --tokens-per-s or the logged decode)\n"
           "and saves them; --profile NAME applies them to any scenario.\n\n";
}

// The registry's scenario options, one a line, their help in a column.
void printScenarioOptions(std::ostream& out)
{
    out << "Scenario options (default: Llama 2 7B, FP16, RTX 4090, 2,048 tokens):\n";
    for (const ScenarioOption& o : scenarioOptions()) {
        std::string left = std::string("  --") + o.name + " " + o.valueName;
        out << left << std::string(left.size() < 40 ? 40 - left.size() : 1, ' ') << o.help << "\n";
    }
}

// Options of output and of single commands, exit status and where catalogs are searched.
void printOtherOptions(std::ostream& out)
{
    out << "\nOther options:\n"
           "  --json                                  machine-readable output (bytes, ms)\n"
           "  --csv                                   sweep as CSV\n"
           "  --si                                    sizes in GB instead of GiB (tables, charts)\n"
           "  --lang en|ja                            language of charts and reports\n"
           "  --scale F                               PNG export: device pixel ratio (2 = crisp "
           "slides)\n"
           "  --dark                                  export with the dark palette, not the print "
           "one\n"
           "  --slide                                 export for a 16:9 slide: laid out at 960 x "
           "540,\n"
           "                                          PNG at 2x (1920 x 1080 pixels)\n"
           "  --compare FILE                          export, report: pin a scenario file beside "
           "the\n"
           "                                          scenario (repeat; at most four pinned)\n"
           "  --verbose                               report catalog files that were skipped\n"
           "  --tokens-per-s X                        calibrate: measured decode tokens per "
           "second\n"
           "  --kv-cache-tokens N                     calibrate: vLLM's logged GPU KV cache size\n"
           "  --save FILE                             calibrate: write the calibrated scenario\n"
           "  --help, --version\n\n"
           "Exit status: 0 success, 2 bad input (one line on stderr naming the field).\n"
           "Catalogs: $XDG_DATA_HOME/kvscope (models/, gpus/) is searched before the built-in "
           "ones.\n";
}

void printHelp(std::ostream& out)
{
    printUsage(out);
    printCommandNotes(out);
    printScenarioOptions(out);
    printOtherOptions(out);
}

int calcCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                std::ostream& err)
{
    if (!args.positional.empty())
        return badInput(err, {"calc", args.positional.front(), "no positional arguments"});
    auto scenario = scenarioFromOptions(args.values, catalog);
    if (!scenario)
        return badInput(err, scenario.error());
    // --json prints the reload-vs-recompute crossings.
    auto evaluation = evaluate(*scenario, EvaluateOptions{.breakevenCrossings = true});
    if (!evaluation)
        return badInput(err, evaluation.error());
    const Verdict verdict = verdictOf(*scenario, *evaluation);
    const std::vector<Remedy> fixes = remedies(*scenario, verdict, catalog);
    const ByteUnits units = args.has("si") ? ByteUnits::Si : ByteUnits::Binary;
    if (args.has("json")) {
        nlohmann::json j = evaluationToJson(*scenario, *evaluation);
        j["verdict"] = verdictToJson(*scenario, verdict);
        // As the text's "longest context that runs": the shorten-context remedy's search.
        if (!verdict.runs) {
            const auto longest = longestRunningContext(*scenario, scenario->context - 1);
            j["verdict"]["longest_running_context"] =
                longest ? nlohmann::json(*longest) : nlohmann::json(nullptr);
            if (!longest)
                j["verdict"]["null_because"] = "no_context_runs";
        }
        j["cautions"] = cautionsToJson(cautionsOf(*scenario, *evaluation, verdict));
        j["cost"] = costToJson(*scenario, costOf(*scenario, *evaluation, verdict.runs));
        j["remedies"] = remediesToJson(fixes);
        j["serving"] = servingToJson(*scenario, serving(*scenario, catalog.engines), false);
        out << j.dump(2) << "\n";
        return exitOk;
    }
    out << textSummary(*scenario, *evaluation, units);
    if (!fixes.empty())
        out << "\n" << remediesText(fixes, units);
    return exitOk;
}

} // namespace

void setModelResolver(ModelResolver resolver)
{
    modelResolver = resolver;
}

Expected<std::string> resolveHubModel(const std::string& value, std::ostream& err)
{
    if (!modelResolver)
        return FieldError{"model", value,
                          "a catalog id or a config.json path: this kvscope-cli was built "
                          "without the Hugging Face import"};
    return modelResolver(value, err);
}

void setRenderCommand(RenderCommand command, std::vector<std::string> chartIds)
{
    renderCommand = command;
    renderChartIds = std::move(chartIds);
}

int badInput(std::ostream& err, const FieldError& error)
{
    err << "kvscope-cli: " << error.message() << "\n";
    return exitBadInput;
}

std::set<std::string> valuedOptions()
{
    std::set<std::string> names{"vary",
                                "from",
                                "to",
                                "points",
                                "chart",
                                "format",
                                "out",
                                "width",
                                "height",
                                "page",
                                "lang",
                                "scale",
                                "tokens-per-s",
                                "kv-cache-tokens",
                                "save",
                                "max-gpus-per-node",
                                "max-nodes",
                                "limit",
                                "min-weight-bits",
                                "min-kv-bits",
                                "rate",
                                "class",
                                "objective",
                                "allow-engines",
                                "allow-gpus",
                                "columns",
                                "models",
                                "compare",
                                "write-bands",
                                "save-profile"};
    for (const ScenarioOption& o : scenarioOptions())
        names.insert(o.name);
    return names;
}

std::set<std::string> switchOptions()
{
    return {"json", "csv", "si", "help", "version", "verbose", "dark", "slide", "hub"};
}

namespace {

// Loads the catalog from `executable`'s data directories unless one is given, and only for
// commands that need it (--help and --version read nothing).
int runWith(const std::vector<std::string>& argv, const Catalog* preloaded, std::ostream& out,
            std::ostream& err, const std::filesystem::path& executable)
{
    auto parsed = parseArgs(argv, valuedOptions(), switchOptions());
    if (!parsed)
        return badInput(err, parsed.error());
    // A Hub model becomes its cached config.json here, once, for every command.
    for (auto& [name, value] : parsed.value().values)
        if (name == "model" && isHubReference(value) && modelResolver) {
            auto path = modelResolver(value, err);
            if (!path)
                return badInput(err, path.error());
            value = *path;
        }
    const ParsedArgs& args = *parsed;
    if (args.has("version")) {
        out << "kvscope-cli " KVSCOPE_VERSION "\n";
        return exitOk;
    }
    if (args.has("help") || args.command == "help") {
        printHelp(out);
        return exitOk;
    }
    if (args.command.empty())
        return badInput(err, {"command", "", kCommands});
    std::optional<Catalog> loaded;
    const Catalog& catalog =
        preloaded ? *preloaded : loaded.emplace(loadCatalog(defaultDataDirs(executable)));
    if (args.has("verbose"))
        for (const std::string& problem : catalog.problems)
            err << "kvscope-cli: skipped " << problem << "\n";
    if (args.command == "list")
        return listCommand(args, catalog, out, err);
    if (args.command == "calc")
        return calcCommand(args, catalog, out, err);
    if (args.command == "compare")
        return compareCommand(args, catalog, out, err);
    if (args.command == "sweep")
        return sweepCommand(args, catalog, out, err);
    if (args.command == "plan")
        return planCommand(args, catalog, out, err);
    if (args.command == "matrix")
        return matrixCommand(args, catalog, out, err);
    if (args.command == "launch")
        return launchCommand(args, catalog, out, err);
    if (args.command == "validate")
        return validateCommand(args, catalog, executable, out, err);
    if (args.command == "calibrate")
        return calibrateCommand(args, catalog, out, err);
    if (args.command == "check-log")
        return checkLogCommand(args, catalog, out, err);
    if (args.command == "export" || args.command == "report") {
        if (!renderCommand) {
            err << "kvscope-cli: " << args.command << ": this build has no chart renderer "
                << "(configure with KVSCOPE_BUILD_GUI=ON)\n";
            return exitFailure;
        }
        return renderCommand(args, catalog, out, err);
    }
    return badInput(err, {"command", args.command, kCommands});
}

} // namespace

int run(const std::vector<std::string>& argv, std::ostream& out, std::ostream& err,
        const std::filesystem::path& executable)
{
    return runWith(argv, nullptr, out, err, executable);
}

int run(const std::vector<std::string>& argv, const Catalog& catalog, std::ostream& out,
        std::ostream& err)
{
    return runWith(argv, &catalog, out, err, {});
}

} // namespace kvscope::cli
