// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/catalog/catalog.h"

namespace kvscope::bench {

// Opens the window offscreen at 1600x1000, drags the context slider through 200 positions and
// then every other slider through all of theirs, and prints replot_median_ms and replot_p95_ms:
// a control change until all five charts have replotted.
int runReplotBench(const Catalog& catalog);

// `kvscope-bench --first-frame window|bare`: starts that program, prints "painted" when its
// first frame is painted, and exits. The parent times a child process from spawn to that line.
int runFirstFrameChild(const char* which, const Catalog& catalog);
// Prints startup_ms (the window) and bare_startup_ms (an empty Qt Widgets window), each the
// median of 7 child processes from spawn to first painted frame.
int runStartupBench(const char* self);

} // namespace kvscope::bench
