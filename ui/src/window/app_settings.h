// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QObject>
#include <QSettings>
#include <QString>

namespace kvscope::ui {

// The window's stored state under named keys, with a version so a later layout can migrate it
// (SpeedCrunch's ConfigVersion). Setters emit only when a value changes.
class AppSettings : public QObject
{
    Q_OBJECT
public:
    static constexpr int currentVersion = 1;
    struct Keys
    {
        static constexpr const char* version = "settings/version";
        static constexpr const char* geometry = "window/geometry";
        static constexpr const char* windowState = "window/state";
        static constexpr const char* splitter = "window/splitter";
        static constexpr const char* language = "view/language";
        static constexpr const char* units = "view/units";
        static constexpr const char* theme = "view/theme";
        static constexpr const char* lastScenario = "scenario/last";
    };

    // `settings` may be null: the platform default (tests pass their own file).
    explicit AppSettings(QSettings* settings = nullptr, QObject* parent = nullptr);

    QString language() const; // "en", "ja", or "" for the system locale
    void setLanguage(const QString& language);
    QString units() const; // "binary" or "si"
    void setUnits(const QString& units);
    QString theme() const; // "system", "light", "dark"
    void setTheme(const QString& theme);
    QString lastScenario() const; // scenario JSON text
    void setLastScenario(const QString& json);
    QByteArray value(const char* key) const;
    void setValue(const char* key, const QByteArray& value);
    QSettings& store() { return *m_settings; }

signals:
    void languageChanged(const QString& language);
    void unitsChanged(const QString& units);
    void themeChanged(const QString& theme);

private:
    void migrate();
    bool setString(const char* key, const QString& value);

    QSettings* m_settings;
    QSettings m_default;
};

} // namespace kvscope::ui
