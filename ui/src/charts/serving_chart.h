// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_base.h"

#include "kvscope/planning/serving.h"
#include "kvscope/scenario/speed_band.h"

namespace kvscope::ui {

// Serving many users: output tokens/s of all users together (solid) and of each user (dashed)
// against the number of concurrent users, one colour per engine, the scenario's engine drawn
// heavier with its users marked. The curves flatten where the engine stops running more
// requests at once (memory, max_num_seqs) and the rest wait. A shaded band around the
// scenario's engine's curve spans what measured serving runs of its class said.
class ServingChart : public ChartBase
{
    Q_OBJECT
public:
    explicit ServingChart(QWidget* parent = nullptr);

    const Serving& serving() const { return m_serving; } // what was drawn, for tests
    QString noteText() const;                            // the note shown instead of curves

protected:
    void draw(const EvaluationSnapshot& snapshot) override;
    QString hoverText(double key, double value, const QPoint& pixel) const override;
    void applyTexts() override;
    void applySeriesStyle() override;
    void drawMarkers(const EvaluationSnapshot& snapshot) override;
    void appendBaseKey(const EvaluationSnapshot& snapshot, std::vector<double>& key) const override;

private:
    void labelUsersAxis();
    void showNote(const EvaluationSnapshot& snapshot, bool curvesDrawn);
    QCPGraph* graphFor(size_t index, bool perUser);

    Serving m_serving;
    std::vector<QCPGraph*> m_aggregate; // one per curve of m_serving, in order
    std::vector<QCPGraph*> m_perUser;
    QCPGraph* m_allKey = nullptr; // legend entries for the two line styles (no data)
    QCPGraph* m_eachKey = nullptr;
    QCPGraph* m_current = nullptr;
    QCPItemText* m_currentLabel = nullptr;
    QCPItemLine* m_currentLeader = nullptr; // to the label, when the curves push it away
    QCPItemText* m_note = nullptr;
    // The measured band around the scenario's engine's curve of all users (issue 43): where
    // measured times per output token of its speed class fell against kvscope's.
    QCPGraph* m_bandHigh = nullptr;
    QCPGraph* m_bandLow = nullptr;
    SpeedBand m_band;

    void drawBand(const Scenario& scenario, const ServingCurve& own);
};

} // namespace kvscope::ui
