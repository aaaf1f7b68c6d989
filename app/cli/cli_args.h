// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/base/field_error.h"

#include <set>
#include <string>
#include <utility>
#include <vector>

namespace kvscope::cli {

// argv split into a command, its positional words, flags and valued options, in order.
struct ParsedArgs
{
    std::string command;                                     // "calc", "list", ...
    std::vector<std::string> positional;                     // "models" for `list models`
    std::set<std::string> flags;                             // "json", "csv", "help", ...
    std::vector<std::pair<std::string, std::string>> values; // ("context", "2048"), in order

    bool has(const std::string& flag) const { return flags.count(flag) > 0; }
    const std::string* value(const std::string& name) const; // the last one given
    // The scenario options among `values`, in order (for scenarioFromOptions()).
    std::vector<std::pair<std::string, std::string>> scenarioValues() const;
};

// The number given for --name, or an error naming it (absent, or not a finite number).
Expected<double> numberOption(const ParsedArgs& args, const std::string& name);

// The comma-separated words given for --name ("a,b,c"); none when absent.
std::vector<std::string> listOption(const ParsedArgs& args, const std::string& name);

// `--name value` and `--name=value` for options in `valued`; `--name` for those in `switches`.
// Anything else is an error naming it.
Expected<ParsedArgs> parseArgs(const std::vector<std::string>& args,
                               const std::set<std::string>& valued,
                               const std::set<std::string>& switches);

} // namespace kvscope::cli
