// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/scenario/named_scenario.h"

namespace kvscope {

std::string pinnedNameFrom(const std::string& text)
{
    size_t points = 0;
    for (size_t i = 0; i < text.size(); ++i)
        if ((static_cast<unsigned char>(text[i]) & 0xC0) != 0x80 &&
            points++ == kMaxPinnedNameLength)
            return text.substr(0, i);
    return text;
}

} // namespace kvscope
