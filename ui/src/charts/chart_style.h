// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QColor>
#include <QFont>
#include <QPalette>

namespace kvscope::ui {

// One colour, one meaning (docs/palette.md). Status and memory hues are Okabe and Ito's
// colour-blind-safe set and are used for nothing else; attention kinds and engines are shades of
// two other hues (purple, teal) and storage tiers a hue each, each family in one chart only; pinned
// scenarios have colours of their own. Every line also has its own dashes, for greyscale print.
namespace colors {
// Memory components (the VRAM chart and the headline).
inline const QColor weights{0x00, 0x72, 0xB2};     // blue
inline const QColor kvCache{0xE6, 0x9F, 0x00};     // orange
inline const QColor activations{0xCC, 0x79, 0xA7}; // reddish purple
inline const QColor overhead{0x80, 0x80, 0x80};    // grey
inline const QColor freeVram{0x00, 0x9E, 0x73};    // bluish green: free memory is what fits
inline const QColor reserved{0xC8, 0xC8, 0xC8};    // light grey: outside the engine's fraction
// Status.
inline const QColor fits{0x00, 0x9E, 0x73};     // bluish green, as free memory
inline const QColor overflow{0xD5, 0x5E, 0x00}; // vermillion
inline const QColor caution{0xA6, 0x6A, 0x00};  // dark amber: runs, with a caution
// Attention kinds, darkest for the most KV per token: MHA, GQA, MLA's latent, MQA.
inline const QColor mha{0x3D, 0x1F, 0x7A};
inline const QColor gqa{0x63, 0x47, 0xB0};
inline const QColor mla{0x8B, 0x73, 0xD0};
inline const QColor mqa{0xB3, 0xA3, 0xE6};
// Where the KV cache lives: a hue each (teal, blue, violet), darker for the faster tier; the GPU
// in the foreground colour. Each is 3:1 against both the light and the dark plot, so ink() never
// moves it and the three stay apart in both themes (shades of one teal met in the middle).
inline const QColor gpu{0x00, 0x00, 0x00};
inline const QColor cpuRam{0x00, 0x79, 0x6B};
inline const QColor nvme{0x3D, 0x7F, 0xD6};
inline const QColor sata{0x9A, 0x7B, 0xD9};
inline const QColor recompute{0x00, 0x00, 0x00};
// Serving engines: transformers dynamic and static as two purples (one library), then vLLM
// teal, llama.cpp mustard, TGI blue and SGLang vermilion (two teals and two lavenders once made
// four engines read as two).
inline const QColor engines[6] = {{0x63, 0x47, 0xB0}, {0xB3, 0xA3, 0xE6}, {0x00, 0x69, 0x5C},
                                  {0xB0, 0x7D, 0x00}, {0x2F, 0x6D, 0xB5}, {0xD5, 0x5E, 0x00}};
// Pinned scenarios A to D beside the live one: colours no view uses for anything else, each with
// its own dashes so they stay apart in greyscale too.
inline const QColor pinned[4] = {
    {0x8C, 0x51, 0x0A}, {0xC5, 0x1B, 0x7D}, {0x5C, 0x5C, 0x00}, {0x4D, 0x4D, 0x4D}};
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
    // What a series colour draws with on this background: black becomes the foreground, and a
    // colour under `minContrast` against the background moves toward the foreground until it
    // reaches it (3:1 for lines, WCAG's non-text minimum; 4.5:1 for text).
    QColor ink(const QColor& color, double minContrast = 3.0) const;
    // `color` at `opacity` over the background, as an opaque colour: looks the same as a
    // translucent fill and skips per-pixel blending on every replot.
    QColor tint(const QColor& color, double opacity) const;
};

} // namespace kvscope::ui
