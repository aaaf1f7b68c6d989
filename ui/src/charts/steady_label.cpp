// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/steady_label.h"

#include <QEvent>
#include <QPainter>

#include <algorithm>

namespace kvscope::ui {

SteadyLabel::SteadyLabel(int lines, QWidget* parent) : QWidget(parent), m_lines(std::max(1, lines))
{
    setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
    setAttribute(Qt::WA_OpaquePaintEvent, false);
}

void SteadyLabel::setText(const QString& text)
{
    if (text == m_text)
        return;
    m_text = text;
    if (textWidth() > m_widest) {
        // The layout caches the minimum width: widen it rather than cut the figure. It only
        // grows, so a drag asks the layout again a handful of times, not on every step.
        m_widest = textWidth();
        updateGeometry();
    }
    update();
}

void SteadyLabel::setTextColor(const QColor& color)
{
    if (color == m_color)
        return;
    m_color = color;
    update();
}

void SteadyLabel::setVerticalAlignment(Qt::Alignment alignment)
{
    m_vertical = alignment & Qt::AlignVertical_Mask;
    update();
}

int SteadyLabel::textWidth() const
{
    const int whole = fontMetrics().horizontalAdvance(m_text) + 2;
    if (m_lines == 1)
        return whole;
    // Wrapped over m_lines: at least the longest word, and a share of the whole with slack for
    // where the breaks fall.
    int word = 0;
    for (const QString& w : m_text.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
        // Japanese breaks between any two characters: only Latin words are unbreakable.
        const bool breakable = std::any_of(w.begin(), w.end(), [](QChar c) { return c.unicode() >= 0x2E80; });
        if (!breakable)
            word = std::max(word, fontMetrics().horizontalAdvance(w));
    }
    return std::max(word + 2, whole * 6 / (5 * m_lines));
}

int SteadyLabel::lineHeight() const
{
    // Japanese glyphs come from a fallback font (Noto CJK) taller than the widget's own.
    return std::max(fontMetrics().lineSpacing(),
                    fontMetrics().boundingRect(QStringLiteral("Ag\u6f22\u5b57")).height());
}

void SteadyLabel::setLines(int lines)
{
    if (lines == m_lines)
        return;
    m_lines = lines;
    m_widest = textWidth(); // what the text needs at its new number of lines
    updateGeometry();
    update();
}

QSize SteadyLabel::sizeHint() const
{
    const int width = m_lines == 1 ? m_widest : std::max(m_widest, fontMetrics().averageCharWidth() * 24);
    return {width, lineHeight() * m_lines};
}

QSize SteadyLabel::minimumSizeHint() const
{
    // Never narrower than any text so far needed, so no figure or wrapped line is cut.
    const int width = m_widest;
    return {width, lineHeight() * m_lines};
}

void SteadyLabel::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setPen(m_color.isValid() ? m_color : palette().color(foregroundRole()));
    const QRect box = contentsRect();
    if (m_lines == 1) {
        painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter,
                         fontMetrics().elidedText(m_text, Qt::ElideRight, box.width()));
    } else {
        painter.drawText(box, Qt::AlignLeft | m_vertical | Qt::TextWordWrap, m_text);
    }
}

void SteadyLabel::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::FontChange) {
        m_widest = textWidth();
        updateGeometry();
    }
    QWidget::changeEvent(event);
}

} // namespace kvscope::ui
