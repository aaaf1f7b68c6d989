// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The validation set (resources/validation/*.json): public measurements of what engines log or
// achieve, each evaluated as a Scenario and compared with the matching prediction. The CLI's
// `validate`, the window's Validation view and the regression test all run this.
//
// How a case becomes a Scenario: its model, GPU, GPU count, engine (engine "unknown" means the
// catalog's default engine, noted on the result) and each setting under the engine's own name
// become kvscope-cli options (CaseScenario::options), applied to the default scenario as the CLI
// applies them; vLLM's engine_version becomes --engine-version (and --vllm-use-v1 where the text
// names the other engine generation), so the release's rules (engines.json) apply:
//   gpu_memory_utilization -> memoryFraction     max_model_len, n_ctx -> context
//   block_size -> engine.kvBlockTokens           max_num_seqs -> engine.maxNumSeqs
//   max_num_batched_tokens -> engine.prefillChunkTokens
//   tensor_parallel_size -> gpuCount (tensor parallel); pipeline_parallel_size -> gpuCount with
//   engine.layerSplit (whole layers per GPU)
//   cache_type_k / cache_type_v -> kvDtype (f16 -> fp16; q8_0, q4_0, ... by catalog id)
//   kv_cache_dtype (vLLM) fp8, fp8_e4m3, fp8_e5m2 -> kvDtype fp8; enforce_eager -> no CUDA graphs
//   weights -> weight format id; dtype float16 / bfloat16 -> fp16 / bf16 weights and KV
//   context -> context; batch; n_gpu_layers -> gpuLayers; pcie_gen, lanes -> the host link;
//   sampler flashinfer -> --flashinfer-sampler on; flash_attn 1 / 0 -> llama.cpp's -fa.
// Capacity follows what the engine allocates for, so there n_ctx, then max_model_len, set the
// context; decode speed follows the tokens actually held, so there only `context` does, and a
// decode case that states none runs at 128 tokens (llama-bench's default tg128 test).
//
// Compared figures (error = predicted / measured - 1):
//   capacity: vLLM's kv_cache_tokens ("GPU KV cache size"), or gpu_blocks x block size, against
//             Evaluation::engine.kvCacheTokens; where a log gives neither, its available_kv_gib
//             ("Available KV cache memory", per GPU) against tokensFit.freeForKvBytes in GiB;
//             llama.cpp's kv_buffer_mib against engine.kvBufferBytes in MiB
//   decode:   tokens_per_s against decode.tokensPerS
//   pcie:     gb_per_s against decode.pcieEffectiveGBps
// A case is skipped, with the reason, when its GPU is not known, a catalog id is missing, or a
// setting its figure depends on is not stated (a KV pool needs gpu_memory_utilization and
// max_model_len; a KV buffer needs n_ctx). Nothing is tuned per case.

#include "kvscope/base/field_error.h"
#include "kvscope/catalog/catalog.h"
#include "kvscope/scenario/scenario.h"
#include "kvscope/scenario/speed_band.h"

