// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/model/machine_profile.h"

namespace kvscope {

const char* factorFittedTo(std::string_view figure)
{
    if (figure == "decode_tokens_per_s")
        return "hbm_efficiency";
    if (figure == "kv_cache_tokens" || figure == "kv_cache_memory_bytes")
        return "runtime_overhead_mib";
    if (figure == "activation_peak_bytes")
        return "activation_bytes";
    return nullptr;
}

const char* fittedFigureIds()
{
    return "decode_tokens_per_s, kv_cache_tokens, kv_cache_memory_bytes or activation_peak_bytes";
}

} // namespace kvscope
