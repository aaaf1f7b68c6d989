// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/model/hardware.h"

namespace kvscope {

const char* costBasisId(CostBasis basis)
{
    return basis == CostBasis::Rent ? "rent" : "own";
}

bool parseCostBasis(const std::string& id, CostBasis* out)
{
    if (id != "rent" && id != "own")
        return false;
    *out = id == "rent" ? CostBasis::Rent : CostBasis::Own;
    return true;
}

} // namespace kvscope
