// SPDX-License-Identifier: GPL-3.0-or-later
// Where a chart's callouts go: beside their point where no curve runs under them, else the
// nearest clear spot with a leader line (ChartBase's placement, apart from its drawing).
#include "charts/chart_base.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace kvscope::ui {

void ChartBase::placeBesidePoint(QCPItemText* label, double key, double value, double factor,
                                 QCPItemLine* leader) const
{
    // Beside the point where the plot has room for the label and no curve runs under it (a
    // boxed label would hide it): to its right or left, above or below, `factor` off, then a
    // little farther each time; else, given a leader, the nearest clear spot with a leader line
    // to the point; else the first spot inside the plot. Near the right edge, the label moves
    // inside as far as it must.
    const QSizeF size = labelSize(label);
    const QRectF plot(axisRect()->rect());
    const double x = xAxis->coordToPixel(key);
    const double y = yAxis->coordToPixel(value);
    const double maxLeft = std::max(plot.left(), plot.right() - size.width());
    const double nearest = std::abs(y - yAxis->coordToPixel(value * factor));
    struct Spot
    {
        QRectF box;
        Qt::Alignment alignment;
        double key, value;
    };
    std::vector<Spot> spots;
    for (const double off : {nearest, nearest + 10, nearest + 20, nearest + 30})
        for (const bool above : {true, false})
            for (const bool right : {true, false}) {
                const double edge = above ? y - off : y + off; // the box's edge by the point
                const double left = std::clamp(right ? x : x - size.width(), plot.left(), maxLeft);
                const QRectF box(left, above ? edge - size.height() : edge, size.width(),
                                 size.height());
                spots.push_back({box, Qt::AlignLeft | (above ? Qt::AlignBottom : Qt::AlignTop),
                                 xAxis->pixelToCoord(left), yAxis->pixelToCoord(edge)});
            }
    auto inPlot = [&](const Spot& s) { return plot.adjusted(-1, -1, 1, 1).contains(s.box); };
    auto chosen = std::find_if(spots.begin(), spots.end(),
                               [&](const Spot& s) { return inPlot(s) && clearSpot(s.box, label); });
    if (leader)
        leader->setVisible(false);
    if (chosen == spots.end() && leader) {
        // Nothing clear beside the point: the nearest clear spot in the plot, with a leader.
        if (const std::optional<QRectF> far = nearestClearSpot(label, QPointF(x, y))) {
            label->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
            label->position->setCoords(xAxis->pixelToCoord(far->left()),
                                       yAxis->pixelToCoord(far->top()));
            drawLeader(leader, QPointF(x, y), *far, 0);
            return;
        }
    }
    if (chosen == spots.end())
        chosen = std::find_if(spots.begin(), spots.end(), inPlot);
    if (chosen == spots.end())
        chosen = spots.begin();
    label->setPositionAlignment(chosen->alignment);
    label->position->setCoords(chosen->key, chosen->value);
}

// Whether a label's box at `box` hides no curve and covers no other label.
bool ChartBase::clearSpot(const QRectF& box, const QCPItemText* label) const
{
    for (int g = 0; g < graphCount(); ++g)
        if (graph(g)->visible() && graph(g)->lineStyle() != QCPGraph::lsNone &&
            curveCrosses(box, graph(g)))
            return false;
    for (const QCPItemText* other : visibleLabels())
        if (other != label && labelBox(other).intersects(box))
            return false;
    return true;
}

