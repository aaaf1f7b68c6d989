// SPDX-License-Identifier: GPL-3.0-or-later
// `kvscope-cli launch`: the command that runs the scenario on its engine, with what the engine
// cannot be told as comments below it.
#include "cli.h"
#include "cli_commands.h"

#include "kvscope/engines/launch_command.h"
#include "kvscope/settings/scenario_options.h"

#include <ostream>

#include <nlohmann/json.hpp>

namespace kvscope::cli {

int launchCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                  std::ostream& err)
{
    if (!args.positional.empty())
        return badInput(err, {"launch", args.positional.front(), "no positional arguments"});
    auto scenario = scenarioFromOptions(args.values, catalog);
    if (!scenario)
        return badInput(err, scenario.error());
    const LaunchCommand command = kvscope::launchCommand(*scenario);
    if (!command.refusal.empty()) { // the engine would stop at start-up: no command to paste
        err << "kvscope-cli: launch: " << command.refusal << "\n";
        return exitBadInput;
    }
    if (args.has("json")) {
        nlohmann::json j;
        j["engine"] = scenario->engine.id;
        j["language"] = command.language;
        j["command"] = command.text;
        j["notes"] = command.notes;
        j["source"] = command.source;
        out << j.dump(2) << "\n";
        return exitOk;
    }
    out << launchCommandText(command);
    return exitOk;
}

} // namespace kvscope::cli
