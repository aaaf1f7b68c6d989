// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/planning/log_check.h"

#include <QDialog>

#include <optional>

class QDialogButtonBox;
class QLabel;
class QPlainTextEdit;
class QPushButton;
class QTableWidget;
class QTimer;

namespace kvscope::ui {

class ScenarioController;

// Tools > Check a start-up log: the user pastes, drops or opens the log vLLM, llama.cpp (or
// ollama) or TGI printed when it started; the dialog shows what the log states, the scenario it
// describes, and each logged memory figure beside kvscope's prediction
// (kvscope/planning/log_check.h). "Use this scenario" puts that scenario in the window;
// "Calibrate to this log" also fits the engine's overhead to the KV cache size the log states.
// Where the log names no model or GPU, the window's are used, and the dialog says so.
class LogCheckDialog : public QDialog
{
    Q_OBJECT
public:
    explicit LogCheckDialog(ScenarioController* controller, QWidget* parent = nullptr);

    void setLogText(const QString& text);  // checks at once
    bool openLogFile(const QString& path); // false (and the reason shown) when unreadable
    const std::optional<LogCheck>& check() const { return m_check; }
    QString problemText() const;
    QString summaryText() const; // what the dialog says above the table (rich text), as read
    QTableWidget* table() const { return m_table; }
    bool useScenario(); // false when there is no checked scenario
    bool calibrate();   // false when the log states no KV cache size or the fit fails
    // Fits a machine profile to the log, saves it as the user's profiles/NAME.json and puts the
    // scenario with it in the window; false (and why, in the summary) when it cannot.
    bool saveProfile(const QString& name);
    QString savedProfilePath() const { return m_savedProfilePath; }
    // Asks the app layer for the model the log names by its Hugging Face id when nothing was
    // predicted (hubModelWanted); the log is checked again once the window has it. False when
    // the log names no such model.
    bool readModelFromHub();

signals:
    // "ORG/NAME": the window's File > Import from Hugging Face, which alone reads the network.
    void hubModelWanted(const QString& id);

protected:
    void changeEvent(QEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void retranslate();
    void recheck();
    void showCheck();
    QString figureName(LogFigure figure) const;
    QString assumptionText(LogAssumption assumption, const LogCheck& check) const;
    QString figureText(LogFigure figure, double value) const;

    ScenarioController* m_controller;
    std::optional<LogCheck> m_check;
    QString m_problem;
    QStringList m_windowChoices; // "GPU: the window's ..." lines when the log named none
    QLabel* m_intro = nullptr;
    QPlainTextEdit* m_text = nullptr;
    QPushButton* m_open = nullptr;
    QLabel* m_summary = nullptr;
    QTableWidget* m_table = nullptr;
    QDialogButtonBox* m_buttons = nullptr;
    QPushButton* m_use = nullptr;
    QPushButton* m_calibrate = nullptr;
    QPushButton* m_saveProfile = nullptr;
    QPushButton* m_fromHub = nullptr;
    QString m_awaitedHubId; // asked for; the next scenario the window takes checks the log again
    QString m_logName;      // the opened file's name; empty when pasted
    QString m_savedProfilePath; // the last profile saved
    QTimer* m_debounce = nullptr;
};

} // namespace kvscope::ui
