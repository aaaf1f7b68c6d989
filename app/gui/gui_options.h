// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/base/field_error.h"

#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace kvscope::ui {

// --view's name for View > Validation against measurements, which opens a window of its own.
inline constexpr const char* kValidationViewId = "validation";

// The window's command line: kvscope-cli's scenario options plus screenshot and language.
struct GuiOptions
{
    std::vector<std::pair<std::string, std::string>> scenarioOptions;
    QString screenshot;        // render offscreen to this PNG and exit
    QSize size{1600, 1000};    // window size for the screenshot
    QString language;          // "en", "ja", or "" for the saved / system choice
    QString page;              // "charts", "plan", "matrix", "compare": the tab shown ("" = charts)
    bool presentation = false; // start in presentation mode
    QString view;              // a view id, "charts" or "compare": shown at start ("" = charts)
    QString theme;             // "system", "light", "dark", or "" for the saved choice
    QString layout;            // with screenshot: what was drawn, as JSON
    QString checkLog;          // open Tools > Check a start-up log on this file
    std::vector<std::string> compare;    // --compare FILE (repeatable): scenario files to pin
    std::optional<std::string> helpText; // --help or --version was asked for
};

Expected<GuiOptions> parseGuiOptions(const QStringList& arguments);

} // namespace kvscope::ui
