// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/language.h"

#include <QApplication>
#include <QCoreApplication>
#include <QFontDatabase>
#include <QLibraryInfo>
#include <QLocale>

#include <optional>

namespace kvscope::ui {

Language::Language(QObject* parent) : QObject(parent) {}

QString Language::systemLanguage()
{
    return QLocale::system().language() == QLocale::Japanese ? QStringLiteral("ja")
                                                             : QStringLiteral("en");
}

// Japanese text takes its kana and kanji from Noto Sans CJK JP as a fallback; the Latin font's
// digits beside them would put two fonts on one line ("18.8 ms" and "トークン/秒"). The whole
// text in Noto Sans CJK JP keeps digits, units and kana in one design. English keeps the
// system's font.
namespace {

const QString& japaneseFamily()
{
    static const QString family = QStringLiteral("Noto Sans CJK JP");
    return family;
}

std::optional<QFont>& systemFont() // the application's font before a language set one
{
    static std::optional<QFont> font;
    return font;
}

} // namespace

void Language::applyFont(const QString& language)
{
    if (!qobject_cast<QApplication*>(QCoreApplication::instance()))
        return;
    if (!systemFont())
        systemFont() = QApplication::font();
    QFont font = *systemFont();
    if (language == QLatin1String("ja") && QFontDatabase::families().contains(japaneseFamily()))
        font.setFamilies({japaneseFamily()});
    QApplication::setFont(font);
}

// Qt's PDF writer maps a glyph back to its character through the font's cmap only, so a glyph
// that shaping substituted (Noto Sans CJK's digits in a Latin run) copies out as nothing
// ("Llama 2 7B" as "Llama B"). Without shaping (which kana, kanji and Latin text do not need)
// every glyph is the cmap's own: the PDF keeps one font for digits and kana alike.
QFont Language::pdfFont(QFont font)
{
    if (font.families().contains(japaneseFamily()) || font.family() == japaneseFamily())
        font.setStyleStrategy(QFont::PreferNoShaping);
    return font;
}

QString Language::apply(const QString& requested)
{
    const QString language = requested.isEmpty() ? systemLanguage() : requested;
    QCoreApplication::removeTranslator(&m_app);
    QCoreApplication::removeTranslator(&m_qt);
    const QLocale locale(language == QLatin1String("ja") ? QLocale::Japanese : QLocale::English,
                         language == QLatin1String("ja") ? QLocale::Japan : QLocale::UnitedStates);
    QLocale::setDefault(locale);
    if (language != QLatin1String("en")) {
        if (m_app.load(locale, QStringLiteral("kvscope"), QStringLiteral("_"),
                       QStringLiteral(":/i18n")))
            QCoreApplication::installTranslator(&m_app);
        if (m_qt.load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                      QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(&m_qt);
    }
    applyFont(language);
    // Installing or removing a translator sends QEvent::LanguageChange to every widget.
    m_current = language;
    return language;
}

} // namespace kvscope::ui
