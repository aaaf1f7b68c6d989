// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_args.h"
#include "kvscope/catalog/catalog.h"

#include <filesystem>
#include <iosfwd>

namespace kvscope::cli {

int listCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                std::ostream& err);
int sweepCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                 std::ostream& err);
// `executable` locates the shipped validation set when no files are named.
// Writes next to `path`, then renames over it: a failed write leaves the old file as it was.
bool writeAtomically(const std::filesystem::path& path, const std::string& text,
                     std::string* error);

int validateCommand(const ParsedArgs& args, const Catalog& catalog,
                    const std::filesystem::path& executable, std::ostream& out, std::ostream& err);
// The configurations to buy (kvscope/planning/plan_search.h) and the fit matrix.
int planCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                std::ostream& err);
int matrixCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                  std::ostream& err);
// The engine's launch command for the scenario (kvscope/engines/launch_command.h).
int launchCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                  std::ostream& err);
// Scenarios side by side (kvscope/planning/comparison.h).
int compareCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                   std::ostream& err);
// An engine's start-up log against kvscope's prediction (kvscope/planning/log_check.h).
int checkLogCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                    std::ostream& err);
int calibrateCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                     std::ostream& err);

// Prints "kvscope-cli: <field>: got ...; accepted: ..." and returns exitBadInput.
int badInput(std::ostream& err, const FieldError& error);

} // namespace kvscope::cli
