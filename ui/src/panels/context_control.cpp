// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/context_control.h"

#include "charts/chart_style.h"
#include "charts/line_breaks.h"
#include "kvscope/scenario/scenario.h"
#include "window/ui_text.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QSignalBlocker>
#include <QSlider>
#include <QSpinBox>

#include <cmath>

namespace kvscope::ui {

namespace {
constexpr double kSliderFrom = 256;
constexpr double kSliderTo = 1048576;
} // namespace

int64_t ContextControl::tokensAt(int position)
{
    const double t =
        kSliderFrom * std::pow(kSliderTo / kSliderFrom, double(position) / sliderSteps);
    // Land on powers of two where the slider passes them, else on two significant digits.
    const double pow2 = std::exp2(std::round(std::log2(t)));
    if (std::fabs(t - pow2) / pow2 < 0.012)
        return int64_t(pow2);
    const double magnitude = std::pow(10.0, std::floor(std::log10(t)) - 1);
    return int64_t(std::round(t / magnitude) * magnitude);
}

int ContextControl::positionOf(int64_t tokens)
{
    const double t = std::clamp(double(tokens), kSliderFrom, kSliderTo);
    return int(
        std::lround(std::log(t / kSliderFrom) / std::log(kSliderTo / kSliderFrom) * sliderSteps));
}

ContextControl::ContextControl(QWidget* parent)
    : QWidget(parent), m_slider(new QSlider(Qt::Horizontal, this)), m_box(new QSpinBox(this)),
      m_cap(new QLabel(this))
{
    m_slider->setRange(0, sliderSteps);
    m_slider->setPageStep(sliderSteps / 12);
    m_box->setRange(int(limits::minContext), int(limits::maxContext));
    m_box->setGroupSeparatorShown(true);
    m_box->setKeyboardTracking(false);
    m_box->setAccelerated(true);
    m_cap->setWordWrap(true);
    m_cap->installEventFilter(this);
    auto* layout = new QGridLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_slider, 0, 0);
    layout->addWidget(m_box, 0, 1);
    layout->addWidget(m_cap, 1, 0, 1, 2);
    layout->setColumnStretch(0, 1);
    keepSliderUsable();

    connect(m_slider, &QSlider::valueChanged, this, [this](int position) {
        const int64_t tokens = tokensAt(position);
        const QSignalBlocker blocker(m_box);
        m_box->setValue(int(tokens));
        updateWarning();
        emit valueChanged(tokens);
    });
    connect(m_box, &QSpinBox::valueChanged, this, [this](int tokens) {
        const QSignalBlocker blocker(m_slider);
        m_slider->setValue(positionOf(tokens));
        updateWarning();
        emit valueChanged(tokens);
    });
}

int64_t ContextControl::value() const
{
    return m_box->value();
}

void ContextControl::setValue(int64_t tokens)
{
    const QSignalBlocker b1(m_slider), b2(m_box);
    m_box->setValue(int(tokens));
    m_slider->setValue(positionOf(tokens));
    updateWarning();
}

void ContextControl::setModelMaximum(int64_t tokens)
{
    m_modelMaximum = tokens;
    updateWarning();
}

void ContextControl::retranslate()
{
    m_box->setSuffix(tr(" tokens"));
    updateWarning();
}

void ContextControl::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        updateWarning();
    if (event->type() == QEvent::FontChange)
        keepSliderUsable();
    QWidget::changeEvent(event);
}

// The hint as tall as its wrapped lines at the width it was given: a form that does not wrap
// its rows (presentation mode) gave two lines of Japanese one line's height, cut through both.
bool ContextControl::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_cap && event->type() == QEvent::Resize) {
        const int needed = m_cap->text().isEmpty() ? 0 : m_cap->heightForWidth(m_cap->width());
        if (needed != m_cap->minimumHeight())
            m_cap->setMinimumHeight(needed);
    }
    return QWidget::eventFilter(watched, event);
}

// A slider with room for its thumb to travel, in any font: a narrow column (presentation mode,
// Japanese labels) squeezed it to a nub that looked like a check box.
void ContextControl::keepSliderUsable()
{
    m_slider->setMinimumWidth(fontMetrics().averageCharWidth() * 6);
}

void ContextControl::updateWarning()
{
    // The hint in the theme's hint colour (a role, so it follows a change of theme); the warning
    // in the overflow colour, lightened on a dark window to stay readable (4.5:1).
    QPalette palette;
    if (m_modelMaximum > 0 && value() > m_modelMaximum) {
        m_cap->setText(withoutForbiddenBreaks(tr("Beyond the model's trained maximum of %1 tokens")
                                                  .arg(UiText::integer(m_modelMaximum))));
        const bool dark = this->palette().color(QPalette::Window).lightness() < 128;
        palette.setColor(QPalette::WindowText,
                         dark ? colors::overflow.lighter(150) : colors::overflow);
        m_cap->setForegroundRole(QPalette::WindowText);
    } else if (m_modelMaximum > 0) {
        // Never "トー|クン" at a narrow column's edge.
        m_cap->setText(withoutForbiddenBreaks(
            tr("Model maximum: %1 tokens").arg(UiText::integer(m_modelMaximum))));
        m_cap->setForegroundRole(QPalette::PlaceholderText);
    } else {
        m_cap->clear();
    }
    m_cap->setPalette(palette);
}

} // namespace kvscope::ui
