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
    // Cheap: no serialization (see noteChange), so the title may ask on every drag step.
    bool isModified() const;
    QStringList recentFiles() const;

    void newScenario();
    bool open(const QString& path);
    // File > Open and Open recent: after confirmDiscard(), a file chosen in a dialog or `path`.
    void openWithDialog();
    void openRecent(const QString& path);
    // A config.json or GGUF file as the model, through the model setting's own door (so a GGUF
    // file brings its weight format, as on the CLI); false, with a message, when refused.
    bool importModelFile(const QString& path);
    bool save(); // Save As when there is no path yet
    bool saveAs();
    bool saveTo(const QString& path); // no dialog; false (and a message) on failure
    // Asks to save unsaved changes: true when it is fine to go on (saved or discarded).
    bool confirmDiscard();

signals:
    // The path, the saved state or anything the title shows changed (not a context-only edit).
    void stateChanged();
    void modifiedChanged(bool modified);
    void recentFilesChanged();

private:
    void noteChange(ScenarioController::Change change);
    void markSaved(const QString& path);
    void addRecent(const QString& path);
    std::string pinnedText() const; // the pinned scenarios' names and files, to compare

    ScenarioController* m_controller;
    AppSettings* m_settings;
    QWidget* m_window;
    QString m_path;
    // The scenario as last saved or opened: its text with the context apart, so a context drag
    // compares one integer and only other edits serialize the scenario.
    std::string m_savedText;
    int64_t m_savedContext = 0;
    bool m_othersModified = false; // a field besides the context differs from the saved text
    bool m_modified = false;       // as last announced by modifiedChanged
    std::string m_savedPinned;     // pinnedText() as last saved or opened
    bool m_pinnedModified = false;
};

} // namespace kvscope::ui
