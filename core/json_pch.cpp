// SPDX-License-Identifier: GPL-3.0-or-later
// Builds the precompiled nlohmann/json.hpp that the JSON-reading core layers reuse.
