// SPDX-License-Identifier: GPL-3.0-or-later
// How a model comes into the window from outside: a config.json or GGUF file (File > Import,
// drag and drop) and a Hugging Face model id, which the app layer fetches.
#include "window/main_window.h"

#include "kvscope/formats/hub_id.h"
#include "kvscope/settings/scenario_options.h"
#include "window/scenario_controller.h"
#include "window/ui_text.h"

#include <QDragEnterEvent>
#include <QDropEvent>
#include <QInputDialog>
#include <QMessageBox>
#include <QMimeData>
#include <QStatusBar>

namespace kvscope::ui {

namespace {

// A config.json or a GGUF file, which File > Import reads; scenario files open with File > Open.
bool isModelFile(const QUrl& url)
{
    const QString path = url.toLocalFile();
    return url.isLocalFile() && (path.endsWith(QLatin1String(".json"), Qt::CaseInsensitive) ||
                                 path.endsWith(QLatin1String(".gguf"), Qt::CaseInsensitive));
}

} // namespace

bool MainWindow::importModelFile(const QString& path)
{
    // The --model setting's own door, so a GGUF file brings its weight format as on the CLI.
    Scenario next = m_controller->scenario();
    if (auto error = applyOptions(next, {{"model", path.toStdString()}}, m_controller->catalog())) {
        QMessageBox::warning(this, tr("Cannot import the model file"), UiText::fieldError(*error));
        return false;
    }
    m_controller->edit([&](Scenario& s) {
        s.model = next.model;
        s.weights = next.weights;
    });
    statusBar()->showMessage(tr("Imported %1").arg(QString::fromStdString(next.model.name)), 8000);
    return true;
}

void MainWindow::askForHubModel()
{
    bool ok = false;
    const QString id =
        QInputDialog::getText(this, tr("Import from Hugging Face"),
                              tr("Hugging Face model id (ORG/NAME, or ORG/NAME@REVISION):"),
                              QLineEdit::Normal, QString(), &ok);
    if (!ok || id.trimmed().isEmpty())
        return;
    // The id's grammar is checked here, so a typo is said before anything is fetched.
    if (auto parsed = parseHubId("hf:" + id.trimmed().toStdString()); !parsed) {
        QMessageBox::warning(this, tr("Cannot fetch the model"),
                             UiText::fieldError(parsed.error()));
        return;
    }
    emit hubModelRequested(id.trimmed());
}

bool MainWindow::importFetchedModel(const QString& path, const QString& message)
{
    if (path.isEmpty()) {
        QMessageBox::warning(this, tr("Cannot fetch the model"), message);
        return false;
    }
    if (!importModelFile(path))
        return false;
    if (!message.isEmpty()) // the cached copy stood in for the Hub
        statusBar()->showMessage(message, 12000);
    return true;
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && isModelFile(urls.front()))
        event->acceptProposedAction();
}

void MainWindow::dropEvent(QDropEvent* event)
{
    const QList<QUrl> urls = event->mimeData()->urls();
    if (urls.size() == 1 && isModelFile(urls.front()) &&
        importModelFile(urls.front().toLocalFile()))
        event->acceptProposedAction();
}

} // namespace kvscope::ui
