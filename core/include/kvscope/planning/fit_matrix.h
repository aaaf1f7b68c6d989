// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The seed's "what fits on one 24 GB GPU" table, generalised: catalog models against catalog
// GPUs (or against weight formats on the scenario's GPU), at the scenario's context, batch,
// engine and the rest. Each cell says whether it fits, fits only with a shorter context, or
// does not fit, with the longest context and the concurrency that fit.

#include "kvscope/catalog/catalog.h"

#include <cstdint>
#include <string>
#include <vector>

namespace kvscope {

enum class CellFit { Fits, FitsShorter, DoesNotFit };
const char* cellFitId(CellFit fit); // "fits", "fits_shorter", "does_not_fit"

struct FitCell
{
    CellFit fit = CellFit::DoesNotFit;
    int64_t longestContext = 0; // per sequence at the scenario's batch
    int64_t concurrency = 0;    // sequences of the scenario's context that fit
};

enum class MatrixAxes { ModelsByGpus, ModelsByFormats };
const char* matrixAxesId(MatrixAxes axes); // "gpus", "formats"

struct FitMatrix
{
    MatrixAxes axes = MatrixAxes::ModelsByGpus;
    std::vector<std::string> rowIds, rowNames;       // models
    std::vector<std::string> columnIds, columnNames; // GPUs or weight formats
    std::vector<FitCell> cells;                      // row-major

    const FitCell& at(size_t row, size_t column) const
    {
        return cells[row * columnIds.size() + column];
    }
};

// Models by GPUs leaves out GPUs the scenario's engine does not run on; models by formats lists
// the formats the engine runs. `models` picks rows by id (empty = every catalog model).
FitMatrix fitMatrix(const Scenario& base, const Catalog& catalog, MatrixAxes axes,
                    const std::vector<std::string>& models = {});

} // namespace kvscope
