// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/engines/engine_release.h"

#include <nlohmann/json_fwd.hpp>

namespace kvscope {

class JsonReader;

// Reads an engines.json entry's "releases" object into `out`; the first problem goes to
// `parent` under "releases...".
void readEngineReleases(const nlohmann::json& json, EngineReleases& out, JsonReader& parent);

} // namespace kvscope
