// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/evaluation/calibration.h"

#include "kvscope/settings/settings_registry.h"

#include "kvscope/base/number_format.h"
#include "kvscope/evaluation/evaluation.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace kvscope {

namespace {

// Halvings of the search interval: 2^-80 of any range is far below what a figure can show.
constexpr int kBisections = 80;
constexpr double kMaxMeasured = 1e15;

// The kind's factor in the scenario: the one field a calibration moves (a const scenario's, or
// one to set).
template <typename ScenarioRef> auto& factorIn(ScenarioRef& s, CalibrationKind kind)
{
    switch (kind) {
    case CalibrationKind::DecodeTokensPerS:
        return s.efficiency.hbm;
    case CalibrationKind::KvCacheTokens:
    case CalibrationKind::KvCacheMemoryBytes:
        return s.engine.runtimeOverheadMiB;
    case CalibrationKind::ActivationPeakBytes:
        break;
    }
    return s.efficiency.activationBytes;
}

Scenario withFactor(Scenario s, CalibrationKind kind, double value)
{
    factorIn(s, kind) = value;
    return s;
}

double factorOf(const Scenario& s, CalibrationKind kind)
{
    return factorIn(s, kind);
}

// The factor's accepted range, from the settings registry: its one definition.
std::pair<double, double> settingRange(const char* id, std::pair<double, double> otherwise)
{
    const Setting* setting = settingById(id);
    return setting ? std::pair(setting->lo, setting->hi) : otherwise;
}

// The search evaluates often and needs no break-even crossings: the plain evaluation.
Expected<Evaluation> evaluateForSearch(const Scenario& s)
{
    return evaluate(s);
}

} // namespace

const char* calibrationKindId(CalibrationKind kind)
{
    switch (kind) {
    case CalibrationKind::DecodeTokensPerS:
        return "decode_tokens_per_s";
    case CalibrationKind::KvCacheTokens:
        return "kv_cache_tokens";
    case CalibrationKind::KvCacheMemoryBytes:
        return "kv_cache_memory_bytes";
    case CalibrationKind::ActivationPeakBytes:
        break;
    }
    return "activation_peak_bytes";
}

const char* calibrationFactorId(CalibrationKind kind)
{
    return factorFittedTo(calibrationKindId(kind));
}

std::pair<double, double> hbmEfficiencyRange(const Catalog&)
{
    return settingRange("hbm_efficiency", {0.05, 1.0});
}

Expected<double> calibrationFigure(const Scenario& s, CalibrationKind kind)
{
    auto e = evaluateForSearch(s);
    if (!e)
        return e.error();
    switch (kind) {
    case CalibrationKind::DecodeTokensPerS:
        return e->decode.tokensPerS;
    case CalibrationKind::KvCacheTokens:
        return double(e->engine.kvCacheTokens);
    case CalibrationKind::KvCacheMemoryBytes:
        return e->tokensFit.freeForKvBytes;
    case CalibrationKind::ActivationPeakBytes:
        break;
    }
    return e->vram.activationBytes;
}

namespace {

// The figure with the factor set to `value`.
Expected<double> figureAt(const Scenario& s, CalibrationKind kind, double value)
{
    return calibrationFigure(withFactor(s, kind, value), kind);
}

// The factor values searched: the registry's ranges of HBM efficiency and bytes per activation
// element, or overheads from none up to all of one GPU's memory, where no KV is left.
Expected<std::pair<double, double>> searchRange(const Scenario& s, const Catalog& catalog,
                                                CalibrationKind kind)
{
    if (kind == CalibrationKind::DecodeTokensPerS)
        return hbmEfficiencyRange(catalog);
    if (kind == CalibrationKind::ActivationPeakBytes)
        return settingRange("activation_bytes", {0.5, 64.0});
    auto e = evaluateForSearch(s);
    if (!e)
        return e.error();
    return std::make_pair(0.0, std::max(1.0, e->vram.capacityBytes / (1024.0 * 1024.0)));
}

// The factor in [lo, hi] whose figure is the measurement; the nearer end when none reaches it.
// Every figure is monotonic in its factor: tokens/s rises with the bandwidth share and the
// activation peak with its bytes per element, the KV pool and its memory shrink as the overhead
// grows.
// `rising` orients the search accordingly.
double fittedFactor(const Scenario& s, CalibrationKind kind, double measured, double lo, double hi,
                    CalibrationResult& r)
{
    const bool rising =
        kind == CalibrationKind::DecodeTokensPerS || kind == CalibrationKind::ActivationPeakBytes;
    // `below(v)`: the figure at v is under the measurement.
    auto below = [&](double value) { return *figureAt(s, kind, value) < measured; };
    auto bisect = [&](double a, double b, auto&& goesLeft) {
        for (int i = 0; i < kBisections && b - a > 0; ++i) {
            const double mid = a + (b - a) / 2;
            (goesLeft(mid) ? b : a) = mid;
        }
        return a + (b - a) / 2;
    };
    if (measured < r.lowest || measured > r.highest) {
        r.reachable = false;
        const bool wantLow = measured < r.lowest;
        return (wantLow == rising) ? lo : hi;
    }
    if (rising) // the smallest efficiency reaching the measurement
        return bisect(lo, hi, [&](double v) { return !below(v); });
    // The KV pool is a staircase of whole blocks: take the middle of the overheads that give
    // the measured count (or of the gap between the two nearest steps when none does).
    const double firstAtOrBelow =
        bisect(lo, hi, [&](double v) { return *figureAt(s, kind, v) <= measured; });
    const double lastAtOrAbove = bisect(lo, hi, [&](double v) { return below(v); });
    return std::max(0.0, (firstAtOrBelow + lastAtOrAbove) / 2);
}

} // namespace

Expected<CalibrationResult> calibrate(const Scenario& s, const Catalog& catalog,
                                      CalibrationKind kind, double measured)
{
    if (!std::isfinite(measured) || measured <= 0 || measured > kMaxMeasured)
        return FieldError{"measured", formatPlain(measured),
                          "a positive number up to " + formatPlain(kMaxMeasured)};
    CalibrationResult r;
    r.kind = kind;
    r.measured = measured;
    r.previousValue = factorOf(s, kind);
    auto before = calibrationFigure(s, kind);
    if (!before)
        return before.error();
    r.before = *before;

    auto range = searchRange(s, catalog, kind);
    if (!range)
        return range.error();
    const auto [lo, hi] = *range;
    auto atLo = figureAt(s, kind, lo);
    if (!atLo)
        return atLo.error();
    auto atHi = figureAt(s, kind, hi);
    if (!atHi)
        return atHi.error();
    r.lowest = std::min(*atLo, *atHi);
    r.highest = std::max(*atLo, *atHi);
    r.fittedValue = fittedFactor(s, kind, measured, lo, hi, r);

    r.calibrated = withFactor(s, kind, r.fittedValue);
    auto after = calibrationFigure(r.calibrated, kind);
    if (!after)
        return after.error();
    r.after = *after;
    r.calibrated.calibration =
        CalibrationRecord{calibrationKindId(kind), measured, calibrationFactorId(kind),
                          r.fittedValue,           r.before, r.after};
    return r;
}

} // namespace kvscope
