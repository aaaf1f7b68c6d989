// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/planner_text.h"

#include "window/ui_text.h"

#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace kvscope::ui {

namespace {
QString q(const std::string& s)
{
    return QString::fromStdString(s);
}

// "gpu" -> "GPU VRAM" in the window's language.
QString placementName(const std::string& id)
{
    KvPlacement placement = KvPlacement::Gpu;
    return parseKvPlacement(id, &placement) ? UiText::placementName(placement) : q(id);
}
} // namespace

QString PlannerText::caution(const Caution& c, ByteUnits units)
{
    switch (c.kind) {
    case CautionKind::ContextBeyondModel:
        return tr("Caution: a context of %1 tokens is past the model's trained maximum of %2; "
                  "quality past it is not assured.")
            .arg(UiText::integer(int64_t(c.value)), UiText::integer(int64_t(c.limit)));
    case CautionKind::LowHeadroom:
        return tr("Caution: only %1 (%2 %) of the %3 budget per GPU is left free; allocator "
                  "fragmentation or a longer prompt may overflow it.")
            .arg(UiText::bytes(c.value, units), UiText::number(100.0 * c.value / c.limit, 1),
                 UiText::bytes(c.limit, units));
    case CautionKind::EngineLacksSetting: {
        QStringList offered;
        for (const std::string& id : c.offered)
            offered << q(id);
        const QString list = offered.join(tr(", "));
        if (c.setting == EngineSetting::GpuVendor)
            return tr("Caution: %1 does not run on %2 GPUs (it runs on %3); the figures are "
                      "what it would take if it did.")
                .arg(q(c.engine), q(c.given), list);
        if (c.setting == EngineSetting::KvPlacement)
            return tr("Caution: %1 does not decode from a KV cache in %2 (it offers %3); the "
                      "figures are what it would take if it did.")
                .arg(q(c.engine), placementName(c.given), [&] {
                    QStringList names;
                    for (const std::string& id : c.offered)
                        names << placementName(id);
                    return names.join(tr(", "));
                }());
        if (c.setting == EngineSetting::Weights)
            return tr("Caution: %1 does not load weights in %2 (it offers %3); the figures are "
                      "what it would take if it did.")
                .arg(q(c.engine), q(c.given), list);
        return tr("Caution: %1 does not load a KV cache in %2 (it offers %3); the figures are "
                  "what it would take if it did.")
            .arg(q(c.engine), q(c.given), list);
    }
    case CautionKind::LossyWeights:
        return tr("Caution: %1 weights (%2 bits) lose accuracy: Llama 3.1's 4-bit (W4A16) "
                  "checkpoints keep 97.5 % (8B) to 99.8 % (70B) of the 16-bit model's OpenLLM v1 "
                  "score (Neural Magic, %3); check your own task.")
            .arg(q(c.given), UiText::number(c.value, 2), q(c.source));
    case CautionKind::LossyKvCache:
        return tr("Caution: a %1 KV cache (%2 bits) loses accuracy: q4_0 raised Qwen3-8B's "
                  "perplexity 2.2 % over f16 and Qwen3-0.6B's 3.5-fold (%3); check your own task "
                  "at your context length.")
            .arg(q(c.given), UiText::number(c.value, 1), q(c.source));
    case CautionKind::GeForceLicence:
        return tr("Caution: NVIDIA's GeForce driver licence does not allow datacenter deployment "
                  "(2.1.3, %1); a GeForce card belongs on a desk, or with a provider licensed for "
                  "it.")
            .arg(q(c.source));
    }
    return {};
}

QString PlannerText::cautionTag(const Caution& c)
{
    switch (c.kind) {
    case CautionKind::LossyWeights:
        return tr("lossy weights");
    case CautionKind::LossyKvCache:
        return tr("lossy KV cache");
    case CautionKind::GeForceLicence:
        return tr("GeForce licence");
    case CautionKind::ContextBeyondModel:
    case CautionKind::LowHeadroom:
    case CautionKind::EngineLacksSetting:
        break;
    }
    return tr("caution");
}

QString PlannerText::cautions(const std::vector<Caution>& cautions, ByteUnits units)
{
    QStringList lines;
    for (const Caution& c : cautions)
        lines << caution(c, units);
    return lines.join(QLatin1Char('\n'));
}

