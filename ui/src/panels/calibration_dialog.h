// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/evaluation/calibration.h"

#include <QDialog>

#include <optional>

class QComboBox;
class QDialogButtonBox;
class QDoubleSpinBox;
class QLabel;

namespace kvscope::ui {

class ScenarioController;

// Tools > Calibrate: the user types a figure measured for the current scenario (decode tokens
// per second, or vLLM's logged GPU KV cache size), sees the fitted factor and the prediction
// before and after, and Apply writes the fitted value into the scenario through the controller
// (so the charts follow and the file keeps it). The fitting is kvscope/calibration.h.
class CalibrationDialog : public QDialog
{
    Q_OBJECT
public:
    explicit CalibrationDialog(ScenarioController* controller, QWidget* parent = nullptr);

    // What the user would pick and type; recomputes the preview.
    void setMeasurement(CalibrationKind kind, double value);
    // The fit for the current inputs, or nothing when it failed (the dialog says why).
    const std::optional<CalibrationResult>& result() const { return m_result; }
    // Writes the fitted scenario into the controller; false when there is nothing to apply.
    bool apply();
    QString previewText() const;

protected:
    void changeEvent(QEvent* event) override;

private:
    CalibrationKind kind() const;
    void retranslate();
    void recompute();
    QString figureText(double value) const;
    QString factorText(double value) const;

    ScenarioController* m_controller;
    std::optional<CalibrationResult> m_result;
    QLabel* m_intro = nullptr;
    QLabel* m_kindLabel = nullptr;
    QLabel* m_valueLabel = nullptr;
    QComboBox* m_kind = nullptr;
    QDoubleSpinBox* m_value = nullptr;
    QLabel* m_preview = nullptr;
    QLabel* m_problem = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
};

} // namespace kvscope::ui
