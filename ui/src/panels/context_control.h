// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

class QLabel;
class QSlider;
class QSpinBox;

namespace kvscope::ui {

// Context length: a logarithmic slider from 256 to 1M tokens with an editable box for any value
// the core accepts, and a visible mark of the model's trained maximum.
class ContextControl : public QWidget
{
    Q_OBJECT
public:
    explicit ContextControl(QWidget* parent = nullptr);

    int64_t value() const;
    void setValue(int64_t tokens);        // no signal
    void setModelMaximum(int64_t tokens); // 0 = unknown
    QSlider* slider() const { return m_slider; }
    QSpinBox* box() const { return m_box; }
    void retranslate();

    static constexpr int sliderSteps = 400;
    static int64_t tokensAt(int position); // slider position -> tokens (rounded to 2 digits)
    static int positionOf(int64_t tokens);

signals:
    void valueChanged(int64_t tokens);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void changeEvent(QEvent* event) override; // a new theme: the warning's colour again

private:
    void keepSliderUsable();
    void updateWarning();

    QSlider* m_slider;
    QSpinBox* m_box;
    QLabel* m_cap;
    int64_t m_modelMaximum = 0;
};

} // namespace kvscope::ui
