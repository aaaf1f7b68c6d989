// SPDX-License-Identifier: GPL-3.0-or-later
// `kvscope-cli check-log FILE [scenario options] [--json] [--si]`: reads an engine's start-up
// log (kvscope/io/startup_log.h), builds the scenario it describes and prints each logged
// figure beside kvscope's prediction (kvscope/planning/log_check.h).
#include "cli.h"
#include "cli_commands.h"

#include "kvscope/base/number_format.h"
#include "kvscope/catalog/machine_profile_json.h"
#include "kvscope/io/log_check_json.h"
#include "kvscope/planning/profile_fit.h"
#include "kvscope/text/log_check_text.h"

#include <nlohmann/json.hpp>

#include <charconv>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>

namespace kvscope::cli {

namespace {

std::string fitText(const ProfileFit& fit)
{
    const bool tokens = fit.figure == "kv_cache_tokens";
    auto shown = [&](double v) {
        return tokens ? formatInteger(int64_t(std::llround(v))) + " tokens"
                      : formatNumber(v, 1) + " tokens/s";
    };
    return (tokens ? "KV cache size " : "decode ") + shown(fit.measured) + " logged; kvscope " +
           shown(fit.before) + " before, " + shown(fit.after) + " after";
}

// --save-profile NAME [--tokens-per-s X]: the profile fitted to the log, written to the user's
// profiles/NAME.json, where --profile NAME finds it.
int saveProfile(const ParsedArgs& args, const LogCheck& check, const Catalog& catalog,
                std::ostream& out, std::ostream& err)
{
    std::optional<double> tokensPerS;
    if (const std::string* text = args.value("tokens-per-s")) {
        double value = 0;
        auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
        if (ec != std::errc() || ptr != text->data() + text->size() || !(value > 0) || value > 1e7)
            return badInput(err, {"--tokens-per-s", *text, "a decode speed above 0 tokens/s"});
        tokensPerS = value;
    }
    const std::string& path = args.positional.front();
    const std::string logName = std::filesystem::path(path).filename().string();
    auto profile = profileFromLog(check, catalog, *args.value("save-profile"), tokensPerS, logName);
    if (!profile)
        return badInput(err, profile.error());
    const std::filesystem::path dir = userDataDir() / "profiles";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    std::string error;
    const std::filesystem::path file = dir / (profile->id + ".json");
    if (ec || !writeAtomically(file, machineProfileToJson(*profile).dump(2) + "\n", &error))
        return badInput(err, {"--save-profile", file.string(),
                              "a writable file: " + (ec ? ec.message() : error)});
    out << "\nMachine profile " << profile->id << " saved to " << file.string() << "\n";
    if (profile->runtimeOverheadMiB)
        out << "  runtime overhead " << formatNumber(*profile->runtimeOverheadMiB, 1) << " MiB ("
            << fitText(*profile->kvFit) << ")\n";
    if (profile->hbmEfficiency)
        out << "  memory bandwidth efficiency " << formatNumber(*profile->hbmEfficiency, 4) << " ("
            << fitText(*profile->decodeFit) << ")\n";
    out << "  use it with --profile " << profile->id << " --gpu " << profile->gpu << " --engine "
        << profile->engine
        << (profile->release.empty() ? std::string() : " --engine-version " + profile->release)
        << "\n";
    return exitOk;
}

} // namespace

int checkLogCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                    std::ostream& err)
{
    if (args.positional.size() != 1)
        return badInput(err, {"check-log", args.positional.empty() ? "" : args.positional[1],
                              "one start-up log file"});
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
    auto check = checkStartupLog(*log, catalog, args.scenarioValues());
    if (!check) {
        if (args.has("json")) // what the log states is worth having even without a scenario
            out << nlohmann::json{{"log", startupLogToJson(*log)}}.dump(2) << "\n";
        return badInput(err, check.error());
    }
    if (args.has("json")) {
        out << logCheckToJson(*check).dump(2) << "\n";
        return exitOk;
    }
    out << logCheckText(*check, args.has("si") ? ByteUnits::Si : ByteUnits::Binary);
    if (args.value("save-profile"))
        return saveProfile(args, *check, catalog, out, err);
    return exitOk;
}

} // namespace kvscope::cli
