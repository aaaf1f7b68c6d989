// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/chart_style.h"

#include <algorithm>
#include <cmath>

namespace kvscope::ui {

double relativeLuminance(const QColor& color)
{
    auto linear = [](double c) {
        return c <= 0.04045 ? c / 12.92 : std::pow((c + 0.055) / 1.055, 2.4);
    };
    return 0.2126 * linear(color.redF()) + 0.7152 * linear(color.greenF()) +
           0.0722 * linear(color.blueF());
}

double contrastRatio(const QColor& a, const QColor& b)
{
    const double la = relativeLuminance(a), lb = relativeLuminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

ChartStyle ChartStyle::fromPalette(const QPalette& palette, const QFont& font, double lineScale)
{
    ChartStyle style;
    style.background = palette.color(QPalette::Base);
    style.foreground = palette.color(QPalette::Text);
    style.grid = style.isDark() ? QColor(0x44, 0x44, 0x44) : QColor(0xDD, 0xDD, 0xDD);
    style.subtle = style.isDark() ? QColor(0xAA, 0xAA, 0xAA) : QColor(0x66, 0x66, 0x66);
    style.font = font;
    style.lineScale = lineScale;
    return style;
}

ChartStyle ChartStyle::print(const QFont& font)
{
    ChartStyle style;
    style.font = font;
    return style;
}

QColor ChartStyle::tint(const QColor& color, double opacity) const
{
    auto mix = [&](double over, double under) { return over * opacity + under * (1.0 - opacity); };
    return QColor::fromRgbF(float(mix(color.redF(), background.redF())),
                            float(mix(color.greenF(), background.greenF())),
                            float(mix(color.blueF(), background.blueF())));
}

QColor ChartStyle::ink(const QColor& color, double minContrast) const
{
    if (color == QColor(Qt::black))
        return foreground;
    QColor ink = color;
    for (double t = 0.1; t <= 1.0 && contrastRatio(ink, background) < minContrast; t += 0.1)
        ink = QColor::fromRgbF(float(color.redF() + (foreground.redF() - color.redF()) * t),
                               float(color.greenF() + (foreground.greenF() - color.greenF()) * t),
                               float(color.blueF() + (foreground.blueF() - color.blueF()) * t));
    return ink;
}

} // namespace kvscope::ui
