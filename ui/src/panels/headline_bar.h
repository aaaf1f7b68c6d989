// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "charts/steady_label.h"
#include "kvscope/base/number_format.h"
#include "kvscope/text/explain.h"
#include "window/scenario_controller.h"

#include <QWidget>

class QGridLayout;

namespace kvscope::ui {

// One headline figure: a small caption over a large value; hovering or clicking shows the
// arithmetic behind it with the scenario's numbers substituted.
class HeadlineTile : public QWidget
{
    Q_OBJECT
public:
    explicit HeadlineTile(QWidget* parent = nullptr);
    void setCaption(const QString& caption);
    // A `detail` of "text\nchange" shows the change against the pinned scenario and moves the
    // text into the tooltip.
    void setValue(const QString& value, const QString& detail, const QString& arithmetic,
                  const QColor& accent = QColor());
    QString value() const { return m_value->text(); }
    QString detail() const { return m_detail->text(); }
    QString arithmetic() const { return m_arithmetic; }
    QList<const SteadyLabel*> labels() const { return {m_caption, m_value, m_detail}; }
    void setScale(double scale);
    void setCaptionLines(int lines); // 2 where tiles are narrow, 1 where height is short

protected:
    void mousePressEvent(QMouseEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;
    void paintEvent(QPaintEvent* event) override; // the focus frame

private:
    SteadyLabel* m_caption; // as many lines in every tile, so every tile is as tall
    SteadyLabel* m_value;   // change on every step: repaint only (see SteadyLabel)
    SteadyLabel* m_detail;
    QString m_arithmetic;
};

// The figures a room reads from afar: KV per token, KV total, weights, fits or overflows,
// decode speed, and the longest context that fits.
class HeadlineBar : public QWidget
{
    Q_OBJECT
public:
    enum Figure { KvPerToken, KvTotal, Weights, Fit, Decode, LongestContext, FigureCount };

    explicit HeadlineBar(QWidget* parent = nullptr);
    void show(const EvaluationSnapshot& snapshot);
    void setByteUnits(ByteUnits units);
    void setScale(double scale); // presentation mode enlarges the values
    const HeadlineTile* tile(Figure figure) const { return m_tiles[figure]; }
    QString verdictText() const;

    // Any width that fits the tiles three to a row: narrower than six in a row (presentation
    // mode on a 1366-pixel projector), the tiles take two rows.
    QSize minimumSizeHint() const override;
    // Beside the charts rather than above them (presentation mode puts the figures under the
    // key controls): two to a row where three do not fit.
    void setStacked(bool stacked);
    int widthFor(int columns) const; // the tiles' minimum widths, `columns` to a row

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void retranslate();
    void arrange(int columns);
    void fitColumns(); // six columns when every tile fits whole, else three (or two) to a row

    // What every tile reads: the snapshot, the pinned reference's evaluation, the arithmetic.
    struct TileInputs
    {
        const EvaluationSnapshot& snap;
        const Evaluation* ref;
        std::vector<Explanation> explanations;
        QString why(const char* id) const; // the arithmetic behind figure `id`
    };
    void showKvTiles(const TileInputs& in);
    void showWeights(const TileInputs& in);
    void showFit(const TileInputs& in);
    void showDecode(const TileInputs& in);
    void showLongestContext(const TileInputs& in);
    void showLongestRunningContext(const TileInputs& in);
    QString bytes(double b) const;

    // The planner's sentence (runs, or what binds and by how much): on a laptop the charts have
    // no height to spare, so it is the VRAM tile's explanation and heads the remedies panel.
    QString m_verdictText;
    HeadlineTile* m_tiles[FigureCount] = {};
    QGridLayout* m_grid = nullptr;
    int m_columns = FigureCount;
    int m_fewestColumns = FigureCount / 2; // 2 when stacked
    const EvaluationSnapshot* m_last = nullptr;
    const PinnedEvaluation* m_reference = nullptr; // the first pinned scenario, if any
    // A line "-48 % vs A" under a figure (empty without a reference or a ratio).
    QString against(double live, double reference) const;
    ByteUnits m_units = ByteUnits::Binary;
};

} // namespace kvscope::ui
