// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the start-up log readers share: finding a phrase in a line and the number after it, and
// the state of the start-up being read. Internal to core/src/io/startup_log*.cpp.

#include "kvscope/formats/startup_log.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace kvscope::startup_log {

// The text after the first `key` in `line`.
std::optional<std::string_view> after(std::string_view line, std::string_view key);

// The number at the start of `text`, after spaces and the punctuation logs put between a name
// and its value ("(", "=", ":", "'"); thousands separators are allowed ("75,840"). Refuses
// anything not finite or beyond 1e15 in magnitude.
std::optional<double> leadingNumber(std::string_view text);
std::optional<double> numberAfter(std::string_view line, std::string_view key);

// The word at the start of `text` after the same punctuation, up to a space, comma, quote or
// bracket.
std::string_view leadingWord(std::string_view text);

// `text` without the spaces and tabs around it.
std::string_view trimmed(std::string_view text);

// Whether `line` holds any of `phrases`.
template <typename Phrases> bool mentionsAny(std::string_view line, const Phrases& phrases)
{
    for (std::string_view phrase : phrases)
        if (line.find(phrase) != std::string_view::npos)
            return true;
    return false;
}

// A number as an option's value: "0.9", "32768".
std::string numberText(double value);

// One start-up being read. A reader records settings and figures through it; a line that opens
// a new start-up after figures were logged starts over, so the last start-up in a file is read.
class LogState
{
public:
    explicit LogState(std::string engine);

    int line = 0; // the line being read, 1-based

    void startRun();
    void setting(const std::string& option, std::string value);
    // Keeps the setting when the log has not stated it already (a later, surer line wins).
    void settingIfUnset(const std::string& option, std::string value);
    void figure(LogFigure figure, double value);      // the first one logged in this start-up
    void addToFigure(LogFigure figure, double value); // sums per-device buffers
    void setModel(std::string_view model);
    void setGpu(std::string_view name);
    bool hasFigure(LogFigure figure) const { return m_log.figures.count(figure) > 0; }
    StartupLog& log() { return m_log; }

private:
    StartupLog m_log;
};

// Per engine: whether a line is one of its start-up lines (to tell engines apart), and reading
// one line into the state.
bool isVllmLine(std::string_view line);
bool isLlamaCppLine(std::string_view line);
bool isTgiLine(std::string_view line);
bool isSglangLine(std::string_view line);

class LineReader
{
public:
    virtual ~LineReader() = default;
    virtual void read(std::string_view line, LogState& state) = 0;
    // After the last line: what can only be settled with the whole start-up read.
    virtual void finish(LogState&) {}
};
// ollama's own lines, read into its llama.cpp start-up; the cells of the context are settled by
// the llama.cpp reader once every line is read.
struct ContextCells
{
    int64_t cells = 0;     // n_ctx: every sequence's cells together
    int64_t sequences = 1; // n_seq_max / --parallel
};
bool isOllamaLine(std::string_view line);
void readOllamaLine(std::string_view line, LogState& state, ContextCells& cells);

// llama.cpp's device lines, every backend: the GPU's name, the count, the backend.
void readDevice(std::string_view line, LogState& state);
// The backend a buffer's device belongs to: "CUDA0" -> "CUDA", "MTL0" -> "Metal"; "" for the
// host's buffers (CPU, CUDA_Host, ...).
std::string_view backendOfDevice(std::string_view device);

// llama.cpp's print-out of the model file's metadata, into StartupLog::modelMetadata.
void readModelMetadata(std::string_view line, LogState& state);

std::unique_ptr<LineReader> vllmReader();
std::unique_ptr<LineReader> llamaCppReader();
std::unique_ptr<LineReader> tgiReader();
std::unique_ptr<LineReader> sglangReader();

inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
inline constexpr double kMiB = 1024.0 * 1024.0;

} // namespace kvscope::startup_log
