// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Fetches a Hugging Face model's config.json for "hf:ORG/NAME[@REVISION]" (Qt Network), keeping
// it in the user's cache so the same id works offline. Honours HF_ENDPOINT (a mirror or a test
// server), HF_TOKEN (gated and private models) and HF_HUB_OFFLINE (the cache only).

#include "kvscope/base/field_error.h"

#include <iosfwd>
#include <string>

namespace kvscope::hub {

struct Fetched
{
    std::string path; // the cached config.json
    std::string note; // said to the user when the cache stood in for the Hub; "" otherwise
};

// `value` is the --model value, "hf:..."; errors name "model" and what would be accepted.
Expected<Fetched> fetchConfig(const std::string& value);

// fetchConfig for kvscope-cli (cli::setModelResolver): the path, and the note on `err`.
Expected<std::string> resolveForCli(const std::string& value, std::ostream& err);

// $XDG_CACHE_HOME/kvscope/hub (~/.cache/kvscope/hub).
std::string cacheDirectory();

} // namespace kvscope::hub
