// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/fitting_combo_box.h"

#include <QRegularExpression>
#include <QStyleOptionComboBox>
#include <QStylePainter>

namespace kvscope::ui {

QString FittingComboBox::fitted(const QString& text, const QFontMetrics& metrics, int width)
{
    // Items under a group heading are indented in the list; the face needs no indent.
    const QString whole = text.trimmed();
    if (metrics.horizontalAdvance(whole) <= width)
        return whole;
    static const QRegularExpression detail(QStringLiteral(R"(\s*[(（][^()（）]*[)）]\s*$)"));
    QString shorter = whole;
    shorter.remove(detail);
    if (!shorter.isEmpty() && metrics.horizontalAdvance(shorter) <= width)
        return shorter;
    return metrics.elidedText(shorter.isEmpty() ? whole : shorter, Qt::ElideRight, width);
}

void FittingComboBox::paintEvent(QPaintEvent*)
{
    QStylePainter painter(this);
    QStyleOptionComboBox option;
    initStyleOption(&option);
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    const QRect field =
        style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
    const QString shown = fitted(option.currentText, fontMetrics(), field.width() - 2);
    // The whole name on hover where the face cannot show it; a tooltip of the box's own stays.
    const QString whole = option.currentText.trimmed();
    const QString tip = shown == whole ? QString() : whole;
    if (toolTip() == m_nameTip && tip != m_nameTip) {
        setToolTip(tip);
        m_nameTip = tip;
    }
    option.currentText = shown;
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
}

} // namespace kvscope::ui
