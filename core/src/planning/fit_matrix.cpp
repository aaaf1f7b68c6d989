// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/fit_matrix.h"

#include "kvscope/evaluation/evaluation.h"
#include "kvscope/settings/scenario_defaults.h"

#include <algorithm>

namespace kvscope {

const char* cellFitId(CellFit fit)
{
    switch (fit) {
    case CellFit::Fits:
        return "fits";
    case CellFit::FitsShorter:
        return "fits_shorter";
    case CellFit::DoesNotFit:
        return "does_not_fit";
    }
    return "does_not_fit";
}

const char* matrixAxesId(MatrixAxes axes)
{
    return axes == MatrixAxes::ModelsByGpus ? "gpus" : "formats";
}

namespace {

FitCell cellFor(const Scenario& s)
{
    FitCell cell;
    auto e = evaluate(s);
    if (!e)
        return cell;
    cell.longestContext = e->tokensFit.perSequence;
    cell.concurrency = e->tokensFit.maxConcurrency;
    if (e->vram.fits)
        cell.fit = CellFit::Fits;
    else if (cell.longestContext > 0)
        cell.fit = CellFit::FitsShorter;
    return cell;
}

} // namespace

FitMatrix fitMatrix(const Scenario& base, const Catalog& catalog, MatrixAxes axes,
                    const std::vector<std::string>& models)
{
    FitMatrix m;
    m.axes = axes;
    for (const ModelSpec& model : catalog.models)
        if (models.empty() || std::find(models.begin(), models.end(), model.id) != models.end()) {
            m.rowIds.push_back(model.id);
            m.rowNames.push_back(model.name);
        }
    if (axes == MatrixAxes::ModelsByGpus) {
        for (const GpuSpec& g : catalog.gpus)
            if (base.engine.runsOn(g.vendor)) {
                m.columnIds.push_back(g.id);
                m.columnNames.push_back(g.name);
            }
    } else {
        for (const WeightFormat& f : catalog.weightFormats)
            if (base.engine.supportsWeights(f.id)) {
                m.columnIds.push_back(f.id);
                m.columnNames.push_back(f.name);
            }
    }
    m.cells.reserve(m.rowIds.size() * m.columnIds.size());
    for (const std::string& modelId : m.rowIds) {
        Scenario s = base;
        s.model = *catalog.model(modelId);
        for (const std::string& column : m.columnIds) {
            if (axes == MatrixAxes::ModelsByGpus)
                applyGpu(s, *catalog.gpu(column), catalog);
            else
                s.weights = *catalog.weightFormat(column);
            m.cells.push_back(cellFor(s));
        }
    }
    return m;
}

} // namespace kvscope
