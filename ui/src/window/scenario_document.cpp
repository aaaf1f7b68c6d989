// SPDX-License-Identifier: GPL-3.0-or-later
#include "window/scenario_document.h"

#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/settings/scenario_file.h"
#include "kvscope/settings/scenario_options.h"
#include "window/app_settings.h"
#include "window/ui_text.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QSaveFile>

namespace kvscope::ui {

namespace {
constexpr const char* kRecentKey = "files/recent";
constexpr int kMaxRecent = 8;
} // namespace

ScenarioDocument::ScenarioDocument(ScenarioController* controller, AppSettings* settings,
                                   QWidget* window)
    : QObject(window), m_controller(controller), m_settings(settings), m_window(window),
      m_savedText(scenarioToText(controller->scenario())),
      m_savedContext(controller->scenario().context)
{
    connect(controller, &ScenarioController::scenarioChanged, this, &ScenarioDocument::noteChange);
    connect(controller, &ScenarioController::pinnedChanged, this, [this] {
        m_pinnedModified = pinnedText() != m_savedPinned;
        noteChange(ScenarioController::Change::Any);
    });
}

std::string ScenarioDocument::pinnedText() const
{
    std::string text;
    for (const NamedScenario& named : m_controller->pinnedScenarios())
        text += named.name + "\n" + scenarioToText(named.scenario);
    return text;
}

bool ScenarioDocument::isModified() const
{
    return m_othersModified || m_pinnedModified ||
           m_controller->scenario().context != m_savedContext;
}

void ScenarioDocument::noteChange(ScenarioController::Change change)
{
    if (change != ScenarioController::Change::Context) {
        Scenario others = m_controller->scenario();
        others.context = m_savedContext;
        m_othersModified = scenarioToText(others) != m_savedText;
        emit stateChanged();
    }
    if (isModified() != m_modified) {
        m_modified = !m_modified;
        emit modifiedChanged(m_modified);
    }
}

QStringList ScenarioDocument::recentFiles() const
{
    return m_settings ? m_settings->store().value(kRecentKey).toStringList() : QStringList();
}

void ScenarioDocument::addRecent(const QString& path)
{
    if (!m_settings)
        return;
    const QStringList before = recentFiles();
    QStringList recent = before;
    recent.removeAll(path);
    recent.prepend(path);
    while (recent.size() > kMaxRecent)
        recent.removeLast();
    if (recent == before)
        return;
    m_settings->store().setValue(kRecentKey, recent);
    emit recentFilesChanged();
}

void ScenarioDocument::markSaved(const QString& path)
{
    m_path = path;
    m_savedText = scenarioToText(m_controller->scenario());
    m_savedContext = m_controller->scenario().context;
    m_othersModified = false;
    m_savedPinned = pinnedText();
    m_pinnedModified = false;
    if (!path.isEmpty())
        addRecent(QFileInfo(path).absoluteFilePath());
    emit stateChanged();
    if (m_modified) {
        m_modified = false;
        emit modifiedChanged(false);
    }
}

void ScenarioDocument::newScenario()
{
    if (!confirmDiscard())
        return;
    if (auto fresh = defaultScenario(m_controller->catalog())) {
        m_controller->unpinAll();
        m_controller->setScenario(*fresh);
    }
    markSaved(QString());
}

bool ScenarioDocument::open(const QString& path)
{
    auto file = loadScenarioFileWithPinned(path.toStdString(), m_controller->catalog());
    // The pinned scenarios go first: if one cannot be evaluated nothing has changed yet.
    std::optional<FieldError> error =
        file ? m_controller->setPinned(file->pinned) : std::optional<FieldError>(file.error());
    if (error) {
        QMessageBox::warning(m_window, tr("Cannot open scenario"),
                             tr("%1 was not opened; the current scenario is unchanged.\n%2")
                                 .arg(path, UiText::fieldError(*error)));
        return false;
    }
    m_controller->setScenario(file->scenario);
    markSaved(path);
    return true;
}

void ScenarioDocument::openWithDialog()
{
    if (!confirmDiscard())
        return;
    const QString path = QFileDialog::getOpenFileName(
        m_window, tr("Open scenario"), QString(), tr("kvscope scenario (*.kvscope.json *.json)"));
    if (!path.isEmpty())
        open(path);
}

void ScenarioDocument::openRecent(const QString& path)
{
    if (confirmDiscard())
        open(path);
}

bool ScenarioDocument::importModelFile(const QString& path)
{
    Scenario next = m_controller->scenario();
    if (auto error = applyOptions(next, {{"model", path.toStdString()}}, m_controller->catalog())) {
        QMessageBox::warning(m_window, tr("Cannot import the model file"),
                             UiText::fieldError(*error));
        return false;
    }
    m_controller->edit([&](Scenario& s) {
        s.model = next.model;
        s.weights = next.weights;
    });
    return true;
}

bool ScenarioDocument::save()
{
    return m_path.isEmpty() ? saveAs() : saveTo(m_path);
}

bool ScenarioDocument::saveAs()
{
    QString path = QFileDialog::getSaveFileName(
        m_window, tr("Save scenario"),
        m_path.isEmpty() ? QStringLiteral("scenario.kvscope.json") : m_path,
        tr("kvscope scenario (*.kvscope.json)"));
    if (path.isEmpty())
        return false;
    if (!path.endsWith(QLatin1String(".json")))
        path += QStringLiteral(".kvscope.json");
    return saveTo(path);
}

bool ScenarioDocument::saveTo(const QString& path)
{
    QSaveFile file(path);
    const QByteArray text = QByteArray::fromStdString(
        scenarioFileToText({m_controller->scenario(), m_controller->pinnedScenarios()}));
    if (!file.open(QIODevice::WriteOnly) || file.write(text) != text.size() || !file.commit()) {
        QMessageBox::warning(
            m_window, tr("Cannot save scenario"),
            tr("%1 could not be written: %2. The previous file, if any, is unchanged.")
                .arg(path, file.errorString()));
        return false;
    }
    markSaved(path);
    return true;
}

bool ScenarioDocument::confirmDiscard()
{
    if (!isModified())
        return true;
    const auto answer = QMessageBox::question(
        m_window, tr("Unsaved changes"), tr("The scenario has unsaved changes. Save them first?"),
        QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel, QMessageBox::Save);
    if (answer == QMessageBox::Save)
        return save();
    return answer == QMessageBox::Discard;
}

} // namespace kvscope::ui