// The clear spot in the plot nearest `point` (pixels) for `label`, at least a marker's width
// off it; none when the curves leave no room anywhere.
std::optional<QRectF>
ChartBase::nearestClearSpot(const QCPItemText* label, const QPointF& point,
                            const std::function<bool(const QRectF&)>& alsoClear) const
{
    const QSizeF size = labelSize(label);
    const QRectF plot(axisRect()->rect());
    std::vector<std::pair<double, QRectF>> spots;
    for (double top = plot.top() + 2; top + size.height() <= plot.bottom() - 2; top += 6)
        for (double left = plot.left() + 2; left + size.width() <= plot.right() - 2; left += 6) {
            const QRectF box(left, top, size.width(), size.height());
            const double dx = std::max({box.left() - point.x(), point.x() - box.right(), 0.0});
            const double dy = std::max({box.top() - point.y(), point.y() - box.bottom(), 0.0});
            if (std::hypot(dx, dy) >= 8)
                spots.emplace_back(std::hypot(dx, dy), box);
        }
    std::sort(spots.begin(), spots.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    for (const auto& [distance, box] : spots)
        if (clearSpot(box, label) && (!alsoClear || alsoClear(box)))
            return box;
    return std::nullopt;
}

bool ChartBase::curveCrosses(const QRectF& box, const QCPGraph* curve)
{
    std::optional<QPointF> previous;
    for (const QCPGraphData& d : *curve->data()) {
        const QPointF p = curve->coordsToPixels(d.key, d.value);
        if (segmentMeetsBox(QLineF(previous.value_or(p), p), box))
            return true;
        previous = p;
    }
    return false;
}

QPointF ChartBase::nearestPointOf(const QRectF& box, const QPointF& from)
{
    return {std::clamp(from.x(), box.left(), box.right()),
            std::clamp(from.y(), box.top(), box.bottom())};
}

void ChartBase::drawLeader(QCPItemLine* leader, const QPointF& from, const QRectF& box,
                           double offPoint) const
{
    const QPointF to = nearestPointOf(box, from);
    const double length = QLineF(from, to).length();
    const QPointF start = length > offPoint ? from + (to - from) * (offPoint / length) : from;
    // In the plot's coordinates, as the point it names: it moves with the axes.
    leader->start->setCoords(xAxis->pixelToCoord(start.x()), yAxis->pixelToCoord(start.y()));
    leader->end->setCoords(xAxis->pixelToCoord(to.x()), yAxis->pixelToCoord(to.y()));
    leader->setVisible(true);
}

bool ChartBase::segmentMeetsBox(const QLineF& segment, const QRectF& box)
{
    if (box.contains(segment.p1()) || box.contains(segment.p2()))
        return true;
    const QLineF edges[] = {{box.topLeft(), box.topRight()},
                            {box.topRight(), box.bottomRight()},
                            {box.bottomRight(), box.bottomLeft()},
                            {box.bottomLeft(), box.topLeft()}};
    return std::any_of(std::begin(edges), std::end(edges), [&](const QLineF& edge) {
        return segment.intersects(edge) == QLineF::BoundedIntersection;
    });
}

double ChartBase::distanceToSegment(const QPointF& p, const QLineF& segment)
{
    const QPointF d = segment.p2() - segment.p1();
    const double length2 = QPointF::dotProduct(d, d);
    const double t = length2 > 0
                         ? std::clamp(QPointF::dotProduct(p - segment.p1(), d) / length2, 0.0, 1.0)
                         : 0.0;
    return QLineF(p, segment.p1() + t * d).length();
}

double ChartBase::distanceToCurve(const QRectF& box, const QCPGraph* curve)
{
    if (curveCrosses(box, curve))
        return 0;
    // Between a box and a segment that does not run through it: the nearest of either's ends to
    // the other.
    auto distanceBetween = [](const QRectF& box, const QLineF& segment) {
        auto toBox = [&](const QPointF& p) {
            const double dx = std::max({box.left() - p.x(), p.x() - box.right(), 0.0});
            const double dy = std::max({box.top() - p.y(), p.y() - box.bottom(), 0.0});
            return std::hypot(dx, dy);
        };
        double nearest = std::min(toBox(segment.p1()), toBox(segment.p2()));
        for (const QPointF& corner :
             {box.topLeft(), box.topRight(), box.bottomLeft(), box.bottomRight()})
            nearest = std::min(nearest, distanceToSegment(corner, segment));
        return nearest;
    };
    double nearest = std::numeric_limits<double>::infinity();
    std::optional<QPointF> previous;
    for (const QCPGraphData& d : *curve->data()) {
        const QPointF p = curve->coordsToPixels(d.key, d.value);
        nearest = std::min(nearest, distanceBetween(box, QLineF(previous.value_or(p), p)));
        previous = p;
    }
    return nearest;
}

} // namespace kvscope::ui
