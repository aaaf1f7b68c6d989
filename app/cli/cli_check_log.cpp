// SPDX-License-Identifier: GPL-3.0-or-later
// `kvscope-cli check-log FILE [scenario options] [--json] [--si] [--hub]`: reads an engine's
// start-up log (kvscope/io/startup_log.h), builds the scenario it describes and prints each logged
// figure beside kvscope's prediction (kvscope/planning/log_check.h).
#include "cli.h"
#include "cli_commands.h"

#include "kvscope/base/number_format.h"
#include "kvscope/catalog/machine_profile_json.h"
#include "kvscope/io/log_check_json.h"
#include "kvscope/planning/profile_fit.h"
#include "kvscope/text/log_check_text.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>

namespace kvscope::cli {

namespace {

std::string fitText(const ProfileFit& fit, ByteUnits units)
{
    const bool tokens = fit.figure == "kv_cache_tokens";
    const bool memory = fit.figure == "kv_cache_memory_bytes";
    const bool bytes = memory || fit.figure == "activation_peak_bytes";
    auto shown = [&](double v) {
        return tokens  ? formatInteger(int64_t(std::llround(v))) + " tokens"
               : bytes ? formatBytes(v, units)
                       : formatNumber(v, 1) + " tokens/s";
    };
    // The log's own figure, except a decode speed the user measured.
    const char* what = tokens   ? "KV cache size "
                       : memory ? "KV cache memory "
                       : bytes  ? "activation peak "
                                : "decode ";
    return what + shown(fit.measured) + " measured; kvscope " + shown(fit.before) + " before, " +
           shown(fit.after) + " after";
}

// --tokens-per-s X, a decode speed measured on the machine: checked before the log is read, and
// only with --save-profile, which is all it is for.
Expected<std::optional<double>> measuredDecode(const ParsedArgs& args)
{
    const std::string* text = args.value("tokens-per-s");
    if (!text)
        return std::optional<double>();
    auto value = numberOption(args, "tokens-per-s");
    if (!args.value("save-profile") || !value || !(*value > 0) || *value > 1e7)
        return FieldError{"--tokens-per-s", *text,
                          "a decode speed above 0 tokens/s, with --save-profile NAME"};
    return std::optional<double>(*value);
}

// --hub: the model the log names by its Hugging Face id, read from the Hub (or kvscope's cache
// of it) when the catalog lacks it; nothing to add when the catalog has it. Asked for, never
// done unasked: kvscope reads the network only when the user says so.
Expected<std::optional<std::string>> hubModelOfLog(const ParsedArgs& args, const StartupLog& log,
                                                   const Catalog& catalog, std::ostream& err)
{
    if (!args.has("hub"))
        return std::optional<std::string>();
    if (args.value("model"))
        return FieldError{"--hub", "with --model " + *args.value("model"),
                          "either --hub (the model the log names) or --model"};
    const std::optional<std::string> id = hubIdNamedInLog(log);
    if (!id)
        return FieldError{"--hub", log.model.empty() ? "a log that names no model" : log.model,
                          "a log that names its model by its Hugging Face id (ORG/NAME), as "
                          "vLLM's and TGI's do"};
    if (modelNamedInLog(catalog, log.model))
        return std::optional<std::string>();
    auto path = resolveHubModel("hf:" + *id, err);
    if (!path)
        return path.error();
    return std::optional<std::string>(*path);
}

struct SavedProfile
{
    MachineProfile profile;
    std::filesystem::path file;
};

// --save-profile NAME: the profile fitted to the log, written to the user's profiles/NAME.json,
// where --profile NAME finds it.
Expected<SavedProfile> saveProfile(const ParsedArgs& args, const LogCheck& check,
                                   const Catalog& catalog, std::optional<double> decode)
{
    const std::string logName = std::filesystem::path(args.positional.front()).filename().string();
    auto profile = profileFromLog(check, catalog, *args.value("save-profile"), decode, logName);
    if (!profile)
        return profile.error();
    SavedProfile saved{std::move(profile).value(), {}};
    saved.file = userProfilePath(saved.profile.id);
    std::error_code ec;
    std::filesystem::create_directories(saved.file.parent_path(), ec);
    std::string error;
    if (ec ||
        !writeAtomically(saved.file, machineProfileToJson(saved.profile).dump(2) + "\n", &error))
        return FieldError{"--save-profile", saved.file.string(),
                          "a writable file: " + (ec ? ec.message() : error)};
    return saved;
}

void printSaved(const SavedProfile& saved, ByteUnits units, std::ostream& out)
{
    const MachineProfile& p = saved.profile;
    out << "\nMachine profile " << p.id << " saved to " << saved.file.string() << "\n";
    if (p.activationBytes)
        out << "  bytes per activation element " << formatNumber(*p.activationBytes, 3) << " ("
            << fitText(*p.activationFit, units) << ")\n";
    if (p.runtimeOverheadMiB)
        out << "  runtime overhead " << formatNumber(*p.runtimeOverheadMiB, 1) << " MiB ("
            << fitText(*p.kvFit, units) << ")\n";
    if (p.hbmEfficiency)
        out << "  memory bandwidth efficiency " << formatNumber(*p.hbmEfficiency, 4) << " ("
            << fitText(*p.decodeFit, units) << ")\n";
    out << "  use it with --profile " << p.id << " --gpu " << p.gpu << " --engine " << p.engine
        << (p.release.empty() ? std::string() : " --engine-version " + p.release) << "\n";
}

} // namespace

int checkLogCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                    std::ostream& err)
{
    if (args.positional.size() != 1)
        return badInput(err, {"check-log", args.positional.empty() ? "" : args.positional[1],
                              "one start-up log file"});
    auto decode = measuredDecode(args);
    if (!decode)
        return badInput(err, decode.error());
    const std::string& path = args.positional.front();
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return badInput(err, {"log", path, "a readable file"});
    std::string text;
    text.reserve(4096);
    char buffer[65536];
    while (file.read(buffer, sizeof buffer) || file.gcount() > 0) {
        text.append(buffer, size_t(file.gcount()));
        if (text.size() > kMaxStartupLogBytes)
            break; // readStartupLog refuses it by its size
    }
    auto log = readStartupLog(text);
    if (!log)
        return badInput(err, log.error());
    OptionList options = args.scenarioValues();
    auto hubModel = hubModelOfLog(args, *log, catalog, err);
    if (!hubModel)
        return badInput(err, hubModel.error());
    if (*hubModel)
        options.emplace_back("model", **hubModel);
    auto check = checkStartupLog(*log, catalog, options);
    if (!check) {
        if (args.has("json")) // what the log states is worth having even without a scenario
            out << nlohmann::json{{"log", startupLogToJson(*log)}}.dump(2) << "\n";
        return badInput(err, check.error());
    }
    std::optional<SavedProfile> saved;
    if (args.value("save-profile")) {
        auto fitted = saveProfile(args, *check, catalog, *decode);
        if (!fitted)
            return badInput(err, fitted.error());
        saved = std::move(fitted).value();
    }
    if (args.has("json")) {
        nlohmann::json j = logCheckToJson(*check);
        if (saved) {
            j["saved_profile"] = machineProfileToJson(saved->profile);
            j["saved_profile"]["file"] = saved->file.string();
        }
        out << j.dump(2) << "\n";
        return exitOk;
    }
    const ByteUnits units = args.has("si") ? ByteUnits::Si : ByteUnits::Binary;
    out << logCheckText(*check, units);
    if (saved)
        printSaved(*saved, units, out);
    return exitOk;
}

} // namespace kvscope::cli
