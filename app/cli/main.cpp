// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli.h"
#include "hub_fetch.h"

#ifdef KVSCOPE_CLI_RENDER
#include "cli_render.h"
#endif

#include <iostream>

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    std::ios::sync_with_stdio(false);
    kvscope::cli::setModelResolver(kvscope::hub::resolveForCli);
#ifdef KVSCOPE_CLI_RENDER
    kvscope::cli::registerRenderCommand();
#endif
    return kvscope::cli::run(args, std::cout, std::cerr, argc > 0 ? argv[0] : "");
}
