// SPDX-License-Identifier: GPL-3.0-or-later
// Running the validation set: each case's prediction against its measurement, the summaries and
// the report as JSON.
#include "kvscope/validation/validation_set.h"

#include "kvscope/base/number_format.h"
#include "kvscope/base/statistics.h"

#include "kvscope/scenario/speed_class.h"

#include "kvscope/evaluation/evaluation.h"
#include "kvscope/planning/serving.h"
#include "kvscope/planning/verdict.h"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <set>

#include <nlohmann/json.hpp>

namespace kvscope {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
constexpr double kGiB = 1024.0 * kMiB;

const char* skipReasonId(SkipReason reason)
{
    switch (reason) {
    case SkipReason::None:
        return "";
    case SkipReason::GpuNotStated:
        return "gpu_not_stated";
    case SkipReason::NotInCatalog:
        return "not_in_catalog";
    case SkipReason::SettingNotStated:
        return "setting_not_stated";
    case SkipReason::MixedKvTypes:
        return "mixed_kv_types";
    case SkipReason::Refused:
        return "refused";
    case SkipReason::NotPinnedCopy:
        return "not_pinned_copy";
    case SkipReason::EngineDefect:
        return "engine_defect";
    }
    return "";
}

// A benchmark that sends R requests to C users at once (request rate "inf": vLLM's and SGLang's
// bench_serving with --max-concurrency) starts with C prompts arriving together; the rest arrive
// one by one as earlier requests finish. Its mean first token weighs the first wave's (kvscope's
// "prompts at once" mean) by C of the R requests and the steady one by the rest. A source that
// does not say how many it sent is read as steady.
double benchmarkTtftMs(const ServingPoint& p, const std::optional<ServingWorkload>& w)
{
    if (!w || w->concurrency <= 0 || w->requests <= 0)
        return p.ttftMs;
    const double all = double(w->requests);
    const double together = double(std::min(w->requests, w->concurrency));
    return (together * p.togetherTtftMeanMs + (all - together) * p.ttftMs) / all;
}

} // namespace

ValidationResult validateCase(const ValidationCase& v, const Catalog& c)
{
    CaseScenario cs = scenarioForCase(v, c);
    ValidationResult r = std::move(cs.result);
    r.heldOut = v.heldOut;
    if (r.skipped())
        return r;
    // A case that drafts tokens measures the drafting speed: a class of its own, whose errors do
    // not move the band of the step without drafting that the headline shows.
    r.speedClass =
        speedClassOf(*cs.scenario).id() + (cs.scenario->speculative.drafts() ? "/drafting" : "");
    auto e = evaluate(*cs.scenario);
    if (!e) {
        r.skip = SkipReason::Refused;
        r.skipDetail = e.error().message();
        return r;
    }
    r.measured = v.measured;

    switch (v.figure) {
    case MeasuredFigure::KvCacheTokens:
        r.predicted = double(e->engine.kvCacheTokens);
        break;
    case MeasuredFigure::GpuBlocks:
        r.measured =
            v.measured * double(v.measuredBlockSize.value_or(cs.scenario->engine.kvBlockTokens));
        r.predicted = double(e->engine.kvCacheTokens);
        break;
    case MeasuredFigure::AvailableKvGiB:
        r.predicted = e->tokensFit.freeForKvBytes / kGiB;
        break;
    case MeasuredFigure::KvBufferMiB:
        r.predicted = e->engine.kvBufferBytes / kMiB;
        break;
    case MeasuredFigure::TokensPerS:
        r.predicted =
            e->speculative.draftTokens > 0 ? e->speculative.tokensPerS : e->decode.tokensPerS;
        break;
    case MeasuredFigure::PcieGBps:
        r.predicted = e->decode.pcieEffectiveGBps;
        break;
    case MeasuredFigure::TpotMs:
    case MeasuredFigure::TtftMs: {
        const ServingCurve curve = servingCurve(*cs.scenario);
        if (!curve.unavailable.empty()) {
            r.skip = SkipReason::Refused;
            r.skipDetail = curve.unavailable;
            return r;
        }
        ServingPoint point = curve.atUsers;
        if (v.workload && v.workload->concurrency == 0) {
            const auto atRate =
                pointAtRate(curve, v.workload->requestRate, v.workload->outputTokens);
            if (!atRate) {
                r.skip = SkipReason::Refused;
                r.skipDetail = "at " + formatPlain(v.workload->requestRate) +
                               " requests/s kvscope's serving curve saturates";
                return r;
            }
            point = *atRate;
        }
        r.predicted =
            v.figure == MeasuredFigure::TpotMs ? point.stepMs : benchmarkTtftMs(point, v.workload);
        break;
    }
    }
    // The source ran it; kvscope says it does not: no memory left for the KV cache, or a decode
    // that does not fit. A finding of its own, listed apart, not a -100 % error averaged in.
    const bool capacity = v.figure == MeasuredFigure::KvCacheTokens ||
                          v.figure == MeasuredFigure::GpuBlocks ||
                          v.figure == MeasuredFigure::AvailableKvGiB;
    const bool speed = v.figure == MeasuredFigure::TokensPerS ||
                       v.figure == MeasuredFigure::TpotMs || v.figure == MeasuredFigure::TtftMs;
    // A serving run asks whether the engine starts: one that pools its KV (vLLM, SGLang, TGI)
    // runs the users that fit and queues the rest, which the serving curve already times.
    const bool serving = v.figure == MeasuredFigure::TpotMs || v.figure == MeasuredFigure::TtftMs;
    const bool starts = e->vram.fits || (serving && verdictOf(*cs.scenario, *e).runsAtOnce > 0);
    r.doesNotFit = capacity ? r.predicted <= 0 : speed && !starts;
    r.error = r.predicted / r.measured - 1.0;
    return r;
}

