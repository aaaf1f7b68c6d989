// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A scenario evaluated over a range of one input: the data behind every chart, the CLI's
// `sweep` and the CSV export. Each point is a full evaluate(), so no formula lives here.

#include "kvscope/evaluation/evaluation.h"
#include "kvscope/scenario/scenario.h"

#include <string>
#include <vector>

namespace kvscope {

enum class SweepVariable { Context, Batch, Vram };
const char* sweepVariableId(SweepVariable variable); // "context", "batch", "vram"
bool parseSweepVariable(const std::string& id, SweepVariable* out);

struct SweepColumn
{
    std::string id;             // "kv_per_gpu_bytes", "decode_ms_gpu", ...
    std::string unit;           // "bytes", "ms", "tokens", "tokens/s", "GiB", "bool"
    std::vector<double> values; // one per point; NaN where a tokens_fit_* count has no figure
                                // (GPU memory does not limit it: TokensFit::room)
};

struct Sweep
{
    SweepVariable variable = SweepVariable::Context;
    std::vector<double> x;            // context tokens, batch size, or GPU memory in GiB
    std::vector<SweepColumn> columns; // same order for every sweep of a variable

    const SweepColumn* column(const std::string& id) const;
};

// `points` values from `from` to `to`, spaced evenly on a log scale, rounded to integers for
// context and batch (duplicates dropped). 2 <= points <= 10,000.
std::vector<double> sweepGrid(SweepVariable variable, double from, double to, int points);

Expected<Sweep> sweep(const Scenario& scenario, SweepVariable variable, double from, double to,
                      int points);

// The sweep as CSV: a header row (the variable, then every column id) and one row per point;
// integers stay integers, other values keep six decimals, '.' always (machine-readable); a value
// with no figure (NaN) is an empty cell.
std::string sweepToCsv(const Sweep& sweep);
// The same with only the columns named in `columnIds`, still in the sweep's own order (a
// selection never reorders the file); ids the sweep lacks are ignored.
std::string sweepToCsv(const Sweep& sweep, const std::vector<std::string>& columnIds);
// Sweeps over the same points side by side (compared scenarios): one column group per sweep,
// its columns named "name:column" ("A: FP16:kv_per_gpu_bytes"), or plain where the name is "".
struct NamedSweep
{
    std::string name;
    const Sweep* sweep = nullptr;
};
std::string sweepsToCsv(const std::vector<NamedSweep>& sweeps,
                        const std::vector<std::string>& columnIds);

} // namespace kvscope
