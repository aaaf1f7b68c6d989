// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The command that runs a scenario on its engine: `vllm serve ...`, `llama-server ...`, or the
// transformers lines in Python. Each engine module writes its own (engines/*_engine.cpp), using
// only flags the engine documents; what a scenario asks for that the engine has no flag for is
// said in a note instead of being invented.

#include <string>
#include <vector>

namespace kvscope {

struct Scenario;

// Why there is no command: the window words each reason in its own language.
enum class LaunchRefusal {
    None,
    HeadSplit,   // the tensor-parallel GPU count does not divide the heads
    Weights,     // the engine does not load these weights
    NoCheckpoint // no checkpoint in these weights is known, and the engine makes none
};

struct LaunchCommand
{
    std::string language;           // "sh" or "python": how to read `text`
    std::string text;               // ready to paste; long commands continue with " \\\n  "
    std::vector<std::string> notes; // what the command cannot say, one sentence each
    std::string source;             // the engine documentation the flags were read from
    std::string refusal; // why the engine would refuse to start the scenario ("" when it starts);
                         // there is no command then
    LaunchRefusal refusalKind = LaunchRefusal::None;
};

// The engine's command, or its refusal when it cannot start: a tensor-parallel GPU count that
// does not divide the attention heads (splitsHeadsEvenly()), weights the engine does not load,
// or no known checkpoint in the chosen weights (chooseCheckpoint()).
LaunchCommand launchCommand(const Scenario& scenario);
// Why the engine refuses the scenario's tensor-parallel GPU count, and the counts (or the layer
// split) it takes: "vLLM refuses 3 GPUs in tensor parallel: ... Use --gpus 2 or 4, or ...".
std::string headSplitRefusal(const Scenario& scenario);

// The command followed by its notes and source as comments ("# ..."), as the CLI prints it and
// the window copies it.
std::string launchCommandText(const LaunchCommand& command);

// The model as the engine should load it: its Hugging Face repository, else the directory of the
// config.json it was imported from, else its id.
std::string launchModelName(const Scenario& scenario);

// The checkpoint a launch command loads, so that it holds the weights the scenario chose.
struct CheckpointChoice
{
    std::string name;     // a Hugging Face repository or a local path
    std::string ggufType; // "Q4_K_M" when `name` is a repository of GGUF files, one per type
    std::string ggufFile; // that type's file in the repository, when kvscope knows its name
    bool path = false;    // `name` is a local file or directory
    std::string note;     // what the user should know about it ("" = nothing)
    std::string refusal;  // why there is none ("" when `name` is set)
};

// In order: the user's own checkpoint (--checkpoint), the model file the scenario was read from,
// the model's own repository where the engine converts its weights while loading (a float dtype,
// FP8 or bitsandbytes) or where that repository already is the chosen format, then a checkpoint
// published in the chosen format (resources/catalog/checkpoints.json). Else a refusal naming
// --checkpoint.
CheckpointChoice chooseCheckpoint(const Scenario& scenario);

// A checkpoint named as a path ("/srv/m", "./m.gguf", "~/m") rather than as a repository.
bool looksLikeLocalPath(const std::string& name);

// The note an engine whose decode reads its KV from GPU memory only (vLLM, TGI, SGLang) adds when
// the scenario places the KV elsewhere; nothing when it is on the GPU.
void noteKvOnGpuOnly(const std::string& engineName, const Scenario& scenario,
                     LaunchCommand& command);

// What EAGLE_HEAD stands for in a command that drafts with an EAGLE head: kvscope knows the
// head's shape, not which trained head the user has.
std::string eagleHeadNote(const Scenario& scenario);

// A word as a POSIX shell reads it back unchanged: bare when safe, else in single quotes.
std::string shellWord(const std::string& word);

// Lines "cmd", "--flag value" ... joined as one shell command continued over lines.
std::string shellCommand(const std::vector<std::string>& parts);

} // namespace kvscope
