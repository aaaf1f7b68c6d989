// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cli.h"

namespace kvscope::cli {

// `export` and `report`, drawn with the window's chart widgets on an offscreen Qt platform
// when no display is available.
int renderCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                  std::ostream& err);
// Hands renderCommand and the view registry's chart ids to run() (setRenderCommand).
void registerRenderCommand();

} // namespace kvscope::cli
