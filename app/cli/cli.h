// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/base/field_error.h"

#include <filesystem>
#include <iosfwd>
#include <set>
#include <string>
#include <vector>

namespace kvscope {
struct Catalog;
}

namespace kvscope::cli {

// Exit codes: 0 success, 2 bad input (one line on stderr naming the field), 1 anything else.
inline constexpr int exitOk = 0;
inline constexpr int exitFailure = 1;
inline constexpr int exitBadInput = 2;

struct ParsedArgs;

// `export` and `report` draw charts, which needs Qt's widgets: the kvscope-cli executable
// registers a handler for them when it is built with the window (see cli_render.cpp), with
// the `export --chart` values it accepts (the view registry's), which --help lists.
using RenderCommand = int (*)(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                              std::ostream& err);
void setRenderCommand(RenderCommand command, std::vector<std::string> chartIds);

// Turns a --model value naming a Hugging Face model ("hf:ORG/NAME") into a config.json path,
// saying on `err` when a cached copy stood in; kvscope-cli registers the Qt Network one
// (app/hub), so the core and this library read no network themselves.
using ModelResolver = Expected<std::string> (*)(const std::string& value, std::ostream& err);
void setModelResolver(ModelResolver resolver);
// The registered resolver's answer for "hf:ORG/NAME" (check-log --hub); an error naming "model"
// when none is registered.
Expected<std::string> resolveHubModel(const std::string& value, std::ostream& err);

// Runs kvscope-cli with `args` (argv without the program name). `executable` locates the
// installed catalog.
int run(const std::vector<std::string>& args, std::ostream& out, std::ostream& err,
        const std::filesystem::path& executable);
// The same against a catalog already loaded: no file is read for it (the fuzzer's way in).
int run(const std::vector<std::string>& args, const Catalog& catalog, std::ostream& out,
        std::ostream& err);

// The option names the parser accepts: with a value (--name V, --name=V) and switches.
std::set<std::string> valuedOptions();
std::set<std::string> switchOptions();

} // namespace kvscope::cli
