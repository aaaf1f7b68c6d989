// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Remedies in words, for `calc` and the English report: what each changes, the options that
// apply it, and its effect in numbers.

#include "kvscope/base/number_format.h"
#include "kvscope/planning/remedies.h"

#include <string>
#include <vector>

namespace kvscope {

// "Quantize the weights to 4 bits (AWQ INT4)"
std::string remedyTitle(const Remedy& remedy);
// "runs; longest context 45,056 tokens, 3 sequences; decode 25.1 ms (39.8 tokens/s); 1.20 USD/h"
std::string remedyEffect(const Remedy& remedy, ByteUnits units, const NumberStyle& style = {});
// The numbered list under a heading, one remedy a line with its options.
std::string remediesText(const std::vector<Remedy>& remedies, ByteUnits units,
                         const NumberStyle& style = {});

} // namespace kvscope
