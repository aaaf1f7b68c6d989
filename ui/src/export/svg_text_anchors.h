// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QFont>
#include <QList>
#include <QString>

namespace kvscope::ui {

class ChartBase;

// A line of text a chart draws centred on a point: its title and subtitle lines, and the titles
// of its horizontal axes. `centreX` is in the chart's own pixels.
struct CentredText
{
    QString text;
    QFont font;
    double centreX = 0;
};

// The chart's centred lines as it is laid out now.
QList<CentredText> centredTexts(const ChartBase& chart);

// QSvgGenerator writes every line as a <text> at its left end, so a viewer that substitutes
// the font (a wider or narrower one) moves a centred title off its centre. Each <text> that
// draws one of `texts` is given x at its centre and text-anchor="middle" instead.
QByteArray withCentredTextAnchors(const QByteArray& svg, const QList<CentredText>& texts);

} // namespace kvscope::ui
