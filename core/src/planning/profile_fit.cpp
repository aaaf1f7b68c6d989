// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/profile_fit.h"

#include "kvscope/base/number_format.h"
#include "kvscope/catalog/machine_profile_json.h"
#include "kvscope/evaluation/calibration.h"

#include <algorithm>

namespace kvscope {

namespace {

// The activation peak on one GPU the log states, if any.
std::optional<double> loggedActivationPeak(const LogCheck& check)
{
    if (const LoggedNumber* peak = check.log.figure(LogFigure::ActivationPeak); peak)
        return peak->value;
    // llama.cpp's compute buffers are summed over its GPUs; the peak is one GPU's.
    if (const LoggedNumber* buffers = check.log.figure(LogFigure::GpuComputeBuffers); buffers)
        return buffers->value / double(std::max(1, check.scenario.gpuCount));
    return std::nullopt;
}

} // namespace

std::optional<FieldError> whyNoProfile(const LogCheck& check, std::optional<double> decode)
{
    if (!check.predicted())
        return check.noPrediction;
    if (check.gpuStandsIn())
        return FieldError{"gpu",
                          check.log.gpuName.empty() ? "not named in the log" : check.log.gpuName,
                          "a GPU of the catalog (--gpu ID): a profile belongs to a machine"};
    if (check.loggedKvCacheTokens <= 0 && !check.log.figure(LogFigure::KvCacheMemory) && !decode &&
        !check.log.figure(LogFigure::DecodeTokensPerS) && !loggedActivationPeak(check))
        return FieldError{"log", "no KV cache size in tokens",
                          "a vLLM or TGI log that states its KV cache size or memory, a log that "
                          "states its activation peak or compute buffers, or a decode speed "
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

// Bytes per activation element to the activation peak the log states, into `p` and `s`. Held at
// the end of its range when no value reaches the peak: the residual is shown, and the KV cache
// fit after it still uses the nearest peak kvscope can give. Left out when the factor does not
// move the peak (the sampler's logits set it).
std::optional<FieldError> fitActivationPeak(const LogCheck& check, const Catalog& catalog,
                                            Scenario& s, MachineProfile& p)
{
    const std::optional<double> peak = loggedActivationPeak(check);
    if (!peak || !(*peak > 0))
        return std::nullopt;
    auto fit = calibrate(s, catalog, CalibrationKind::ActivationPeakBytes, *peak);
    if (!fit)
        return fit.error();
    if (fit->highest <= fit->lowest * (1 + 1e-9))
        return std::nullopt;
    p.activationBytes = fit->fittedValue;
    p.activationFit = fitRecord(*fit);
    s = fit->calibrated;
    return std::nullopt;
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
    if (auto error = fitActivationPeak(check, catalog, s, p))
        return *error;
    // The runtime overhead to the KV cache size in tokens, else to the memory vLLM leaves for it.
    const LoggedNumber* kvMemory = check.log.figure(LogFigure::KvCacheMemory);
    if (check.loggedKvCacheTokens > 0 || kvMemory) {
        auto fit =
            check.loggedKvCacheTokens > 0
                ? fitOne(s, catalog, CalibrationKind::KvCacheTokens, check.loggedKvCacheTokens)
                : fitOne(s, catalog, CalibrationKind::KvCacheMemoryBytes, kvMemory->value);
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
