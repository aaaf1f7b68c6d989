// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_base.h"

#include <optional>

namespace kvscope::ui {

// KV cache size against context length for each attention kind, with the memory free for KV
// and the context at which each curve crosses it.
class KvGrowthChart : public ChartBase
{
    Q_OBJECT
public:
    explicit KvGrowthChart(QWidget* parent = nullptr);

    int curveCount() const;
    QVector<double> curveValues(int curve) const; // bytes, for tests

protected:
    void draw(const EvaluationSnapshot& snapshot) override;
    QString hoverText(double key, double value, const QPoint& pixel) const override;
    void applyTexts() override;
    void appendBaseKey(const EvaluationSnapshot& snapshot, std::vector<double>& key) const override;
    void drawMarkers(const EvaluationSnapshot& snapshot) override;
    void applySeriesStyle() override;

private:
    enum Curve { Mha, Gqa, Mqa, Mla, CurveCount };
    static double largestKvBytes(const EvaluationSnapshot& snap, double* maxFree);
    void markCrossing(int i, double tokens, double value);
    void placeCrossingLabels();
    void placeCrossingLabel(int i, std::vector<QRectF>* taken);
    bool namesOwnCrossing(const QRectF& box, int i, const QPointF& own,
                          const std::vector<const QCPGraph*>& curves) const;
    void placeFreeLabel(std::vector<QRectF>* taken);
    void placePinnedFreeLabels(std::vector<QRectF>* taken);
    std::vector<QRectF> spotsAroundCrossing(double x, double lineY, const QSizeF& size,
                                            double gap) const;
    std::optional<QRectF> spotOnLine(const QCPItemText* label, double lineY,
                                     const std::vector<QRectF>& taken, bool mayCrossCurves = true,
                                     bool avoidContextLine = true) const;
    double markerRadius() const;
    bool clearOfLines(const QRectF& box, bool avoidContextLine = true) const;
    // Whether `box` (pixels) clears every crossing marker, with the marker's radius around it.
    bool clearsMarkers(const QRectF& box) const;
    // Whether the line drawn through `curve`'s points passes through `box` (pixels).
    std::vector<const QCPGraph*> shownCurves() const; // the live and pinned curves on screen
    void drawPinned(const EvaluationSnapshot& snap, double unitBytes, double* lowestBytes);
    void drawFreeLine(const TokensFit& fit, double from, double to, double unitBytes);
    QCPGraph* m_curves[CurveCount] = {};
    QString m_curveNames[CurveCount]; // without the crossing the legend adds, for the hover
    QCPGraph* m_crossings = nullptr;
    QCPItemStraightLine* m_freeLine = nullptr;
    QCPItemText* m_freeLabel = nullptr;
    QString m_freeText; // its one-line text, as draw() set it
    QCPItemStraightLine* m_contextLine = nullptr;
    QCPItemText* m_crossLabels[CurveCount] = {};
    double m_crossKey[CurveCount] = {};       // where each curve crosses the free line
    bool m_crossLabelWanted[CurveCount] = {}; // a crossing in range, to label if there is room
    int m_ownCurve = 0;                       // the model's own: its number is placed first
    std::vector<QCPItemStraightLine*> m_pinnedFree; // each pinned scenario's memory for KV
    std::vector<QCPItemText*> m_pinnedFreeLabels;   // "A: free for KV", beside its line
    double m_unitBytes = 1;
};

} // namespace kvscope::ui
