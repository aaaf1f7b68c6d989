// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

namespace kvscope {

// What one GPU costs (resources/catalog/gpu_prices.json, or the user's prices file): rented by
// the hour, or bought and written off over the scenario's amortization period.
struct GpuPrice
{
    enum class Kind { Unknown, Rental, Purchase };
    Kind kind = Kind::Unknown;
    double usdPerHour = 0; // Rental: on-demand list price per GPU-hour
    double usd = 0;        // Purchase: price of one GPU (Apple silicon: the whole machine)
    double memoryGiB = 0;  // Purchase of a unified-memory machine: the memory it is priced
                           // with; a price of a smaller configuration is no price of the
                           // catalog's (0 = as the catalog's)
    std::string provider;  // who rents it at that price
    std::string date;      // YYYY-MM of the price
    std::string source;
};

// What a plan's cost is built on, never mixed: renting GPUs by the hour, or owning them (bought,
// hosted and powered; CostSettings).
enum class CostBasis { Rent, Own };
const char* costBasisId(CostBasis basis); // "rent", "own"
bool parseCostBasis(const std::string& id, CostBasis* out);

// A GPU's prices, one per kind; either may be unknown.
struct GpuPrices
{
    GpuPrice rental;   // Kind::Rental, or Unknown
    GpuPrice purchase; // Kind::Purchase, or Unknown

    bool has(GpuPrice::Kind kind) const
    {
        return kind != GpuPrice::Kind::Unknown &&
               (kind == GpuPrice::Kind::Rental ? rental : purchase).kind == kind;
    }
    void set(const GpuPrice& price)
    {
        if (price.kind != GpuPrice::Kind::Unknown)
            (price.kind == GpuPrice::Kind::Rental ? rental : purchase) = price;
    }
    const GpuPrice& on(CostBasis basis) const
    {
        return basis == CostBasis::Rent ? rental : purchase;
    }
};

// One accelerator's datasheet figures (resources/gpus/<id>.json).
struct GpuSpec
{
    std::string id;              // catalog slug, e.g. "rtx-4090"
    std::string name;            // "NVIDIA GeForce RTX 4090"
    std::string vendor;          // NVIDIA, AMD, Apple, ...
    std::string group;           // list grouping: Consumer, Workstation, Data center, Apple silicon
    std::string source;          // datasheet read for these figures
    bool custom = false;         // true when entered by the user or read from a user file
    double memoryGiB = 0;        // on-board (or unified) memory, GiB
    std::string memoryType;      // "HBM3", "GDDR6X", "LPDDR5"; empty when not stated
    double bandwidthGBps = 0;    // peak memory bandwidth, SI GB/s
    double fp16Tflops = 0;       // dense FP16/BF16 tensor throughput, FP32 accumulate
    double fp8Tflops = 0;        // dense FP8 tensor throughput; 0 = unsupported
    double int8Tops = 0;         // dense INT8 tensor throughput; 0 = unsupported
    int pcieGen = 0;             // host link generation; 0 = none (unified memory)
    int pcieLanes = 0;           // host link width
    double nvlinkGBps = 0;       // GPU-to-GPU bandwidth as the datasheet states it; 0 = none
    int nvlinkGpus = 0;          // GPUs one NVLink domain joins: 2 for a bridge between two
                                 // cards, 8 for a baseboard's NVSwitch; beyond it, PCIe
    bool unifiedMemory = false;  // CPU and GPU share one memory (Apple silicon)
    double usableFraction = 1.0; // share of memory the GPU may use (macOS caps unified memory)
    double computeCapability = 0; // CUDA compute capability, e.g. 8.9; 0 = not a CUDA GPU
    double hostRamGiBPerGpu = 0;  // system RAM per GPU of the usual platform (a DGX H100's
                                  // 2 TiB / 8); 0 = unknown, host RAM not checked unless stated
    std::string hostRamSource;    // the platform that figure is from, and where it was read
    double tdpW = 0;              // board power (TDP), W; 0 = unknown
    GpuPrices prices;             // from the prices catalog (or the GPU's own file)

