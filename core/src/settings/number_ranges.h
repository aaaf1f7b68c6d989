// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The registry's numbers checked against their ranges. validate() runs first in every evaluation,
// so its common case (everything in range) reads the fields in place, grouped by type, with no
// call and no branch per setting; only a refusal walks the registry in order to name the setting.

namespace kvscope {

struct Scenario;
struct Setting;

// Whether every Integer and Real setting of `s` is in its range or left to its default.
bool registryNumbersInRange(const Scenario& s);

// The first setting, in registry order, whose number is out of its range; null when none is.
const Setting* firstNumberOutOfRange(const Scenario& s);

} // namespace kvscope
