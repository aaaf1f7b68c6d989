// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/chart_base.h"
#include "kvscope/planning/plan_search.h"

namespace kvscope::ui {

// The search for the configuration to buy, drawn: every ranked configuration as a point of cost
// per hour against decode tokens per second per user (both log scales), the Pareto front joined
// and labelled, the scenario itself marked. It runs the search (plan()) for the scenario's
// model, context and users with the page's objective and GPU limit; the Plan page's table lists
// the same result.
class PlanChart : public ChartBase
{
    Q_OBJECT
public:
    explicit PlanChart(QWidget* parent = nullptr);

    void setObjective(PlanObjective objective);
    void setMaxGpusPerNode(int gpus);
    void setDeployment(Deployment deployment);
    void setRatePerS(double requestsPerS); // 0: no rate, one replica each
    const PlanResult& result() const { return m_result; }
    const PlanRequest& request() const { return m_request; }
    QByteArray tableCsv() const override;

signals:
    // A new search result (the table follows it).
    void planned();

protected:
    void draw(const EvaluationSnapshot& snapshot) override;
    QString hoverText(double key, double value, const QPoint& pixel) const override;
    void applyTexts() override;
    void applySeriesStyle() override;
    void appendBaseKey(const EvaluationSnapshot& snapshot, std::vector<double>& key) const override;
    void drawMarkers(const EvaluationSnapshot& snapshot) override;
    bool deferWhileHidden() const override { return true; }

private:
    // A request field the Plan tab sets: the search runs again when it changes.
    template <typename T> void searchAgainWith(T PlanRequest::*field, T value)
    {
        if (m_request.*field == value)
            return;
        m_request.*field = value;
        m_searched = false;
        redraw();
    }
    void search(const EvaluationSnapshot& snapshot);
    void placeFrontLabels();
    void placeFrontLabel(int i, const PlanEntry& p, const std::vector<QPointF>& front,
                         std::vector<QRectF>* taken, std::vector<QLineF>* leaders);
    std::optional<QRectF> spotWithLeader(int i, const QPointF& at,
                                         const std::function<bool(const QRectF&)>& fits,
                                         const std::vector<QRectF>& taken,
                                         std::vector<QLineF>* leaders);
    QPointF pixelOf(const PlanEntry& p) const;
    const std::vector<PlanEntry>& shown() const; // ranked, or the closest misses

    PlanRequest m_request;
    PlanResult m_result;
    bool m_searched = false;
    QCPGraph* m_others = nullptr;
    QCPGraph* m_front = nullptr;
    QCPGraph* m_current = nullptr;
    QList<QCPItemText*> m_labels;         // one per front point
    QList<QCPItemLine*> m_leaders;        // to a label the points pushed away
    QCPItemText* m_empty = nullptr;       // what lacks, when nothing qualifies
    std::vector<QCPGraph*> m_pinnedMarks; // the pinned scenarios, beside "This scenario"
};

// "2 × H100 SXM5 80GB, vLLM, AWQ": how a configuration is named in the chart and the table.
QString planEntryName(const PlanEntry& entry);

} // namespace kvscope::ui