ValidationSummary summarize(ValidationKind kind, const std::vector<ValidationResult>& results)
{
    ValidationSummary s;
    s.kind = kind;
    std::vector<double> errors;
    for (const ValidationResult& r : results) {
        if (r.kind != kind)
            continue;
        if (r.skipped()) {
            ++s.skipped;
            continue;
        }
        if (r.doesNotFit) {
            ++s.doesNotFit;
            continue;
        }
        errors.push_back(std::fabs(r.error));
    }
    s.evaluated = int(errors.size());
    if (errors.empty())
        return s;
    std::sort(errors.begin(), errors.end());
    const size_t n = errors.size();
    s.medianAbsError = quantileOfSorted(errors, 0.5);
    // A hair of tolerance so a case exactly at 5 % is not lost to rounding in the division.
    auto share = [&](double limit) {
        return double(std::count_if(errors.begin(), errors.end(),
                                    [&](double e) { return e <= limit + 1e-12; })) /
               double(n);
    };
    s.within5 = share(0.05);
    s.within10 = share(0.10);
    return s;
}

namespace {

ClassSummary summarizeClass(ValidationKind kind, const std::string& id,
                            const std::vector<ValidationResult>& results)
{
    ClassSummary c;
    c.speedClass = id;
    std::vector<ValidationResult> fit, heldOut;
    std::vector<double> signedErrors;
    for (const ValidationResult& r : results) {
        if (r.kind != kind || r.speedClass != id)
            continue;
        (r.heldOut ? heldOut : fit).push_back(r);
        if (r.skipped() || r.doesNotFit)
            continue;
        signedErrors.push_back(r.error);
        if (std::fabs(r.error) > std::fabs(c.worstError))
            c.worstError = r.error;
    }
    c.fit = summarize(kind, fit);
    c.heldOut = summarize(kind, heldOut);
    c.medianSignedError = medianOf(std::move(signedErrors));
    return c;
}

} // namespace

std::vector<ClassSummary> summarizeByClass(ValidationKind kind,
                                           const std::vector<ValidationResult>& results)
{
    std::set<std::string> ids;
    for (const ValidationResult& r : results)
        if (r.kind == kind && !r.speedClass.empty())
            ids.insert(r.speedClass);
    std::vector<ClassSummary> classes;
    classes.reserve(ids.size());
    for (const std::string& id : ids)
        classes.push_back(summarizeClass(kind, id, results));
    return classes;
}

namespace {

double rounded(double x)
{
    return std::round(x * 1e4) / 1e4; // the file's precision, so a re-read compares equal
}

} // namespace

