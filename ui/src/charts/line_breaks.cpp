// SPDX-License-Identifier: GPL-3.0-or-later
#include "charts/line_breaks.h"

#include <QFontMetricsF>
#include <QStringList>
#include <QTextBoundaryFinder>

#include <algorithm>
#include <cstdlib>

namespace kvscope::ui {

namespace {

bool isKatakana(QChar c)
{
    return (c.unicode() >= 0x30A0 && c.unicode() <= 0x30FF) ||
           (c.unicode() >= 0xFF66 && c.unicode() <= 0xFF9F);
}

bool isLatinLetter(QChar c)
{
    return c.unicode() < 0x80 && c.isLetter();
}

bool isHiragana(QChar c)
{
    return c.unicode() >= 0x3041 && c.unicode() <= 0x309F;
}

bool isKanji(QChar c)
{
    return (c.unicode() >= 0x4E00 && c.unicode() <= 0x9FFF) ||
           (c.unicode() >= 0x3400 && c.unicode() <= 0x4DBF) || c.unicode() == 0x3005; // 々
}

// Kana that never begin a line (JIS X 4051's small kana, the long vowel mark, iteration marks).
bool isSmallOrProlonged(QChar c)
{
    static const QString marks =
        QStringLiteral(u"ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶー々ゝゞヽヾ");
    return marks.contains(c);
}

bool isJapaneseLetter(QChar c)
{
    return isHiragana(c) || isKatakana(c) || isKanji(c);
}

// Unicode lets a line break between any two kana or kanji; Japanese breaks between phrases.
// A phrase is a word in kanji or katakana and the hiragana after it (its inflection and
// particles: 処理できません, 示します, 最大コンテキスト長の), so inside a run of letters the
// only break is where hiragana meets the kanji or katakana of the next phrase (長の|値).
bool splitsPhrase(QChar a, QChar b)
{
    if (!isJapaneseLetter(a) || !isJapaneseLetter(b))
        return false;
    return !isHiragana(a) || isHiragana(b) || isSmallOrProlonged(b);
}

// Whether a break before text[i] splits what Japanese keeps together.
bool keptTogether(const QString& text, qsizetype i)
{
    // The characters either side, a single space between them skipped.
    qsizetype before = i - 1;
    if (before >= 0 && text[before] == QLatin1Char(' '))
        --before;
    qsizetype after = i;
    if (after < text.size() && text[after] == QLatin1Char(' '))
        ++after;
    if (before < 0 || after >= text.size())
        return false;
    const QChar a = text[before], b = text[after];
    if (isKatakana(a) && isKatakana(b))
        return true;
    if (after == i && before == i - 1 && splitsPhrase(a, b))
        return true;
    if (a == QLatin1Char('/') || b == QLatin1Char('/'))
        return true; // a rate: トークン/秒
    if (a == QChar(0x00D7) || b == QChar(0x00D7))
        return true; // a count and what it counts: "RTX 4090 × 1", "8 × H100"
    if (a == QLatin1Char('-') && before == i - 1 && b.isLetterOrNumber())
        return true; // a flag or a compound: --n-|cpu-moe, full-|context
    const bool japaneseAfter = b.unicode() >= 0x2E80;
    if (a.isDigit() && (japaneseAfter || isLatinLetter(b)))
        return true; // a number and its unit: 5.2 トークン, 6.74 B, 12.6 GiB
    return isLatinLetter(a) && isKatakana(b);
}

} // namespace

std::vector<qsizetype> lineBreaks(const QString& text)
{
    std::vector<qsizetype> breaks;
    QTextBoundaryFinder finder(QTextBoundaryFinder::Line, text);
    for (qsizetype i = finder.toNextBoundary(); i > 0 && i < text.size();
         i = finder.toNextBoundary())
        if (!keptTogether(text, i))
            breaks.push_back(i);
    return breaks;
}

std::vector<qsizetype> forbiddenBreaks(const QString& text)
{
    std::vector<qsizetype> forbidden;
    QTextBoundaryFinder finder(QTextBoundaryFinder::Line, text);
    for (qsizetype i = finder.toNextBoundary(); i > 0 && i < text.size();
         i = finder.toNextBoundary())
        if (keptTogether(text, i))
            forbidden.push_back(i);
    return forbidden;
}

QString withoutForbiddenBreaks(const QString& text)
{
    QString out;
    out.reserve(text.size() + 8);
    qsizetype from = 0;
    for (qsizetype i : forbiddenBreaks(text)) {
        out += QStringView(text).mid(from, i - from);
        from = i;
        if (out.endsWith(QLatin1Char(' ')))
            out[out.size() - 1] = QChar(0x00A0); // no-break space
        else
            out += QChar(0x2060); // word joiner
    }
    out += QStringView(text).mid(from);
    return out;
}

QString withoutForbiddenBreaksInHtml(const QString& html)
{
    QString out;
    out.reserve(html.size() + 8);
    qsizetype from = 0;
    while (from < html.size()) {
        const qsizetype tag = html.indexOf(QLatin1Char('<'), from);
        const qsizetype text = tag < 0 ? html.size() : tag;
        out += withoutForbiddenBreaks(html.mid(from, text - from));
        if (tag < 0)
            break;
        const qsizetype close = html.indexOf(QLatin1Char('>'), tag);
        const qsizetype end = close < 0 ? html.size() : close + 1;
        out += QStringView(html).mid(tag, end - tag); // a tag as it is
        from = end;
    }
    return out;
}

QString wrapText(const QString& text, const QFont& font, double width)
{
    const QFontMetricsF metrics(font);
    QStringList lines;
    for (const QString& paragraph : text.split(QLatin1Char('\n'))) {
        const std::vector<qsizetype> breaks = lineBreaks(paragraph);
        qsizetype start = 0;
        while (true) {
            // The furthest allowed break that keeps the line within the width; else the first.
            qsizetype cut = -1;
            for (qsizetype b : breaks) {
                if (b <= start)
                    continue;
                if (cut < 0 ||
                    metrics.horizontalAdvance(paragraph.mid(start, b - start).trimmed()) <= width)
                    cut = b;
                else
                    break;
            }
            if (cut < 0 || metrics.horizontalAdvance(paragraph.mid(start).trimmed()) <= width) {
                lines << paragraph.mid(start).trimmed();
                break;
            }
            lines << paragraph.mid(start, cut - start).trimmed();
            start = cut;
        }
    }
    return lines.join(QLatin1Char('\n'));
}

QString breakNearMiddle(const QString& text)
{
    qsizetype best = -1;
    const qsizetype middle = text.size() / 2;
    for (qsizetype b : lineBreaks(text))
        if (best < 0 || std::abs(b - middle) < std::abs(best - middle))
            best = b;
    if (best <= 0)
        return text;
    return text.left(best).trimmed() + QLatin1Char('\n') + text.mid(best).trimmed();
}

QString breakAfterColon(const QString& text)
{
    const qsizetype latin = text.lastIndexOf(QLatin1String(": "));
    const qsizetype wide = text.lastIndexOf(QChar(0xFF1A)); // the full-width colon
    const qsizetype colon = std::max(latin, wide);
    if (colon <= 0 || colon + 1 >= text.size())
        return breakNearMiddle(text);
    return text.left(colon + 1) + QLatin1Char('\n') + text.mid(colon + 1).trimmed();
}

} // namespace kvscope::ui
