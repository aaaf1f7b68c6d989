// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/palettes.h"

#include <QStyleFactory>

namespace kvscope::ui {

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x2B, 0x2B, 0x2E), base(0x1E, 0x1E, 0x21), text(0xE8, 0xE8, 0xE8);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::PlaceholderText, QColor(0xA0, 0xA0, 0xA0));
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    // Every text at WCAG AA (4.5:1) on its background, hints and disabled text included
    // (tst_layout checks): white on this blue is 5.1:1, the disabled grey 4.7:1 on the window.
    p.setColor(QPalette::Highlight, QColor(0x2A, 0x6F, 0xBF));
    p.setColor(QPalette::HighlightedText, Qt::white);
    const QColor disabled(0x94, 0x94, 0x94);
    for (QPalette::ColorRole role :
         {QPalette::Text, QPalette::WindowText, QPalette::ButtonText, QPalette::PlaceholderText})
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

QPalette lightPalette()
{
    return QStyleFactory::create(QStringLiteral("Fusion"))->standardPalette();
}

} // namespace kvscope::ui
