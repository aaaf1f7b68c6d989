// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the window shows while the app layer fetches a model from the Hugging Face Hub: the
// model's id, the bytes received, and Cancel. It reads no network itself.

#include <QProgressDialog>

namespace kvscope::ui {

class FetchProgressDialog : public QProgressDialog
{
    Q_OBJECT
public:
    FetchProgressDialog(const QString& modelId, QWidget* parent);
    // Bytes received of `total` (-1 or 0 while unknown: a busy bar).
    void showProgress(qint64 received, qint64 total);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();

    QString m_modelId;
    qint64 m_received = 0;
};

} // namespace kvscope::ui
