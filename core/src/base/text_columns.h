// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Widths of UTF-8 text for the aligned tables the CLI prints, and for limits counted in
// characters: each code point counts one (the tables' text is Latin).

#include <string>

namespace kvscope {

inline size_t codePoints(const std::string& text)
{
    size_t n = 0;
    for (unsigned char c : text)
        n += (c & 0xC0) != 0x80;
    return n;
}

// `text` followed by spaces up to `width` columns.
inline std::string padColumns(const std::string& text, size_t width)
{
    const size_t n = codePoints(text);
    return text + std::string(width > n ? width - n : 0, ' ');
}

} // namespace kvscope
