// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/planning/cautions.h"

namespace kvscope {

const char* cautionId(CautionKind kind)
{
    switch (kind) {
    case CautionKind::ContextBeyondModel:
        return "context_beyond_model";
    case CautionKind::LowHeadroom:
        return "low_headroom";
    }
    return "";
}

std::vector<Caution> cautionsOf(const Scenario& s, const Evaluation& e, const Verdict& verdict)
{
    std::vector<Caution> cautions;
    if (s.model.maxContext > 0 && s.context > s.model.maxContext)
        cautions.push_back(
            {CautionKind::ContextBeyondModel, double(s.context), double(s.model.maxContext)});
    const VramSplit& v = e.vram;
    if (verdict.runs && v.budgetBytes > 0 && v.freeBytes < kLowHeadroomShare * v.budgetBytes)
        cautions.push_back({CautionKind::LowHeadroom, v.freeBytes, v.budgetBytes});
    return cautions;
}

std::string cautionText(const Caution& c, ByteUnits units, const NumberStyle& st)
{
    switch (c.kind) {
    case CautionKind::ContextBeyondModel:
        return "Caution: a context of " + formatInteger(int64_t(c.value), st) +
               " tokens is past the model's trained maximum of " +
               formatInteger(int64_t(c.limit), st) + "; quality past it is not assured.";
    case CautionKind::LowHeadroom:
        return "Caution: only " + formatBytes(c.value, units, st) + " (" +
               formatNumber(100.0 * c.value / c.limit, 1, st) + " %) of the " +
               formatBytes(c.limit, units, st) +
               " budget per GPU is left free; allocator fragmentation or a longer prompt may "
               "overflow it.";
    }
    return "";
}

} // namespace kvscope
