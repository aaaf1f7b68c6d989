// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Recomputes the arithmetic kvscope prints beside a figure ("4.00 KiB × (80 layers × 2,048
// tokens) = 640 MiB; ..."): numbers with byte, time and rate units, × ÷ + − and parentheses;
// words are labels and are skipped, and so is a bracket holding no number ("2 (K, V)"). Each
// "= result" must equal what its left side computes, within the rounding of the printed operands.

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace kvscope::test {

class ArithmeticCheck
{
public:
    // Every "= result" of the text, in order, in base units (bytes, seconds, bytes per second);
    // an overflow is negative, as the free memory it stands for is.
    static std::vector<double> results(const std::string& text)
    {
        std::vector<double> out;
        for (const Equation& e : equations(text)) {
            ArithmeticCheck right(e.right, 0);
            if (const std::optional<double> rhs = right.expression())
                out.push_back(e.overflow ? -*rhs : *rhs);
        }
        return out;
    }

    // The first "= result" whose left side does not recompute to it, or nothing when all do.
    // A segment after ';' that starts with an operator continues from the previous result.
    static std::optional<std::string> mismatch(const std::string& text, double tolerance)
    {
        double previous = 0;
        for (const Equation& e : equations(text)) {
            const std::string& segment = e.segment;
            ArithmeticCheck left(e.left, previous);
            ArithmeticCheck right(e.right, 0);
            const std::optional<double> lhs = left.expression();
            std::optional<double> rhs = right.expression();
            if (!lhs || !rhs)
                return "unreadable: " + segment;
            if (e.overflow)
                rhs = -*rhs;
            // A difference of rounded terms is as uncertain as the terms are large.
            const double scale = std::max({std::fabs(*lhs), std::fabs(*rhs), left.m_terms});
            // Plus half the last printed digit of each lone term: "0.24 ms + 0.42 ms = 0.65 ms".
            const double slack = left.m_slack + right.m_slack;
            if (std::fabs(*lhs - *rhs) > tolerance * scale + slack + 1e-9)
                return segment + "  [left " + std::to_string(*lhs) + ", right " +
                       std::to_string(*rhs) + "]";
            previous = *rhs;
        }
        return std::nullopt;
    }

private:
    // A ';'-separated segment of the text that states "left = right".
    struct Equation
    {
        std::string segment, left, right;
        bool overflow = false; // the result stands for memory short, negative
    };

    static std::vector<Equation> equations(const std::string& text)
    {
        std::vector<Equation> out;
        size_t start = 0;
        while (start <= text.size()) {
            const size_t end = std::min(text.find(';', start), text.size());
            std::string segment = text.substr(start, end - start);
            start = end + 1;
            const size_t eq = segment.rfind(" = ");
            if (eq == std::string::npos)
                continue;
            const bool overflow = segment.find("overflows") != std::string::npos;
            out.push_back({segment, segment.substr(0, eq), segment.substr(eq + 3), overflow});
        }
        return out;
    }

    ArithmeticCheck(std::string text, double previous)
        : m_text(std::move(text)), m_previous(previous)
    {
    }

    // sum := product (('+'|'−') product)*; product := factor (('×'|'÷') factor)*.
    std::optional<double> expression()
    {
        skipWords();
        // A continuation: "× 80 layers" multiplies what came before, "+ 48 hand-overs × 160 µs"
        // adds to it.
        std::optional<double> value =
            startsOperator() || startsSum() ? std::optional<double>(m_previous) : product();
        if (value)
            m_terms += std::fabs(*value);
        while (value) {
            skipWords();
            if (eat("+")) {
                const auto next = product();
                value = next ? std::optional<double>(*value + *next) : std::nullopt;
                m_terms += next ? std::fabs(*next) : 0.0;
            } else if (eat("\u2212") || eat("- ")) {
                const auto next = product();
                value = next ? std::optional<double>(*value - *next) : std::nullopt;
                m_terms += next ? std::fabs(*next) : 0.0;
            } else if (startsOperator()) {
                value = productFrom(*value);
            } else {
                break;
            }
        }
        return value;
    }
    // A lone number added or subtracted carries its printed rounding into the sum as it is.
    std::optional<double> product()
    {
        const auto first = factor();
        const double slack = m_lastSlack;
        const int ops = m_ops;
        const auto value = first ? productFrom(*first) : std::nullopt;
        if (m_ops == ops)
            m_slack += slack;
        return value;
    }
    std::optional<double> productFrom(double value)
    {
        for (;;) {
            skipWords();
            if (eat("\u00d7")) {
                ++m_ops;
                const auto next = factor();
                if (!next)
                    return std::nullopt;
                value *= *next;
            } else if (eat("\u00f7")) {
                ++m_ops;
                const auto next = factor();
                if (!next || *next == 0)
                    return std::nullopt;
                value /= *next;
            } else {
                return value;
            }
        }
    }
    std::optional<double> factor()
    {
        skipWords();
        if (eat("(")) {
            if (!groupHasNumber())
                return skipGroup(), factor(); // "(K, V)": a label
            const auto inner = expression();
            skipWords();
            if (!eat(")"))
                return std::nullopt;
            return inner;
        }
        return number();
    }
    std::optional<double> number()
    {
        std::string digits;
        while (m_pos < m_text.size() &&
               (std::isdigit((unsigned char)m_text[m_pos]) || m_text[m_pos] == '.' ||
                (m_text[m_pos] == ',' && m_pos + 1 < m_text.size() &&
                 std::isdigit((unsigned char)m_text[m_pos + 1]))))
            if (m_text[m_pos++] != ',')
                digits += m_text[m_pos - 1];
        if (digits.empty())
            return std::nullopt;
        double value = std::strtod(digits.c_str(), nullptr);
        const size_t point = digits.find('.');
        const double lastDigit =
            point == std::string::npos ? 1.0 : std::pow(10.0, -double(digits.size() - point - 1));
        while (m_pos < m_text.size() && m_text[m_pos] == ' ')
            ++m_pos;
        static const std::pair<const char*, double> units[] = {{"TiB", 1099511627776.0},
                                                               {"GiB", 1073741824.0},
                                                               {"MiB", 1048576.0},
                                                               {"KiB", 1024.0},
                                                               {"B", 1.0},
                                                               // rates, per second
                                                               {"GB/s", 1e9},
                                                               {"GT/s", 1e9},
                                                               // durations, in seconds
                                                               {"ms", 1e-3},
                                                               {"\u00b5s", 1e-6},
                                                               {"min", 60.0},
                                                               {"s", 1.0},
                                                               {"h", 3600.0}};
        for (const auto& [unit, factor] : units) {
            const size_t n = std::string(unit).size();
            if (m_text.compare(m_pos, n, unit) == 0 &&
                (m_pos + n == m_text.size() || !std::isalpha((unsigned char)m_text[m_pos + n]))) {
                value *= factor;
                m_lastSlack = 0.5 * lastDigit * factor;
                m_pos += n;
                return value;
            }
        }
        m_lastSlack = 0.5 * lastDigit; // a plain count or factor
        return value;
    }

    bool startsOperator()
    {
        skipWords();
        return m_text.compare(m_pos, 2, "\u00d7") == 0 || m_text.compare(m_pos, 2, "\u00f7") == 0;
    }
    bool startsSum()
    {
        skipWords();
        return m_text.compare(m_pos, 1, "+") == 0 || m_text.compare(m_pos, 3, "\u2212") == 0;
    }
    bool eat(const std::string& token)
    {
        if (m_text.compare(m_pos, token.size(), token) != 0)
            return false;
        m_pos += token.size();
        return true;
    }
    // Labels: letters, spaces, slashes and other characters that are not part of arithmetic.
    void skipWords()
    {
        while (m_pos < m_text.size()) {
            const unsigned char c = m_text[m_pos];
            if (c == '(' && !groupHasNumber()) { // "(K, V)", "(as CUDA reports it)"
                skipGroup();
                continue;
            }
            if (std::isdigit(c) || c == '(' || c == ')' || c == '+' ||
                m_text.compare(m_pos, 2, "\u00d7") == 0 ||
                m_text.compare(m_pos, 2, "\u00f7") == 0 ||
                m_text.compare(m_pos, 3, "\u2212") == 0 || m_text.compare(m_pos, 2, "- ") == 0)
                return;
            ++m_pos;
        }
    }
    bool groupHasNumber() const
    {
        const size_t close = m_text.find(')', m_pos);
        const std::string inside = m_text.substr(m_pos, close - m_pos);
        return inside.find_first_of("0123456789") != std::string::npos;
    }
    void skipGroup() { m_pos = std::min(m_text.find(')', m_pos), m_text.size() - 1) + 1; }

    std::string m_text;
    size_t m_pos = 0;
    double m_previous = 0;
    double m_terms = 0;     // the sum of |terms| added or subtracted: the scale of their rounding
    double m_slack = 0;     // half the last printed digit of each lone term of a sum, in its unit
    double m_lastSlack = 0; // that of the number read last
    int m_ops = 0;          // multiplications and divisions read so far
};

} // namespace kvscope::test
