// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/profile_fit.h"

#include "kvscope/base/number_format.h"
#include "kvscope/catalog/machine_profile_json.h"
#include "kvscope/evaluation/calibration.h"

namespace kvscope {

std::optional<FieldError> whyNoProfile(const LogCheck& check, std::optional<double> decode)
{
    if (!check.predicted())
        return check.noPrediction;
    if (check.gpuStandsIn())
        return FieldError{"gpu",
                          check.log.gpuName.empty() ? "not named in the log" : check.log.gpuName,
                          "a GPU of the catalog (--gpu ID): a profile belongs to a machine"};
    if (check.loggedKvCacheTokens <= 0 && !decode && !check.log.figure(LogFigure::DecodeTokensPerS))
        return FieldError{"log", "no KV cache size in tokens",
                          "a vLLM or TGI log that states its KV cache size, or a decode speed "
                          "measured on the machine (--tokens-per-s)"};
    return std::nullopt;
}

namespace {

// One calibration into the profile: the fitted scenario, or why no factor reaches it.
Expected<CalibrationResult> fitOne(const Scenario& scenario, const Catalog& catalog,
                                   CalibrationKind kind, double measured)
{
    auto fit = calibrate(scenario, catalog, kind, measured);
    if (!fit)
        return fit.error();
    if (!fit->reachable)
        return FieldError{"measured", formatNumber(measured, 1),
                          std::string("a figure kvscope reaches by fitting ") +
                              calibrationFactorId(kind) + ": " + formatNumber(fit->lowest, 1) +
                              " to " + formatNumber(fit->highest, 1)};
    return fit;
}

ProfileFit fitRecord(const CalibrationResult& fit)
{
    return {calibrationKindId(fit.kind), fit.measured, fit.before, fit.after};
}

} // namespace

Expected<MachineProfile> profileFromLog(const LogCheck& check, const Catalog& catalog,
                                        const std::string& name,
                                        std::optional<double> decodeTokensPerS,
                                        const std::string& logName)
{
    if (auto error = checkProfileName(name))
        return *error;
    if (auto error = whyNoProfile(check, decodeTokensPerS))
        return *error;
    Scenario s = check.scenario;
    MachineProfile p;
    p.id = name;
    p.gpu = s.gpu.id;
    p.engine = s.engine.id;
    p.release = s.engineVersion;
    p.gpus = s.gpuCount;
    p.source = "start-up log " + logName;
    if (check.loggedKvCacheTokens > 0) {
        auto fit = fitOne(s, catalog, CalibrationKind::KvCacheTokens, check.loggedKvCacheTokens);
        if (!fit)
            return fit.error();
        p.runtimeOverheadMiB = fit->fittedValue;
        p.kvFit = fitRecord(*fit);
        s = fit->calibrated;
    }
    // A decode speed the log states (llama.cpp's own timings) when none is given.
    if (const LoggedNumber* logged = check.log.figure(LogFigure::DecodeTokensPerS);
        logged && !decodeTokensPerS)
        decodeTokensPerS = logged->value;
    if (decodeTokensPerS) {
        auto fit = fitOne(s, catalog, CalibrationKind::DecodeTokensPerS, *decodeTokensPerS);
        if (!fit)
            return fit.error();
        p.hbmEfficiency = fit->fittedValue;
        p.decodeFit = fitRecord(*fit);
    }
    return p;
}

} // namespace kvscope
