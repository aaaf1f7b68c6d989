// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "kvscope/base/number_format.h"
#include "kvscope/planning/comparison.h"
#include "window/scenario_controller.h"

#include <QWidget>

class QLabel;
class QPushButton;
class QTableWidget;

namespace kvscope::ui {

// The Compare tab: the pinned scenarios (A to D) and the live one side by side, every headline
// figure with its change against the first pinned scenario, and the inputs that differ. Pin,
// rename and unpin here; copy the table as text or Markdown.
class ComparePage : public QWidget
{
    Q_OBJECT
public:
    explicit ComparePage(ScenarioController* controller, QWidget* parent = nullptr);

    QTableWidget* table() const { return m_table; }
    // Pins the scenarios of these files (each file's, then those pinned in it) after those
    // pinned already; a file that cannot be read, or more than four in all, is refused with a
    // message naming the field, and the pinned scenarios stay as they were.
    bool pinFiles(const QStringList& paths);
    void setByteUnits(ByteUnits units);
    void retranslate();
    // The table as the CLI prints it (plain text or Markdown), in English.
    QString tableText(bool markdown) const;
    // What the table shows: the pinned scenarios, then the live one ("Live", or "Live (A)" ...).
    std::vector<NamedScenario> compared() const;
    // The translated label of a figure the comparison lists.
    static QString figureLabel(const std::string& id);
    // A figure of scenario `index` as the table shows it, and its change against the first
    // ("-8.66 GiB (-69 %)"; "" for the first, for no change and for yes/no figures).
    static QString valueText(const Comparison& comparison, const ComparedFigure& figure,
                             size_t index, ByteUnits units);
    static QString changeText(const Comparison& comparison, const ComparedFigure& figure,
                              size_t index, ByteUnits units);
    // The difference table as HTML, for the report: the headers "A: name", ..., "Live".
    static QString tableHtml(const Comparison& comparison, ByteUnits units);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void refresh();
    void enableSelectionActions();
    void fill(const Comparison& comparison);
    void renameColumn(int column);
    int selectedPinned() const; // the pinned scenario whose column is selected, or -1

    ScenarioController* m_controller;
    ByteUnits m_units = ByteUnits::Binary;
    QLabel* m_hint = nullptr;
    QPushButton* m_pin = nullptr;
    QPushButton* m_rename = nullptr;
    QPushButton* m_unpin = nullptr;
    QPushButton* m_unpinAll = nullptr;
    QPushButton* m_pinFile = nullptr;
    QPushButton* m_copyText = nullptr;
    QPushButton* m_copyMarkdown = nullptr;
    QTableWidget* m_table = nullptr;
    bool m_stale = true; // a snapshot arrived while the page was hidden
};

} // namespace kvscope::ui
