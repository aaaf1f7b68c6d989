// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QImage>
#include <QSize>
#include <QString>

class QWidget;

namespace kvscope::ui {

class MainWindow;
class ScenarioController;

// Lays the window out at `size`, evaluates, replots every chart at once and grabs it.
// `view`: the view to scroll to once the layout has settled ("" = none).
QImage renderWindow(MainWindow& window, ScenarioController& controller, const QSize& size,
                    const QString& view = QString());
// renderWindow() saved as PNG through QSaveFile (never a half-written file); false on failure,
// with the reason on stderr.
bool saveScreenshot(MainWindow& window, ScenarioController& controller, const QString& path,
                    const QSize& size, const QString& view = QString());
// A dialog (or any widget) laid out at `size` and saved the same way.
bool saveWidgetScreenshot(QWidget& widget, const QString& path, const QSize& size);

} // namespace kvscope::ui
