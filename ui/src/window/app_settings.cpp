// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/app_settings.h"

namespace kvscope::ui {

AppSettings::AppSettings(QSettings* settings, QObject* parent)
    : QObject(parent), m_settings(settings ? settings : &m_default)
{
    migrate();
}

void AppSettings::migrate()
{
    const int stored = m_settings->value(Keys::version, 0).toInt();
    if (stored > currentVersion) {
        // Written by a newer kvscope: keep it, but do not trust the window layout.
        m_settings->remove(Keys::windowState);
        m_settings->remove(Keys::splitter);
        return;
    }
    m_settings->setValue(Keys::version, currentVersion);
}

bool AppSettings::setString(const char* key, const QString& value)
{
    if (m_settings->value(key).toString() == value)
        return false;
    m_settings->setValue(key, value);
    return true;
}

QString AppSettings::language() const
{
    return m_settings->value(Keys::language).toString();
}
QString AppSettings::units() const
{
    return m_settings->value(Keys::units, QStringLiteral("binary")).toString();
}
QString AppSettings::theme() const
{
    return m_settings->value(Keys::theme, QStringLiteral("system")).toString();
}
QString AppSettings::lastScenario() const
{
    return m_settings->value(Keys::lastScenario).toString();
}

void AppSettings::setLanguage(const QString& language)
{
    if (setString(Keys::language, language))
        emit languageChanged(language);
}

void AppSettings::setUnits(const QString& units)
{
    if (setString(Keys::units, units))
        emit unitsChanged(units);
}

void AppSettings::setTheme(const QString& theme)
{
    if (setString(Keys::theme, theme))
        emit themeChanged(theme);
}

void AppSettings::setLastScenario(const QString& json)
{
    setString(Keys::lastScenario, json);
}

QByteArray AppSettings::value(const char* key) const
{
    return m_settings->value(key).toByteArray();
}

void AppSettings::setValue(const char* key, const QByteArray& value)
{
    m_settings->setValue(key, value);
}

} // namespace kvscope::ui
