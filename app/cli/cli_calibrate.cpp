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

namespace {

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

// The one measurement given: what it measures, the option and text it came as, and its value.
struct Measurement
{
    CalibrationKind kind = CalibrationKind::DecodeTokensPerS;
    std::string option;
    std::string text;
    double value = 0;
};

Expected<Measurement> readMeasurement(const ParsedArgs& args)
{
    const std::string* tokensPerS = args.value("tokens-per-s");
    const std::string* kvTokens = args.value("kv-cache-tokens");
    if (!tokensPerS == !kvTokens)
        return FieldError{"--tokens-per-s", tokensPerS && kvTokens ? "with --kv-cache-tokens" : "",
                          "one measurement: --tokens-per-s X or --kv-cache-tokens N"};
    Measurement m;
    m.kind = tokensPerS ? CalibrationKind::DecodeTokensPerS : CalibrationKind::KvCacheTokens;
    m.option = tokensPerS ? "--tokens-per-s" : "--kv-cache-tokens";
    m.text = tokensPerS ? *tokensPerS : *kvTokens;
    const std::string& text = m.text;
    auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), m.value);
    if (ec != std::errc() || ptr != text.data() + text.size() || !std::isfinite(m.value) ||
        m.value <= 0 || m.value > 1e15 || (kvTokens && m.value != std::floor(m.value)))
        return FieldError{m.option, text,
                          kvTokens ? "a whole number of tokens above 0"
                                   : "a number of tokens per second above 0"};
    return m;
}

void printCalibrationJson(const Measurement& m, const CalibrationResult& r, std::ostream& out)
{
    nlohmann::json j{{"kind", calibrationKindId(m.kind)},
                     {"factor", calibrationFactorId(m.kind)},
                     {"measured", m.value},
                     {"before", r.before},
                     {"after", r.after},
                     {"previous_value", r.previousValue},
                     {"fitted_value", r.fittedValue}};
    out << j.dump(2) << "\n";
}

void printCalibrationText(const Measurement& m, const CalibrationResult& r,
                          const std::string* saved, std::ostream& out)
{
    const CalibrationKind kind = m.kind;
    const std::string figure =
        kind == CalibrationKind::DecodeTokensPerS ? "decode speed" : "GPU KV cache size";
    out << "Measured " << figure << ": " << figureText(kind, m.value) << "\n"
        << "  " << calibrationFactorId(kind) << ": " << factorText(kind, r.previousValue) << " -> "
        << factorText(kind, r.fittedValue) << "\n"
        << "  predicted " << figure << ": " << figureText(kind, r.before) << " -> "
        << figureText(kind, r.after) << "\n";
    if (saved)
        out << "Saved " << *saved << "\n";
}

} // namespace

int calibrateCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                     std::ostream& err)
{
    if (!args.positional.empty())
        return badInput(err, {"calibrate", args.positional.front(), "no positional arguments"});
    auto measurement = readMeasurement(args);
    if (!measurement)
        return badInput(err, measurement.error());
    const Measurement& m = *measurement;

    auto scenario = scenarioFromOptions(args.scenarioValues(), catalog);
    if (!scenario)
        return badInput(err, scenario.error());
    auto result = calibrate(*scenario, catalog, m.kind, m.value);
    if (!result)
        return badInput(err, result.error());
    const CalibrationResult& r = *result;
    if (!r.reachable)
        return badInput(err, {m.option, m.text,
                              figureText(m.kind, r.lowest) + " to " +
                                  figureText(m.kind, r.highest) + " (what " +
                                  calibrationFactorId(m.kind) + " can reach for this scenario)"});

    const std::string* save = args.value("save");
    if (save) {
        std::string error;
        if (!writeAtomically(*save, scenarioToText(r.calibrated), &error)) {
            err << "kvscope-cli: --save: " << *save << ": " << error << "\n";
            return exitFailure;
        }
    }
    if (args.has("json"))
        printCalibrationJson(m, r, out);
    else
        printCalibrationText(m, r, save, out);
    return exitOk;
}

} // namespace kvscope::cli