QString PlannerText::verdict(const Scenario& s, const Verdict& v, ByteUnits units)
{
    // Short enough for one line of the headline strip on a laptop: the GPU is named beside it.
    auto bytes = [&](double b) { return UiText::bytes(b, units); };
    switch (v.binding) {
    case Binding::None: {
        QString text =
            tr("Runs: %1 of %2 per GPU.").arg(bytes(v.neededBytes), bytes(v.offeredBytes));
        if (v.missesTokensPerS)
            text +=
                QLatin1Char(' ') + tr("Misses the target of %1 tokens/s per sequence: %2.")
                                       .arg(UiText::tokensPerSecond(s.targets.minTokensPerSUser),
                                            UiText::tokensPerSecond(v.tokensPerSUser));
        if (v.missesTtft)
            text +=
                QLatin1Char(' ') +
                (s.batch > 1 ? tr("Misses the target of %1 to the first token: %2 for the "
                                  "last of %3 prompts sent together.")
                                   .arg(UiText::duration(s.targets.maxTtftMs),
                                        UiText::duration(v.ttftLastMs), UiText::integer(s.batch))
                             : tr("Misses the target of %1 to the first token: %2.")
                                   .arg(UiText::duration(s.targets.maxTtftMs),
                                        UiText::duration(v.ttftLastMs)));
        return text;
    }
    case Binding::HostRam:
        if (v.hostRamBasis == HostRamBasis::Platform)
            return tr("Does not fit in host RAM: the offloaded part needs %1; %3 is usual for %2 "
                      "systems (state yours under Advanced).")
                .arg(bytes(v.hostNeededBytes), QString::fromStdString(s.gpu.name),
                     bytes(v.hostOfferedBytes));
        return tr("Does not fit in host RAM: the offloaded part needs %1; the host has %2.")
            .arg(bytes(v.hostNeededBytes), bytes(v.hostOfferedBytes));
    case Binding::Weights:
        return tr("Does not fit: needs %1 per GPU, %2 available; the weights alone exceed it.")
            .arg(bytes(v.neededBytes), bytes(v.offeredBytes));
    case Binding::Activations:
        return tr("Does not fit: needs %1 per GPU, %2 available; the activation peak overflows.")
            .arg(bytes(v.neededBytes), bytes(v.offeredBytes));
    case Binding::HeadSplit:
        if (s.model.queryHeads % std::max(1, s.gpuCount) == 0) // the KV heads are what do not
            return tr("Does not start: %1 KV heads and %2 GPUs (tensor parallel) do not divide "
                      "one another.")
                .arg(UiText::integer(s.model.kvHeads), UiText::integer(s.gpuCount));
        return tr("Does not start: %1 attention heads do not split evenly over %2 GPUs (tensor "
                  "parallel).")
            .arg(UiText::integer(s.model.queryHeads), UiText::integer(s.gpuCount));
    case Binding::KvCache: {
        QString text =
            tr("Does not fit: needs %1 per GPU, %2 available; the KV cache is %3 too large.")
                .arg(bytes(v.neededBytes), bytes(v.offeredBytes), bytes(v.shortBytes()));
        if (v.runsAtOnce > 0)
            text += QLatin1Char(' ') +
                    tr("%1 still starts and runs %2 of the %3 sequences at once; the others "
                       "wait (see the serving view).")
                        .arg(QString::fromStdString(s.engine.shortName),
                             UiText::integer(v.runsAtOnce), UiText::integer(s.batch));
        return text;
    }
    }
    return QString();
}

QString PlannerText::remedyTitle(const Remedy& r)
{
    const Scenario& s = r.scenario;
    switch (r.kind) {
    case RemedyKind::QuantizeWeights8:
        return tr("Quantize the weights to 8 bits (%1)").arg(q(s.weights.name));
    case RemedyKind::QuantizeWeights4:
        return tr("Quantize the weights to 4 bits (%1)").arg(q(s.weights.name));
    case RemedyKind::QuantizeKv:
        return tr("Quantize the KV cache (%1)").arg(q(s.kvDtype.name));
    case RemedyKind::OffloadExperts:
        return tr("Keep the experts of the first %1 layers in host RAM (--n-cpu-moe %2)")
            .arg(UiText::integer(s.cpuMoeLayers), QString::number(s.cpuMoeLayers));
    case RemedyKind::OffloadWeights:
        if (s.gpuLayers)
            return tr("Keep %1 of %2 layers on the GPU (-ngl)")
                .arg(UiText::integer(*s.gpuLayers), UiText::integer(s.model.layers));
        return tr("Offload weights to CPU RAM (device_map=\"auto\")");
    case RemedyKind::OffloadKv:
        return tr("Keep the KV cache in CPU RAM");
    case RemedyKind::PagedEngine:
        return tr("Serve with %1 (paged KV cache)").arg(q(s.engine.name));
    case RemedyKind::ShorterContext:
        return tr("Shorten the context to %1").arg(UiText::tokens(s.context));
    case RemedyKind::FewerSequences:
        return tr("Run %n sequence(s) at once", nullptr, int(s.batch));
    case RemedyKind::MoreGpus:
        return tr("Use %1 × %2").arg(UiText::integer(s.gpuCount), q(s.gpu.name));
    case RemedyKind::LargerGpu:
        return s.gpuCount > 1 ? tr("Use %1 × %2").arg(UiText::integer(s.gpuCount), q(s.gpu.name))
                              : tr("Use %1").arg(q(s.gpu.name));
    case RemedyKind::QuantizeOnMoreGpus:
        return tr("Quantize the weights (%1) and use %2 × %3 under %4")
            .arg(q(s.weights.name), UiText::integer(s.gpuCount), q(s.gpu.name), q(s.engine.name));
    case RemedyKind::ShorterContextSmallerKv:
        return tr("Shorten the context to %1, the KV cache in %2")
            .arg(UiText::tokens(s.context), q(s.kvDtype.name));
    case RemedyKind::MoreNodes:
        return tr("Spread over %1 nodes of %2 × %3 under %4")
            .arg(UiText::integer(s.nodes), UiText::integer(s.gpuCount / s.nodes), q(s.gpu.name),
                 q(s.engine.name));
    }
    return QString();
}

