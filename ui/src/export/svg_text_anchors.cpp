// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/svg_text_anchors.h"

#include "charts/chart_base.h"

#include <QFontMetricsF>
#include <QRegularExpression>

#include <cmath>
#include <optional>

namespace kvscope::ui {

namespace {

void appendLines(QList<CentredText>* out, const QString& text, const QFont& font, double centreX)
{
    for (const QString& line : text.split(QLatin1Char('\n')))
        if (!line.trimmed().isEmpty())
            out->append({line, font, centreX});
}

// Where the <text> element starts that draws `t`: the one whose text is `t.text` and
// whose middle, by the font's advance, is nearest the centre, within a few pixels.
std::optional<qsizetype> elementOf(const QString& svg, const CentredText& t)
{
    static const QRegularExpression textElement(
        QStringLiteral("<text\\b[^>]*\\bx=\"([-0-9.eE]+)\"[^>]*>([^<]*)</text>"));
    const QString escaped = t.text.toHtmlEscaped();
    const double half = QFontMetricsF(t.font).horizontalAdvance(t.text) / 2;
    std::optional<qsizetype> best;
    double bestDistance = std::max(4.0, half * 0.1);
    for (auto it = textElement.globalMatch(svg); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        if (m.captured(2) != escaped || m.captured(0).contains(QLatin1String("text-anchor")))
            continue; // another text, or this one anchored for an earlier line
        const double distance = std::abs(m.captured(1).toDouble() + half - t.centreX);
        if (distance <= bestDistance) {
            bestDistance = distance;
            best = m.capturedStart();
        }
    }
    return best;
}

} // namespace

QList<CentredText> centredTexts(const ChartBase& chart)
{
    QList<CentredText> texts;
    for (QCPLayoutElement* element : chart.plotLayout()->elements(true))
        if (auto* text = qobject_cast<QCPTextElement*>(element);
            text && text->visible() && (text->textFlags() & Qt::AlignHCenter))
            appendLines(&texts, text->text(), text->font(), text->rect().center().x());
    for (QCPAxis* axis : chart.axisRect()->axes())
        if (axis->visible() && (axis->axisType() & (QCPAxis::atBottom | QCPAxis::atTop)))
            appendLines(&texts, axis->label(), axis->labelFont(),
                        chart.axisRect()->rect().center().x());
    return texts;
}

QByteArray withCentredTextAnchors(const QByteArray& svg, const QList<CentredText>& texts)
{
    static const QRegularExpression x(QStringLiteral("\\bx=\"[-0-9.eE]+\""));
    QString out = QString::fromUtf8(svg);
    for (const CentredText& t : texts) {
        const std::optional<qsizetype> at = elementOf(out, t);
        if (!at)
            continue;
        const qsizetype end = out.indexOf(QLatin1Char('>'), *at);
        QString tag = out.mid(*at, end - *at);
        tag.replace(x, QStringLiteral("x=\"%1\" text-anchor=\"middle\"")
                           .arg(QString::number(t.centreX, 'f', 2)));
        out.replace(*at, end - *at, tag);
    }
    return out.toUtf8();
}

} // namespace kvscope::ui
