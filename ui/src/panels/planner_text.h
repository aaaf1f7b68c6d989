// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The planner's verdict and remedies in the window's language (the core writes them in English
// for the CLI; the words here are translated, the numbers the same).

#include "kvscope/planning/cautions.h"
#include "kvscope/planning/remedies.h"

#include <QCoreApplication>
#include <QString>
#include <QStringList>

namespace kvscope::ui {

class PlannerText
{
    Q_DECLARE_TR_FUNCTIONS(PlannerText)
public:
    static QString verdict(const Scenario& scenario, const Verdict& verdict, ByteUnits units);
    static QString remedyTitle(const Remedy& remedy);
    // A caution (kvscope/planning/cautions.h) as one translated sentence.
    static QString caution(const Caution& caution, ByteUnits units);
    // A few words for a table cell: "lossy weights", "GeForce licence".
    static QString cautionTag(const Caution& caution);
    // The cautions, one per line ("" when there is none).
    static QString cautions(const std::vector<Caution>& cautions, ByteUnits units);
    static QString remedyEffect(const Remedy& remedy, ByteUnits units);
    // "12.40 USD", "1,860 JPY": two decimals below 1,000, none above.
    static QString money(double amount, const std::string& currency);
    // The basis the scenario's costs are on, as a sentence part: "rented GPU-hours at the
    // catalog's on-demand prices" or "owned: ... over 3 years, with host, power and colocation".
    static QString costBasis(const Scenario& scenario);
    // A catalog name without the words every entry repeats and its notes in parentheses:
    // "NVIDIA GeForce RTX 4090" -> "RTX 4090", "llama.cpp (llama-server)" -> "llama.cpp".
    static QString shortName(const std::string& name);
    // The GPUs of a configuration: "8 × H100 SXM5", or over several nodes "2 nodes × 8 × H100".
    static QString gpus(const Scenario& scenario, bool withSplit = true);
    // How the GPUs split the model where it is not the default: "TP 16", "DP attention".
    static QStringList split(const Scenario& scenario);
};

} // namespace kvscope::ui