QString PlannerText::remedyEffect(const Remedy& r, ByteUnits units)
{
    // Where it is short, as the verdict says: experts moved to the host can leave the GPU
    // fitting and the host RAM short.
    if (!r.verdict.runs && r.verdict.binding == Binding::HostRam)
        return tr("still does not fit: host RAM is %1 short (the offloaded part needs %2, the "
                  "host has %3)")
            .arg(UiText::bytes(r.verdict.shortBytes(), units),
                 UiText::bytes(r.verdict.hostNeededBytes, units),
                 UiText::bytes(r.verdict.hostOfferedBytes, units));
    if (!r.verdict.runs)
        return tr("still does not fit: %1 short on each GPU")
            .arg(UiText::bytes(r.verdict.shortBytes(), units));
    QString text = r.verdict.meetsTargets() ? tr("runs") : tr("runs, misses a target");
    // A count GPU memory does not limit is said so, never shown as its ceiling.
    const QString unlimited = tr("not limited by GPU memory");
    text += tr("; up to %1 per sequence, %2 at once")
                .arg(r.longestContext ? UiText::tokens(*r.longestContext) : unlimited,
                     r.concurrency ? UiText::integer(*r.concurrency) : unlimited);
    text += tr("; decode %1 (%2 tokens/s)")
                .arg(UiText::duration(r.decodeMs), UiText::tokensPerSecond(r.tokensPerS));
    if (r.cost.known)
        text += tr("; %1/h").arg(money(r.cost.perHour, r.scenario.cost.currency));
    return text;
}

QStringList PlannerText::split(const Scenario& s)
{
    QStringList parts;
    if (s.tensorAcrossNodes)
        parts << tr("TP %1").arg(UiText::integer(s.gpuCount));
    if (s.dpAttention)
        parts << tr("DP attention");
    return parts;
}

QString PlannerText::gpus(const Scenario& s, bool withSplit)
{
    QString text = s.nodes > 1
                       ? tr("%1 nodes × %2 × %3")
                             .arg(UiText::integer(s.nodes), UiText::integer(s.gpuCount / s.nodes),
                                  shortName(s.gpu.name))
                       : tr("%1 × %2").arg(UiText::integer(s.gpuCount), shortName(s.gpu.name));
    // A split other than the default (tensor parallel in each node, a stage per node).
    if (withSplit)
        for (const QString& part : split(s))
            text = tr("%1, %2").arg(text, part);
    // A count stays with its GPU: a sentence broke "4" from "× RTX 4060 Ti 16GB".
    return QString(text).replace(QStringLiteral(" × "), QStringLiteral("\u00A0×\u00A0"));
}

QString PlannerText::shortName(const std::string& name)
{
    QString s = QString::fromStdString(name);
    s.remove(QRegularExpression(QStringLiteral("\\s*\\(.*\\)")));
    for (const char* word : {"NVIDIA ", "GeForce ", "Tesla ", "AMD Instinct ", "AMD ", "Apple ",
                             " Workstation Edition", " Generation", "Hugging Face "})
        s.remove(QLatin1String(word));
    return s.trimmed();
}

QString PlannerText::costBasis(const Scenario& s)
{
    if (s.cost.basis == CostBasis::Rent)
        return tr("rented GPU-hours at the catalog's on-demand prices");
    return tr("owned: the purchase price over %1 years, with the host's share, power (TDP × %2 "
              "× PUE %3 × %4 USD/kWh) and colocation")
        .arg(UiText::compact(s.cost.amortizationYears, 1), UiText::compact(s.cost.utilization, 2),
             UiText::compact(s.cost.pue, 2), UiText::compact(s.cost.electricityUsdPerKwh, 3));
}

QString PlannerText::money(double amount, const std::string& currency)
{
    return QStringLiteral("%1 %2").arg(UiText::number(amount, std::fabs(amount) < 1000 ? 2 : 0),
                                       q(currency));
}

} // namespace kvscope::ui
