// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli_args.h"
#include "kvscope/catalog.h"

#include <iosfwd>

namespace kvscope::cli {

int listCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out, std::ostream& err);
int sweepCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out, std::ostream& err);

// Prints "kvscope-cli: <field>: got ...; accepted: ..." and returns exitBadInput.
int badInput(std::ostream& err, const FieldError& error);

} // namespace kvscope::cli
