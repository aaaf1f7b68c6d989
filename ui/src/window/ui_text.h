// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The window's words and numbers: core errors as translated sentences, figures formatted by the
// core's one formatting module with the user's locale separators, and translated labels for the
// core's ids (tiers, attention kinds, placements).

#include "kvscope/base/field_error.h"
#include "kvscope/base/number_format.h"
#include "kvscope/evaluation/evaluation.h"
#include "kvscope/text/explain.h"

#include <QCoreApplication>
#include <QString>

namespace kvscope::ui {

class UiText
{
    Q_DECLARE_TR_FUNCTIONS(UiText)
public:
    static QString fieldError(const FieldError& error);
    // How far measured step times of the scenario's speed class fell from kvscope's, or that
    // it has no band (issue 43): the tile's tooltip and the report's row.
    static QString decodeBand(const Scenario& scenario);
    // The band alone, for a table's value column: "-10 % / +25 %", or "no error band".
    static QString decodeBandRange(const Scenario& scenario);
    static QString bandRange(const SpeedBand& band); // "−63 % / +20 %", or "no error band"
    // A host memory platform's catalog name in the current language: "DDR5-4800、2 チャネル".
    static QString hostMemoryName(const std::string& name);

    static NumberStyle numberStyle(); // separators of the current QLocale
    static QString bytes(double bytes, ByteUnits units);
    static QString duration(double ms);
    static QString rate(double gbPerS);
    static QString integer(int64_t value);
    static QString number(double value, int decimals);
    // Up to `decimals` decimals, trailing zeros dropped: 16, 4.5, 4.156.
    static QString compact(double value, int decimals = 3);
    static QString tokensPerSecond(double value);
    static QString tokens(int64_t count); // "36,864 tokens"
    // "Llama 3.1 8B · FP16 · 2 × NVIDIA H100 SXM5 80GB · context 32K × 8 seq. · vLLM"
    static QString scenarioSubtitle(const Scenario& scenario);
    static QString contextShort(double tokens); // "1K", "32K", "1M" (binary, as engineers say)
    static QString logTick(double tick); // a log axis's tick: "0.001", "100", "1K", "10K", "1M"

    static QString tierName(Tier tier);
    static QString reloadTierName(ReloadTier tier);
    static QString placementName(KvPlacement placement);
    static QString attentionName(AttentionKind kind);
    static ExplainWords explainWords();
    // The translated name of an efficiency factor (catalog id), e.g. "hbm_efficiency".
    static QString efficiencyName(const std::string& id);
    // A setting by its command-line flag ("hbm-efficiency"): its translated label, else the flag.
    static QString settingLabel(const std::string& flag);
    // The arithmetic behind every headline figure (see kvscope/explain.h), translated and
    // localized; computed once per evaluation, then looked up by id with arithmetic().
    static std::vector<Explanation> explanations(const Scenario& scenario,
                                                 const Evaluation& evaluation, ByteUnits units);
    static QString arithmetic(const std::vector<Explanation>& all, const std::string& id);
};

} // namespace kvscope::ui
