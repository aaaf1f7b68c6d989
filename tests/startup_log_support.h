// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the start-up log suites ask of a read log: a setting's value and a figure's, with a
// stand-in when the log did not state it, so a comparison names what was missing.

#include "kvscope/formats/startup_log.h"

#include <string>

namespace kvscope::test {

inline std::string settingOf(const StartupLog& log, const std::string& option)
{
    const LoggedSetting* s = log.setting(option);
    return s ? s->value : std::string("(none)");
}

inline double figureOf(const StartupLog& log, LogFigure figure)
{
    const LoggedNumber* n = log.figure(figure);
    return n ? n->value : -1.0;
}

} // namespace kvscope::test
