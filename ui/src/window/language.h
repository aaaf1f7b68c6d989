// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QObject>
#include <QString>
#include <QTranslator>

namespace kvscope::ui {

// Installs kvscope's and Qt's own translations for a language at run time; every widget then
// receives QEvent::LanguageChange and retranslates itself.
class Language : public QObject
{
    Q_OBJECT
public:
    explicit Language(QObject* parent = nullptr);
    // "en", "ja", or "" for the system locale. Returns the language actually applied.
    QString apply(const QString& language);
    QString current() const { return m_current; }
    static QString systemLanguage(); // "ja" when the system locale is Japanese, else "en"
    // `font` as a PDF can hold it: Japanese text in Noto Sans CJK JP, drawn without shaping so
    // that Qt's PDF writer can map every glyph back to its character.
    static QFont pdfFont(QFont font);

private:
    static void applyFont(const QString& language);

    QTranslator m_app;
    QTranslator m_qt;
    QString m_current;
};

} // namespace kvscope::ui