#include <array>
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace kvscope {

// Tpot and Ttft come from one serving row (a case file's kind "serving"): a closed-loop benchmark
// at a concurrency, each user sending the next request once answered.
enum class ValidationKind { Capacity, Decode, Pcie, Tpot, Ttft };
inline constexpr std::array<ValidationKind, 5> allValidationKinds{
    ValidationKind::Capacity, ValidationKind::Decode, ValidationKind::Pcie, ValidationKind::Tpot,
    ValidationKind::Ttft};
// "capacity", "decode", "pcie", "tpot", "ttft"
const char* validationKindId(ValidationKind kind);

// The engine settings a case states, under the engine's own names; unset = not stated.
struct ValidationSettings
{
    std::optional<double> gpuMemoryUtilization;
    std::optional<int64_t> maxModelLen;
    std::optional<int64_t> blockSize;
    std::optional<int64_t> maxNumSeqs;
    std::optional<int64_t> maxNumBatchedTokens;
    std::optional<int64_t> tensorParallelSize;
    std::optional<int64_t> pipelineParallelSize;
    std::optional<int64_t> nCtx;
    std::optional<std::string> cacheTypeK;
    std::optional<std::string> cacheTypeV;
    std::optional<std::string> weights;
    std::optional<std::string> dtype;
    std::optional<int64_t> context;
    std::optional<int64_t> batch;
    std::optional<int64_t> nGpuLayers;
    std::optional<int64_t> pcieGen;
    std::optional<int64_t> lanes;
    std::optional<std::string> engineVersion; // e.g. "v0.6.4 V0"; read for version-dependent rules
    std::optional<std::string> memory;       // a PCIe copy's host memory: "pinned", "pageable", ...
    std::optional<std::string> sampler;      // vLLM's logged top-k/top-p sampler: "flashinfer" or
                                             // "pytorch"
    std::optional<std::string> kvCacheDtype; // vLLM --kv-cache-dtype: "auto" or an FP8 encoding
    std::optional<bool> enforceEager;        // vLLM --enforce-eager: no CUDA graphs
    std::optional<bool> flashAttn;           // llama.cpp -fa (llama-bench's fa column)
    // Settings stated under an engine's name the settings registry knows (VLLM_USE_V1, ...)
    // and no mapping above handles: (kvscope-cli flag, value), passed on as they are.
    std::vector<std::pair<std::string, std::string>> passedOn;
    // Stated as data_parallel_size (vLLM's name, passed on as replicas): over a MoE model that
    // is vLLM's data-parallel attention, not copies.
    bool dataParallelSize = false;
};

// What was measured, as the case file names it.
enum class MeasuredFigure {
    KvCacheTokens,
    GpuBlocks,
    AvailableKvGiB,
    KvBufferMiB,
    TokensPerS,
    PcieGBps,
    TpotMs, // time per output token of a running request, waiting for the first excluded
    TtftMs  // time to first token, waiting for a slot included
};
const char* measuredFigureId(MeasuredFigure figure); // "kv_cache_tokens", "gpu_blocks", ...

// A serving row's benchmark: `concurrency` users, each with one request of `inputTokens` +
// `outputTokens` in flight (vLLM's bench serve --max-concurrency, genai-perf's concurrency).
struct ServingWorkload
{
    int64_t inputTokens = 0;
    int64_t outputTokens = 0;
    int64_t concurrency = 0; // users with a request in flight each; 0 in a request-rate run
    double requestRate = 0;  // requests/s arriving at random, when no concurrency caps them
    int64_t requests = 0;    // requests the benchmark sends; 0 when the source does not say
};

struct ValidationCase
{
    std::string id;
    ValidationKind kind = ValidationKind::Decode;
    std::string engine; // catalog id, "unknown", or "" (PCIe copies run no engine)
    std::string model;  // "" = none stated (PCIe copies)
    std::string gpu;    // "" = not stated
    int gpus = 1;
    ValidationSettings settings;
    MeasuredFigure figure = MeasuredFigure::TokensPerS;
    double measured = 0; // in the figure's own unit (blocks, tokens, MiB, tokens/s, GB/s, ms)
    std::optional<ServingWorkload> workload;  // Tpot and Ttft cases
    std::optional<int64_t> measuredBlockSize; // the block size a gpu_blocks figure was logged at
    std::string source;
    std::string engineDefect; // what the source reports as the engine's bug, if it does
    std::string file;         // the file it came from, for messages
    std::string directory;    // where that file is: a model given as a path is relative to it
    bool heldOut = false;     // the file's split (splits.json), see isHeldOutFile
};

// Which files are held out: cases no default, rule, release boundary or setting was shaped by,
// whose error is the honest one and is reported apart. The directory's splits.json says it per
// file, from the set's history (the commit that wrote the file and the one that scored it); a
// directory without one (a user's own set) holds out the files named *holdout*.
inline constexpr const char* kValidationSplitsFile = "splits.json";
struct ValidationSplits
{
    std::map<std::string, bool> heldOut; // by file name; empty = by name
    bool listed = false;                 // read from a splits.json
    bool isHeldOut(const std::string& fileName) const;
};
Expected<ValidationSplits> validationSplitsFromJson(const nlohmann::json& json);
// The directory's splits.json; a directory without one splits by name.
Expected<ValidationSplits> loadValidationSplits(const std::filesystem::path& dir);
bool isHeldOutFile(const std::string& fileName); // the rule without a splits.json

// Reads a case file: a JSON array of cases. Errors name the file, the case id and the field,
// e.g. "capacity.json: vllm-x.settings.block_size".
Expected<std::vector<ValidationCase>> validationCasesFromJson(const nlohmann::json& json,
                                                              const std::string& fileName);
Expected<std::vector<ValidationCase>> loadValidationFile(const std::filesystem::path& path);
// Every *.json in `dir`, in file-name order.
Expected<std::vector<ValidationCase>> loadValidationDir(const std::filesystem::path& dir);
// validation/ in the first data directory that has one (the user's own set hides the shipped
// one, as catalog entries do), or nothing.
std::optional<std::filesystem::path>
findValidationDir(const std::vector<std::filesystem::path>& dataDirs);

// Why a case was not compared.
enum class SkipReason {
    None,
    GpuNotStated,     // the measurement's GPU is unknown
    NotInCatalog,     // detail: "model llama-9", "gpu ...", "engine ...", "weights ...", ...
    SettingNotStated, // detail: the setting the figure depends on, e.g. "gpu_memory_utilization"
    MixedKvTypes,     // cache_type_k differs from cache_type_v; a scenario has one KV dtype
    Refused,          // detail: the core's message for the scenario
    NotPinnedCopy,    // a PCIe copy that is not a direct pinned DMA; detail: the case's "memory"
    EngineDefect,     // the source reports the figure as an engine bug; detail: its words
};

struct ValidationResult
{
    std::string id;
    ValidationKind kind = ValidationKind::Decode;
    std::string file;
    std::string model; // as the case names them, for tooltips and tables
    std::string gpu;
    SkipReason skip = SkipReason::None;
    std::string skipDetail;
    bool defaultEngine = false;  // engine "unknown": evaluated with the catalog's default engine
    bool defaultContext = false; // decode without a context: 128 tokens (tg128)
    bool heldOut = false;        // from a *holdout* file: no default was fitted to it
    bool doesNotFit = false;     // kvscope predicts the scenario does not run (the source ran
                                 // it): reported apart, not scored as a -100 % error
    bool defaultGpu = false;     // no GPU stated for a figure that does not depend on it
                                 // (llama.cpp's KV buffer): evaluated on the default GPU
    MeasuredFigure figure = MeasuredFigure::TokensPerS;
    double predicted = 0;   // in `unit`
    double measured = 0;    // in `unit` (gpu_blocks are converted to tokens)
    std::string unit;       // "tokens", "MiB", "tokens/s", "GB/s"
    double error = 0;       // predicted / measured - 1
    std::string speedClass; // decode: SpeedClass::id() of the case's scenario
    int64_t users = 0;      // a serving row's concurrency; 0 for the other kinds

    bool skipped() const { return skip != SkipReason::None; }
};

// English text of why a result was skipped ("" when it was not), for the CLI.
std::string skipReasonText(const ValidationResult& result);

struct ValidationSummary
{
    ValidationKind kind = ValidationKind::Decode;
    int evaluated = 0; // cases compared
    int skipped = 0;
    int doesNotFit = 0;        // predicted not to run: apart from the error figures
    double medianAbsError = 0; // over evaluated cases; 0 when there are none
    double within5 = 0;        // share of evaluated cases with |error| <= 5 %
    double within10 = 0;       // ... <= 10 %
};

// One speed class's decode error (issue 43): over the cases defaults were fitted to, and over
// the held-out ones, which alone say how far a new scenario of the class may be off.
struct ClassSummary
{
    std::string speedClass;       // SpeedClass::id()
    ValidationSummary fit;        // cases from fit files
    ValidationSummary heldOut;    // cases from *holdout* files
    double medianSignedError = 0; // over both: + predicts too fast, - too slow
    double worstError = 0;        // the largest |error|, with its sign
};

struct ValidationReport
{
    std::vector<ValidationResult> results;        // in case order
    std::vector<ClassSummary> decodeClasses;      // by SpeedClass id
    std::vector<ClassSummary> tpotClasses;        // the same for serving's time per token
    ValidationSummary ttftOneUser;                // first tokens of serving rows at one user
    ValidationSummary ttftOneUserHeldOut;         // ... of them held out
    std::array<ValidationSummary, 5> summaries{}; // indexed like allValidationKinds
    std::array<ValidationSummary, 5> heldOut{};   // the same over held-out files only

    const ValidationSummary& summary(ValidationKind kind) const { return summaries[size_t(kind)]; }
};

// kvscope-cli options (flag without dashes, value), in the settings registry's words.
using CaseOptions = std::vector<std::pair<std::string, std::string>>;

// The Scenario a case describes, or why there is none (result.skip set, scenario empty). The
// scenario is the default one with `options` applied, exactly as `kvscope-cli calc` applies them.
struct CaseScenario
{
    std::optional<Scenario> scenario;
    CaseOptions options;     // the case's settings as kvscope-cli options
    ValidationResult result; // id, kind, skip reason and assumption flags filled in
};
CaseScenario scenarioForCase(const ValidationCase& vcase, const Catalog& catalog);

ValidationResult validateCase(const ValidationCase& vcase, const Catalog& catalog);
ValidationReport runValidation(const std::vector<ValidationCase>& cases, const Catalog& catalog);
ValidationSummary summarize(ValidationKind kind, const std::vector<ValidationResult>& results);
// One kind's results (decode, tpot) grouped by speed class, each split into fit and held out.
std::vector<ClassSummary> summarizeByClass(ValidationKind kind,
                                           const std::vector<ValidationResult>& results);
// The speed figure a kind's cases measure: decode, tpot and ttft; none for the others.
std::optional<SpeedFigure> speedFigureOf(ValidationKind kind);
// Each figure's and class's band of measured-against-predicted time (a decode step, a time per
// token, a first token): from the lowest to the highest under 10 cases, else from the 10th to
// the 90th percentile; compared cases only.
SpeedBands speedBandsFrom(const std::vector<ValidationResult>& results);
// The table as resources/catalog/speed_bands.json holds it.
nlohmann::json speedBandsToJson(const SpeedBands& bands);

// The report as JSON: {"cases": [...], "summary": {"capacity": {...}, ...}}; errors as fractions.
nlohmann::json validationReportToJson(const ValidationReport& report);

} // namespace kvscope
