// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// kvscope-cli run in process, as the suites that test its doors call it.

#include "cli.h"

#include <QCoreApplication>

#include <sstream>
#include <string>
#include <vector>

namespace kvscope::test {

struct CliResult
{
    int code = 0;
    std::string out, err;
};

inline CliResult runCli(const std::vector<std::string>& args)
{
    std::ostringstream out, err;
    CliResult r;
    r.code = cli::run(args, out, err, QCoreApplication::applicationFilePath().toStdString());
    r.out = out.str();
    r.err = err.str();
    return r;
}

} // namespace kvscope::test
