// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/fetch_progress_dialog.h"

#include <QEvent>
#include <QLocale>

#include <algorithm>
#include <climits>

namespace kvscope::ui {

FetchProgressDialog::FetchProgressDialog(const QString& modelId, QWidget* parent)
    : QProgressDialog(parent), m_modelId(modelId)
{
    setObjectName(QStringLiteral("fetchProgress"));
    setWindowModality(Qt::WindowModal);
    setAutoClose(false);
    setAutoReset(false);
    setMinimumDuration(400); // a quick answer from the cache or a near mirror shows no dialog
    setRange(0, 0);          // busy until the server says how large the file is
    retranslate();
}

void FetchProgressDialog::showProgress(qint64 received, qint64 total)
{
    m_received = received;
    if (total > 0) {
        setRange(0, int(std::min<qint64>(total, INT_MAX)));
        setValue(int(std::min(received, total)));
    }
    retranslate();
}

void FetchProgressDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QProgressDialog::changeEvent(event);
}

void FetchProgressDialog::retranslate()
{
    setWindowTitle(tr("Import from Hugging Face"));
    setCancelButtonText(tr("Cancel"));
    QString text = tr("Fetching the config.json of %1 from the Hugging Face Hub...").arg(m_modelId);
    if (m_received > 0)
        text +=
            QLatin1Char('\n') + tr("%1 received").arg(QLocale().formattedDataSize(m_received, 1));
    setLabelText(text);
}

} // namespace kvscope::ui
