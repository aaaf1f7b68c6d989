// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/steady_label.h"

#include "charts/line_breaks.h"

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
    // One wrap at the width the label has rather than textWidth()'s search: this runs on every
    // slider step.
    bool fits = fontMetrics().horizontalAdvance(m_text) + 2 <= m_widest;
    if (!fits && m_lines > 1) {
        const QStringList lines = wrapText(m_text, font(), m_widest - 2).split(QLatin1Char('\n'));
        fits = lines.size() <= m_lines &&
               std::all_of(lines.begin(), lines.end(), [&](const QString& line) {
                   return fontMetrics().horizontalAdvance(line) + 2 <= m_widest;
               });
    }
    if (!fits && textWidth() > m_widest) {
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
    // Wrapped over m_lines: at least the widest piece no line may break (a Latin word, a
    // katakana word, a number with its unit), then wider until the breaks fall within m_lines.
    int word = 0;
    qsizetype start = 0;
    std::vector<qsizetype> breaks = lineBreaks(m_text);
    breaks.push_back(m_text.size());
    for (qsizetype b : breaks) {
        word =
            std::max(word, fontMetrics().horizontalAdvance(m_text.mid(start, b - start).trimmed()));
        start = b;
    }
    int width = std::max(word, whole / m_lines);
    const int step = std::max(2, fontMetrics().averageCharWidth() / 2);
    while (width < whole && wrapText(m_text, font(), width).count(QLatin1Char('\n')) >= m_lines)
        width += step;
    return std::min(width, whole) + 2;
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
    const int width =
        m_lines == 1 ? m_widest : std::max(m_widest, fontMetrics().averageCharWidth() * 24);
    return {width, lineHeight() * m_lines};
}

QSize SteadyLabel::minimumSizeHint() const
{
    // Never narrower than any text so far needed, so no figure or wrapped line is cut.
    const int width = m_widest;
    return {width, lineHeight() * m_lines};
}

QStringList SteadyLabel::drawnLines() const
{
    const QRect box = contentsRect();
    if (m_lines == 1)
        return {fontMetrics().elidedText(m_text, Qt::ElideRight, box.width())};
    // Our own breaks, not Qt's: Qt breaks Japanese between any two characters (パラメー|タ).
    return wrapText(m_text, font(), box.width()).split(QLatin1Char('\n'));
}

int SteadyLabel::lines() const
{
    return m_lines;
}

void SteadyLabel::paintEvent(QPaintEvent*)
{
    QPainter painter(this);
    painter.setPen(m_color.isValid() ? m_color : palette().color(foregroundRole()));
    const QRect box = contentsRect();
    if (m_lines == 1) {
        painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, drawnLines().constFirst());
    } else {
        painter.drawText(box, Qt::AlignLeft | m_vertical, drawnLines().join(QLatin1Char('\n')));
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
