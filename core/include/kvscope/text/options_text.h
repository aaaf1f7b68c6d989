// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Options as a user types them back into kvscope-cli, for remedies, plans and log checks.

#include "kvscope/planning/remedies.h"

#include <string>

namespace kvscope {

// The options as the CLI takes them: "--gpu h100-sxm --gpus 2 ...".
std::string optionsText(const OptionList& options);

} // namespace kvscope
