// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QJsonObject>
#include <QString>

class QCPAbstractPlottable;
class QCPAbstractItem;
class QCPItemLine;
class QCPItemText;

namespace kvscope::ui {

class ChartBase;
class MainWindow;

// What the window drew, for tests and reviewers without eyes (`kvscope --screenshot F --layout
// L.json`): the window's size and mode; for every chart on screen its rectangle, plot area,
// legend (rectangle and entries), text labels (title, axis titles, callouts; each with its box
// and, for a callout naming a curve, that curve, the point it names and the line it labels),
// each curve's points (marker series say so), the straight lines across the plot, and the note
// that stands in for an empty chart; the headline tiles.
// Rectangles are [x, y, width, height] and points [x, y], in window pixels.
QJsonObject describeLayout(const MainWindow& window);
// One chart as describeLayout() lists it, in the chart's own pixels (as an export draws it).
QJsonObject describeChart(const ChartBase& chart);
// describeLayout() as indented JSON through QSaveFile; false (reason on stderr) on failure.
bool saveLayout(const MainWindow& window, const QString& path);

// Marks `label` as naming `series`: the layout file lists the series with the label, and a
// label must never cover its own series' points.
void tieLabel(QCPItemText* label, QCPAbstractPlottable* series);
// Marks `label` as naming the point (key, value) in its chart's plot coordinates (a crossing):
// the layout file lists that point with the label, and a label must sit near it.
void anchorLabel(QCPItemText* label, double key, double value);
// Marks `label` as naming `line` (a QCPItemStraightLine across the plot or a QCPItemLine in it:
// a limit, a crossing): every such line needs one.
void tieLabelToLine(QCPItemText* label, QCPAbstractItem* line);
// Marks `series` as drawing markers (crossings), which no label may cover.
void markMarkerSeries(QCPAbstractPlottable* series);
// The line drawn from a label's point to the label, where the label stands off it: the layout
// file measures the label against the line's far end.
void tieLabelToLeader(QCPItemText* label, QCPItemLine* leader);

} // namespace kvscope::ui
