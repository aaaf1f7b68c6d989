// SPDX-License-Identifier: GPL-3.0-or-later
// How a model comes into the window from outside: a config.json or GGUF file (File > Import,
// drag and drop) and a model the app layer fetched from Hugging Face (WindowMenus asks for its
// id).
#include "window/main_window.h"

#include "window/scenario_controller.h"
#include "window/scenario_document.h"
#include "window/ui_text.h"

#include <QDragEnterEvent>
#include <QDropEvent>
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
    if (!m_document->importModelFile(path))
        return false;
    statusBar()->showMessage(
        tr("Imported %1").arg(QString::fromStdString(m_controller->scenario().model.name)), 8000);
    return true;
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
