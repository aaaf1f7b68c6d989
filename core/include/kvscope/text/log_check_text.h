// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A start-up log check as text: what the log states, the scenario built from it, and the
// figures logged against predicted, one row each (kvscope-cli check-log; the window's dialog
// shows the same rows in its own language).

#include "kvscope/base/number_format.h"
#include "kvscope/planning/log_check.h"

#include <string>

namespace kvscope {

// "Weights (one GPU)", "KV cache size (tokens)", ...
const char* logFigureName(LogFigure figure);
// Whether a figure is a byte count (shown in GiB or GB) rather than a count or a ratio.
bool logFigureIsBytes(LogFigure figure);
// The figure as the table shows it: "14.96 GiB", "75,840", "2.48x".
std::string logFigureText(LogFigure figure, double value, ByteUnits units,
                          const NumberStyle& style = {});
// "+1.2 %", "-0.4 %", "0.0 %"; "-" when the log says 0 or nothing is predicted.
std::string differenceText(const LogCheckRow& row, const NumberStyle& style = {});
// "the log does not state vLLM's release; ..."
std::string assumptionText(LogAssumption assumption, const LogCheck& check);
// The release the check's scenario took ("0.10.0"), "" when none was set.
std::string checkedRelease(const LogCheck& check);
// "vLLM 0.8.1", "llama.cpp b5274", "TGI".
std::string logEngineText(const StartupLog& log);

std::string logCheckText(const LogCheck& check, ByteUnits units);

} // namespace kvscope
