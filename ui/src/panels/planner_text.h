// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The planner's verdict and remedies in the window's language (the core writes them in English
// for the CLI; the words here are translated, the numbers the same).

#include "kvscope/planning/remedies.h"

#include <QCoreApplication>
#include <QString>

namespace kvscope::ui {

class PlannerText
{
    Q_DECLARE_TR_FUNCTIONS(PlannerText)
public:
    static QString verdict(const Scenario& scenario, const Verdict& verdict, ByteUnits units);
    static QString remedyTitle(const Remedy& remedy);
    static QString remedyEffect(const Remedy& remedy, ByteUnits units);
};

} // namespace kvscope::ui
