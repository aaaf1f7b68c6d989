// SPDX-License-Identifier: GPL-3.0-or-later
// `kvscope-cli calibrate --tokens-per-s X | --kv-cache-tokens N [scenario options] [--save FILE]`:
// fits the factor behind the measured figure (see kvscope/calibration.h) and prints before and
// after.
#include "cli.h"
#include "cli_commands.h"

#include "kvscope/base/number_format.h"
#include "kvscope/evaluation/calibration.h"
#include "kvscope/settings/scenario_file.h"
#include "kvscope/settings/scenario_options.h"

#include <charconv>
#include <cmath>
#include <fstream>
#include <ostream>
#include <system_error>

#include <nlohmann/json.hpp>

namespace kvscope::cli {

namespace {

// Writes next to `path`, then renames over it: a failed write leaves the old file as it was.
bool writeAtomically(const std::filesystem::path& path, const std::string& text, std::string* error)
{
    const std::filesystem::path temporary = path.string() + ".kvscope-tmp";
    {
        std::ofstream file(temporary, std::ios::binary | std::ios::trunc);
        file << text;
        file.flush();
        if (!file) {
            *error = "cannot write " + temporary.string();
            std::error_code ignored;
            std::filesystem::remove(temporary, ignored);
            return false;
        }
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        *error = ec.message();
        std::filesystem::remove(temporary, ec);
        return false;
    }
    return true;
}

std::string figureText(CalibrationKind kind, double value)
{
    if (kind == CalibrationKind::DecodeTokensPerS)
        return formatNumber(value, 1) + " tokens/s";
    return formatInteger(int64_t(std::llround(value))) + " tokens";
}

std::string factorText(CalibrationKind kind, double value)
{
    if (kind == CalibrationKind::DecodeTokensPerS)
        return formatNumber(value, 4);
    return formatNumber(value, 1) + " MiB";
}

} // namespace

int calibrateCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                     std::ostream& err)
{
    if (!args.positional.empty())
        return badInput(err, {"calibrate", args.positional.front(), "no positional arguments"});
    const std::string* tokensPerS = args.value("tokens-per-s");
    const std::string* kvTokens = args.value("kv-cache-tokens");
    if (!tokensPerS == !kvTokens)
        return badInput(err,
                        {"--tokens-per-s", tokensPerS && kvTokens ? "with --kv-cache-tokens" : "",
                         "one measurement: --tokens-per-s X or --kv-cache-tokens N"});
    const CalibrationKind kind =
        tokensPerS ? CalibrationKind::DecodeTokensPerS : CalibrationKind::KvCacheTokens;
    const std::string option = tokensPerS ? "--tokens-per-s" : "--kv-cache-tokens";
    const std::string& text = tokensPerS ? *tokensPerS : *kvTokens;
    double measured = 0;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), measured);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(measured) ||
        measured <= 0 || measured > 1e15 || (kvTokens && measured != std::floor(measured)))
        return badInput(err, {option, text,
                              kvTokens ? "a whole number of tokens above 0"
                                       : "a number of tokens per second above 0"});

    auto scenario = scenarioFromOptions(args.scenarioValues(), catalog);
    if (!scenario)
        return badInput(err, scenario.error());
    auto result = calibrate(*scenario, catalog, kind, measured);
    if (!result)
        return badInput(err, result.error());
    const CalibrationResult& r = *result;
    if (!r.reachable)
        return badInput(err, {option, text,
                              figureText(kind, r.lowest) + " to " + figureText(kind, r.highest) +
                                  " (what " + calibrationFactorId(kind) +
                                  " can reach for this scenario)"});

    if (const std::string* save = args.value("save")) {
        std::string error;
        if (!writeAtomically(*save, scenarioToText(r.calibrated), &error)) {
            err << "kvscope-cli: --save: " << *save << ": " << error << "\n";
            return exitFailure;
        }
    }
    if (args.has("json")) {
        nlohmann::json j{{"kind", calibrationKindId(kind)},
                         {"factor", calibrationFactorId(kind)},
                         {"measured", measured},
                         {"before", r.before},
                         {"after", r.after},
                         {"previous_value", r.previousValue},
                         {"fitted_value", r.fittedValue}};
        out << j.dump(2) << "\n";
        return exitOk;
    }
    const std::string figure =
        kind == CalibrationKind::DecodeTokensPerS ? "decode speed" : "GPU KV cache size";
    out << "Measured " << figure << ": " << figureText(kind, measured) << "\n"
        << "  " << calibrationFactorId(kind) << ": " << factorText(kind, r.previousValue) << " -> "
        << factorText(kind, r.fittedValue) << "\n"
        << "  predicted " << figure << ": " << figureText(kind, r.before) << " -> "
        << figureText(kind, r.after) << "\n";
    if (const std::string* save = args.value("save"))
        out << "Saved " << *save << "\n";
    return exitOk;
}

} // namespace kvscope::cli
