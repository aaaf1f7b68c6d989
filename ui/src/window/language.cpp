// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/language.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>

namespace kvscope::ui {

Language::Language(QObject* parent) : QObject(parent) {}

QString Language::systemLanguage()
{
    return QLocale::system().language() == QLocale::Japanese ? QStringLiteral("ja") : QStringLiteral("en");
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
        if (m_app.load(locale, QStringLiteral("kvscope"), QStringLiteral("_"), QStringLiteral(":/i18n")))
            QCoreApplication::installTranslator(&m_app);
        if (m_qt.load(locale, QStringLiteral("qtbase"), QStringLiteral("_"),
                      QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
            QCoreApplication::installTranslator(&m_qt);
    }
    // Installing or removing a translator sends QEvent::LanguageChange to every widget.
    m_current = language;
    return language;
}

} // namespace kvscope::ui
