// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/setting_control.h"

#include "panels/fitting_combo_box.h"
#include "window/scenario_controller.h"

#include "kvscope/scenario/setting.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>

#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstring>

namespace kvscope::ui {

namespace {

struct NumberFormat
{
    int decimals;
    double step;
};

// How finely a real setting's unit is typed: fractions to the hundredth, memory sizes whole.
NumberFormat numberFormatOf(const char* unit)
{
    if (std::strcmp(unit, "fraction") == 0)
        return {2, 0.01};
    if (std::strcmp(unit, "MiB") == 0 || std::strcmp(unit, "GiB") == 0)
        return {0, 1};
    if (std::strcmp(unit, "GB/s") == 0)
        return {1, 1};
    return {1, 0.5};
}

// Memory sizes and rates show their unit in the box; the label names counts and fractions.
QString suffixOf(const char* unit)
{
    for (const char* shown : {"MiB", "GiB", "GB/s"})
        if (std::strcmp(unit, shown) == 0)
            return QLatin1Char(' ') + QString::fromUtf8(unit);
    return {};
}

bool isOptionalField(const Setting& setting)
{
    return setting.field.kind == NumberField::Kind::OptionalInt64 ||
           setting.field.kind == NumberField::Kind::OptionalReal;
}

// The shortest text that reads back as the same double, as the CLI takes it.
std::string exactText(double value)
{
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

} // namespace

SettingControl::SettingControl(const Setting& setting, ScenarioController* controller,
                               QWidget* parent)
    : QObject(parent), m_setting(setting), m_controller(controller)
{
    m_offersUnset = isOptionalField(setting) && !setting.shownWhenUnset;
    switch (setting.type) {
    case SettingType::Integer:
        m_widget = makeSpinBox(parent);
        break;
    case SettingType::Real:
        m_widget = makeDoubleSpinBox(parent);
        break;
    case SettingType::Switch:
        m_widget = makeCheckBox(parent);
        break;
    case SettingType::Choice:
        m_widget = makeComboBox(parent);
        break;
    case SettingType::Entry: // free text, or the catalog's values for the scenario; the model,
                             // GPU and engine lists are special controls, not made here
        m_widget = setting.offered ? makeOfferedList(parent) : makeLineEdit(parent);
        break;
    }
    m_widget->setObjectName(QString::fromUtf8(setting.id));
}

QWidget* SettingControl::makeSpinBox(QWidget* parent)
{
    auto* box = new QSpinBox(parent);
    const int below = m_offersUnset && !m_setting.loOpen ? 1 : 0;
    box->setRange(int(m_setting.lo) - below, int(std::min<double>(m_setting.hi, INT_MAX)));
    box->setKeyboardTracking(false);
    box->setGroupSeparatorShown(true);
    connect(box, &QSpinBox::valueChanged, this, [this](int n) { commitNumber(n); });
    return box;
}

QWidget* SettingControl::makeDoubleSpinBox(QWidget* parent)
{
    auto* box = new QDoubleSpinBox(parent);
    const NumberFormat format = numberFormatOf(m_setting.unit);
    box->setDecimals(format.decimals);
    box->setSingleStep(format.step);
    // An open lower bound ("above 0") starts one step above it, unless that bound stands for
    // "left to its default".
    const double step = std::pow(10.0, -format.decimals);
    double lo = m_setting.loOpen ? m_setting.lo + step : m_setting.lo;
    if (m_offersUnset)
        lo = m_setting.loOpen ? m_setting.lo : m_setting.lo - step;
    box->setRange(lo, m_setting.hi);
    box->setSuffix(suffixOf(m_setting.unit));
    box->setKeyboardTracking(false);
    connect(box, &QDoubleSpinBox::valueChanged, this, &SettingControl::commitNumber);
    return box;
}

QWidget* SettingControl::makeCheckBox(QWidget* parent)
{
    auto* box = new QCheckBox(parent);
    connect(box, &QCheckBox::toggled, this, [this](bool on) { commit(on ? "on" : "off"); });
    return box;
}

QWidget* SettingControl::makeComboBox(QWidget* parent)
{
    auto* box = new FittingComboBox(parent);
    for (const std::string& choice : m_setting.choices)
        box->addItem(QString::fromStdString(choice), QString::fromStdString(choice));
    connect(box, &QComboBox::activated, this,
            [this, box](int index) { commit(box->itemData(index).toString().toStdString()); });
    return box;
}

QWidget* SettingControl::makeOfferedList(QWidget* parent)
{
    auto* box = new FittingComboBox(parent);
    connect(box, &QComboBox::activated, this, [this, box](int index) {
        const std::string value = box->itemData(index).toString().toStdString();
        if (value.empty())
            m_controller->resetSetting(m_setting.id);
        else
            commit(value);
    });
    return box;
}

// The unset entry, then what the catalog offers for the scenario, then the scenario's own value
// when the catalog lacks it (a profile a scenario file carried from another machine).
void SettingControl::syncOfferedList(QComboBox* box, const Scenario& scenario)
{
    std::vector<std::string> values = m_setting.offered(scenario, m_controller->catalog());
    const std::optional<SettingValue> now = m_setting.current(scenario);
    const std::string current = now ? settingValueText(*now) : std::string();
    if (!current.empty() && std::find(values.begin(), values.end(), current) == values.end())
        values.push_back(current);
    box->clear();
    box->addItem(m_unsetText, QString());
    for (const std::string& value : values)
        box->addItem(QString::fromStdString(value), QString::fromStdString(value));
    box->setCurrentIndex(std::max(0, box->findData(QString::fromStdString(current))));
    box->setEnabled(values.size() > 0);
}

QWidget* SettingControl::makeLineEdit(QWidget* parent)
{
    auto* edit = new QLineEdit(parent);
    edit->setClearButtonEnabled(true);
    connect(edit, &QLineEdit::editingFinished, this, [this, edit] {
        const std::string text = edit->text().trimmed().toStdString();
        const std::optional<SettingValue> now = m_setting.current(m_controller->scenario());
        if (text == (now ? settingValueText(*now) : std::string()))
            return; // focus left without an edit
        if (text.empty())
            m_controller->resetSetting(m_setting.id);
        else
            commit(text);
    });
    return edit;
}

void SettingControl::commitNumber(double value)
{
    if (m_offersUnset) {
        auto* spin = qobject_cast<QAbstractSpinBox*>(m_widget);
        const double bottom = spin ? spin->property("minimum").toDouble() : 0;
        if (value <= bottom) {
            m_controller->resetSetting(m_setting.id);
            return;
        }
    }
    commit(m_setting.type == SettingType::Integer ? std::to_string(std::llround(value))
                                                  : exactText(value));
}

void SettingControl::commit(const std::string& text)
{
    m_controller->applySetting(m_setting.id, text);
}

void SettingControl::sync(const Scenario& scenario)
{
    const QSignalBlocker blocker(m_widget);
    if (auto* spin = qobject_cast<QSpinBox*>(m_widget)) {
        const std::optional<double> value = m_setting.number(scenario);
        spin->setValue(value                      ? int(std::min<double>(*value, INT_MAX))
                       : m_setting.shownWhenUnset ? int(m_setting.shownWhenUnset(scenario))
                                                  : spin->minimum());
    } else if (auto* real = qobject_cast<QDoubleSpinBox*>(m_widget)) {
        const std::optional<double> value = m_setting.number(scenario);
        real->setValue(value                      ? *value
                       : m_setting.shownWhenUnset ? m_setting.shownWhenUnset(scenario)
                                                  : real->minimum());
    } else if (auto* check = qobject_cast<QCheckBox*>(m_widget)) {
        const std::optional<SettingValue> value = m_setting.current(scenario);
        check->setChecked(value                      ? std::get<bool>(*value)
                          : m_setting.shownWhenUnset ? m_setting.shownWhenUnset(scenario) != 0
                                                     : false);
    } else if (auto* line = qobject_cast<QLineEdit*>(m_widget)) {
        const std::optional<SettingValue> value = m_setting.current(scenario);
        line->setText(value ? QString::fromStdString(settingValueText(*value)) : QString());
    } else if (auto* combo = qobject_cast<QComboBox*>(m_widget); combo && m_setting.offered) {
        syncOfferedList(combo, scenario);
    } else if (auto* combo = qobject_cast<QComboBox*>(m_widget)) {
        const std::optional<SettingValue> value = m_setting.current(scenario);
        const int index =
            value ? combo->findData(QString::fromStdString(settingValueText(*value))) : 0;
        combo->setCurrentIndex(std::max(index, 0));
    }
}

void SettingControl::setLabelText(const QString& text)
{
    if (auto* check = qobject_cast<QCheckBox*>(m_widget))
        check->setText(text);
}

bool SettingControl::carriesItsLabel() const
{
    return qobject_cast<QCheckBox*>(m_widget) != nullptr;
}

void SettingControl::setSpecialValueText(const QString& text)
{
    if (auto* spin = qobject_cast<QAbstractSpinBox*>(m_widget))
        spin->setSpecialValueText(text);
    else if (auto* line = qobject_cast<QLineEdit*>(m_widget))
        line->setPlaceholderText(text);
    m_unsetText = text;
    if (auto* combo = qobject_cast<QComboBox*>(m_widget); combo && m_setting.offered)
        combo->setItemText(0, text);
}

void SettingControl::setChoiceText(int index, const QString& text)
{
    if (auto* combo = qobject_cast<QComboBox*>(m_widget); combo && index < combo->count())
        combo->setItemText(index, text);
}

} // namespace kvscope::ui
