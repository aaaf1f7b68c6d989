// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/calibration_dialog.h"

#include "charts/chart_style.h"
#include "charts/line_breaks.h"
#include "window/scenario_controller.h"
#include "window/ui_text.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QSignalBlocker>
#include <QVBoxLayout>

#include <cmath>

namespace kvscope::ui {

CalibrationDialog::CalibrationDialog(ScenarioController* controller, QWidget* parent)
    : QDialog(parent), m_controller(controller)
{
    setObjectName(QStringLiteral("calibrationDialog"));
    m_intro = new QLabel(this);
    m_intro->setWordWrap(true);
    m_kind = new QComboBox(this);
    m_kind->addItem(QString(), int(CalibrationKind::DecodeTokensPerS));
    m_kind->addItem(QString(), int(CalibrationKind::KvCacheTokens));
    m_value = new QDoubleSpinBox(this);
    m_value->setKeyboardTracking(false);
    m_value->setMinimumWidth(180);
    m_preview = new QLabel(this);
    m_preview->setTextFormat(Qt::RichText);
    m_problem = new QLabel(this);
    m_problem->setWordWrap(true);
    QFont bold = m_problem->font();
    bold.setBold(true);
    m_problem->setFont(bold);
    QPalette warning = m_problem->palette();
    warning.setColor(QPalette::WindowText, colors::overflow);
    m_problem->setPalette(warning);
    m_buttons = new QDialogButtonBox(QDialogButtonBox::Apply | QDialogButtonBox::Cancel, this);

    auto* form = new QFormLayout;
    m_kindLabel = new QLabel(this);
    m_valueLabel = new QLabel(this);
    form->addRow(m_kindLabel, m_kind);
    form->addRow(m_valueLabel, m_value);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(m_intro);
    layout->addLayout(form);
    layout->addWidget(m_preview);
    layout->addWidget(m_problem);
    layout->addStretch(1);
    layout->addWidget(m_buttons);

    connect(m_kind, &QComboBox::currentIndexChanged, this, [this] {
        // Start from the current prediction, so before equals after until the user types.
        const auto figure = calibrationFigure(m_controller->scenario(), kind());
        setMeasurement(kind(), figure ? *figure : 1.0);
    });
    connect(m_value, &QDoubleSpinBox::valueChanged, this, &CalibrationDialog::recompute);
    connect(m_buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, [this] {
        if (apply())
            accept();
    });
    connect(m_buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    retranslate();
    const auto figure = calibrationFigure(m_controller->scenario(), kind());
    setMeasurement(kind(), figure ? *figure : 1.0);
    setMinimumWidth(520);
}

CalibrationKind CalibrationDialog::kind() const
{
    return CalibrationKind(m_kind->currentData().toInt());
}

void CalibrationDialog::setMeasurement(CalibrationKind kind, double value)
{
    {
        const QSignalBlocker blockKind(m_kind);
        const QSignalBlocker blockValue(m_value);
        m_kind->setCurrentIndex(m_kind->findData(int(kind)));
        const bool decode = kind == CalibrationKind::DecodeTokensPerS;
        m_value->setDecimals(decode ? 2 : 0);
        m_value->setRange(decode ? 0.01 : 1, decode ? 1e7 : 1e12);
        m_value->setSingleStep(decode ? 1 : 1024);
        m_value->setValue(value);
    }
    retranslate();
    recompute();
}

QString CalibrationDialog::figureText(double value) const
{
    if (kind() == CalibrationKind::DecodeTokensPerS)
        return tr("%1 tokens/s").arg(UiText::tokensPerSecond(value));
    return UiText::tokens(std::llround(value));
}

QString CalibrationDialog::factorText(double value) const
{
    if (kind() == CalibrationKind::DecodeTokensPerS)
        return UiText::number(value, 3);
    return UiText::number(value, 1) + QStringLiteral(" MiB");
}

void CalibrationDialog::recompute()
{
    m_result.reset();
    m_problem->clear();
    auto fit =
        calibrate(m_controller->scenario(), m_controller->catalog(), kind(), m_value->value());
    if (!fit) {
        m_problem->setText(withoutForbiddenBreaks(UiText::fieldError(fit.error())));
    } else if (!fit->reachable) {
        m_problem->setText(withoutForbiddenBreaks(
            tr("No value of this factor reaches %1: for this scenario kvscope can "
               "predict from %2 to %3. Check the model, GPU, weights and context "
               "against what you measured.")
                .arg(figureText(fit->measured), figureText(fit->lowest),
                     figureText(fit->highest))));
    } else {
        m_result = std::move(fit).value();
    }
    m_preview->setText(previewText());
    m_buttons->button(QDialogButtonBox::Apply)->setEnabled(m_result.has_value());
}

QString CalibrationDialog::previewText() const
{
    if (!m_result)
        return {};
    const bool decode = kind() == CalibrationKind::DecodeTokensPerS;
    const QString factor =
        decode ? UiText::efficiencyName("hbm_efficiency") : tr("Engine runtime overhead");
    const QString figure =
        decode ? tr("Predicted decode speed") : tr("Predicted GPU KV cache size");
    // Label, before, arrow, after: padded cells so the columns never touch in any language.
    const QString row = QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td>→</td>"
                                       "<td align=right><b>%3</b></td></tr>");
    const QString header = QStringLiteral("<tr><td></td><th align=right>%1</th><td></td>"
                                          "<th align=right>%2</th></tr>")
                               .arg(tr("Before").toHtmlEscaped(), tr("After").toHtmlEscaped());
    return QStringLiteral("<table cellspacing=0 cellpadding=5>") + header +
           row.arg(factor.toHtmlEscaped(), factorText(m_result->previousValue),
                   factorText(m_result->fittedValue)) +
           row.arg(figure.toHtmlEscaped(), figureText(m_result->before),
                   figureText(m_result->after)) +
           QStringLiteral("</table>");
}

bool CalibrationDialog::apply()
{
    if (!m_result)
        return false;
    m_controller->setScenario(m_result->calibrated);
    return true;
}

void CalibrationDialog::retranslate()
{
    setWindowTitle(tr("Calibrate to a measurement"));
    const Scenario& s = m_controller->scenario();
    // Japanese wraps between any two characters unless told otherwise: words kept whole.
    m_intro->setText(withoutForbiddenBreaks(
        tr("Type a figure you measured for the current scenario (%1 on %2 × %3, "
           "%4 tokens). kvscope fits the factor behind it, shows the prediction before "
           "and after, and keeps the fitted value in the scenario file.")
            .arg(QString::fromStdString(s.model.name), UiText::integer(s.gpuCount),
                 QString::fromStdString(s.gpu.name), UiText::integer(s.context))));
    m_kindLabel->setText(tr("What you measured"));
    m_valueLabel->setText(tr("Measured value"));
    m_kind->setItemText(0, tr("Decode speed (tokens per second)"));
    m_kind->setItemText(1, tr("GPU KV cache size logged by vLLM (tokens)"));
    m_value->setSuffix(kind() == CalibrationKind::DecodeTokensPerS ? tr(" tokens/s")
                                                                   : tr(" tokens"));
    m_buttons->button(QDialogButtonBox::Apply)->setText(tr("Apply"));
    m_buttons->button(QDialogButtonBox::Cancel)->setText(tr("Cancel"));
    m_preview->setText(previewText());
}

void CalibrationDialog::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange && m_kind)
        retranslate();
    QDialog::changeEvent(event);
}

} // namespace kvscope::ui
