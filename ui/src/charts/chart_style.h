// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QFont>
#include <QPalette>

namespace kvscope::ui {

// One colour per thing, the same on every chart, from the Okabe-Ito palette (distinguishable
// for colour-blind readers and in greyscale print when paired with the line styles used).
namespace colors {
inline const QColor weights{0x00, 0x72, 0xB2};     // blue
inline const QColor kvCache{0xE6, 0x9F, 0x00};     // orange
inline const QColor activations{0xCC, 0x79, 0xA7}; // reddish purple
inline const QColor overhead{0x80, 0x80, 0x80};    // grey
inline const QColor freeVram{0x00, 0x9E, 0x73};    // bluish green
inline const QColor reserved{0xC8, 0xC8, 0xC8};    // light grey
inline const QColor overflow{0xD5, 0x5E, 0x00};    // vermillion
inline const QColor caution{0xA6, 0x6A, 0x00};     // dark amber: runs, with a caution
inline const QColor mha{0xD5, 0x5E, 0x00};
inline const QColor gqa{0x00, 0x72, 0xB2};
inline const QColor mqa{0x00, 0x9E, 0x73};
inline const QColor mla{0xCC, 0x79, 0xA7};
inline const QColor gpu{0x00, 0x00, 0x00};         // drawn in the foreground colour
inline const QColor cpuRam{0xE6, 0x9F, 0x00};
inline const QColor nvme{0x56, 0xB4, 0xE9};        // sky blue
inline const QColor sata{0xCC, 0x79, 0xA7};
inline const QColor recompute{0x00, 0x00, 0x00};
// Serving engines: transformers (dynamic, static cache), vLLM, llama.cpp, TGI.
inline const QColor engines[5] = {{0x00, 0x72, 0xB2}, {0x56, 0xB4, 0xE9}, {0xD5, 0x5E, 0x00},
                                  {0x00, 0x9E, 0x73}, {0xCC, 0x79, 0xA7}};
// Pinned scenarios A to D beside the live one: colours no view uses for anything else, each with
// its own dashes so they stay apart in greyscale too.
inline const QColor pinned[4] = {{0x6A, 0x3D, 0x9A}, {0x8C, 0x51, 0x0A}, {0x01, 0x66, 0x5E},
                                 {0xC5, 0x1B, 0x7D}};
inline const Qt::PenStyle pinnedDash[4] = {Qt::DashLine, Qt::DashDotLine, Qt::DotLine,
                                           Qt::DashDotDotLine};
} // namespace colors

// WCAG's relative luminance of an opaque colour, and the contrast ratio of two (1 to 21): what
// picks a label's ink on a coloured bar and what the dark theme's test holds to 4.5:1.
double relativeLuminance(const QColor& color);
double contrastRatio(const QColor& a, const QColor& b);

// How charts look: follows the window palette, or the print palette for exports.
struct ChartStyle
{
    QColor background = Qt::white;
    QColor foreground = Qt::black;
    QColor grid{0xDD, 0xDD, 0xDD};
    QColor subtle{0x66, 0x66, 0x66};
    QFont font;
    double lineScale = 1.0; // presentation mode draws thicker lines

    static ChartStyle fromPalette(const QPalette& palette, const QFont& font, double lineScale);
    static ChartStyle print(const QFont& font); // light, for exports and reports
    bool isDark() const { return background.lightnessF() < 0.5; }
    // The foreground stand-in for colors that are black on light backgrounds.
    QColor ink(const QColor& color) const;
    // `color` at `opacity` over the background, as an opaque colour: looks the same as a
    // translucent fill and skips per-pixel blending on every replot.
    QColor tint(const QColor& color, double opacity) const;
};

} // namespace kvscope::ui
