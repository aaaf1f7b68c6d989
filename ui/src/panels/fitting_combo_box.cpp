// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/fitting_combo_box.h"

#include <QEvent>
#include <QLineEdit>
#include <QRegularExpression>
#include <QStyleOptionComboBox>
#include <QStylePainter>

namespace kvscope::ui {

namespace {

// A trailing "(24 GiB)" or "（24 GiB）".
QString withoutDetail(const QString& name)
{
    static const QRegularExpression detail(QStringLiteral(R"(\s*[(（][^()（）]*[)）]\s*$)"));
    QString shorter = name;
    shorter.remove(detail);
    return shorter.isEmpty() ? name : shorter;
}

// Without the maker's names every GPU of a vendor shares: "RTX 4090" tells a GeForce apart where
// "NVIDIA GeForce RTX…" does not.
QString withoutMaker(const QString& name)
{
    static const QRegularExpression maker(
        QStringLiteral(R"(^((NVIDIA|GeForce|AMD|Radeon|Instinct|Intel|Apple)\s+)+)"));
    QString bare = name;
    bare.remove(maker);
    return bare.isEmpty() ? name : bare;
}

// Without a trailing " Instruct", " Chat" or " IT": the tuning, which the size and version before
// it outrank ("Llama 4 Scout 17B-16E").
QString withoutTuning(const QString& name)
{
    static const QRegularExpression tuning(QStringLiteral(R"(\s+(Instruct|Chat|it)$)"),
                                           QRegularExpression::CaseInsensitiveOption);
    QString bare = name;
    bare.remove(tuning);
    return bare.isEmpty() ? name : bare;
}

} // namespace

QString FittingComboBox::shortestName(const QString& text)
{
    return withoutTuning(withoutMaker(withoutDetail(text.trimmed())));
}

QString FittingComboBox::fitted(const QString& text, const QFontMetrics& metrics, int width)
{
    // Items under a group heading are indented in the list; the face needs no indent.
    const QString whole = text.trimmed();
    if (metrics.horizontalAdvance(whole) <= width)
        return whole;
    for (const QString& shorter :
         {withoutDetail(whole), withoutMaker(withoutDetail(whole)), shortestName(whole)})
        if (metrics.horizontalAdvance(shorter) <= width)
            return shorter;
    const QString name = shortestName(whole);
    // A model's size ends its name and tells it from its siblings ("DeepSeek-R1-Distill-Llama
    // 8B" and "70B"): it stays, and the words before it give way.
    const qsizetype lastSpace = name.lastIndexOf(QLatin1Char(' '));
    const QString size = lastSpace > 0 ? name.mid(lastSpace) : QString();
    static const QRegularExpression sizeWord(QStringLiteral(R"(^ \d[\d.]*[BM]\b)"));
    if (sizeWord.match(size).hasMatch()) {
        const int room = width - metrics.horizontalAdvance(size);
        const QString front = fitted(name.left(lastSpace), metrics, room);
        if (room > 0 && front.endsWith(QChar(0x2026)) && front.size() > 1)
            return front + size;
    }
    const QString elided = metrics.elidedText(name, Qt::ElideRight, width);
    // Cut between words, or the parts of a hyphenated name, where the name has them
    // ("Llama 4…", not "Llama 4 Sco…"; "DeepSeek-R1-Distill…", not "…-Llam…").
    const qsizetype kept = elided.size() - 1; // the characters before the ellipsis
    if (kept <= 0 || kept >= name.size() || name.at(kept).isSpace())
        return elided;
    if (name.at(kept) == QLatin1Char('-')) // at a part's end already
        return name.left(kept) + QChar(0x2026);
    static const QRegularExpression boundary(QStringLiteral("[ -]"));
    const qsizetype cut = name.left(kept).lastIndexOf(boundary);
    return cut > 0 ? name.left(cut) + QChar(0x2026) : elided;
}

void FittingComboBox::paintEvent(QPaintEvent*)
{
    QStylePainter painter(this);
    QStyleOptionComboBox option;
    initStyleOption(&option);
    painter.drawComplexControl(QStyle::CC_ComboBox, option);
    const QRect field =
        style()->subControlRect(QStyle::CC_ComboBox, &option, QStyle::SC_ComboBoxEditField, this);
    const QString shown = fitted(option.currentText, fontMetrics(), field.width() - 2);
    // The whole name on hover where the face cannot show it; a tooltip of the box's own stays.
    const QString whole = option.currentText.trimmed();
    const QString tip = shown == whole ? QString() : whole;
    if (toolTip() == m_nameTip && tip != m_nameTip) {
        setToolTip(tip);
        m_nameTip = tip;
    }
    option.currentText = shown;
    painter.drawControl(QStyle::CE_ComboBoxLabel, option);
}

void FittingComboBox::showFittedEditText()
{
    QLineEdit* edit = lineEdit();
    if (!edit || edit->hasFocus() || currentIndex() < 0)
        return;
    edit->removeEventFilter(this);
    edit->installEventFilter(this);
    const QString whole = itemText(currentIndex()).trimmed();
    const int room = edit->contentsRect().width() - 2 * edit->textMargins().left() - 4;
    const QString shown = room > 0 ? fitted(whole, edit->fontMetrics(), room) : whole;
    edit->setText(shown);
    edit->setCursorPosition(0);
    edit->setToolTip(shown == whole ? QString() : whole);
}

bool FittingComboBox::eventFilter(QObject* watched, QEvent* event)
{
    QLineEdit* edit = lineEdit();
    if (watched == edit) {
        if (event->type() == QEvent::FocusIn && currentIndex() >= 0) {
            edit->setText(itemText(currentIndex()).trimmed());
            edit->selectAll();
        } else if (event->type() == QEvent::FocusOut || event->type() == QEvent::Resize) {
            showFittedEditText();
        }
    }
    return QComboBox::eventFilter(watched, event);
}

} // namespace kvscope::ui
