// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>

class QAction;
class QMainWindow;
class QMenu;

namespace kvscope::ui {

class ScenarioController;
class ValidationView;

// View > Validation, Tools > Calibrate and Tools > Check a start-up log on the main window: owns
// the actions, opens the Validation view (one, kept while the window lives) and the two dialogs,
// and retranslates its texts when the window's language changes.
class ValidationMenus : public QObject
{
    Q_OBJECT
public:
    ValidationMenus(QMainWindow* window, QMenu* viewMenu, ScenarioController* controller);

    QAction* calibrateAction() const { return m_calibrate; }
    // Opens (or raises) the Validation view and returns it.
    ValidationView* showValidation();
    void showCalibration();
    // Tools > Check a start-up log, on `path` when one is given.
    void showLogCheck(const QString& path = QString());
    QAction* checkLogAction() const { return m_checkLog; }

signals:
    // The log dialog asks for the model its log names: "ORG/NAME" (see WindowMenus).
    void hubModelRequested(const QString& id);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslate();

    QMainWindow* m_window;
    ScenarioController* m_controller;
    QMenu* m_toolsMenu = nullptr;
    QAction* m_validation = nullptr;
    QAction* m_calibrate = nullptr;
    QAction* m_checkLog = nullptr;
    QPointer<ValidationView> m_view;
};

} // namespace kvscope::ui
