// SPDX-License-Identifier: GPL-3.0-or-later
#include "validation/validation_menus.h"

#include "panels/calibration_dialog.h"
#include "panels/log_check_dialog.h"
#include "validation/validation_view.h"
#include "window/scenario_controller.h"

#include <QAction>
#include <QEvent>
#include <QMainWindow>
#include <QMenu>
#include <QMenuBar>

namespace kvscope::ui {

ValidationMenus::ValidationMenus(QMainWindow* window, QMenu* viewMenu,
                                 ScenarioController* controller)
    : QObject(window), m_window(window), m_controller(controller)
{
    viewMenu->addSeparator();
    m_validation = viewMenu->addAction(QString(), this, [this] { showValidation(); });
    m_toolsMenu = window->menuBar()->addMenu(QString());
    m_calibrate = m_toolsMenu->addAction(QString(), this, &ValidationMenus::showCalibration);
    m_checkLog = m_toolsMenu->addAction(QString(), this, [this] { showLogCheck(); });
    window->installEventFilter(this);
    retranslate();
}

ValidationView* ValidationMenus::showValidation()
{
    // Non-modal, so the user can keep the set in view while changing the scenario.
    if (!m_view) {
        m_view = new ValidationView(m_controller->catalog(), m_window);
        m_view->setAttribute(Qt::WA_DeleteOnClose, false);
    }
    m_view->show();
    m_view->raise();
    m_view->activateWindow();
    return m_view;
}

void ValidationMenus::showCalibration()
{
    CalibrationDialog dialog(m_controller, m_window);
    dialog.exec();
}

void ValidationMenus::showLogCheck(const QString& path)
{
    LogCheckDialog dialog(m_controller, m_window);
    connect(&dialog, &LogCheckDialog::hubModelWanted, this, &ValidationMenus::hubModelRequested);
    if (!path.isEmpty())
        dialog.openLogFile(path);
    dialog.exec();
}

bool ValidationMenus::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_window && event->type() == QEvent::LanguageChange)
        retranslate();
    return QObject::eventFilter(watched, event);
}

void ValidationMenus::retranslate()
{
    m_validation->setText(tr("&Validation against measurements..."));
    m_toolsMenu->setTitle(tr("&Tools"));
    m_calibrate->setText(tr("&Calibrate to a measurement..."));
    m_checkLog->setText(tr("Check a &start-up log..."));
}

} // namespace kvscope::ui
