// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/catalog/catalog.h"
#include "kvscope/validation/validation_set.h"

#include <QDialog>

#include <array>

class QLabel;
class QPushButton;
class QTableWidget;

namespace kvscope::ui {

class ValidationPlot;

// View > Validation: the whole validation set, predicted against measured, one log-log panel per
// kind with its summary, and every case (skipped ones with the reason) in a table beneath, so a
// customer sees how far to trust the figures. All numbers come from kvscope/validation.h.
class ValidationView : public QDialog
{
    Q_OBJECT
public:
    // Runs the validation set installed with the catalog (the first data directory's
    // validation/), against `catalog`.
    explicit ValidationView(const Catalog& catalog, QWidget* parent = nullptr);

    // Shows `report`, read from `source` (a directory or file list, for the caption).
    void setReport(const ValidationReport& report, const QString& source);
    // Shows why there is no report (no validation set installed, or a bad file).
    void setProblem(const QString& message);

    const ValidationReport& report() const { return m_report; }
    ValidationPlot* plot(ValidationKind kind) const { return m_plots[size_t(kind)]; }
    QTableWidget* table() const { return m_table; }

    // Translated names shared with the plots and the table.
    static QString kindTitle(ValidationKind kind);
    static QString kindName(ValidationKind kind);
    static QString skipReason(const ValidationResult& result);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void fillTable();
    QString heldOutSummary() const;

    ValidationReport m_report;
    QString m_source;
    QString m_problem;
    QLabel* m_intro = nullptr;
    QLabel* m_caption = nullptr;
    std::array<ValidationPlot*, allValidationKinds.size()> m_plots{};
    QTableWidget* m_table = nullptr;
    class ColumnsGiveWay* m_columns = nullptr;
    QPushButton* m_close = nullptr;
};

} // namespace kvscope::ui
