// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <vector>

namespace kvscope {

// Every factor that turns a datasheet peak into an achieved rate. Defaults come from
// resources/catalog/efficiency.json, where each carries its source; the values below are only
// the fallback when that file is missing.
struct Efficiency
{
    double hbm = 0.78;               // share of peak memory bandwidth a decode step reaches
    double compute = 0.50;           // share of peak tensor FLOP/s a prefill reaches
    double pcieProtocol = 0.80;      // PCIe payload share after TLP/DLLP overhead
    double disk = 1.0;               // share of a drive's rated sequential read reached
    double hostMemory = 0.80;        // share of DDR peak reached
    double realtimeTokensPerS = 10;  // decode speed a reader perceives as real time
    double activationBytes = 2;      // bytes per activation element (FP16/BF16)
    double layerOverheadUs = 0;      // fixed time per layer per decode step: kernel launches,
                                     // synchronisation, sampling spread over the layers
    double layerOverheadEagerUs = 0; // the same without CUDA graphs (each kernel launched apart)
    double interconnect = 0.8;       // share of NVLink / PCIe bandwidth an all-reduce reaches
    double allReduceLatencyUs = 0;   // fixed latency of one all-reduce; 0 = by link and GPU
                                     // count (Scenario::allReduce)
    double hostHandoverUs = 160;     // one hand-over between the GPU and the CPU inside a decode
                                     // step (llama.cpp's experts in host RAM): sync and launch
    double planTtftTargetMs = 6000;  // the planner's first-token bound where the user sets none:
                                     // the last of the users' prompts sent together
    double moeCompute = 0.19;        // compute's share for a MoE model: its experts' grouped GEMMs
    double rocmMoe = 1.0;            // a MoE model's decode step on ROCm (AMD Instinct) against the
                                     // CUDA path's: weight reads, FLOPs and per-MoE-layer cost
};

// One named factor as the catalog describes it: for the UI's "Advanced" group and the report.
struct EfficiencyFactor
{
    std::string id;   // "hbm_efficiency", ...
    std::string name; // human label
    double value = 0; // default (its range is the settings registry's)
    std::string unit; // "fraction", "tokens/s", "bytes"
    std::string source;
};

// The Efficiency member a factor id names, or nullptr for an unknown id.
double* efficiencyField(Efficiency& efficiency, const std::string& id);
const double* efficiencyField(const Efficiency& efficiency, const std::string& id);
// The same as a member pointer, for callers that look a factor up once and read it often.
double Efficiency::*efficiencyMember(const std::string& id);
// Ids of every Efficiency member, in display order.
const std::vector<std::string>& efficiencyIds();

} // namespace kvscope
