// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_style.h"
#include "kvscope/base/number_format.h"
#include "window/scenario_controller.h"

#include <qcustomplot.h>

#include <functional>
#include <map>
#include <optional>

namespace kvscope::ui {

struct ViewEntry;

// A QCustomPlot that draws one view of an EvaluationSnapshot: a title row, the axis rect and a
// legend row beneath it (so the legend never covers data), hover tooltips with exact values,
// and the shared style. Subclasses build their plottables once and refill them in draw().
class ChartBase : public QCustomPlot
{
    Q_OBJECT
public:
    explicit ChartBase(QWidget* parent = nullptr);

    // Fills the chart from `snapshot` and queues a replot. The snapshot must outlive the chart's
    // next redraw (the controller keeps it).
    void show(const EvaluationSnapshot& snapshot);
    void setByteUnits(ByteUnits units);
    void setChartStyle(const ChartStyle& style);
    // While a slider is dragged, curves draw thin and without antialiasing (as QCustomPlot does
    // during its own drags); leaving draft mode replots at full quality.
    void setDraftMode(bool draft);
    // The smallest plot area (inside the axes) the window lays this chart out with: the chart
    // asks for its title, legend and axes on top, so a laptop screen scrolls the grid instead of
    // squeezing a plot to a strip. Exports lay out at their own size regardless.
    void setMinimumPlotSize(const QSize& size);
    QSize minimumSizeHint() const override;
    const ChartStyle& chartStyle() const { return m_style; }
    // Re-applies translated texts and redraws.
    void retranslate();
    // Lays the chart out at `size` and places its labels there, for an export drawn at that
    // size; layOutAt(rect().size()) goes back to the widget's own.
    void layOutAt(const QSize& size);
    // A line under the title naming the scenario drawn (model, weights, GPUs, context, batch,
    // engine), so an exported chart explains itself on a slide; off removes it.
    void setScenarioSubtitle(bool on);
    // The text items a reader sees (visible, not empty), and where one sits in pixels of the
    // current layout.
    QList<QCPItemText*> visibleLabels() const;
    static QRectF labelBox(const QCPItemText* label);
    // The registry entry this chart draws (set by createCharts), its id and translated title.
    const ViewEntry* view() const { return m_view; }
    void setView(const ViewEntry* view);
    QString chartId() const;
    QString chartTitle() const;
    // What an empty chart says in place of its figures (why there are none), or "" while it
    // draws them.
    QString emptyNote() const;
    // The figures a table-like view draws, as CSV (the fit matrix, the plan); empty for views
    // of the context sweep, whose data File > Export data writes.
    virtual QByteArray tableCsv() const { return {}; }
    // "A: 4-bit AWQ": a pinned scenario as the legends, axes and CSV columns name it.
    static QString pinnedName(size_t index, const std::string& name);

signals:
    // The chart shows its latest snapshot on screen: after a full replot, or after only its
    // markers moved (which emits no afterReplot).
    void drawn();

protected:
    // QCustomPlot's own draw(QCPPainter*) stays reachable beside the snapshot's.
    using QCustomPlot::draw;
    virtual void draw(const EvaluationSnapshot& snapshot) = 0;
    // Exact values under the mouse at axis coordinates (key, value), or "" for none.
    virtual QString hoverText(double key, double value, const QPoint& pixel) const = 0;
    // Sets translated axis titles, legend names and other fixed texts.
    virtual void applyTexts() = 0;
    // Colours of the subclass's own plottables and items; called after a style change.
    virtual void applySeriesStyle() {}
    // Everything besides the snapshot's baseRevision that the curves, bars, axes and labels
    // depend on. While it stays the same only the markers move (see drawMarkers).
    virtual void appendBaseKey(const EvaluationSnapshot&, std::vector<double>&) const {}
    // Moves what marks the current scenario (items on markerLayer()). draw() is followed by it
    // too, so a chart may keep all of its marker code here.
    virtual void drawMarkers(const EvaluationSnapshot&) {}
    // A buffered layer above the plot: when only the markers move, only it is repainted.
    QCPLayer* markerLayer() const { return m_markers; }
    // Forces the next show() to redraw everything (a style, unit or language change).
    void invalidateBase() { m_baseValid = false; }
    // Views that search the catalog draw only while on screen (or exported): a hidden page
    // costs the sliders nothing, and catches up when it is shown.
    virtual bool deferWhileHidden() const { return false; }
    bool draftMode() const { return m_draft; }
    // Shows `why` across the plot in place of the axes and grid, or, when `why` is empty, brings
    // them back. The subclass clears its own plottables, items and legend entries.
    void setEmptyNote(const QString& why);
    // Why the scenario of `snapshot` does not run, in a sentence (from what binds it), or "" when
    // it runs: a view of its figures shows this instead of them.
    QString notRunningNote(const EvaluationSnapshot& snapshot) const;
    // Draws the last snapshot again from scratch (after a view's own options changed).
    void redraw();

