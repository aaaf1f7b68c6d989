// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/text/options_text.h"

#include "kvscope/engines/launch_command.h"

namespace kvscope {

std::string optionsText(const OptionList& options)
{
    std::string text;
    for (const auto& [flag, value] : options)
        text += (text.empty() ? "--" : " --") + flag + " " + shellWord(value);
    return text;
}

} // namespace kvscope
