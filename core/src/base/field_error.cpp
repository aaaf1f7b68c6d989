// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/base/field_error.h"

namespace kvscope {

std::string FieldError::message() const
{
    std::string text = field + ": ";
    text += value.empty() ? std::string("missing") : "got " + value;
    if (!accepted.empty())
        text += "; accepted: " + accepted;
    return text;
}

} // namespace kvscope
