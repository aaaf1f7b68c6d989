// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/remedies_panel.h"

#include "charts/chart_style.h"
#include "charts/line_breaks.h"
#include "panels/planner_text.h"

#include <QBoxLayout>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace kvscope::ui {

QBoxLayout* RemediesPanel::boxLayout() const
{
    return qobject_cast<QBoxLayout*>(layout());
}

RemediesPanel::RemediesPanel(ScenarioController* controller, QWidget* parent)
    : QWidget(parent), m_controller(controller)
{
    setObjectName(QStringLiteral("remediesPanel"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->setSpacing(4);
    m_verdictLabel = new QLabel(this);
    m_verdictLabel->setObjectName(QStringLiteral("verdict"));
    m_verdictLabel->setWordWrap(true);
    layout->addWidget(m_verdictLabel);
    m_cautionLabel = new QLabel(this);
    m_cautionLabel->setObjectName(QStringLiteral("engineCaution"));
    m_cautionLabel->setWordWrap(true);
    QPalette cautionPalette = m_cautionLabel->palette();
    cautionPalette.setColor(QPalette::WindowText, colors::caution);
    m_cautionLabel->setPalette(cautionPalette);
    layout->addWidget(m_cautionLabel);
    m_heading = new QLabel(this);
    m_heading->setWordWrap(true);
    QFont bold = m_heading->font();
    bold.setBold(true);
    m_heading->setFont(bold);
    layout->addWidget(m_heading);
    m_undo = new QPushButton(this);
    m_undo->setObjectName(QStringLiteral("undoRemedy"));
    connect(m_undo, &QPushButton::clicked, this, &RemediesPanel::undo);
    layout->addWidget(m_undo);
    m_rows = new QVBoxLayout;
    m_rows->setSpacing(6);
    layout->addLayout(m_rows);
    retranslate();
    setVisible(false);
}

void RemediesPanel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void RemediesPanel::setByteUnits(ByteUnits units)
{
    m_units = units;
    refresh();
}

void RemediesPanel::retranslate()
{
    for (Row& r : m_pool)
        r.apply->setText(tr("Apply"));
    refresh();
}

RemediesPanel::Row& RemediesPanel::row(size_t index)
{
    while (m_pool.size() <= index) {
        Row r;
        r.frame = new QWidget(this);
        auto* h = new QHBoxLayout(r.frame);
        h->setContentsMargins(0, 0, 0, 0);
        r.text = new QLabel(r.frame);
        r.text->setWordWrap(true);
        r.text->setTextFormat(Qt::RichText);
        r.apply = new QPushButton(tr("Apply"), r.frame);
        r.apply->setObjectName(QStringLiteral("applyRemedy%1").arg(m_pool.size()));
        const size_t i = m_pool.size();
        connect(r.apply, &QPushButton::clicked, this, [this, i] { apply(i); });
        h->addWidget(r.text, 1);
        h->addWidget(r.apply, 0, Qt::AlignTop);
        m_rows->addWidget(r.frame);
        m_pool.push_back(r);
    }
    return m_pool[index];
}

void RemediesPanel::setDeferred(bool deferred)
{
    m_deferred = deferred;
    if (!deferred && m_stale && m_last)
        show(*m_last);
}

void RemediesPanel::show(const EvaluationSnapshot& snapshot)
{
    m_last = &snapshot;
    m_stale = m_deferred;
    if (m_deferred)
        return;
    m_verdict = snapshot.verdict;
    m_remedies = kvscope::remedies(snapshot.scenario, m_verdict, m_controller->catalog());
    // The context and headroom cautions have the headline tiles; a setting the engine lacks is
    // said here, beside the controls that chose it.
    m_cautions.clear();
    for (const Caution& c : cautionsOf(snapshot.scenario, snapshot.evaluation, m_verdict))
        if (c.kind == CautionKind::EngineLacksSetting)
            m_cautions.push_back(c);
    refresh();
}

void RemediesPanel::refresh()
{
    const bool any = !m_remedies.empty();
    if (m_last) {
        m_verdictLabel->setText(
            withoutForbiddenBreaks(PlannerText::verdict(m_last->scenario, m_verdict, m_units)));
        QPalette palette = m_verdictLabel->palette();
        palette.setColor(QPalette::WindowText, colors::overflow);
        m_verdictLabel->setPalette(palette);
    }
    m_verdictLabel->setVisible(m_last && !m_verdict.meetsTargets());
    m_cautionLabel->setText(withoutForbiddenBreaks(PlannerText::cautions(m_cautions, m_units)));
    m_cautionLabel->setVisible(!m_cautions.empty());
    m_heading->setText(
        withoutForbiddenBreaks(!m_verdict.runs ? tr("What would make it run, in the order to try")
                                               : tr("What would meet the targets")));
    m_heading->setVisible(any);
    for (size_t i = 0; i < m_remedies.size(); ++i) {
        const Remedy& r = m_remedies[i];
        Row& w = row(i);
        // Kept whole where Japanese and units keep them: "50.0 トー|クン/秒", "30.2 |ms" broke.
        w.text->setText(
            QStringLiteral("<b>%1</b><br>%2")
                .arg(
                    withoutForbiddenBreaks(PlannerText::remedyTitle(r)).toHtmlEscaped(),
                    withoutForbiddenBreaks(PlannerText::remedyEffect(r, m_units)).toHtmlEscaped()));
        w.frame->setVisible(true);
    }
    for (size_t i = m_remedies.size(); i < m_pool.size(); ++i)
        m_pool[i].frame->setVisible(false);
    m_undo->setVisible(!m_history.empty());
    if (!m_history.empty())
        m_undo->setText(tr("Undo: %1").arg(m_history.back().second));
    setVisible(any || !m_history.empty() || !m_cautions.empty());
}

void RemediesPanel::apply(size_t index)
{
    if (index >= m_remedies.size() || !m_last)
        return;
    const Remedy remedy = m_remedies[index];
    m_history.push_back({m_last->scenario, PlannerText::remedyTitle(remedy)});
    m_controller->setScenario(remedy.scenario);
}

void RemediesPanel::undo()
{
    if (m_history.empty())
        return;
    const Scenario previous = m_history.back().first;
    m_history.pop_back();
    m_controller->setScenario(previous);
}

} // namespace kvscope::ui