std::optional<SpeedFigure> speedFigureOf(ValidationKind kind)
{
    switch (kind) {
    case ValidationKind::Decode:
        return SpeedFigure::Decode;
    case ValidationKind::Tpot:
        return SpeedFigure::Tpot;
    case ValidationKind::Ttft:
        return SpeedFigure::Ttft;
    case ValidationKind::Capacity:
    case ValidationKind::Pcie:
        return std::nullopt;
    }
    return std::nullopt;
}

namespace {

// How much longer the measured time took than kvscope's: a decode speed's step, a serving row's
// time per token or first token.
double measuredTimeOverPredicted(const ValidationResult& r)
{
    return r.kind == ValidationKind::Decode ? r.error : r.measured / r.predicted - 1.0;
}

} // namespace

SpeedBands speedBandsFrom(const std::vector<ValidationResult>& results)
{
    std::map<std::string, std::vector<double>> errors;
    for (const ValidationResult& r : results) {
        const std::optional<SpeedFigure> figure = speedFigureOf(r.kind);
        if (!figure || r.skipped() || r.doesNotFit || r.speedClass.empty())
            continue;
        for (const std::string& level : speedClassLevels(r.speedClass)) {
            errors[speedBandKey(*figure, level)].push_back(measuredTimeOverPredicted(r));
            if (r.kind == ValidationKind::Ttft && r.users == 1) // a prompt alone
                errors[speedBandKey(SpeedFigure::TtftOneUser, level)].push_back(
                    measuredTimeOverPredicted(r));
        }
    }
    SpeedBands bands;
    for (auto& [id, e] : errors) {
        std::sort(e.begin(), e.end());
        const bool few = e.size() < 10;
        SpeedBand& band = bands[id];
        band.low = rounded(few ? e.front() : quantileOfSorted(e, 0.1));
        band.high = rounded(few ? e.back() : quantileOfSorted(e, 0.9));
        band.cases = int(e.size());
    }
    return bands;
}

nlohmann::json speedBandsToJson(const SpeedBands& bands)
{
    nlohmann::json list = nlohmann::json::array();
    for (const auto& [key, b] : bands) {
        const auto [figure, id] = splitSpeedBandKey(key);
        list.push_back({{"figure", speedFigureId(figure)},
                        {"class", id},
                        {"low", b.low},
                        {"high", b.high},
                        {"cases", b.cases}});
    }
    return {{"source", "kvscope-cli validate --write-bands over resources/validation/*.json"},
            {"notes", "Per figure (decode: a single sequence's step; tpot: a serving row's time "
                      "per output token; ttft: its time to first token) and speed class (engine "
                      "family/GPU class/dense or MoE/16-bit or quantized): measured time / "
                      "kvscope's - 1 over the compared cases, fit and held out; a measured time "
                      "took kvscope's x (1 + low) to x (1 + high). Under 10 cases the lowest and "
                      "highest, else the 10th and 90th percentiles. tst_validation checks this "
                      "file against the set."},
            {"bands", list}};
}

ValidationReport runValidation(const std::vector<ValidationCase>& cases, const Catalog& c)
{
    ValidationReport report;
    report.results.reserve(cases.size());
    for (const ValidationCase& v : cases)
        report.results.push_back(validateCase(v, c));
    std::vector<ValidationResult> heldOut;
    std::copy_if(report.results.begin(), report.results.end(), std::back_inserter(heldOut),
                 [](const ValidationResult& r) { return r.heldOut; });
    for (ValidationKind kind : allValidationKinds) {
        report.summaries[size_t(kind)] = summarize(kind, report.results);
        report.heldOut[size_t(kind)] = summarize(kind, heldOut);
    }
    report.decodeClasses = summarizeByClass(ValidationKind::Decode, report.results);
    report.tpotClasses = summarizeByClass(ValidationKind::Tpot, report.results);
    std::vector<ValidationResult> oneUser, oneUserHeldOut;
    for (const ValidationResult& r : report.results)
        if (r.kind == ValidationKind::Ttft && r.users == 1)
            (r.heldOut ? oneUserHeldOut : oneUser).push_back(r);
    oneUser.insert(oneUser.end(), oneUserHeldOut.begin(), oneUserHeldOut.end());
    report.ttftOneUser = summarize(ValidationKind::Ttft, oneUser);
    report.ttftOneUserHeldOut = summarize(ValidationKind::Ttft, oneUserHeldOut);
    return report;
}

