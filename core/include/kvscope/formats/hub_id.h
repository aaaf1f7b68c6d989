// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Hugging Face Hub model references, "hf:ORG/NAME[@REVISION]": their grammar and where a fetched
// config.json is kept. The fetching itself is the app layer's (Qt Network); the core reads no
// network.

#include "kvscope/base/field_error.h"

#include <string>

namespace kvscope {

struct HubId
{
    std::string repo;              // "meta-llama/Llama-3.1-8B"
    std::string revision = "main"; // a branch, tag or commit
};

bool isHubReference(const std::string& value); // starts with "hf:"

// ORG and NAME: letters, digits, '-', '_' and '.', at most 96 characters each, not starting or
// ending with '-' or '.'; REVISION: the same characters and '/', at most 128.
Expected<HubId> parseHubId(const std::string& value);

// The path under the cache directory: "ORG/NAME/config.json", or "ORG/NAME@REVISION/config.json"
// for a revision other than main (so the model's id, from the folder, names both).
std::string hubCachePath(const HubId& id);

} // namespace kvscope
