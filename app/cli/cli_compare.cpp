// SPDX-License-Identifier: GPL-3.0-or-later
// `kvscope-cli compare A.kvscope.json B.kvscope.json [...]`: the difference table.

#include "cli.h"
#include "cli_commands.h"

#include "kvscope/io/comparison_json.h"
#include "kvscope/settings/scenario_file.h"
#include "kvscope/text/comparison_text.h"

#include <ostream>

#include <nlohmann/json.hpp>

namespace kvscope::cli {

int compareCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                   std::ostream& err)
{
    auto scenarios = loadComparedFiles(args.positional, catalog);
    if (!scenarios)
        return badInput(err, scenarios.error());
    if (scenarios->size() > size_t(kMaxPinned) + 1)
        return badInput(err, {"compare", std::to_string(scenarios->size()) + " scenarios",
                              "at most " + std::to_string(kMaxPinned + 1) +
                                  " (a live scenario and four pinned ones)"});
    if (scenarios->size() < 2)
        return badInput(err, {"compare", std::to_string(scenarios->size()) + " scenario",
                              "two or more scenario files (or one holding pinned scenarios)"});
    auto comparison = compareScenarios(*scenarios);
    if (!comparison)
        return badInput(err, comparison.error());
    if (args.has("json"))
        // A name from a file name need not be UTF-8: such bytes are replaced.
        out << comparisonToJson(*comparison)
                   .dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
            << "\n";
    else if (args.has("csv"))
        out << comparisonCsv(*comparison);
    else
        out << comparisonText(*comparison, args.has("si") ? ByteUnits::Si : ByteUnits::Binary);
    return exitOk;
}

} // namespace kvscope::cli
