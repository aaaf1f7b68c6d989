// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Checks of a layout file's chart (describeChart, `kvscope --layout`), read from the JSON alone as
// a reviewer without eyes would: what tst_layout and tst_chart_labels hold every chart to.

#include <QJsonArray>
#include <QJsonObject>
#include <QPointF>
#include <QRectF>
#include <QSet>
#include <QString>

#include <algorithm>
#include <cmath>

namespace kvscope::test {

inline QRectF rectOf(const QJsonValue& value)
{
    const QJsonArray r = value.toArray();
    return {r[0].toDouble(), r[1].toDouble(), r[2].toDouble(), r[3].toDouble()};
}

// What a layout file says is wrong with one chart, or "": a plot under 240 x 160 pixels, a
// label outside its chart or over another label, a callout over its own curve's points.
inline QString layoutProblem(const QJsonObject& chart)
{
    const QString id = chart[QStringLiteral("id")].toString();
    const QRectF plot = rectOf(chart[QStringLiteral("plot")]);
    if (plot.width() < 240 || plot.height() < 160)
        return QStringLiteral("%1: plot %2x%3").arg(id).arg(plot.width()).arg(plot.height());
    const QRectF box = rectOf(chart[QStringLiteral("rect")]).adjusted(-1, -1, 1, 1);
    const QJsonArray labels = chart[QStringLiteral("labels")].toArray();
    const QJsonArray series = chart[QStringLiteral("series")].toArray();
    for (qsizetype i = 0; i < labels.size(); ++i) {
        const QJsonObject label = labels[i].toObject();
        const QString name =
            QStringLiteral("%1: \"%2\"").arg(id, label[QStringLiteral("text")].toString());
        const QRectF r = rectOf(label[QStringLiteral("rect")]);
        if (!box.contains(r))
            return name + QStringLiteral(" outside its chart");
        for (qsizetype j = 0; j < i; ++j)
            if (r.intersects(rectOf(labels[j].toObject()[QStringLiteral("rect")])))
                return name + QStringLiteral(" over \"%1\"")
                                  .arg(labels[j].toObject()[QStringLiteral("text")].toString());
        if (!label.contains(QStringLiteral("series")))
            continue;
        const QRectF inside = r.adjusted(1, 1, -1, -1);
        const QJsonObject own = series[label[QStringLiteral("series")].toInt()].toObject();
        for (const QJsonValue& p : own[QStringLiteral("points")].toArray())
            if (inside.contains(QPointF(p.toArray()[0].toDouble(), p.toArray()[1].toDouble())))
                return name + QStringLiteral(" covers a point of its own series");
    }
    return {};
}

// The distance in pixels between a box and a point or an axis-aligned segment.
inline double distance(const QRectF& box, const QRectF& figure)
{
    const double dx = std::max({box.left() - figure.right(), figure.left() - box.right(), 0.0});
    const double dy = std::max({box.top() - figure.bottom(), figure.top() - box.bottom(), 0.0});
    return std::hypot(dx, dy);
}

inline QPointF pointOf(const QJsonValue& value)
{
    return {value.toArray()[0].toDouble(), value.toArray()[1].toDouble()};
}

// What a layout file says is wrong with a chart's callouts and limit lines, or "": a callout
// farther than `near` pixels from the point or line it names, over a crossing marker, or with
// a line through it; a limit line (not the current scenario's marker) that no label names.
inline QString calloutProblem(const QJsonObject& chart, double near)
{
    const QString id = chart[QStringLiteral("id")].toString();
    const QJsonArray lines = chart[QStringLiteral("lines")].toArray();
    QList<QRectF> segments;
    for (const QJsonValue& line : lines)
        segments << QRectF(pointOf(line[QStringLiteral("from")]),
                           pointOf(line[QStringLiteral("to")]))
                        .normalized();
    QList<QPointF> markers;
    for (const QJsonValue& series : chart[QStringLiteral("series")].toArray())
        if (series[QStringLiteral("markers")].toBool())
            for (const QJsonValue& p : series[QStringLiteral("points")].toArray())
                markers << pointOf(p);
    QSet<int> named;
    for (const QJsonValue& value : chart[QStringLiteral("labels")].toArray()) {
        const QJsonObject label = value.toObject();
        if (label[QStringLiteral("kind")].toString() != QLatin1String("callout"))
            continue;
        const QString name =
            QStringLiteral("%1: \"%2\"").arg(id, label[QStringLiteral("text")].toString());
        const QRectF box = rectOf(label[QStringLiteral("rect")]);
        if (label.contains(QStringLiteral("anchor"))) {
            const QPointF at = pointOf(label[QStringLiteral("anchor")]);
            const double own = distance(box, QRectF(at, at));
            if (own > near)
                return name + QStringLiteral(" is %1 px from its point").arg(own);
            // A number nearer another series' marker than its own reads as that series'.
            for (const QPointF& marker : markers)
                if (QLineF(marker, at).length() > 0.5 &&
                    distance(box, QRectF(marker, marker)) + 0.5 < own)
                    return name + QStringLiteral(" is nearer another marker than its own");
        }
        if (label.contains(QStringLiteral("line"))) {
            const int line = label[QStringLiteral("line")].toInt();
            named.insert(line);
            if (distance(box, segments[line]) > near)
                return name +
                       QStringLiteral(" is %1 px from its line").arg(distance(box, segments[line]));
        }
        for (const QPointF& marker : markers)
            if (box.adjusted(-4, -4, 4, 4).contains(marker))
                return name + QStringLiteral(" covers a crossing marker");
        for (qsizetype i = 0; i < segments.size(); ++i)
            if (!lines[i][QStringLiteral("marker")].toBool() && // the context moves under all
                box.adjusted(1, 1, -1, -1).intersects(segments[i].adjusted(0, 0, 0.01, 0.01)))
                return name + QStringLiteral(" has line %1 through it").arg(i);
    }
    for (qsizetype i = 0; i < lines.size(); ++i)
        if (!lines[i][QStringLiteral("marker")].toBool() && !named.contains(int(i)))
            return QStringLiteral("%1: line %2 has no label").arg(id).arg(i);
    return {};
}

// Whether a segment between two points crosses a box: sampled every pixel, as a curve drawn
// between its points would pass through it.
inline bool segmentCrosses(const QPointF& a, const QPointF& b, const QRectF& box)
{
    const int steps = std::max(1, int(std::ceil(std::hypot(b.x() - a.x(), b.y() - a.y()))));
    for (int i = 0; i <= steps; ++i)
        if (box.contains(a + (b - a) * (double(i) / steps)))
            return true;
    return false;
}

// What a layout file says is wrong with a chart's callouts and curves, or "": a boxed callout
// with a curve drawn through it, which the box would hide.
inline QString curveUnderCalloutProblem(const QJsonObject& chart)
{
    const QString id = chart[QStringLiteral("id")].toString();
    for (const QJsonValue& value : chart[QStringLiteral("labels")].toArray()) {
        const QJsonObject label = value.toObject();
        if (label[QStringLiteral("kind")].toString() != QLatin1String("callout") ||
            !label[QStringLiteral("boxed")].toBool())
            continue;
        const QRectF box = rectOf(label[QStringLiteral("rect")]).adjusted(2, 2, -2, -2);
        for (const QJsonValue& series : chart[QStringLiteral("series")].toArray()) {
            if (series[QStringLiteral("markers")].toBool())
                continue; // points, not a curve
            const QJsonArray points = series[QStringLiteral("points")].toArray();
            for (qsizetype i = 1; i < points.size(); ++i)
                if (segmentCrosses(pointOf(points[i - 1]), pointOf(points[i]), box))
                    return QStringLiteral("%1: \"%2\" hides curve \"%3\"")
                        .arg(id, label[QStringLiteral("text")].toString(),
                             series[QStringLiteral("name")].toString());
        }
    }
    return {};
}

} // namespace kvscope::test
