// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QString>

#include <vector>

namespace kvscope::ui {

// Where text drawn in a chart may break: Unicode's line-breaking rules, less the places Japanese
// typesetting keeps together: inside a phrase (a kanji or katakana word and the hiragana after
// it: デ|コード, 最大コンテキスト|長, 処理できま|せん, 示しま|す; a phrase breaks only where
// hiragana meets the next word's kanji or katakana), inside a katakana word (トー|クン), between a
// number and the unit or word after it (5.2 |トークン, 6.74 |B, 12.6 |GiB), between a Latin word
// and the katakana word it names (KV |キャッシュ), and either side of a slash (トークン/|秒). Each
// position i is a break before text[i].
std::vector<qsizetype> lineBreaks(const QString& text);

// The places Unicode lets a line break that lineBreaks() keeps together.
std::vector<qsizetype> forbiddenBreaks(const QString& text);

// `text` for a word-wrapping QLabel, which breaks where Unicode allows: a no-break space or a
// word joiner (U+2060) at each place lineBreaks() keeps together.
QString withoutForbiddenBreaks(const QString& text);

// The same for a rich-text label: only the text between tags is changed.
QString withoutForbiddenBreaksInHtml(const QString& html);

// `text` broken into lines no wider than `width` pixels in `font` where lineBreaks() allows
// (its own line breaks kept); a piece with no allowed break is left whole.
QString wrapText(const QString& text, const QFont& font, double width);

// `text` in two lines, broken at the allowed break nearest its middle; unchanged when none.
QString breakNearMiddle(const QString& text);

// A name and its figure ("free for KV: 4.74 GiB", "MHA（KV ヘッド 64）：最大 480 トークン") in two
// lines, broken after its last colon; a text without one, nearest its middle.
QString breakAfterColon(const QString& text);

} // namespace kvscope::ui
