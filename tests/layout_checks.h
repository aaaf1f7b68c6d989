// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Checks of a layout file's chart (describeChart, `kvscope --layout`), read from the JSON alone as
// a reviewer without eyes would: what tst_layout and tst_chart_labels hold every chart to.

#include <QJsonArray>
#include <QJsonObject>
#include <QLineF>
#include <QPointF>
#include <QRectF>
#include <QSet>
#include <QString>

#include <algorithm>
#include <cmath>
#include <limits>

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

inline double distanceToSegment(const QPointF& p, const QPointF& a, const QPointF& b)
{
    const QPointF d = b - a;
    const double length2 = QPointF::dotProduct(d, d);
    const double t =
        length2 > 0 ? std::clamp(QPointF::dotProduct(p - a, d) / length2, 0.0, 1.0) : 0.0;
    return QLineF(p, a + t * d).length();
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

// How far a curve drawn through `points` passes from `box` (0 through it).
inline double distanceToCurve(const QRectF& box, const QJsonArray& points)
{
    double nearest = std::numeric_limits<double>::infinity();
    for (qsizetype i = 0; i < points.size(); ++i) {
        const QPointF b = pointOf(points[i]);
        const QPointF a = i > 0 ? pointOf(points[i - 1]) : b;
        if (segmentCrosses(a, b, box))
            return 0;
        nearest = std::min({nearest, distance(box, QRectF(a, a)), distance(box, QRectF(b, b))});
        for (const QPointF& corner :
             {box.topLeft(), box.topRight(), box.bottomLeft(), box.bottomRight()})
            nearest = std::min(nearest, distanceToSegment(corner, a, b));
    }
    return nearest;
}

// What is wrong with where a callout naming a point (a crossing) stands, or "". Beside it: within
// `near` pixels, nearer it than any other marker, and nearer its own curve than any other (a
// number by another series' line reads as that series'). Farther off: at the end of a leader
// drawn from the point.
inline QString anchorProblem(const QJsonObject& chart, const QJsonObject& label, double near)
{
    const QRectF box = rectOf(label[QStringLiteral("rect")]);
    const QPointF at = pointOf(label[QStringLiteral("anchor")]);
    const QJsonArray series = chart[QStringLiteral("series")].toArray();
    if (label.contains(QStringLiteral("leader"))) {
        const QJsonObject leader =
            chart[QStringLiteral("lines")][label[QStringLiteral("leader")].toInt()].toObject();
        if (QLineF(pointOf(leader[QStringLiteral("from")]), at).length() > 12) // off its marker
            return QStringLiteral(" has a leader from elsewhere");
        const QPointF end = pointOf(leader[QStringLiteral("to")]);
        return distance(box, QRectF(end, end)) > 2 ? QStringLiteral(" is off its leader's end")
                                                   : QString();
    }
    const double own = distance(box, QRectF(at, at));
    if (own > near)
        return QStringLiteral(" is %1 px from its point").arg(own);
    for (const QJsonValue& s : series)
        if (s[QStringLiteral("markers")].toBool())
            for (const QJsonValue& p : s[QStringLiteral("points")].toArray())
                if (QLineF(pointOf(p), at).length() > 0.5 &&
                    distance(box, QRectF(pointOf(p), pointOf(p))) + 0.5 < own)
                    return QStringLiteral(" is nearer another marker than its own");
    if (!label.contains(QStringLiteral("series")))
        return {};
    const int mine = label[QStringLiteral("series")].toInt();
    const double toOwn = distanceToCurve(box, series[mine][QStringLiteral("points")].toArray());
    for (qsizetype i = 0; i < series.size(); ++i)
        if (i != mine && !series[i][QStringLiteral("markers")].toBool() &&
            series[i].toObject().contains(QStringLiteral("points")) &&
            distanceToCurve(box, series[i][QStringLiteral("points")].toArray()) + 0.5 < toOwn)
            return QStringLiteral(" is nearer \"%1\" than its own curve")
                .arg(series[i][QStringLiteral("name")].toString());
    return {};
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
        if (label.contains(QStringLiteral("anchor")))
            if (const QString problem = anchorProblem(chart, label, near); !problem.isEmpty())
                return name + problem;
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
            if (series[QStringLiteral("scatter")].toBool())
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
