// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/base/number_format.h"
#include "kvscope/evaluation/evaluation.h"
#include "kvscope/scenario/scenario.h"

#include <string>

namespace kvscope {

enum class SummaryStyle { PlainTable, Markdown };

// The headline figures as text: the CLI's `calc` table and the window's "Copy summary".
std::string textSummary(const Scenario& scenario, const Evaluation& evaluation, ByteUnits units,
                        SummaryStyle style = SummaryStyle::PlainTable,
                        const NumberStyle& numbers = {});

} // namespace kvscope