    bool dataCenter() const { return group == "Data center"; } // a server's GPU, on its host
    bool hbm() const { return memoryType.starts_with("HBM"); } // stacked memory: V100 to B200, MI*
};

// One PCIe generation's signalling (resources/catalog/interconnects.json).
struct PcieGeneration
{
    int gen = 4;                               // 3, 4, 5, 6
    double gtPerS = 16;                        // transfers per second per lane, GT/s
    double encodingEfficiency = 128.0 / 130.0; // payload share after line coding / FLIT framing
    std::string encoding;                      // e.g. "128b/130b"
    std::string source;

    // Raw payload rate of one lane in SI GB/s, before protocol overhead.
    double laneGBps() const { return gtPerS * encodingEfficiency / 8.0; }
};

// The latency of one small all-reduce (a decode step's hidden state) as the GPU count grows:
// base + perGpu x (gpus - 2), in microseconds (resources/catalog/interconnects.json).
struct AllReduceLatency
{
    double baseUs = 10;
    double perGpuUs = 0;
    std::string source;

    double us(int gpus) const { return baseUs + perGpuUs * double(std::max(gpus - 2, 0)); }
};

// One latency rule per way an all-reduce travels: inside an NVLink domain with an engine's own
// all-reduce kernel (vLLM's custom all-reduce) or with NCCL, and over PCIe with NCCL.
struct AllReduceLatencies
{
    AllReduceLatency nvlinkCustom;
    AllReduceLatency nvlinkNccl;
    AllReduceLatency pcie;
};

// A MoE layer's all-to-all by DeepEP's low-latency kernels (dispatch, then combine), measured
// per expert-parallel size at `tokensPerRank` tokens a GPU (resources/catalog/interconnects.json
// "all_to_all"). Below the smallest size measured its figure holds; between two, the nearer
// below; above `tokensPerRank` tokens a GPU the time grows with them (bandwidth-bound).
struct MoeAllToAll
{
    struct Point
    {
        int expertWays = 0;
        double dispatchUs = 0;
        double combineUs = 0;
    };
    std::vector<Point> points; // by expertWays, ascending
    int64_t tokensPerRank = 128;
    std::string source;

    bool present() const { return !points.empty(); }
    double us(int expertWays, int64_t tokensPerRankNow) const
    {
        if (points.empty())
            return 0.0;
        const Point* at = &points.front();
        for (const Point& p : points)
            if (p.expertWays <= expertWays)
                at = &p;
        const double scale =
            std::max(1.0, double(tokensPerRankNow) / double(std::max<int64_t>(1, tokensPerRank)));
        return (at->dispatchUs + at->combineUs) * scale;
    }
};

// The network between nodes when a deployment spans several (resources/catalog/interconnects.json
// "node_links"): a pipeline stage hands its hidden state to the next node's GPUs over it.
struct NodeLink
{
    std::string id; // "ib-ndr"
    std::string name;
    double gbitPerS = 0;  // one port, one direction, as the standard states it
    double latencyUs = 0; // one small message from a GPU to a GPU on another node
    std::string source;

    double gbPerS() const { return gbitPerS / 8.0; }
};

// A disk the KV cache can live on (resources/catalog/storage.json).
struct StorageTier
{
    std::string id; // "nvme-gen4", "sata"
    std::string name;
    std::string kind;     // "nvme" or "sata"
    double readGBps = 0;  // rated sequential read, SI GB/s
    double writeGBps = 0; // rated sequential write, SI GB/s
    std::string source;
};

// Host memory the offloaded KV cache sits in (resources/catalog/host_memory.json).
struct HostMemory
{
    std::string id; // "ddr5-4800-dual"
    std::string name;
    double bandwidthGBps = 0; // peak, SI GB/s
    std::string source;
};

} // namespace kvscope
