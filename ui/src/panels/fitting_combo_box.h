// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QComboBox>

namespace kvscope::ui {

// A combo box whose closed face fits its width: a name too long for a narrow panel (presentation
// mode, Japanese labels) first loses its trailing "(24 GiB)" detail, then its maker's names
// ("NVIDIA GeForce") and its tuning ("Instruct"), then ends in an ellipsis, instead of being cut
// mid-letter by the frame. The list and the tooltip keep the whole text.
class FittingComboBox : public QComboBox
{
public:
    using QComboBox::QComboBox;

    // What the closed face shows of `text` in `width` pixels of `metrics`.
    static QString fitted(const QString& text, const QFontMetrics& metrics, int width);
    // The shortest face that still names the item: without its detail, its maker's names and
    // its tuning.
    static QString shortestName(const QString& text);
    // An editable box shows the current item fitted likewise while it is not being edited (a
    // line edit would cut a long name mid-word), and the whole name, selected, to edit.
    void showFittedEditText();

protected:
    void paintEvent(QPaintEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QString m_nameTip; // the tooltip this class set (the whole name), to tell it from others
};

} // namespace kvscope::ui
