// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/base/number_format.h"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace kvscope {

namespace {

std::string toChars(double value, int decimals)
{
    std::array<char, 64> buffer{};
    auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value,
                                std::chars_format::fixed, decimals);
    if (result.ec != std::errc())
        return "?";
    return std::string(buffer.data(), result.ptr);
}

// "1234567.89" -> "1,234,567.89" in the given style.
std::string applyStyle(const std::string& plain, const NumberStyle& style)
{
    std::string sign;
    std::string digits = plain;
    if (!digits.empty() && digits[0] == '-') {
        sign = "-";
        digits.erase(0, 1);
    }
    const size_t point = digits.find('.');
    std::string whole = digits.substr(0, point);
    const std::string fraction = point == std::string::npos ? "" : digits.substr(point + 1);
    std::string grouped;
    for (size_t i = 0; i < whole.size(); ++i) {
        if (i > 0 && (whole.size() - i) % 3 == 0)
            grouped += style.groupSeparator;
        grouped += whole[i];
    }
    return sign + grouped + (fraction.empty() ? "" : style.decimalPoint + fraction);
}

// Decimals that give three significant digits for a value in [1, 1000).
int decimalsFor(double magnitude)
{
    if (magnitude >= 100)
        return 0;
    if (magnitude >= 10)
        return 1;
    return 2;
}

std::string finiteOr(double value, const std::string& text)
{
    return std::isfinite(value) ? text : std::string("—");
}

} // namespace

std::string formatPlain(double value)
{
    std::array<char, 64> buffer{};
    auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), value);
    if (result.ec != std::errc())
        return "?";
    return std::string(buffer.data(), result.ptr);
}

std::string formatNumber(double value, int decimals, const NumberStyle& style)
{
    if (!std::isfinite(value))
        return "—";
    std::string text = applyStyle(toChars(value, decimals), style);
    if (text == "-0" || text.rfind("-0" + style.decimalPoint, 0) == 0) {
        // "-0.0" from a tiny negative reads as an error; show zero.
        bool allZero = text.find_first_not_of("-0" + style.decimalPoint) == std::string::npos;
        if (allZero)
            text.erase(0, 1);
    }
    return text;
}

std::string formatInteger(int64_t value, const NumberStyle& style)
{
    return applyStyle(std::to_string(value), style);
}

ByteUnit byteUnitFor(double bytes, ByteUnits units)
{
    static const char* binary[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    static const char* si[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB"};
    const double step = units == ByteUnits::Binary ? 1024.0 : 1000.0;
    const char* const* names = units == ByteUnits::Binary ? binary : si;
    double magnitude = std::fabs(bytes);
    double unit = 1;
    int index = 0;
    // Switch unit once the rounded value would reach the next one (1023.9 KiB shows as 1.00 MiB).
    while (index < 6 && magnitude / unit >= step - 0.5)
        unit *= step, ++index;
    return {names[index], unit};
}

std::string formatBytes(double bytes, ByteUnits units, const NumberStyle& style)
{
    if (!std::isfinite(bytes))
        return "—";
    const ByteUnit unit = byteUnitFor(bytes, units);
    const double scaled = bytes / unit.bytes;
    const int decimals = unit.bytes == 1 ? 0 : decimalsFor(std::fabs(scaled));
    return formatNumber(scaled, decimals, style) + " " + unit.symbol;
}

std::string formatDuration(double ms, const NumberStyle& style)
{
    if (!std::isfinite(ms))
        return "—";
    const double magnitude = std::fabs(ms);
    if (magnitude < 0.01 && magnitude > 0)
        return "< " + formatNumber(0.01, 2, style) + " ms";
    if (magnitude < 999.5)
        return formatNumber(ms, decimalsFor(std::max(magnitude, 1.0)), style) + " ms";
    if (magnitude < 59'950)
        return formatNumber(ms / 1e3, decimalsFor(magnitude / 1e3), style) + " s";
    if (magnitude < 3'597'000)
        return formatNumber(ms / 6e4, decimalsFor(magnitude / 6e4), style) + " min";
    return formatNumber(ms / 3.6e6, decimalsFor(magnitude / 3.6e6), style) + " h";
}

std::string formatRate(double gbPerS, const NumberStyle& style)
{
    return finiteOr(gbPerS, formatNumber(gbPerS, decimalsFor(std::fabs(gbPerS)), style) + " GB/s");
}

std::string formatTokensPerSecond(double tokensPerS, const NumberStyle& style)
{
    if (!std::isfinite(tokensPerS))
        return "—";
    const double m = std::fabs(tokensPerS);
    return formatNumber(tokensPerS, m >= 1000 ? 0 : decimalsFor(std::max(m, 1.0)), style);
}

std::string formatParameters(double count, const NumberStyle& style)
{
    if (!std::isfinite(count))
        return "—";
    const double m = std::fabs(count);
    if (m >= 1e12)
        return formatNumber(count / 1e12, decimalsFor(m / 1e12), style) + " T";
    if (m >= 1e9)
        return formatNumber(count / 1e9, decimalsFor(m / 1e9), style) + " B";
    if (m >= 1e6)
        return formatNumber(count / 1e6, decimalsFor(m / 1e6), style) + " M";
    return formatNumber(count, 0, style);
}

} // namespace kvscope