std::string skipReasonText(const ValidationResult& r)
{
    switch (r.skip) {
    case SkipReason::None:
        return "";
    case SkipReason::GpuNotStated:
        return "the GPU is not stated";
    case SkipReason::NotInCatalog:
        return r.skipDetail + " is not in the catalog";
    case SkipReason::SettingNotStated:
        return r.skipDetail + " is not stated, and the figure depends on it";
    case SkipReason::MixedKvTypes:
        return "K and V cache types differ (" + r.skipDetail + ")";
    case SkipReason::Refused:
        return "kvscope refused the scenario: " + r.skipDetail;
    case SkipReason::NotPinnedCopy:
        return "a copy from " + r.skipDetail + " memory, not a direct DMA from pinned memory";
    case SkipReason::EngineDefect:
        return "the source reports an engine defect: " + r.skipDetail;
    }
    return "";
}

nlohmann::json validationReportToJson(const ValidationReport& report)
{
    nlohmann::json cases = nlohmann::json::array();
    for (const ValidationResult& r : report.results) {
        nlohmann::json j;
        j["id"] = r.id;
        j["kind"] = validationKindId(r.kind);
        j["file"] = r.file;
        j["model"] = r.model.empty() ? nlohmann::json() : nlohmann::json(r.model);
        j["gpu"] = r.gpu.empty() ? nlohmann::json() : nlohmann::json(r.gpu);
        j["figure"] = measuredFigureId(r.figure);
        j["unit"] = r.unit;
        if (r.skipped()) {
            j["skipped"] = {{"reason", skipReasonId(r.skip)},
                            {"detail", r.skipDetail},
                            {"text", skipReasonText(r)}};
        } else {
            j["predicted"] = r.predicted;
            j["measured"] = r.measured;
            j["error"] = r.doesNotFit ? nlohmann::json() : nlohmann::json(r.error);
            j["does_not_fit"] = r.doesNotFit;
        }
        j["held_out"] = r.heldOut;
        if (r.users > 0)
            j["users"] = r.users;
        nlohmann::json assumptions = nlohmann::json::array();
        if (r.defaultEngine)
            assumptions.push_back("engine_unknown_default_engine");
        if (r.defaultContext)
            assumptions.push_back("context_not_stated_128_tokens");
        if (r.defaultGpu)
            assumptions.push_back("gpu_not_stated_figure_independent_of_gpu");
        j["assumptions"] = assumptions;
        cases.push_back(j);
    }
    const auto summaries = [](const auto& all) {
        nlohmann::json summary = nlohmann::json::object();
        for (const ValidationSummary& s : all) {
            nlohmann::json k;
            k["evaluated"] = s.evaluated;
            k["skipped"] = s.skipped;
            k["does_not_fit"] = s.doesNotFit;
            const bool any = s.evaluated > 0;
            k["median_abs_error"] = any ? nlohmann::json(s.medianAbsError) : nlohmann::json();
            k["within_5_percent"] = any ? nlohmann::json(s.within5) : nlohmann::json();
            k["within_10_percent"] = any ? nlohmann::json(s.within10) : nlohmann::json();
            summary[validationKindId(s.kind)] = k;
        }
        return summary;
    };
    nlohmann::json classes = nlohmann::json::array();
    for (const ClassSummary& c : report.decodeClasses) {
        const auto side = [](const ValidationSummary& s) {
            return nlohmann::json{{"evaluated", s.evaluated},
                                  {"median_abs_error", s.evaluated > 0
                                                           ? nlohmann::json(s.medianAbsError)
                                                           : nlohmann::json()}};
        };
        classes.push_back({{"class", c.speedClass},
                           {"fit", side(c.fit)},
                           {"held_out", side(c.heldOut)},
                           {"median_signed_error", c.medianSignedError},
                           {"worst_error", c.worstError}});
    }
    return {{"cases", cases},
            {"summary", summaries(report.summaries)},
            {"summary_held_out", summaries(report.heldOut)},
            {"decode_by_class", classes},
            {"ttft_one_user", summaries(std::array<ValidationSummary, 1>{report.ttftOneUser})},
            {"ttft_one_user_held_out",
             summaries(std::array<ValidationSummary, 1>{report.ttftOneUserHeldOut})}};
}

} // namespace kvscope
