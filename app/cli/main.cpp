// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"

#include <iostream>

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    std::ios::sync_with_stdio(false);
    return kvscope::cli::run(args, std::cout, std::cerr, argc > 0 ? argv[0] : "");
}
