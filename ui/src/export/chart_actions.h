// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/chart_export.h"

#include <QCoreApplication>
#include <QString>

class QMenu;
class QWidget;

namespace kvscope::ui {

class ChartBase;

// What a user does with one chart: export it (PNG 1x / 2x, a 16:9 slide, SVG, PDF) through a
// file dialog,
// or copy it to the clipboard as an image and as SVG. Used by the chart's context menu and by
// File > Export chart / Edit > Copy chart.
class ChartActions
{
    Q_DECLARE_TR_FUNCTIONS(ChartActions)
public:
    // Adds the export and copy actions for `chart` to `menu`.
    static void populate(QMenu* menu, ChartBase* chart, QWidget* dialogParent);
    static bool exportWithDialog(ChartBase* chart, const ChartExportOptions& options,
                                 QWidget* parent);
    static bool exportTableWithDialog(ChartBase* chart, QWidget* parent); // plan, fit matrix
    static void copyToClipboard(ChartBase* chart);
    static QString lastDirectory();
};

} // namespace kvscope::ui
