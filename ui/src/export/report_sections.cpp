// SPDX-License-Identifier: GPL-3.0-or-later
// The report's text sections: what it says of the scenario (its inputs with their sources, the
// verdict and remedies, the key figures with their arithmetic, the assumptions, a comparison),
// as HTML for the page writer (report_writer.cpp) to lay out.
#include "export/report_writer.h"

#include "export/source_names.h"
#include "kvscope/engines/engine_module.h"
#include "kvscope/model/weights.h"
#include "kvscope/scenario/parallel_layout.h"
#include "panels/compare_page.h"
#include "panels/planner_text.h"
#include "window/ui_text.h"

#include <QRegularExpression>
#include <QUrl>

#include <cmath>
#include <iterator>

namespace kvscope::ui {

namespace {

QString esc(const std::string& text)
{
    return QString::fromStdString(text).toHtmlEscaped();
}

QString row(const QString& label, const QString& value, const QString& detail = QString())
{
    // Fixed shares of the width, the same in every table: the arithmetic and the sources get
    // nearly half, so they wrap less.
    return QStringLiteral(
               "<tr><td width='24%' style='color:#444'>%1</td><td width='30%'><b>%2</b></td>"
               "<td width='46%' style='color:#222; font-size:8.5pt'>%3</td></tr>")
        .arg(label, value, detail);
}

QString table(const QString& rows)
{
    return QStringLiteral(
               "<table width='100%' cellspacing='0' cellpadding='2' border='0'>%1</table>")
        .arg(rows);
}

// A source by name: a web page by its publisher (publisherName(); the address stays the link),
// a note as written.
QString link(const std::string& source)
{
    if (source.empty())
        return QStringLiteral("—");
    const QString s = QString::fromStdString(source);
    const qsizetype end = s.indexOf(QLatin1Char(' '));
    const QUrl url(end < 0 ? s : s.left(end));
    // A default kvscope fitted itself cites the file of measurements it was fitted on.
    if (s.startsWith(QLatin1String("resources/")))
        return ReportWriter::tr("kvscope's %1")
            .arg(s.section(QLatin1Char('/'), -1).toHtmlEscaped());
    if (!url.isValid() || !url.scheme().startsWith(QLatin1String("http")) || url.host().isEmpty())
        return s.toHtmlEscaped();
    return QStringLiteral("<a href='%1'>%2</a>%3")
        .arg(url.toString().toHtmlEscaped(), publisherName(url).toHtmlEscaped(),
             end < 0 ? QString() : s.mid(end).toHtmlEscaped());
}

} // namespace

// "home-3090: runtime overhead 281.8 MiB (KV cache 31,232 tokens logged; 30,624 predicted
// before)": what the profile sets and the measurement it was fitted to.
QString ReportWriter::profileText(const MachineProfile& p, ByteUnits units)
{
    QStringList parts;
    if (p.activationBytes && p.activationFit)
        parts << tr("%1 bytes per activation element (activation peak %2 logged; %3 predicted "
                    "before, %4 after)")
                     .arg(UiText::number(*p.activationBytes, 2),
                          UiText::bytes(p.activationFit->measured, units),
                          UiText::bytes(p.activationFit->before, units),
                          UiText::bytes(p.activationFit->after, units));
    if (p.runtimeOverheadMiB && p.kvFit) {
        // Fitted to the KV cache's size in tokens, or to the memory left for it.
        const bool tokens = p.kvFit->figure == "kv_cache_tokens";
        auto shown = [&](double v) {
            return tokens ? UiText::tokens(std::llround(v)) : UiText::bytes(v, units);
        };
        parts << tr("runtime overhead %1 MiB (KV cache %2 logged; %3 predicted before)")
                     .arg(UiText::number(*p.runtimeOverheadMiB, 1), shown(p.kvFit->measured),
                          shown(p.kvFit->before));
    }
    if (p.hbmEfficiency && p.decodeFit)
        parts << tr("memory bandwidth efficiency %1 (decode %2 tokens/s measured; %3 predicted "
                    "before)")
                     .arg(UiText::number(*p.hbmEfficiency, 3),
                          UiText::number(p.decodeFit->measured, 1),
                          UiText::number(p.decodeFit->before, 1));
    return esc(p.id) + QStringLiteral(": ") + parts.join(QStringLiteral("; ")).toHtmlEscaped();
}

// How the engine spreads and speeds the model beyond its GPUs: data-parallel attention, expert
// parallel, LoRA slots and a drafter, each a row where the scenario uses it.
QString ReportWriter::deploymentRows(const Scenario& s)
{
    QString rows;
    if (s.dpAttention) {
        // vLLM's ranks (tensor parallel 1) hold the dense layers whole too.
        const QString held =
            engineModule(s.engine).dataParallelRanksHoldDenseWhole()
                ? tr("%1 ranks: each holds whole attention and dense layers and its own "
                     "requests' KV")
                : tr("%1 ranks: each holds whole attention and its own requests' KV");
        rows += row(tr("Data-parallel attention"), held.arg(QString::number(attentionRanks(s))),
                    QString());
    }
    if (s.expertParallel)
        rows += row(tr("Expert parallel"),
                    tr("%1 GPUs hold whole experts, up to %2 of %3 a layer each")
                        .arg(QString::number(expertWays(s)),
                             QString::number(expertsOnFullestGpu(s.model, expertWays(s))),
                             QString::number(s.model.experts)),
                    QString());
    if (s.lora.maxLoras > 0)
        rows += row(tr("LoRA adapters"),
                    tr("%1 slots of rank %2 on every GPU, in the overhead")
                        .arg(UiText::integer(s.lora.maxLoras), UiText::integer(s.lora.maxRank)),
                    QString());
    if (s.speculative.draft)
        rows +=
            row(tr("Speculative decoding"),
                tr("%1 drafts %2 tokens a step, each accepted at %3 (stated)")
                    .arg(esc(s.speculative.draft->name), UiText::integer(s.speculative.draftTokens),
                         UiText::compact(s.speculative.acceptance)),
                QString());
    if (s.speculative.mtp)
        rows += row(tr("Speculative decoding"),
                    tr("%1 MTP layers draft %2 tokens a step, each accepted at %3 (stated)")
                        .arg(UiText::integer(s.model.mtpLayers),
                             UiText::integer(s.speculative.draftTokens),
                             UiText::compact(s.speculative.acceptance)),
                    QString());
    if (s.speculative.eagle != EagleMethod::Off)
        rows += row(tr("Speculative decoding"),
                    tr("%1 head drafts %2 passes a step, %3 tokens a pass; the model checks %4, "
                       "each accepted at %5 (stated)")
                        .arg(QString::fromLatin1(eagleMethodName(s.speculative.eagle)),
                             UiText::integer(s.speculative.draftTokens),
                             UiText::integer(s.speculative.eagleTopk),
                             UiText::integer(s.speculative.tokensVerified()),
                             UiText::compact(s.speculative.acceptance)),
                    QString());
    return rows;
}

QString ReportWriter::inputsHtml(const Scenario& s, ByteUnits units)
{
    // Each input beside the source its catalog numbers were read from.
    QString rows;
    rows += row(tr("Model"),
                esc(s.model.name) + (s.model.imported ? tr(" (imported config.json)") : QString()),
                link(s.model.source));
    rows += row(tr("Architecture"),
                tr("%1 layers, %2 query heads, %3 KV heads, head_dim %4, %5")
                    .arg(QString::number(s.model.layers), QString::number(s.model.queryHeads),
                         QString::number(s.model.kvHeads), QString::number(s.model.headDim),
                         UiText::attentionName(s.model.attentionKind())),
                QString());
    rows += row(tr("Weights"),
                esc(s.weights.name) +
                    tr(" (%1 bits per weight)").arg(UiText::compact(s.weights.bitsPerWeight)),
                link(s.weights.source));
    rows += row(tr("KV cache dtype"),
                esc(s.kvDtype.name) +
                    tr(" (%1 bits per element)").arg(UiText::compact(s.kvDtype.bitsPerElement)),
                link(s.kvDtype.source));
    rows += row(tr("GPU"),
                tr("%1 × %2 (%3 GiB, %4)")
                    .arg(QString::number(s.gpuCount), esc(s.gpu.name),
                         UiText::compact(s.gpu.memoryGiB), UiText::rate(s.gpu.bandwidthGBps)),
                link(s.gpu.source));
    if (s.nodes > 1)
        rows += row(tr("Nodes"),
                    tr("%1 nodes over %2: tensor parallel over %3 GPUs, %4 pipeline stages")
                        .arg(QString::number(s.nodes), esc(s.nodeLink.name),
                             QString::number(tensorWays(s)), QString::number(pipelineWays(s))),
                    link(s.nodeLink.source));
    rows += row(tr("Host link"),
                tr("PCIe %1.0 x%2").arg(QString::number(s.pcie.gen), QString::number(s.pcieLanes)),
                link(s.pcie.source));
    rows += row(tr("Context length"), UiText::tokens(s.context), QString());
    rows += row(tr("Concurrent sequences"), UiText::integer(s.batch), QString());
    rows += row(tr("Engine"), esc(s.engine.name), link(s.engine.source));
    rows += deploymentRows(s);
    if (s.workload.sharedPrefixTokens > 0) {
        const int64_t cached = engineModule(s.engine).cachedPrefixTokens(s);
        rows += row(tr("Shared prompt prefix"),
                    (cached > 0 ? tr("%1 of each %2-token prompt, %3 of them in the prefix cache")
                                      .arg(UiText::integer(s.workload.sharedPrefixTokens),
                                           UiText::integer(s.workload.promptTokens),
                                           UiText::integer(cached))
                                : tr("%1 of each %2-token prompt, not cached by the engine")
                                      .arg(UiText::integer(s.workload.sharedPrefixTokens),
                                           UiText::integer(s.workload.promptTokens))),
                    link(s.engine.source));
    }
    if (s.profile)
        rows += row(tr("Machine profile"), profileText(*s.profile, units), esc(s.profile->source));
    rows += row(tr("KV cache placement"), UiText::placementName(s.kvPlacement), QString());
    rows += row(tr("GPU memory fraction"), UiText::compact(s.effectiveMemoryFraction()), QString());
    rows += row(tr("NVMe drive"), esc(s.nvme.name), link(s.nvme.source));
    rows += row(tr("SATA drive"), esc(s.sata.name), link(s.sata.source));
    rows += row(tr("Host memory"),
                s.hostMemoryGBps ? tr("%1 (stated)").arg(UiText::rate(*s.hostMemoryGBps))
                                 : UiText::hostMemoryName(s.hostMemory.name).toHtmlEscaped(),
                s.hostMemoryGBps ? QString() : link(s.hostMemory.source));
    return table(rows);
}

QString ReportWriter::figuresHtml(const EvaluationSnapshot& snap, ByteUnits units)
{
    const Scenario& s = snap.scenario;
    const Evaluation& e = snap.evaluation;
    const auto all = UiText::explanations(s, e, units);
    // A number keeps its unit or noun on its line ("16.0 KiB", "2,048 トークン"); lines break
    // around the operators instead.
    static const QRegularExpression numberThenWord(QStringLiteral("(\\d) (?=[^\\s×÷+−=\\-(\\d])"));
    auto why = [&](const char* id) {
        return UiText::arithmetic(all, id)
            .replace(numberThenWord, QStringLiteral("\\1\u00A0"))
            .toHtmlEscaped();
    };
    auto bytes = [&](double b) { return UiText::bytes(b, units); };
    QString rows;
    // Each figure names its scope where several GPUs share the work: each GPU's, or all of them.
    const bool several = s.gpuCount > 1;
    rows += row(several ? tr("KV per token per GPU") : tr("KV per token"),
                bytes(e.kv.bytesPerToken), why("kv_per_token"));
    rows += row(several ? tr("KV cache per GPU") : tr("KV cache"), bytes(e.kv.totalBytes),
                why("kv_total"));
    rows += row(weightsCaption(s), bytes(e.weightsBytesTotal), why("weights"));
    const QString capacity = why("capacity");
    rows += row(tr("VRAM per GPU"), fitText(snap, units),
                capacity.isEmpty() ? why("fit") : capacity + QLatin1String("<br>") + why("fit"));
    // What cannot run has no speed: the would-be figure stays in the arithmetic beside it.
    const bool runs = snap.verdict.runs;
    // Its arithmetic too: "= 44.7 ms -> 179 tokens/s" beside "does not run" was a figure.
    rows += row(tr("Decode"),
                runs ? tr("%1 per token, %2 tokens/s")
                           .arg(UiText::duration(e.decode.selectedMs),
                                UiText::tokensPerSecond(e.decode.tokensPerS))
                     : tr("does not run"),
                runs ? why("decode") : QString());
    if (runs)
        rows += row(tr("Measured against this"), UiText::decodeBandRange(s), UiText::decodeBand(s));
    if (runs && e.speculative.draftTokens > 0)
        rows += row(tr("Decode with drafting"),
                    tr("%1 tokens/s, %2× without it")
                        .arg(UiText::tokensPerSecond(e.speculative.tokensPerS),
                             UiText::number(e.speculative.speedup, 2)),
                    why("speculative"));
    rows += row(tr("Time to first token"),
                runs ? UiText::duration(snap.verdict.ttftMs) : tr("does not run"),
                runs ? why("ttft") : QString());
    if (e.vram.expertsOffloadedBytes > 0) { // llama.cpp --n-cpu-moe
        rows += row(tr("Experts in host RAM"),
                    tr("%1 of %2 MoE layers, %3")
                        .arg(UiText::integer(e.engine.expertLayersOnHost),
                             UiText::integer(e.engine.moeLayers),
                             bytes(e.vram.expertsOffloadedBytes * double(s.gpuCount))),
                    why("experts_offloaded"));
        rows += row(tr("CPU share of a decode step"), UiText::duration(e.decode.hostExpertsMs),
                    why("host_experts"));
    }
    rows += row(tr("PCIe effective"), UiText::rate(e.decode.pcieEffectiveGBps), why("pcie"));
    rows += row(tr("Longest context"), longestContextText(s, e), why("longest_context"));
    return table(rows);
}

// The longest context each sequence holds, as the window's tile says it: "—" where none runs,
// "unbounded" where GPU memory limits none (the count is then a ceiling, no figure), and the
// model's trained maximum beside a count past it.
QString ReportWriter::longestContextText(const Scenario& s, const Evaluation& e)
{
    const TokensFit& f = e.tokensFit;
    const int64_t n = f.perSequence;
    if (n <= 0)
        return QStringLiteral("—");
    if (f.contextUnbounded(n))
        return tr("unbounded");
    if (s.model.maxContext > 0 && n > s.model.maxContext)
        return tr("%1 (the model is trained to %2)")
            .arg(UiText::tokens(n), UiText::contextShort(double(s.model.maxContext)));
    return UiText::tokens(n);
}

// Whether the scenario's memory fits, as the verdict says it: VRAM that fits with host RAM short
// does not read "fits".
QString ReportWriter::fitText(const EvaluationSnapshot& snap, ByteUnits units)
{
    const VramSplit& v = snap.evaluation.vram;
    const Verdict& verdict = snap.verdict;
    if (!v.fits)
        return tr("overflows by %1").arg(UiText::bytes(-v.freeBytes, units));
    if (verdict.binding == Binding::HostRam && !verdict.runs)
        return tr("fits, %1 free; host RAM short by %2")
            .arg(UiText::bytes(v.freeBytes, units), UiText::bytes(verdict.shortBytes(), units));
    return tr("fits, %1 free").arg(UiText::bytes(v.freeBytes, units));
}

// The weights are counted over every GPU that holds them.
QString ReportWriter::weightsCaption(const Scenario& s)
{
    return s.gpuCount > 1 ? tr("Weights, all %1 GPUs").arg(UiText::integer(s.gpuCount))
                          : tr("Weights");
}

QString ReportWriter::keyFiguresHtml(const EvaluationSnapshot& snap, ByteUnits units)
{
    const Evaluation& e = snap.evaluation;
    auto bytes = [&](double b) { return UiText::bytes(b, units); };
    const bool runs = snap.verdict.runs;
    const QString none = QStringLiteral("—");
    const std::pair<QString, QString> figures[] = {
        {tr("VRAM per GPU"), fitText(snap, units)},
        {weightsCaption(snap.scenario), bytes(e.weightsBytesTotal)},
        {snap.scenario.gpuCount > 1 ? tr("KV cache per GPU") : tr("KV cache"),
         bytes(e.kv.totalBytes)},
        // What cannot run has no speed.
        {tr("Decode"),
         runs ? tr("%1 tokens/s").arg(UiText::tokensPerSecond(e.decode.tokensPerS)) : none},
        {tr("Time to first token"), runs ? UiText::duration(snap.verdict.ttftMs) : none},
        {tr("Longest context"), longestContextText(snap.scenario, e)},
    };
    // Three to a row, each a caption over its value, as the window's headline strip shows them.
    // Caption and value in paragraphs of their own: after a line break a value takes the script
    // of the Japanese caption before it, and with it the CJK font, in some cells and not others.
    QString cells;
    for (size_t i = 0; i < std::size(figures); ++i) {
        if (i % 3 == 0)
            cells += QStringLiteral("<tr>");
        cells += QStringLiteral("<td width='33%'><p style='margin:0; color:#444'>%1</p>"
                                "<p style='margin:0; font-size:13pt'><b>%2</b></p></td>")
                     .arg(figures[i].first.toHtmlEscaped(), figures[i].second.toHtmlEscaped());
        if (i % 3 == 2)
            cells += QStringLiteral("</tr>");
    }
    // Room above: after the remedies' list the captions ran into its last line.
    return QStringLiteral("<table width='100%' cellspacing='0' cellpadding='2' border='0' "
                          "style='margin-top:12px'>%1</table>")
        .arg(cells);
}

QString ReportWriter::assumptionsHtml(const Scenario& s, const Catalog& catalog)
{
    QString rows;
    for (const EfficiencyFactor& f : catalog.efficiencyFactors) {
        const double* value = efficiencyField(s.efficiency, f.id);
        // As many digits as the value has ("6,000", "0.92"), not "6,000.00".
        rows += row(UiText::efficiencyName(f.id),
                    value ? UiText::compact(*value, 3) : QStringLiteral("—"), link(f.source));
    }
    // What the decode step's fixed cost comes to under this engine: the factor above that
    // applies (with or without CUDA graphs), the engine's own per-layer dispatch and per-step
    // cost; the factors alone read "0 µs" beside a 15.1 ms fixed cost in the arithmetic.
    const EngineModule& engine = engineModule(s.engine);
    const double perLayerUs = engine.layerOverheadUs(s), perStepUs = engine.forwardOverheadUs(s);
    rows += row(tr("Fixed cost per decode step, this engine"),
                tr("%1 layers × %2 µs + %3 µs = %4")
                    .arg(UiText::integer(s.model.layers), UiText::compact(perLayerUs, 1),
                         UiText::compact(perStepUs, 1),
                         UiText::duration((double(s.model.layers) * perLayerUs + perStepUs) / 1e3)),
                link(s.engine.source));
    // Which prices the plan's costs are: rented and bought are never mixed.
    const GpuPrice& price = s.gpu.prices.on(s.cost.basis);
    rows += row(tr("Cost basis"), PlannerText::costBasis(s),
                price.kind == GpuPrice::Kind::Unknown ? QString() : link(price.source));
    rows += row(tr("Runtime overhead"),
                tr("%1 MiB").arg(UiText::number(s.engine.runtimeOverheadMiB, 0)),
                link(s.engine.source));
    rows += row(tr("CUDA graphs"), tr("%1 MiB").arg(UiText::number(s.engine.cudaGraphMiB, 0)),
                link(s.engine.source));
    if (const double buffers = tensorParallelBufferMiB(s); buffers > 0)
        rows += row(tr("Tensor-parallel buffers per GPU"),
                    tr("%1 MiB").arg(UiText::number(buffers, 0)), link(s.engine.source));
    rows += row(tr("KV block size"), UiText::tokens(s.engine.kvBlockTokens), link(s.engine.source));
    rows += row(tr("Prefill chunk"),
                s.engine.prefillChunkTokens > 0 ? UiText::tokens(s.engine.prefillChunkTokens)
                                                : tr("whole prompt"),
                link(s.engine.source));
    return table(rows);
}

QString ReportWriter::comparisonHtml(const EvaluationSnapshot& snap, ByteUnits units)
{
    if (snap.pinned->empty())
        return {};
    auto comparison = compareScenarios(comparedScenarios(snap));
    if (!comparison)
        return {};
    return QStringLiteral("<h2>%1</h2><p>%2</p>%3")
        .arg(tr("Comparison"),
             tr("Each figure with its change against %1; the charts draw every scenario.")
                 .arg(ChartBase::pinnedName(0, snap.pinned->front().name).toHtmlEscaped()),
             ComparePage::tableHtml(*comparison, units));
}

// The verdict first, as the headline strip says it; when the scenario does not run or misses a
// target, what would change that, in the order to try.
QString ReportWriter::verdictHtml(const EvaluationSnapshot& snap, const Catalog& catalog,
                                  ByteUnits units)
{
    QString html =
        QStringLiteral("<p><b>%1</b></p>")
            .arg(PlannerText::verdict(snap.scenario, snap.verdict, units).toHtmlEscaped());
    for (const Caution& caution : cautionsOf(snap.scenario, snap.evaluation, snap.verdict))
        html += QStringLiteral("<p style='color:#7a4f00'>%1</p>")
                    .arg(PlannerText::caution(caution, units).toHtmlEscaped());
    const std::vector<Remedy> found = remedies(snap.scenario, snap.verdict, catalog);
    if (found.empty())
        return html;
    html += QStringLiteral("<p>%1</p><ol>").arg(tr("What would make it run, in the order to try:"));
    for (const Remedy& r : found)
        html += QStringLiteral("<li><b>%1</b>: %2</li>")
                    .arg(PlannerText::remedyTitle(r).toHtmlEscaped(),
                         PlannerText::remedyEffect(r, units).toHtmlEscaped());
    return html + QStringLiteral("</ol>");
}

} // namespace kvscope::ui
