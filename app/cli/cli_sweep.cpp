// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "cli_commands.h"

#include "kvscope/base/number_format.h"
#include "kvscope/evaluation/sweep.h"
#include "kvscope/io/result_json.h"
#include "kvscope/settings/scenario_options.h"

#include <cmath>
#include <ostream>

#include <nlohmann/json.hpp>

namespace kvscope::cli {

int sweepCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                 std::ostream& err)
{
    SweepVariable variable{};
    const std::string* vary = args.value("vary");
    if (!vary || !parseSweepVariable(*vary, &variable))
        return badInput(err, {"--vary", vary ? *vary : "", "context, batch or vram"});
    auto from = numberOption(args, "from");
    if (!from)
        return badInput(err, from.error());
    auto to = numberOption(args, "to");
    if (!to)
        return badInput(err, to.error());
    auto points = numberOption(args, "points");
    if (!points)
        return badInput(err, points.error());
    if (*points != std::floor(*points) || *points < 2 || *points > 10'000)
        return badInput(err, {"--points", formatPlain(*points), "an integer from 2 to 10,000"});
    if (args.has("csv") && args.has("json"))
        return badInput(err, {"--csv", "with --json", "one output format"});

    auto scenario = scenarioFromOptions(args.scenarioValues(), catalog);
    if (!scenario)
        return badInput(err, scenario.error());
    auto result = sweep(*scenario, variable, *from, *to, int(*points));
    if (!result)
        return badInput(err, result.error());

    if (args.has("json")) {
        nlohmann::json j;
        j["scenario"] = scenarioSummaryJson(*scenario);
        j["vary"] = sweepVariableId(variable);
        j["x"] = result->x;
        for (const SweepColumn& c : result->columns)
            j["series"][c.id] = {{"unit", c.unit}, {"values", c.values}};
        out << j.dump(2) << "\n";
        return exitOk;
    }
    out << sweepToCsv(*result);
    return exitOk;
}

} // namespace kvscope::cli
