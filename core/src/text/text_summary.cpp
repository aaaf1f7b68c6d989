// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/text/text_summary.h"

#include "kvscope/engines/engine_module.h"
#include "kvscope/planning/cautions.h"
#include "kvscope/planning/expert_fit.h"
#include "kvscope/planning/longest_context.h"
#include "kvscope/planning/serving.h"
#include "kvscope/planning/verdict.h"
#include "kvscope/scenario/speed_class.h"

#include "base/text_columns.h"
#include "kvscope/text/explain.h"

#include <cmath>
#include <locale>
#include <sstream>
#include <vector>

namespace kvscope {

namespace {

struct Row
{
    std::string label;
    std::string value;
    std::string detail;
};

struct Section
{
    std::string title;
    std::vector<Row> rows;
};

// Where a MoE model's routed experts are (llama.cpp --n-cpu-moe) and the --n-cpu-moe that fits.
Section expertSection(const Scenario& s, const Evaluation& e, const std::vector<Explanation>& why,
                      ByteUnits units, const NumberStyle& st)
{
    Section x{"MoE experts", {}};
    const int64_t layers = e.engine.expertLayersOnHost;
    x.rows.push_back(
        {"in host RAM",
         formatInteger(layers, st) + " of " + formatInteger(e.engine.moeLayers, st) +
             " MoE layers" +
             (layers > 0
                  ? ", " + formatBytes(e.vram.expertsOffloadedBytes * double(s.gpuCount), units, st)
                  : ""),
         explanationFor(why, "experts_offloaded")});
    if (layers > 0)
        x.rows.push_back({"CPU share of a step", formatDuration(e.decode.hostExpertsMs, st),
                          explanationFor(why, "host_experts")});
    const auto fit = fitExpertOffload(s);
    x.rows.push_back(
        {"fits with",
         fit ? "--n-cpu-moe " + std::to_string(fit->nCpuMoe) + " (" +
                   formatInteger(fit->layersOnGpu, st) + " MoE layers keep experts on the GPU)" +
                   (fit->hostShortBytes > 0
                        ? "; the GPU fits, the host RAM is " +
                              formatBytes(fit->hostShortBytes, units, st) + " short"
                        : std::string())
             : std::string("no --n-cpu-moe: even every expert in host RAM does not fit"),
         ""});
    return x;
}

// The last of N prompts that arrive together: the first prefill, each other running prompt's,
// one step; and before them, past the running slots, the rounds it waits.
std::string togetherArithmetic(const ServingPoint& p, const NumberStyle& st)
{
    std::string text = "last: ";
    const double rounds = double(p.users) / double(p.running);
    if (rounds > 1.0)
        text += formatNumber(rounds - 1.0, 2, st) + " × " + formatDuration(p.togetherRoundMs, st) +
                " waiting for a slot + ";
    text += formatDuration(p.togetherPrefillMs, st) + " first prefill";
    if (p.running > 1)
        text += " + " + formatInteger(p.running - 1, st) + " × " +
                formatDuration(p.togetherEachMoreMs, st) + " each further prompt";
    return text + " + " + formatDuration(p.stepMs, st) +
           " step = " + formatDuration(p.togetherTtftLastMs, st);
}

Row bandRow(const Scenario& s, SpeedFigure figure, const NumberStyle& st);

// What the prefix cache saves of the workload's shared prefix: the prefill, and where the
// engine shares blocks, the memory of every request's copy.
std::vector<Row> prefixCacheRows(const Scenario& s, const ServingCurve& c, const NumberStyle& st)
{
    const Workload& w = s.workload;
    if (w.sharedPrefixTokens <= 0)
        return {};
    const EngineModule& engine = engineModule(s.engine);
    if (c.cachedPrefixTokens == 0) {
        const bool has = s.engine.prefixCache.sharing != EngineProfile::PrefixCache::Sharing::None;
        return {{"prefix cache", has && !engine.cachesPrefixes(s) ? "off" : "none",
                 has && engine.cachesPrefixes(s)
                     ? "the shared " + formatInteger(w.sharedPrefixTokens, st) +
                           " tokens fill no whole " + formatInteger(s.engine.kvBlockTokens, st) +
                           "-token block"
                     : "every prompt is prefilled whole"}};
    }
    const double share = double(c.cachedPrefixTokens) / double(w.promptTokens);
    std::vector<Row> rows{
        {"prefix cache",
         formatInteger(c.cachedPrefixTokens, st) + " of " + formatInteger(w.promptTokens, st) +
             " prompt tokens (" + formatNumber(share * 100.0, 0, st) + " %)",
         "a request's prefill " + formatDuration(c.prefillMsUncached, st) + " → " +
             formatDuration(c.prefillMs, st) + ", the cached tokens skipped"}};
    if (c.prefixHeldOnce)
        rows.push_back({"requests whose KV fits", formatInteger(c.memoryConcurrency, st),
                        formatInteger(c.memoryConcurrencyUncached, st) +
                            " without the cache; each holds " +
                            formatInteger(c.kvTokensPerRequest - c.cachedPrefixTokens, st) +
                            " of its " + formatInteger(c.kvTokensPerRequest, st) +
                            " tokens, the prefix's blocks held once"});
    else
        rows.push_back({"prefix KV", "one copy per slot",
                        "each slot reuses its own last prompt: no memory is saved"});
    return rows;
}

// The scenario's engine serving its users, each sending the workload's average request.
Section servingSection(const Scenario& s, const NumberStyle& st)
{
    const Workload& w = s.workload;
    Section out{"Serving " + formatInteger(s.batch, st) + (s.batch == 1 ? " user" : " users") +
                    (s.replicas > 1 ? " per replica" : "") + ", requests of " +
                    formatInteger(w.promptTokens, st) + " + " + formatInteger(w.outputTokens, st) +
                    " tokens",
                {}};
    if (w.promptTokens + w.outputTokens > s.context) {
        out.rows.push_back({"refused", "longer than the context", "engines refuse the request"});
        return out;
    }
    const ServingCurve c = servingCurve(s);
    if (!c.unavailable.empty()) {
        out.rows.push_back({"does not run", c.unavailable, ""});
        return out;
    }
    const ServingPoint& p = c.atUsers;
    auto perS = [&](double v) { return formatTokensPerSecond(v, st) + " tokens/s"; };
    const std::string users = formatInteger(p.users, st) + (p.users == 1 ? " user" : " users");
    // Continuous batching: the running requests each take a token per step; a batch that runs
    // to its end also spends its prefill, so its rate is not running / step.
    const std::string allWhy =
        s.engine.serving.continuousBatching
            ? formatInteger(p.running, st) + " ÷ " + formatDuration(p.averageStepMs, st) +
                  " a step with every prompt's prefill = " + perS(p.aggregateTokensPerS)
            : "batches of " + formatInteger(p.running, st) + " run to their end, prefill included";
    // Past the KV capacity vLLM preempts: its share of the step, said where it is charged.
    std::string stepWhy;
    if (p.preemptionMs > 0)
        stepWhy = formatDuration(p.stepMs - p.preemptionMs, st) + " + " +
                  formatDuration(p.preemptionMs, st) +
                  (c.preemption == "swap" ? " swapping preempted requests' KV over PCIe"
                                          : " recomputing preempted requests");
    out.rows = {{"run at once", formatInteger(p.running, st),
                 "at most " + formatInteger(c.maxRunning, st) + ", set by " + c.limitedBy},
                {"output, all users", perS(p.aggregateTokensPerS), allWhy},
                {"output, each user", perS(p.perUserTokensPerS),
                 perS(p.aggregateTokensPerS) + " ÷ " + users + " (waiting included)"},
                {"time per output token", formatDuration(p.stepMs, st), stepWhy},
                {"time to first token (" + formatInteger(w.promptTokens, st) + "-token request, " +
                     users + ")",
                 formatDuration(p.ttftMs, st), "waiting included"}};
    if (p.users > 1)
        out.rows.push_back({"time to first token, " + users + "' prompts at once",
                            "mean " + formatDuration(p.togetherTtftMeanMs, st) + ", last " +
                                formatDuration(p.togetherTtftLastMs, st),
                            togetherArithmetic(p, st)});
    for (Row& row : prefixCacheRows(s, c, st))
        out.rows.push_back(std::move(row));
    // Data-parallel copies, each serving these users on its own GPUs.
    if (s.replicas > 1) {
        const std::string r = formatInteger(s.replicas, st);
        out.rows.push_back({"all " + r + " replicas",
                            formatInteger(p.users * s.replicas, st) + " users, " +
                                perS(p.aggregateTokensPerS * double(s.replicas)),
                            r + " × " + formatInteger(p.users, st) + " users; " + r + " × " +
                                perS(p.aggregateTokensPerS) + "; " + r + " × " +
                                formatInteger(s.gpuCount, st) + " = " +
                                formatInteger(int64_t(s.gpuCount) * s.replicas, st) + " GPUs"});
    }
    out.rows.push_back(bandRow(s, SpeedFigure::Tpot, st));
    out.rows.push_back(bandRow(s, SpeedFigure::Ttft, st));
    if (c.refusesUsers && c.swapSpaceShort)
        out.rows.insert(out.rows.begin(),
                        {"aborts", "past " + formatInteger(c.maxRunning, st) + " requests",
                         "a preempted request's KV does not fit the swap space; the figures "
                         "below are at " +
                             users});
    else if (c.refusesUsers)
        out.rows.insert(out.rows.begin(),
                        {"refused", "over " + formatInteger(c.maxRequests, st) + " requests",
                         "the figures below are at " + users});
    return out;
}

// What drafts for the scenario, as the section names it and as its draft pass is described.
struct DrafterWords
{
    std::string name;
    std::string pass;
    std::string decode;
};

DrafterWords drafterWords(const Scenario& s, const NumberStyle& st)
{
    const Speculation& sp = s.speculative;
    if (sp.draft)
        return {"draft model " + sp.draft->name, "a decode step of the draft model",
                "decode with the draft model"};
    if (sp.eagle != EagleMethod::Off) {
        const std::string name = std::string(eagleMethodName(sp.eagle)) + " head";
        return {name,
                "the head's layer, lm_head and KV over " + formatInteger(sp.eagleTopk, st) +
                    " token" + (sp.eagleTopk == 1 ? "" : "s") +
                    " a sequence, and a forward's fixed cost",
                "decode with the " + name};
    }
    return {formatInteger(s.model.mtpLayers, st) + " MTP layer" +
                (s.model.mtpLayers == 1 ? "" : "s"),
            "the MTP layers, the shared lm_head and their KV, and a forward's fixed cost",
            "decode with MTP"};
}

// Speculative decoding: tokens a step yields at the stated acceptance, and the step that
// drafts and checks them.
Section speculativeSection(const Scenario& s, const Evaluation& e, const Verdict& verdict,
                           const NumberStyle& st)
{
    const SpeculativeTiming& x = e.speculative;
    const std::string k = formatInteger(x.draftTokens, st);
    const std::string a = formatNumber(x.acceptance, 2, st);
    const DrafterWords drafter = drafterWords(s, st);
    Section out{"Speculative decoding (" + drafter.name + ")", {}};
    // What cannot run has no speed, as in the decode section.
    if (!verdict.runs) {
        out.rows.push_back({"does not run", "the scenario does not run (see above)", ""});
        return out;
    }
    const std::string tokens = formatNumber(x.tokensPerStep, 2, st);
    const std::string step = formatDuration(x.stepMs, st);
    const bool tree = x.verifiedTokens != x.draftTokens + 1;
    out.rows = {
        {"drafted tokens per step", k, "each accepted at " + a + " (stated, --acceptance-rate)"},
        {"tokens per step", tokens, speculativeTokensPerStep(x, st)},
        {"check (" + formatInteger(x.verifiedTokens, st) + " tokens a sequence)",
         formatDuration(x.verifyMs, st),
         tree ? "the model's step over the tree's best drafts and one more (--verify-tokens)"
              : "the model's step over the drafted tokens and one more"},
        {"one draft pass", formatDuration(x.draftMs, st), drafter.pass},
        {"step", step,
         formatDuration(x.verifyMs, st) + " + " + k + " × " + formatDuration(x.draftMs, st) +
             " = " + step},
        {drafter.decode, formatTokensPerSecond(x.tokensPerS, st) + " tokens/s",
         formatInteger(s.batch, st) + " × " + tokens + " ÷ " + step + " = " +
             formatTokensPerSecond(x.tokensPerS, st) + " tokens/s, " +
             formatNumber(x.speedup, 2, st) + "× decoding without it"}};
    return out;
}

// What every section formats with.
struct Formats
{
    ByteUnits units;
    const NumberStyle& st;
    std::string bytes(double b) const { return formatBytes(b, units, st); }
    std::string ms(double v) const { return formatDuration(v, st); }
    std::string tokens(int64_t t) const { return formatInteger(t, st) + " tokens"; }
};

Section kvSection(const Scenario& s, const Evaluation& e, const std::vector<Explanation>& why,
                  const Formats& fmt)
{
    Section kv{"KV cache",
               {{"per token per layer", fmt.bytes(e.kv.bytesPerTokenPerLayer), ""},
                {"per token", fmt.bytes(e.kv.bytesPerToken), explanationFor(why, "kv_per_token")},
                {"total", fmt.bytes(e.kv.totalBytes), explanationFor(why, "kv_total")}}};
    // A hybrid model's recurrent layers hold a fixed state per sequence beside the KV cache.
    if (s.model.recurrent.present())
        kv.rows.insert(kv.rows.begin() + 2,
                       {"recurrent state per sequence", fmt.bytes(e.kv.stateBytesPerSequence),
                        formatInteger(s.model.recurrent.count, fmt.st) + " " +
                            s.model.recurrent.kind + " layers"});
    return kv;
}

Section vramSection(const Scenario& s, const Evaluation& e, const std::vector<Explanation>& why,
                    const Formats& fmt)
{
    const VramSplit& v = e.vram;
    Section vram{"VRAM per GPU",
                 {{"capacity", fmt.bytes(v.capacityBytes), explanationFor(why, "capacity")},
                  {"engine budget", fmt.bytes(v.budgetBytes), ""},
                  {"weights", fmt.bytes(v.weightsBytes), explanationFor(why, "weights")},
                  {"KV cache", fmt.bytes(v.kvCacheBytes), ""},
                  {"activations", fmt.bytes(v.activationBytes), ""},
                  {"overhead", fmt.bytes(v.overheadBytes), explanationFor(why, "overhead")},
                  {v.fits ? "free" : "OVERFLOW", fmt.bytes(v.fits ? v.freeBytes : -v.freeBytes),
                   explanationFor(why, "fit")}}};
    // A vision-language model's image encoder sits in the weights and spends tokens per image.
    if (s.model.vision.parameters > 0)
        vram.rows.insert(vram.rows.begin() + 3,
                         {"of which vision encoder",
                          formatInteger(int64_t(e.parameters.vision), fmt.st) + " parameters",
                          formatInteger(s.model.vision.tokensPerImage, fmt.st) + " tokens per " +
                              s.model.vision.imageSize + " image"});
    return vram;
}

// A count GPU memory does not limit is said in words, never as its ceiling.
Section tokensFitSection(const Scenario& s, const Evaluation& e,
                         const std::vector<Explanation>& why, const Formats& fmt)
{
    const TokensFit& f = e.tokensFit;
    // The first row's detail says why (explain's longest_context).
    const std::string unbounded =
        f.room == KvRoom::NotOnGpu ? "not limited by GPU memory" : "unbounded";
    auto tokens = [&](int64_t count) {
        return f.contextUnbounded(count) ? unbounded : fmt.tokens(count);
    };
    const std::string sequences = f.concurrencyUnbounded()
                                      ? std::string("not limited by GPU memory")
                                      : formatInteger(f.maxConcurrency, fmt.st);
    Section fit{
        "Tokens that fit",
        {{"as configured (" + std::string(attentionKindId(s.model.attentionKind())) + ")",
          tokens(f.model), explanationFor(why, "longest_context")},
         {"MHA (" + formatInteger(s.model.queryHeads, fmt.st) + " KV heads)", tokens(f.mha), ""},
         {"GQA (" + formatInteger(f.gqaKvHeads, fmt.st) + " KV heads)", tokens(f.gqa), ""},
         {"MQA (1 KV head)", tokens(f.mqa), ""},
         {"sequences at this context", sequences, ""}}};
    // A scenario that does not run has no room today, but a shorter context shrinks its
    // activations too: the longest that runs, as the shorten-context remedy finds it.
    if (!verdictOf(s, e).runs) {
        const auto longest = longestRunningContext(s, s.context - 1);
        fit.rows.insert(
            fit.rows.begin(),
            {"longest context that runs", longest ? fmt.tokens(*longest) : std::string("none"),
             "at " + formatInteger(s.batch, fmt.st) + (s.batch == 1 ? " sequence" : " sequences") +
                 ", each context evaluated whole (activations shrink with it)"});
    }
    return fit;
}

// How far measured times of the scenario's speed class fell from kvscope's (issue 43), or that
// no measurement of the class exists: the band a reader signs the figure with. `what` names the
// time measured: "step time", "time per output token", "first token".
Row bandRow(const Scenario& s, SpeedFigure figure, const NumberStyle& st)
{
    const SpeedBand band = speedBandOf(s, figure);
    const std::string cls = band.classId;
    const std::string label =
        figure == SpeedFigure::Decode ? "measured against this"
        : figure == SpeedFigure::Tpot ? "time per output token, measured against this"
        : figure == SpeedFigure::Ttft ? "time to first token, measured against this"
                                      : "first token alone, measured against this";
    const std::string what = figure == SpeedFigure::Decode ? "step time"
                             : figure == SpeedFigure::Tpot ? "time per output token"
                                                           : "first token";
    if (!band.usable())
        return {label,
                band.cases == 0
                    ? "no band: no measurement of this class"
                    : "no band: " + formatInteger(band.cases, st) +
                          (band.cases == 1 ? " measurement" : " measurements") + " of this class",
                cls + " (engine/GPU class/dense or MoE/weights)"};
    auto signedPercent = [&](double x) {
        return (x >= 0 ? "+" : "-") + formatNumber(std::fabs(x) * 100, 0, st) + " %";
    };
    return {label,
            signedPercent(band.low) + " / " + signedPercent(band.high) + " " + what + " (" +
                formatInteger(band.cases, st) +
                (band.cases == 1 ? " measurement)" : " measurements)"),
            cls + ": validate's measured " + what + " / kvscope's - 1, " +
                (band.cases < 10 ? "lowest to highest" : "10th to 90th percentile")};
}

// A scenario that does not run shows no speed: its arithmetic is of the step it would take if it
// fitted, said so, without the tokens/s that step would give.
std::string ifItFitted(const Verdict& verdict, std::string arithmetic)
{
    if (verdict.runs || arithmetic.empty())
        return arithmetic;
    if (const size_t rate = arithmetic.rfind(" \u2192 "); rate != std::string::npos)
        arithmetic.erase(rate);
    return "if it fitted: " + arithmetic;
}

Section decodeSection(const Scenario& s, const Evaluation& e, const Verdict& verdict,
                      const std::vector<Explanation>& why, const Formats& fmt)
{
    const DecodeTiming& d = e.decode;
    Section section{
        "Decode per token",
        {{"KV on GPU", fmt.ms(d.tierMs[0]), ""},
         {"KV in CPU RAM, serial", fmt.ms(d.tierMs[1]), ""},
         {"KV in CPU RAM, pipelined", fmt.ms(d.tierMs[2]), ""},
         {"KV on NVMe (" + s.nvme.id + ")", fmt.ms(d.tierMs[3]), ""},
         {"KV on SATA", fmt.ms(d.tierMs[4]), ""},
         {s.gpu.unifiedMemory ? "host memory read" : "PCIe effective",
          formatRate(d.pcieEffectiveGBps, fmt.st), explanationFor(why, "pcie")},
         {"at the chosen placement",
          verdict.runs ? fmt.ms(d.selectedMs) + ", " + formatTokensPerSecond(d.tokensPerS, fmt.st) +
                             " tokens/s"
                       : "does not run (" + fmt.ms(d.selectedMs) + " if it fitted)",
          ifItFitted(verdict, explanationFor(why, "decode"))},
         bandRow(s, SpeedFigure::Decode, fmt.st),
         {"time to first token (" + formatInteger(s.context, fmt.st) + "-token prompt, alone)",
          verdict.runs ? fmt.ms(verdict.ttftMs) : "does not run",
          ifItFitted(verdict, explanationFor(why, "ttft"))},
         bandRow(s, SpeedFigure::TtftOneUser, fmt.st)}};
    // After the host link: what each step pays beside its reads.
    auto next = section.rows.begin() + 6;
    if (d.fixedMs > 0)
        next = section.rows.insert(next, {"fixed cost per step", fmt.ms(d.fixedMs),
                                          explanationFor(why, "fixed_cost")}) +
               1;
    if (d.interconnectMs > 0) // tensor parallel, pipeline stages
        section.rows.insert(next, {d.nodeHandovers + d.nodeAllReduces > 0 ? "GPU link and network"
                                   : d.allReduces > 0                     ? "GPU link (all-reduces)"
                                                                          : "GPU link (hand-overs)",
                                   fmt.ms(d.interconnectMs), explanationFor(why, "gpu_link")});
    return section;
}

// The model, the GPUs and their memory.
std::string headLine(const Scenario& s, const Formats& fmt)
{
    std::ostringstream head;
    head.imbue(std::locale::classic()); // separators come from NumberStyle only
    head << s.model.name << " on " << formatInteger(s.gpuCount, fmt.st) << " x " << s.gpu.name
         << " (" << fmt.bytes(s.gpu.memoryGiB * 1073741824.0) << ")";
    if (s.nodes > 1)
        head << " in " << formatInteger(s.nodes, fmt.st) << " nodes over " << s.nodeLink.name;
    return head.str();
}

// The formats, the engine, the workload and where the KV cache lives.
std::string setupLine(const Scenario& s, const NumberStyle& st)
{
    std::ostringstream setup;
    setup.imbue(std::locale::classic());
    setup << "weights " << s.weights.id << ", KV " << s.kvDtype.id << ", engine " << s.engine.id
          << ", context " << formatInteger(s.context, st) << ", batch "
          << formatInteger(s.batch, st);
    // Apple silicon has no host link: CPU and GPU share the one memory.
    if (s.gpu.unifiedMemory)
        setup << ", unified memory";
    else
        setup << ", PCIe " << s.pcie.gen << ".0 x" << s.pcieLanes;
    setup << ", KV on " << kvPlacementId(s.kvPlacement);
    if (s.profile)
        setup << ", machine profile " << s.profile->id;
    return setup.str();
}

// A summary's parts before they are laid out as plain text or Markdown.
struct Summary
{
    std::string head;
    std::string setup;
    std::string verdictLine;
    std::vector<std::string> cautions;
    std::vector<Section> sections;
};

std::string markdownSummary(const Summary& sum)
{
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out << "## kvscope: " << sum.head << "\n\n"
        << sum.setup << "\n\n**" << sum.verdictLine << "**\n";
    for (const std::string& caution : sum.cautions)
        out << "\n_" << caution << "_\n";
    for (const Section& section : sum.sections) {
        out << "\n### " << section.title << "\n\n| | | |\n|---|---:|---|\n";
        for (const Row& row : section.rows)
            out << "| " << row.label << " | " << row.value << " | " << row.detail << " |\n";
    }
    return out.str();
}

// Labels and values in columns as wide as the widest of any section.
std::string plainSummary(const Summary& sum)
{
    size_t labelWidth = 0, valueWidth = 0;
    for (const Section& section : sum.sections)
        for (const Row& row : section.rows)
            labelWidth = std::max(labelWidth, codePoints(row.label)),
            valueWidth = std::max(valueWidth, codePoints(row.value));
    std::ostringstream out;
    out.imbue(std::locale::classic());
    out << sum.head << "\n" << sum.setup << "\n" << sum.verdictLine << "\n";
    for (const std::string& caution : sum.cautions)
        out << caution << "\n";
    for (const Section& section : sum.sections) {
        out << "\n" << section.title << "\n";
        for (const Row& row : section.rows) {
            out << "  " << padColumns(row.label, labelWidth) << "  ";
            if (row.detail.empty())
                out << row.value;
            else
                out << padColumns(row.value, valueWidth) << "  " << row.detail;
            out << "\n";
        }
    }
    return out.str();
}

} // namespace

std::string textSummary(const Scenario& s, const Evaluation& e, ByteUnits units, SummaryStyle style,
                        const NumberStyle& st)
{
    const Formats fmt{units, st};
    const auto why = explain(s, e, units, st);
    const Verdict verdict = verdictOf(s, e);
    Summary sum{headLine(s, fmt), setupLine(s, st), verdictText(s, verdict, units, st), {}, {}};
    for (const Caution& caution : cautionsOf(s, e, verdict))
        sum.cautions.push_back(cautionText(caution, units, st));
    sum.sections = {kvSection(s, e, why, fmt), vramSection(s, e, why, fmt),
                    tokensFitSection(s, e, why, fmt), decodeSection(s, e, verdict, why, fmt)};
    if (e.engine.moeLayers > 0 && engineModule(s.engine).offloadsExperts())
        sum.sections.push_back(expertSection(s, e, why, units, st));
    if (e.speculative.draftTokens > 0)
        sum.sections.push_back(speculativeSection(s, e, verdict, st));
    sum.sections.push_back(servingSection(s, st));
    return style == SummaryStyle::Markdown ? markdownSummary(sum) : plainSummary(sum);
}

} // namespace kvscope