    ByteUnits byteUnits() const { return m_units; }
    const EvaluationSnapshot* lastSnapshot() const { return m_last; }
    QPen seriesPen(const QColor& color, Qt::PenStyle style = Qt::SolidLine,
                   double width = 2.0) const;
    QFont scaledFont(double factor, bool bold = false) const;
    void styleAxis(QCPAxis* axis) const;
    // A label on a translucent box of the background colour, readable over lines and bars.
    void styleCallout(QCPItemText* label, const QColor& color, double fontScale = 1.0,
                      bool bold = true) const;
    // The box a text item draws, padding included, in pixels (as QCPItemText measures it).
    static QSizeF labelSize(const QCPItemText* label);
    // The top of a log axis reaching down to `bottom` that leaves `pixels` of the axis rect's
    // height free above `value`, but no more than `maxShare` of it.
    double logTopAbove(double value, double bottom, double pixels, double maxShare = 0.5) const;
    // `text` broken into lines no wider than `width` pixels in `font` (its own breaks kept).
    static QString wrapToWidth(const QString& text, const QFont& font, double width);
    // Puts `label` beside the point (key, value) of a log value axis, `factor` away from it,
    // where it stays inside the plot and hides no curve; where the curves leave no room there,
    // farther off with `leader` drawn from the point to it.
    void placeBesidePoint(QCPItemText* label, double key, double value, double factor,
                          QCPItemLine* leader = nullptr) const;
    bool clearSpot(const QRectF& box, const QCPItemText* label) const;
    std::optional<QRectF>
    nearestClearSpot(const QCPItemText* label, const QPointF& point,
                     const std::function<bool(const QRectF&)>& alsoClear = {}) const;
    // Whether `curve`, drawn between its points, runs through `box` (pixels).
    static bool curveCrosses(const QRectF& box, const QCPGraph* curve);
    // How far `curve`, drawn between its points, passes from `box` (pixels; 0 through it).
    static double distanceToCurve(const QRectF& box, const QCPGraph* curve);
    // The point of `box` nearest `from`: where a leader from `from` meets it.
    static QPointF nearestPointOf(const QRectF& box, const QPointF& from);
    // Shows `leader` from `offPoint` pixels off the point `from` (a marker's edge) to `box`.
    void drawLeader(QCPItemLine* leader, const QPointF& from, const QRectF& box,
                    double offPoint) const;
    // Whether `segment` runs into `box` or through it.
    static bool segmentMeetsBox(const QLineF& segment, const QRectF& box);
    static double distanceToSegment(const QPointF& point, const QLineF& segment);
    // A log axis of context lengths with ticks at 256, 1K, 4K, ... (powers of four).
    void setContextAxis(QCPAxis* axis, double from, double to) const;
    // A log axis of counts (powers of ten): 1, 10, 100, 1K, 10K, 1M (axis_tickers.h has the
    // time and size axes).
    void setLogAxis(QCPAxis* axis) const;
    // One curve per pinned scenario: `value(pinned, i)` at each point i of its context sweep,
    // in the scenario's colour and dashes, named "A: its name" (and `what`, when given). `low`
    // and `high` widen to the values drawn; the graphs are kept from one draw to the next.
    void drawPinnedCurves(const EvaluationSnapshot& snapshot,
                          const std::function<double(const PinnedEvaluation&, size_t)>& value,
                          double* low, double* high, const QString& what = {});
    // Hides the curves drawPinnedCurves drew (a view showing no figures).
    void hidePinnedCurves();
    // Fits the legend's columns to the chart's width so no entry is clipped.
    void fitLegend(); // also fits the title (fitTitle)
    void measureLegendEntries(int available);
    void placeLegendUnderPlot();
    void fitTitle();
    bool fitAxisLabels(); // whether a label changed
    void resizeEvent(QResizeEvent* event) override;
    QCPTextElement* titleElement() const { return m_title; }

    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;
    void showEvent(QShowEvent* event) override;

private:
    void showSnapshot(const EvaluationSnapshot& snapshot);
    void applyStyleToPlot();

    const ViewEntry* m_view = nullptr;
    ChartStyle m_style;
    ByteUnits m_units = ByteUnits::Binary;
    const EvaluationSnapshot* m_last = nullptr;
    bool m_draft = false;
    QCPTextElement* m_title = nullptr;
    QCPTextElement* m_subtitle = nullptr; // only while exporting
    QCPLayer* m_markers = nullptr;
    QCPItemText* m_emptyNote = nullptr; // made by the first setEmptyNote
    QString m_emptyWhy;                 // its text before line breaks, wrapped to each layout
    void wrapEmptyNote();
    std::vector<double> m_baseKey;
    QString m_legendEntries;         // the whole names m_legendWidths were measured for
    std::vector<int> m_legendWidths; // each legend entry's width, in order
    std::vector<QCPGraph*> m_pinnedCurves;
    // Each vertical axis's label as set, and as shown after fitAxisLabels() broke it.
    std::map<QCPAxis*, std::pair<QString, QString>> m_fittedAxisLabels;
    bool m_baseValid = false;
    QSize m_drawnRectSize; // the axis rect that draw() last placed labels in
    QSize m_exportSize;    // while an export lays the chart out at its own size
    QSize m_minimumPlot;   // setMinimumPlotSize's, while on screen
    int m_aroundPlot = 0;  // the chart's height less its plot's, as last laid out on screen
    int m_layoutRedraws = 0;
    bool m_deferred = false;  // a snapshot arrived while hidden (deferWhileHidden)
    bool m_exporting = false; // layOutAt draws even a hidden view
};

// The unit to show `maxBytes` in: {symbol, bytes per unit}.
struct AxisUnit
{
    QString symbol;
    double bytes = 1;
};
AxisUnit axisUnitFor(double maxBytes, ByteUnits units);

// Index of the sweep point nearest to `key` on a log scale (for hover text); sweep.x not empty.
size_t nearestPoint(const Sweep& sweep, double key);

} // namespace kvscope::ui
