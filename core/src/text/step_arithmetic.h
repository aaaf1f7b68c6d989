// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The arithmetic of a decode step's parts beside the GPU's reads (explain.cpp's lines for them):
// the experts llama.cpp keeps in host RAM, the host link, the traffic between GPUs and nodes,
// and the step's fixed cost.

#include "kvscope/text/explain.h"

#include <string>
#include <vector>

namespace kvscope::text_detail {

inline std::string times()
{
    return " \u00d7 ";
}

void explainExpertOffload(const Scenario& s, const Evaluation& e, ByteUnits units,
                          const NumberStyle& st, const ExplainWords& w,
                          std::vector<Explanation>& out);
std::string hostLinkArithmetic(const Scenario& s, const Evaluation& e, const NumberStyle& st,
                               const ExplainWords& w);
std::string gpuLinkArithmetic(const DecodeTiming& d, const NumberStyle& st, const ExplainWords& w,
                              ByteUnits units);
std::string fixedCostArithmetic(const Scenario& s, const DecodeTiming& d, const NumberStyle& st,
                                const ExplainWords& w);

} // namespace kvscope::text_detail
