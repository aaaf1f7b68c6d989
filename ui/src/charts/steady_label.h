// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QStringList>
#include <QWidget>

namespace kvscope::ui {

// Text that changes on every slider step in a box whose size does not: setText() repaints the
// label and nothing else. (QLabel::setText asks the window's layout again, and with word-wrapped
// neighbours that costs more than replotting every chart.) The layout is asked again only when
// a text needs more width than any before it.
class SteadyLabel : public QWidget
{
    Q_OBJECT
public:
    // `lines` of text the label is tall; more than one wraps at word boundaries.
    explicit SteadyLabel(int lines, QWidget* parent = nullptr);

    void setText(const QString& text);
    void setLines(int lines); // how many lines tall the label is
    int lines() const;
    QString text() const { return m_text; }
    // The lines as drawn at the label's current width (a single line is elided, not wrapped).
    QStringList drawnLines() const;
    // An invalid colour draws in the palette's colour of the label's foreground role.
    void setTextColor(const QColor& color);
    // Where wrapped text sits in its lines: Qt::AlignTop (the default) or Qt::AlignBottom.
    void setVerticalAlignment(Qt::Alignment alignment);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    int textWidth() const;
    int lineHeight() const;

    int m_lines;
    QString m_text;
    QColor m_color;
    Qt::Alignment m_vertical = Qt::AlignTop;
    int m_widest = 0; // most width any text so far needed: the minimum the layout was given
};

} // namespace kvscope::ui
