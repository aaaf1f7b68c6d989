// SPDX-License-Identifier: GPL-3.0-or-later
// Engine start-up logs (vLLM, llama.cpp, ollama, TGI): any bytes, as `kvscope-cli check-log` and
// File > Check a start-up log read them. Whatever reads is checked against the catalog twice: with
// what the log names alone (the model from its printed metadata, a GPU standing in), and with a
// fixed model and GPU, so the settings a log states go through the registry and the evaluation.

#include "fuzz_support.h"

#include "kvscope/formats/startup_log.h"
#include "kvscope/io/log_check_json.h"
#include "kvscope/planning/log_check.h"
#include "kvscope/text/log_check_text.h"

#include <cmath>

using namespace kvscope;

namespace {

// A check's rows finite, its scenario valid, its JSON and text written; false when it failed.
bool checkRows(const Expected<LogCheck>& check)
{
    if (!check)
        return false;
    if (check->predicted())
        if (auto error = validate(check->scenario))
            fuzz::fail("checked scenario is invalid: " + error->message());
    for (const LogCheckRow& row : check->rows)
        if ((row.predicted && !std::isfinite(*row.predicted)) || !std::isfinite(row.logged))
            fuzz::fail(std::string("row not finite: ") + logFigureId(row.figure));
    logCheckToJson(*check).dump();
    logCheckText(*check, ByteUnits::Binary);
    return check->predicted();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    auto log = readStartupLog(std::string_view(reinterpret_cast<const char*>(data), size));
    if (!log)
        return 0;
    if (log->engine != "vllm" && log->engine != "llamacpp" && log->engine != "tgi" &&
        log->engine != "sglang")
        fuzz::fail("unknown engine read: " + log->engine);
    for (const auto& [figure, number] : log->figures)
        if (!std::isfinite(number.value) || std::fabs(number.value) > 1e15 || number.line < 1)
            fuzz::fail(std::string("figure out of range: ") + logFigureId(figure));
    startupLogToJson(*log).dump();

    if (auto model = modelFromStartupLog(*log))
        if (auto error = validateModel(*model))
            fuzz::fail("model read from the log is invalid: " + error->message());
    checkRows(checkStartupLog(*log, fuzz::catalog(), {}));

    // The log's model and GPU may be anything; these make every log reach the evaluation.
    auto check =
        checkStartupLog(*log, fuzz::catalog(), {{"model", "llama-3.1-8b"}, {"gpu", "h100-sxm"}});
    if (!checkRows(check))
        return 0;
    fuzz::evaluateChecked(check->scenario, fuzz::selector(data, size));
    return 0;
}
