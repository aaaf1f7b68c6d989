// SPDX-License-Identifier: GPL-3.0-or-later
// `kvscope-cli check-log FILE [scenario options] [--json] [--si]`: reads an engine's start-up
// log (kvscope/io/startup_log.h), builds the scenario it describes and prints each logged
// figure beside kvscope's prediction (kvscope/planning/log_check.h).
#include "cli.h"
#include "cli_commands.h"

#include "kvscope/io/log_check_json.h"
#include "kvscope/text/log_check_text.h"

#include <fstream>
#include <iterator>
#include <ostream>

namespace kvscope::cli {

int checkLogCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                    std::ostream& err)
{
    if (args.positional.size() != 1)
        return badInput(err, {"check-log", args.positional.empty() ? "" : args.positional[1],
                              "one start-up log file"});
    const std::string& path = args.positional.front();
    std::ifstream file(path, std::ios::binary);
    if (!file)
        return badInput(err, {"log", path, "a readable file"});
    std::string text;
    text.reserve(4096);
    char buffer[65536];
    while (file.read(buffer, sizeof buffer) || file.gcount() > 0) {
        text.append(buffer, size_t(file.gcount()));
        if (text.size() > kMaxStartupLogBytes)
            break; // readStartupLog refuses it by its size
    }
    auto log = readStartupLog(text);
    if (!log)
        return badInput(err, log.error());
    auto check = checkStartupLog(*log, catalog, args.scenarioValues());
    if (!check) {
        if (args.has("json")) // what the log states is worth having even without a scenario
            out << nlohmann::json{{"log", startupLogToJson(*log)}}.dump(2) << "\n";
        return badInput(err, check.error());
    }
    if (args.has("json")) {
        out << logCheckToJson(*check).dump(2) << "\n";
        return exitOk;
    }
    out << logCheckText(*check, args.has("si") ? ByteUnits::Si : ByteUnits::Binary);
    return exitOk;
}

} // namespace kvscope::cli
