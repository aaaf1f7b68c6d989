// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One registry setting's control, made from its entry (setting.h): a spin box over the setting's
// range showing its unit, a check box for a switch, a combo box for a choice or for the values
// the catalog offers (machine profiles), a line edit for a free text (a checkpoint). It shows the
// scenario's value through the setting's reader and commits every edit through
// ScenarioController::applySetting, so the window accepts exactly what the CLI and scenario
// files accept, and a new setting needs no code of its own here.

#include <QObject>
#include <QString>

class QComboBox;
class QWidget;

namespace kvscope {
struct Scenario;
struct Setting;
} // namespace kvscope

namespace kvscope::ui {

class ScenarioController;

class SettingControl : public QObject
{
    Q_OBJECT
public:
    // A setting whose field may be left to its default (an optional field) shows that as the
    // bottom of its spin box, one step below the range (or at its open bound), unless the
    // setting's `shownWhenUnset` gives the value in effect to show instead.
    SettingControl(const Setting& setting, ScenarioController* controller, QWidget* parent);

    const Setting& setting() const { return m_setting; }
    QWidget* widget() const { return m_widget; }

    // Shows the scenario's value; emits nothing.
    void sync(const Scenario& scenario);
    // The label: a check box carries it itself (and its form row none).
    void setLabelText(const QString& text);
    // A spin box's text at the bottom of its range ("all", "as the batch"); a line edit's
    // placeholder; an offered list's first entry.
    void setSpecialValueText(const QString& text);
    // A choice's display text, in the order of the setting's choices.
    void setChoiceText(int index, const QString& text);
    bool carriesItsLabel() const; // a check box

private:
    QWidget* makeSpinBox(QWidget* parent);
    QWidget* makeDoubleSpinBox(QWidget* parent);
    QWidget* makeCheckBox(QWidget* parent);
    QWidget* makeComboBox(QWidget* parent);
    QWidget* makeLineEdit(QWidget* parent);
    QWidget* makeOfferedList(QWidget* parent);
    void syncOfferedList(QComboBox* box, const Scenario& scenario);
    void commitNumber(double value);
    void commit(const std::string& text);

    const Setting& m_setting;
    ScenarioController* m_controller;
    bool m_offersUnset = false; // the spin box's bottom means "left to its default"
    QWidget* m_widget = nullptr;
    QString m_unsetText; // an offered list's first entry: the setting left unset
};

} // namespace kvscope::ui
