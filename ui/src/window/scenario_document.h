// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "window/scenario_controller.h"

#include <QObject>
#include <QStringList>

class QWidget;

namespace kvscope::ui {

class AppSettings;

// The scenario as a file: its path, whether it changed since it was saved, the recent files,
// and the prompt before unsaved changes are lost. Writes go through QSaveFile.
class ScenarioDocument : public QObject
{
    Q_OBJECT
public:
    ScenarioDocument(ScenarioController* controller, AppSettings* settings, QWidget* window);

    QString path() const { return m_path; }
    bool isModified() const;
    QStringList recentFiles() const;

    void newScenario();
    bool open(const QString& path);
    bool save();              // Save As when there is no path yet
    bool saveAs();
    bool saveTo(const QString& path); // no dialog; false (and a message) on failure
    // Asks to save unsaved changes: true when it is fine to go on (saved or discarded).
    bool confirmDiscard();

signals:
    void stateChanged(); // path, modified flag or recent files changed

private:
    void markSaved(const QString& path);
    void addRecent(const QString& path);

    ScenarioController* m_controller;
    AppSettings* m_settings;
    QWidget* m_window;
    QString m_path;
    std::string m_savedText; // the scenario as last saved or opened
};

} // namespace kvscope::ui
