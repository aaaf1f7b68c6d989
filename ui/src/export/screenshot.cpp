// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/screenshot.h"

#include "charts/chart_base.h"
#include "window/main_window.h"

#include <QApplication>
#include <QSaveFile>

#include <cstdio>

namespace kvscope::ui {

QImage renderWindow(MainWindow& window, ScenarioController& controller, const QSize& size,
                    const QString& view)
{
    // A screenshot is of the size asked for, also in presentation mode (full screen on a real
    // display; the offscreen platform's screen is 800x800).
    window.setWindowState(window.windowState() & ~Qt::WindowFullScreen);
    window.resize(size);
    window.show();
    controller.evaluateNow();
    QApplication::processEvents();
    // A picture of the window shows no text caret: the field that took the focus lets it go.
    if (QWidget* focused = QApplication::focusWidget(); focused && window.isAncestorOf(focused))
        focused->clearFocus();
    // The later rounds let labels placed in pixels follow the layout the first one settled, and
    // the charts follow the panel column once it has widened to what it holds.
    for (int round = 0; round < 3; ++round) {
        for (ChartBase* chart : window.charts())
            chart->replot(QCustomPlot::rpImmediateRefresh);
        QApplication::processEvents();
    }
    // Scrolled to once the layout has settled: before it, the view's place was not yet known.
    if (!view.isEmpty() && window.showPage(view)) {
        QApplication::processEvents();
        for (ChartBase* chart : window.charts())
            chart->replot(QCustomPlot::rpImmediateRefresh);
    }
    return window.grab().toImage();
}

namespace {
bool savePng(const QImage& image, const QString& path)
{
    QSaveFile file(path);
    if (image.isNull() || !file.open(QIODevice::WriteOnly) || !image.save(&file, "PNG") ||
        !file.commit()) {
        std::fprintf(stderr, "kvscope: --screenshot: cannot write %s: %s\n", qPrintable(path),
                     qPrintable(file.errorString()));
        return false;
    }
    return true;
}
} // namespace

bool saveScreenshot(MainWindow& window, ScenarioController& controller, const QString& path,
                    const QSize& size, const QString& view)
{
    return savePng(renderWindow(window, controller, size, view), path);
}

bool saveWidgetScreenshot(QWidget& widget, const QString& path, const QSize& size)
{
    widget.resize(size);
    widget.show();
    QApplication::processEvents();
    if (QWidget* focused = QApplication::focusWidget(); focused && widget.isAncestorOf(focused))
        focused->clearFocus();
    QApplication::processEvents();
    return savePng(widget.grab().toImage(), path);
}

} // namespace kvscope::ui
