// SPDX-License-Identifier: GPL-3.0-or-later
// TGI's start-up lines: the launcher's Args (one line before 2.0.2, pretty-printed over many
// lines since), its defaults and shard count, and the router's "max batch total tokens"
// (formats and source lines: tests/data/logs/SOURCES.md).
#include "startup_log_lines.h"

#include <array>
#include <string>

namespace kvscope::startup_log {

namespace {

constexpr std::array<std::string_view, 4> kPhrases{"text_generation_launcher",
                                                   "text_generation_router",
                                                   "max batch total tokens", "Sharding model on"};

// Argument text kept while a pretty-printed Args block is read; a block longer than this is
// no launcher's (it has about 60 fields).
constexpr std::size_t kMaxArgsBytes = 64 * 1024;

std::string integerText(double value)
{
    return std::to_string(int64_t(value));
}

// "Some(4)", "Some(\n 4,\n )" (joined into one line) or a bare "4096": the number in it.
std::optional<double> fieldNumber(std::string_view args, std::string_view field)
{
    auto rest = after(args, field);
    if (!rest)
        return std::nullopt;
    std::string_view value = *rest;
    if (!value.starts_with(": "))
        return std::nullopt;
    value.remove_prefix(2);
    if (value.starts_with("Some("))
        value.remove_prefix(5);
    return leadingNumber(value);
}

std::string_view fieldWord(std::string_view args, std::string_view field)
{
    auto rest = after(args, field);
    if (!rest || !rest->starts_with(": "))
        return {};
    std::string_view value = rest->substr(2);
    if (value.starts_with("Some("))
        value.remove_prefix(5);
    return leadingWord(value);
}

class TgiReader final : public LineReader
{
public:
    void read(std::string_view line, LogState& state) override
    {
        if (m_inArgs) {
            // Continuation lines carry only the field; drop a compose prefix ("tgi-1  | ").
            std::string_view text = line;
            if (auto piped = after(text, " | "))
                text = *piped;
            const std::size_t start = text.find_first_not_of(' ');
            text = start == std::string_view::npos ? std::string_view() : text.substr(start);
            if (text == "}" || m_args.size() > kMaxArgsBytes) {
                m_inArgs = false;
                readArgs(m_args, state);
            } else {
                m_args.append(text).append(" ");
            }
            return;
        }
        if (auto args = after(line, "Args {")) {
            state.startRun();
            m_args.assign(*args);
            if (args->find_first_not_of(' ') == std::string_view::npos)
                m_inArgs = true; // pretty-printed: the fields follow, one per line
            else
                readArgs(m_args, state);
        }
        if (auto n = numberAfter(line, "Sharding model on "))
            state.setting("gpus", integerText(*n));
        if (auto n = numberAfter(line, "Maximum total tokens defaulted to "))
            state.setting("context", integerText(*n));
        if (auto n = numberAfter(line, "Default `max_batch_prefill_tokens` to "))
            state.setting("max-batch-prefill-tokens", integerText(*n));
        for (std::string_view phrase :
             {"Setting max batch total tokens to ", "Inferred max batch total tokens: "})
            if (auto n = numberAfter(line, phrase))
                state.figure(LogFigure::KvCacheTokens, *n);
        if (auto n = numberAfter(line, "KV-cache blocks: "))
            state.figure(LogFigure::KvBlocks, *n);
    }

    void finish(LogState& state) override
    {
        if (m_inArgs)
            readArgs(m_args, state); // a log cut inside the Args block
    }

private:
    bool m_inArgs = false;
    std::string m_args;

    static void readArgs(std::string_view args, LogState& state)
    {
        if (auto model = after(args, "model_id: "))
            state.setModel(leadingWord(*model));
        if (auto n = fieldNumber(args, "num_shard"); n && *n >= 1)
            state.setting("gpus", integerText(*n));
        if (auto n = fieldNumber(args, "max_total_tokens"))
            state.setting("context", integerText(*n));
        if (auto n = fieldNumber(args, "max_batch_prefill_tokens"))
            state.setting("max-batch-prefill-tokens", integerText(*n));
        const std::string_view quantize = fieldWord(args, "quantize");
        const std::string_view dtype = fieldWord(args, " dtype");
        if (quantize == "Awq")
            state.setting("weights", "awq-int4");
        else if (quantize == "Gptq")
            state.setting("weights", "gptq-int4");
        else if (quantize == "Fp8")
            state.setting("weights", "fp8");
        else if (quantize == "BitsandbytesNf4")
            state.setting("weights", "nf4");
        else if (quantize == "None" && dtype == "BFloat16")
            state.setting("weights", "bf16");
        else if (quantize == "None" && dtype == "Float16")
            state.setting("weights", "fp16");
        if (fieldWord(args, "kv_cache_dtype").starts_with("Fp8"))
            state.setting("kv-dtype", "fp8");
    }
};

} // namespace

bool isTgiLine(std::string_view line)
{
    return mentionsAny(line, kPhrases);
}

std::unique_ptr<LineReader> tgiReader()
{
    return std::make_unique<TgiReader>();
}

} // namespace kvscope::startup_log
