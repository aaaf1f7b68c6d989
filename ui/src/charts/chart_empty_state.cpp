// SPDX-License-Identifier: GPL-3.0-or-later
// ChartBase's empty state: what a view shows instead of figures a scenario that does not run
// would not have ("Nothing derived is shown for a scenario that does not run").
#include "charts/chart_base.h"

#include "kvscope/planning/verdict.h"
#include "window/ui_text.h"

namespace kvscope::ui {

void ChartBase::hidePinnedCurves()
{
    for (QCPGraph* graph : m_pinnedCurves) {
        graph->setVisible(false);
        graph->removeFromLegend();
    }
}

QString ChartBase::emptyNote() const
{
    return m_emptyNote && m_emptyNote->visible() ? m_emptyNote->text() : QString();
}

void ChartBase::setEmptyNote(const QString& why)
{
    const bool empty = !why.isEmpty();
    for (QCPAxis* axis : {xAxis, yAxis}) {
        axis->setVisible(!empty);
        axis->grid()->setVisible(!empty); // a view hiding a grid of its own does so after
    }
    if (!empty) {
        if (m_emptyNote)
            m_emptyNote->setVisible(false);
        return;
    }
    if (!m_emptyNote) {
        m_emptyNote = new QCPItemText(this);
        m_emptyNote->position->setType(QCPItemPosition::ptAxisRectRatio);
        m_emptyNote->position->setCoords(0.5, 0.5);
        m_emptyNote->setPositionAlignment(Qt::AlignCenter);
        m_emptyNote->setTextAlignment(Qt::AlignCenter);
    }
    m_emptyNote->setColor(m_style.foreground);
    m_emptyNote->setFont(scaledFont(1.0));
    m_emptyWhy = why;
    wrapEmptyNote();
    m_emptyNote->setVisible(true);
}

void ChartBase::wrapEmptyNote()
{
    if (m_emptyNote)
        m_emptyNote->setText(
            wrapToWidth(m_emptyWhy, m_emptyNote->font(), axisRect()->width() - 16));
}

QString ChartBase::notRunningNote(const EvaluationSnapshot& snap) const
{
    const Verdict& v = snap.verdict;
    if (v.runs)
        return {};
    switch (v.binding) {
    case Binding::Weights:
        return tr("This scenario does not run: the weights alone do not fit in the GPU memory, so "
                  "no context length runs.");
    case Binding::Activations:
        return tr("This scenario does not run: the weights, activations and runtime overhead fill "
                  "the GPU memory and leave none for the KV cache.");
    case Binding::KvCache:
        return tr("This scenario does not run: the KV cache of %1 sequences of %2 tokens does not "
                  "fit in the memory left for it.")
            .arg(UiText::integer(snap.scenario.batch), UiText::integer(snap.scenario.context));
    case Binding::HostRam:
        return tr("This scenario does not run: the host RAM cannot hold what is offloaded to it.");
    case Binding::HeadSplit:
        return tr("This scenario does not run: %1 GPUs do not divide the attention heads evenly, "
                  "so the engine refuses to start.")
            .arg(UiText::integer(snap.scenario.gpuCount));
    case Binding::None:
        break;
    }
    return tr("This scenario does not run.");
}

} // namespace kvscope::ui
