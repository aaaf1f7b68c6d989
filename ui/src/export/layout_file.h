// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>

class QCPAbstractPlottable;
class QCPItemText;

namespace kvscope::ui {

class ChartBase;
class MainWindow;

// What the window drew, for tests and reviewers without eyes (`kvscope --screenshot F --layout
// L.json`): the window's size and mode; for every chart on screen its rectangle, plot area,
// legend (rectangle and entries), text labels (title, axis titles, callouts; each with its box
// and, for a callout naming a curve, that curve) and each curve's points; the headline tiles.
// Rectangles are [x, y, width, height] in window pixels.
QJsonObject describeLayout(const MainWindow& window);
// One chart as describeLayout() lists it, in the chart's own pixels (as an export draws it).
QJsonObject describeChart(const ChartBase& chart);
// describeLayout() as indented JSON through QSaveFile; false (reason on stderr) on failure.
bool saveLayout(const MainWindow& window, const QString& path);

// Marks `label` as naming `series`: the layout file lists the series with the label, and a
// label must never cover its own series' points.
void tieLabel(QCPItemText* label, QCPAbstractPlottable* series);

} // namespace kvscope::ui
