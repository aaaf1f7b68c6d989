// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/model/efficiency.h"

namespace kvscope {

namespace {

template <typename E, typename D> D* fieldOf(E& e, const std::string& id)
{
    if (id == "hbm_efficiency")
        return &e.hbm;
    if (id == "compute_efficiency")
        return &e.compute;
    if (id == "moe_compute_efficiency")
        return &e.moeCompute;
    if (id == "rocm_moe_efficiency")
        return &e.rocmMoe;
    if (id == "pcie_protocol_efficiency")
        return &e.pcieProtocol;
    if (id == "disk_efficiency")
        return &e.disk;
    if (id == "host_memory_efficiency")
        return &e.hostMemory;
    if (id == "realtime_tokens_per_s")
        return &e.realtimeTokensPerS;
    if (id == "activation_bytes")
        return &e.activationBytes;
    if (id == "layer_overhead_us")
        return &e.layerOverheadUs;
    if (id == "layer_overhead_eager_us")
        return &e.layerOverheadEagerUs;
    if (id == "interconnect_efficiency")
        return &e.interconnect;
    if (id == "all_reduce_latency_us")
        return &e.allReduceLatencyUs;
    if (id == "host_handover_us")
        return &e.hostHandoverUs;
    if (id == "plan_ttft_target_ms")
        return &e.planTtftTargetMs;
    return nullptr;
}

} // namespace

double* efficiencyField(Efficiency& efficiency, const std::string& id)
{
    return fieldOf<Efficiency, double>(efficiency, id);
}

const double* efficiencyField(const Efficiency& efficiency, const std::string& id)
{
    return fieldOf<const Efficiency, const double>(efficiency, id);
}

double Efficiency::*efficiencyMember(const std::string& id)
{
    for (double Efficiency::*member :
         {&Efficiency::hbm, &Efficiency::compute, &Efficiency::moeCompute, &Efficiency::rocmMoe,
          &Efficiency::pcieProtocol, &Efficiency::disk, &Efficiency::hostMemory,
          &Efficiency::realtimeTokensPerS, &Efficiency::activationBytes,
          &Efficiency::layerOverheadUs, &Efficiency::layerOverheadEagerUs,
          &Efficiency::interconnect, &Efficiency::allReduceLatencyUs, &Efficiency::hostHandoverUs,
          &Efficiency::planTtftTargetMs}) {
        Efficiency probe;
        if (efficiencyField(probe, id) == &(probe.*member))
            return member;
    }
    return nullptr;
}

const std::vector<std::string>& efficiencyIds()
{
    static const std::vector<std::string> ids{
        "hbm_efficiency",           "compute_efficiency",      "moe_compute_efficiency",
        "pcie_protocol_efficiency", "disk_efficiency",         "host_memory_efficiency",
        "realtime_tokens_per_s",    "activation_bytes",        "layer_overhead_us",
        "layer_overhead_eager_us",  "interconnect_efficiency", "all_reduce_latency_us",
        "host_handover_us",         "plan_ttft_target_ms",     "rocm_moe_efficiency"};
    return ids;
}

} // namespace kvscope
