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

// The scenario with the kind's factor set to `value`.
Scenario withFactor(Scenario s, CalibrationKind kind, double value)
{
    if (kind == CalibrationKind::DecodeTokensPerS)
        s.efficiency.hbm = value;
    else
        s.engine.runtimeOverheadMiB = value;
    return s;
}

double factorOf(const Scenario& s, CalibrationKind kind)
{
    return kind == CalibrationKind::DecodeTokensPerS ? s.efficiency.hbm
                                                     : s.engine.runtimeOverheadMiB;
}

// The search evaluates often and needs no break-even crossings: the plain evaluation.
Expected<Evaluation> evaluateForSearch(const Scenario& s)
{
    return evaluate(s);
}

} // namespace

const char* calibrationKindId(CalibrationKind kind)
{
    return kind == CalibrationKind::DecodeTokensPerS ? "decode_tokens_per_s" : "kv_cache_tokens";
}

const char* calibrationFactorId(CalibrationKind kind)
{
    return kind == CalibrationKind::DecodeTokensPerS ? "hbm_efficiency" : "runtime_overhead_mib";
}

std::pair<double, double> hbmEfficiencyRange(const Catalog&)
{
    // The factor's one range, from the settings registry.
    const Setting* hbm = settingById("hbm_efficiency");
    return hbm ? std::pair(hbm->lo, hbm->hi) : std::pair(0.05, 1.0);
}

Expected<double> calibrationFigure(const Scenario& s, CalibrationKind kind)
{
    auto e = evaluateForSearch(s);
    if (!e)
        return e.error();
    if (kind == CalibrationKind::DecodeTokensPerS)
        return e->decode.tokensPerS;
    return double(e->engine.kvCacheTokens);
}

namespace {

// The figure with the factor set to `value`.
Expected<double> figureAt(const Scenario& s, CalibrationKind kind, double value)
{
    return calibrationFigure(withFactor(s, kind, value), kind);
}

// The factor values searched: the catalog's range of HBM efficiency, or overheads from none up
// to all of one GPU's memory, where no KV is left.
Expected<std::pair<double, double>> searchRange(const Scenario& s, const Catalog& catalog,
                                                CalibrationKind kind)
{
    if (kind == CalibrationKind::DecodeTokensPerS)
        return hbmEfficiencyRange(catalog);
    auto e = evaluateForSearch(s);
    if (!e)
        return e.error();
    return std::make_pair(0.0, std::max(1.0, e->vram.capacityBytes / (1024.0 * 1024.0)));
}

// The factor in [lo, hi] whose figure is the measurement; the nearer end when none reaches it.
// Both figures are monotonic in their factor: tokens/s rises with the bandwidth share, the KV
// pool shrinks as the overhead grows. `rising` orients the search accordingly.
double fittedFactor(const Scenario& s, CalibrationKind kind, double measured, double lo, double hi,
                    CalibrationResult& r)
{
    const bool rising = kind == CalibrationKind::DecodeTokensPerS;
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
