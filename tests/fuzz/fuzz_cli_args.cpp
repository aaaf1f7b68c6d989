// SPDX-License-Identifier: GPL-3.0-or-later
// kvscope-cli's argument handling, in process: the input is argv, one argument per line (or per
// NUL byte), run against the catalog loaded once. The contract checked: exit 0, 1 or 2; a 2
// prints exactly one line on stderr and nothing on stdout.
//
// Nothing is written and nothing outside the catalog is read: this build has no chart renderer
// (export and report exit 1), and inputs that would open a file are skipped: any argument with a
// '/' or ending in ".json" (--model, --gpu), --scenario, calibrate's --save and the validate
// command (its arguments are files). File contents are fuzz_model_config's, fuzz_gpu's and
// fuzz_scenario's job.

#include "fuzz_support.h"

#include "cli.h"
#include "cli_args.h"
#include "kvscope/settings/scenario_options.h"

#include <sstream>

using namespace kvscope;

namespace {

std::vector<std::string> splitArgs(const uint8_t* data, size_t size)
{
    std::vector<std::string> args;
    std::string current;
    for (size_t i = 0; i < size; ++i) {
        const char c = char(data[i]);
        if (c == '\n' || c == '\0') {
            args.push_back(current);
            current.clear();
        } else {
            current += c;
        }
    }
    if (!current.empty())
        args.push_back(current);
    return args;
}

bool opensAFile(const std::string& arg)
{
    const bool json = arg.size() >= 5 && arg.compare(arg.size() - 5, 5, ".json") == 0;
    return arg.find('/') != std::string::npos || json || arg.rfind("--scenario", 0) == 0 ||
           arg.rfind("--save", 0) == 0 || arg == "validate";
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const Catalog& catalog = fuzz::catalog();
    const std::vector<std::string> args = splitArgs(data, size);
    for (const std::string& arg : args)
        if (opensAFile(arg))
            return 0;

    std::ostringstream out, err;
    const int code = cli::run(args, catalog, out, err);
    const std::string e = err.str();
    if (code == cli::exitBadInput) {
        if (e.rfind("kvscope-cli: ", 0) != 0 || e.back() != '\n' || e.find('\n') != e.size() - 1 ||
            !out.str().empty())
            fuzz::fail("exit 2 without exactly one line on stderr:\n[" + e + "]");
    } else if (code == cli::exitFailure) {
        // Only the chart commands, which this build cannot draw.
        if (e.find("no chart renderer") == std::string::npos)
            fuzz::fail("exit 1: " + e);
    } else if (code != cli::exitOk) {
        fuzz::fail("exit status " + std::to_string(code));
    } else if (!e.empty() && catalog.problems.empty()) {
        fuzz::fail("exit 0 with stderr: " + e);
    }

    // Whatever scenario the options describe is evaluated and checked too.
    auto parsed = cli::parseArgs(args, cli::valuedOptions(), cli::switchOptions());
    if (!parsed)
        return 0;
    auto scenario = scenarioFromOptions(parsed->scenarioValues(), catalog);
    if (scenario)
        fuzz::evaluateChecked(*scenario, fuzz::selector(data, size));
    return 0;
}
