// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/ui_text.h"

#include "kvscope/scenario/speed_class.h"

#include "kvscope/settings/settings_registry.h"

#include <QCoreApplication>
#include <QLocale>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>
#include <utility>

namespace kvscope::ui {

QString UiText::fieldError(const FieldError& error)
{
    const QString field = QString::fromStdString(error.field);
    const QString accepted = QString::fromStdString(error.accepted);
    if (error.value.empty())
        return tr("%1 is missing. Accepted: %2").arg(field, accepted);
    return tr("%1: %2 is not accepted. Accepted: %3")
        .arg(field, QString::fromStdString(error.value), accepted);
}

NumberStyle UiText::numberStyle()
{
    const QLocale locale;
    NumberStyle style;
    style.decimalPoint = QString(locale.decimalPoint()).toStdString();
    style.groupSeparator = QString(locale.groupSeparator()).toStdString();
    return style;
}

QString UiText::bytes(double value, ByteUnits units)
{
    return QString::fromStdString(formatBytes(value, units, numberStyle()));
}

QString UiText::duration(double ms)
{
    return QString::fromStdString(formatDuration(ms, numberStyle()));
}

QString UiText::rate(double gbPerS)
{
    return QString::fromStdString(formatRate(gbPerS, numberStyle()));
}

QString UiText::integer(int64_t value)
{
    return QString::fromStdString(formatInteger(value, numberStyle()));
}

QString UiText::number(double value, int decimals)
{
    return QString::fromStdString(formatNumber(value, decimals, numberStyle()));
}

QString UiText::logTick(double tick)
{
    // Ticks stepped several decades at a time come out a hair off a power of ten (0.9999999 for
    // 1), which must not print as "1.0".
    if (const double e = std::round(std::log10(tick)); std::fabs(std::log10(tick) - e) < 1e-6)
        tick = std::pow(10.0, e);
    static const std::pair<double, const char*> suffixes[] = {
        {1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "K"}};
    // From 1,000 on with a suffix, so one axis never mixes "1,000" with "10K".
    if (tick >= 1e3)
        for (const auto& [scale, suffix] : suffixes)
            if (tick >= scale)
                return compact(tick / scale, 1) + QLatin1String(suffix);
    if (tick >= 1)
        return compact(tick, 1);
    const int decimals = int(std::ceil(-std::log10(tick) - 1e-9)) + 1;
    return compact(tick, std::clamp(decimals, 1, 7));
}

QString UiText::compact(double value, int decimals)
{
    QString text = number(value, decimals);
    const QString point = QLocale().decimalPoint();
    if (text.contains(point)) {
        while (text.endsWith(QLatin1Char('0')))
            text.chop(1);
        if (text.endsWith(point))
            text.chop(point.size());
    }
    return text;
}

QString UiText::tokensPerSecond(double value)
{
    return QString::fromStdString(formatTokensPerSecond(value, numberStyle()));
}

QString UiText::tokens(int64_t count)
{
    return tr("%1 tokens").arg(integer(count));
}

QString UiText::scenarioSubtitle(const Scenario& s)
{
    const QString gpus =
        s.nodes > 1
            ? tr("%1 × %2 in %3 nodes")
                  .arg(integer(s.gpuCount), QString::fromStdString(s.gpu.name), integer(s.nodes))
            : tr("%1 × %2").arg(integer(s.gpuCount), QString::fromStdString(s.gpu.name));
    return tr("%1 · %2 · %3 · context %4 × %5 seq. · %6")
        .arg(QString::fromStdString(s.model.name), QString::fromStdString(s.weights.name), gpus,
             contextShort(double(s.context)), integer(s.batch),
             QString::fromStdString(s.engine.name));
}

QString UiText::contextShort(double tokens)
{
    const double value = std::round(tokens);
    if (value >= 1048576 && std::fmod(value, 1048576) == 0)
        return QStringLiteral("%1M").arg(value / 1048576);
    if (value >= 1024 && std::fmod(value, 1024) == 0)
        return QStringLiteral("%1K").arg(value / 1024);
    return integer(int64_t(value));
}

QString UiText::tierName(Tier tier)
{
    switch (tier) {
    case Tier::Gpu:
        return tr("KV on GPU");
    case Tier::CpuSerial:
        return tr("CPU RAM, serial");
    case Tier::CpuPipelined:
        return tr("CPU RAM, pipelined");
    case Tier::Nvme:
        return tr("NVMe SSD");
    case Tier::Sata:
        return tr("SATA SSD");
    }
    return {};
}

QString UiText::reloadTierName(ReloadTier tier)
{
    switch (tier) {
    case ReloadTier::CpuRam:
        return tr("reload from CPU RAM");
    case ReloadTier::Nvme:
        return tr("reload from NVMe");
    case ReloadTier::Sata:
        return tr("reload from SATA");
    }
    return {};
}

QString UiText::placementName(KvPlacement placement)
{
    switch (placement) {
    case KvPlacement::Gpu:
        return tr("GPU VRAM");
    case KvPlacement::CpuRam:
        return tr("CPU RAM (over PCIe)");
    case KvPlacement::Nvme:
        return tr("NVMe SSD");
    case KvPlacement::Sata:
        return tr("SATA SSD");
    }
    return {};
}

QString UiText::attentionName(AttentionKind kind)
{
    switch (kind) {
    case AttentionKind::Mha:
        return tr("MHA");
    case AttentionKind::Gqa:
        return tr("GQA");
    case AttentionKind::Mqa:
        return tr("MQA");
    case AttentionKind::Mla:
        return tr("MLA");
    }
    return {};
}

ExplainWords UiText::explainWords()
{
    ExplainWords w;
    auto s = [](const QString& text) { return text.toStdString(); };
    w.layers = s(tr("layers"));
    w.kvHeads = s(tr("KV heads"));
    w.headDim = s(tr("head_dim"));
    w.tokens = s(tr("tokens"));
    w.sequences = s(tr("sequences"));
    w.windowed = s(tr("windowed layers hold"));
    w.latent = s(tr("latent"));
    w.parameters = s(tr("parameters"));
    w.embeddings = s(tr("embeddings"));
    w.expertParameters = s(tr("expert parameters"));
    w.otherParameters = s(tr("other parameters"));
    w.paddedForKernel = s(tr("as the GPU's MoE kernel pads them"));
    w.scalesHeldTwice = s(tr("scales held twice"));
    w.noteOpen =
        s(tr(" (", "opens a note in a formula, e.g. \"12 B parameters (padded) x 4 bit\""));
    w.noteClose = s(tr(")", "closes a note in a formula"));
    w.weights = s(tr("weights"));
    w.kvCache = s(tr("KV"));
    w.activations = s(tr("activations"));
    w.overhead = s(tr("overhead"));
    w.free = s(tr("free"));
    w.forKv = s(tr("for KV"));
    w.perToken = s(tr("per token"));
    w.lanes = s(tr("lanes"));
    w.fits = s(tr("fits"));
    w.overflows = s(tr("overflows by"));
    w.fixedCost = s(tr("fixed"));
    w.gpuLink = s(tr("GPU link"));
    w.allReduces = s(tr("all-reduces"));
    w.gpuHandover = s(tr("hand-over between GPUs"));
    w.gpuHandovers = s(tr("hand-overs between GPUs"));
    w.nodeHandover = s(tr("hand-over between nodes"));
    w.nodeHandovers = s(tr("hand-overs between nodes"));
    w.allReducesBetweenNodes = s(tr("all-reduces between nodes"));
    w.attentionRanks = s(tr("attention ranks"));
    w.attentionOnEachRank = s(tr("attention whole on each rank"));
    w.denseOnEachRank = s(tr("attention and dense layers whole on each rank"));
    w.runtimeAndGraphs = s(tr("runtime and CUDA graphs"));
    w.loraSlots = s(tr("LoRA slots"));
    w.rank = s(tr("rank"));
    w.mtpLayers = s(tr("MTP layers"));
    w.mtpIncluded = s(tr("the MTP layers included"));
    w.draftModel = s(tr("draft model"));
    w.eagleHead = s(tr("EAGLE head"));
    w.unevenExperts = s(tr("experts on the fullest GPU"));
    w.allToAlls = s(tr("all-to-alls (DeepEP)"));
    w.nodes = s(tr("nodes"));
    w.latency = s(tr("latency"));
    w.perStep = s(tr("per step"));
    w.prefill = s(tr("prefill"));
    w.firstStep = s(tr("first decode step"));
    w.tokenPromptAlone = s(tr("-token prompt, alone"));
    w.cpuLayers = s(tr("CPU layers"));
    w.step = s(tr("step"));
    w.memory = s(tr("memory"));
    w.compute = s(tr("compute"));
    w.cpuReadsKv = s(tr("KV read by the CPU"));
    w.serial = s(tr("serial"));
    w.pipelined = s(tr("pipelined"));
    w.onTheGpu = s(tr("on the GPU"));
    w.cpuExperts = s(tr("experts on the CPU"));
    w.moeLayers = s(tr("MoE layers"));
    w.handovers = s(tr("GPU-CPU hand-overs"));
    w.inHostRam = s(tr("in host RAM"));
    w.outputCopy = s(tr("output layer's copy of the embedding"));
    w.cudaReports = s(tr("as CUDA reports it"));
    w.tokensPerS = s(tr("tokens/s"));
    w.unifiedMemory = s(tr("unified memory"));
    w.hostMemory = s(tr("host memory"));
    w.perSequence = s(tr("per sequence"));
    w.recurrentState = s(tr("recurrent state"));
    w.visionEncoder = s(tr("vision encoder"));
    w.kvNotOnGpu = s(tr("not limited by GPU memory: the KV cache is in CPU RAM"));
    w.kvStopsGrowing = s(tr("not limited by GPU memory: every layer keeps at most its window, so "
                            "the KV cache stops growing"));
    return w;
}

QString UiText::efficiencyName(const std::string& id)
{
    const Setting* setting = settingById(id);
    return setting && *setting->texts.label
               ? QCoreApplication::translate("kvscope::Setting", setting->texts.label)
               : QString::fromStdString(id);
}

QString UiText::settingLabel(const std::string& flag)
{
    const Setting* setting = settingByFlag(flag);
    return setting && *setting->texts.label
               ? QCoreApplication::translate("kvscope::Setting", setting->texts.label)
               : QStringLiteral("--") + QString::fromStdString(flag);
}

std::vector<Explanation> UiText::explanations(const Scenario& scenario,
                                              const Evaluation& evaluation, ByteUnits units)
{
    return explain(scenario, evaluation, units, numberStyle(), explainWords());
}

QString UiText::arithmetic(const std::vector<Explanation>& all, const std::string& id)
{
    return QString::fromStdString(explanationFor(all, id));
}

// How far measured step times of the scenario's class fell from kvscope's (issue 43), or that
// none was measured: what the decode figure may be signed with.
namespace {

QString signedPercent(double fraction)
{
    return (fraction >= 0 ? QStringLiteral("+") : QStringLiteral("\u2212")) +
           UiText::number(std::fabs(fraction) * 100, 0) + QStringLiteral(" %");
}

} // namespace

QString UiText::decodeBand(const Scenario& s)
{
    const SpeedBand band = decodeBandOf(s);
    const QString cls = QString::fromStdString(band.classId);
    if (band.cases == 0)
        return tr("No error band: no measurement of this class (%1).").arg(cls);
    if (!band.usable())
        return tr("No error band: only %1 of this class measured (%2).")
            .arg(integer(band.cases), cls);
    return tr("Measured step times of this class (%1): %2 to %3 of this figure, %4 "
              "measurements.")
        .arg(cls, signedPercent(band.low), signedPercent(band.high), integer(band.cases));
}

QString UiText::decodeBandRange(const Scenario& s)
{
    return bandRange(decodeBandOf(s));
}

QString UiText::bandRange(const SpeedBand& band)
{
    if (!band.usable())
        return tr("no error band");
    return tr("%1 / %2").arg(signedPercent(band.low), signedPercent(band.high));
}

// Catalog names read "DDR5-4800, 8 channels (…, per socket)"; the words around the part
// names are translated, the part names are not.
QString UiText::hostMemoryName(const std::string& name)
{
    static const QRegularExpression pattern(
        QStringLiteral(R"(^([^,]+), (\d+) channels(?: \((.*)\))?$)"));
    const QRegularExpressionMatch m = pattern.match(QString::fromStdString(name));
    if (!m.hasMatch())
        return QString::fromStdString(name);
    QString detail = m.captured(3);
    detail.replace(QLatin1String("per socket"), tr("per socket"));
    const QString base = tr("%1, %2 channels").arg(m.captured(1), m.captured(2));
    return detail.isEmpty() ? base : tr("%1 (%2)").arg(base, detail);
}

} // namespace kvscope::ui
