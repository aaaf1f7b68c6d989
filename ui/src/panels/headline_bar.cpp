// SPDX-License-Identifier: GPL-3.0-or-later
#include "panels/headline_bar.h"

#include "kvscope/scenario/speed_class.h"

#include "kvscope/planning/longest_context.h"
#include "kvscope/planning/verdict.h"
#include "kvscope/scenario/speed_class.h"
#include "kvscope/text/comparison_text.h"
#include "panels/planner_text.h"

#include "charts/chart_style.h"
#include "window/ui_text.h"

#include <QEvent>
#include <QGridLayout>
#include <QKeyEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>

namespace kvscope::ui {

HeadlineTile::HeadlineTile(QWidget* parent)
    : QWidget(parent), m_caption(new SteadyLabel(2, this)), m_value(new SteadyLabel(1, this)),
      m_detail(new SteadyLabel(2, this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->setSpacing(0);
    layout->addWidget(m_caption);
    layout->addWidget(m_value);
    layout->addWidget(m_detail);
    m_caption->setForegroundRole(QPalette::PlaceholderText);
    m_detail->setForegroundRole(QPalette::PlaceholderText);
    // Captions and details wrap into two lines, so six tiles fit beside the panel in a
    // 1280-pixel window; a one-line caption sits on its value.
    m_caption->setVerticalAlignment(Qt::AlignBottom);
    setCursor(Qt::WhatsThisCursor);
    // Reached with Tab like a control; Enter or Space shows the arithmetic, as a click does,
    // and a screen reader reads the caption, the value and the arithmetic.
    setFocusPolicy(Qt::TabFocus);
    setScale(1.0);
}

void HeadlineTile::setCaption(const QString& caption)
{
    m_caption->setText(caption);
    setAccessibleName(caption);
}

void HeadlineTile::keyPressEvent(QKeyEvent* event)
{
    const int key = event->key();
    if ((key == Qt::Key_Return || key == Qt::Key_Enter || key == Qt::Key_Space) &&
        !m_arithmetic.isEmpty()) {
        QToolTip::showText(mapToGlobal(QPoint(0, height())), m_arithmetic, this);
        return;
    }
    QWidget::keyPressEvent(event);
}

void HeadlineTile::paintEvent(QPaintEvent* event)
{
    QWidget::paintEvent(event);
    if (!hasFocus())
        return;
    QPainter painter(this);
    painter.setPen(QPen(palette().color(QPalette::Highlight), 2));
    painter.drawRect(QRectF(rect()).adjusted(1, 1, -1, -1));
}

void HeadlineTile::setValue(const QString& value, const QString& detail, const QString& arithmetic,
                            const QColor& accent)
{
    m_value->setText(value);
    // "detail\nchange against A": the change takes the detail's place (two lines are all a
    // 1280-pixel window has room for), and the detail moves into the tooltip.
    const qsizetype cut = detail.indexOf(QLatin1Char('\n'));
    m_detail->setText(cut < 0 ? detail : detail.mid(cut + 1));
    m_arithmetic = cut < 0 ? arithmetic : detail.left(cut) + QLatin1Char('\n') + arithmetic;
    setToolTip(m_arithmetic);
    setAccessibleDescription(value + QLatin1Char('\n') + detail + QLatin1Char('\n') + arithmetic);
    m_value->setTextColor(accent);
}

void HeadlineTile::setCaptionLines(int lines)
{
    m_caption->setLines(lines);
}

void HeadlineTile::setScale(double scale)
{
    QFont base = font();
    QFont caption = base;
    caption.setPointSizeF(base.pointSizeF() * 0.95 * scale);
    m_caption->setFont(caption);
    m_detail->setFont(caption);
    QFont value = base;
    value.setPointSizeF(base.pointSizeF() * 1.9 * scale);
    value.setBold(true);
    m_value->setFont(value);
}

void HeadlineTile::mousePressEvent(QMouseEvent* event)
{
    if (!m_arithmetic.isEmpty())
        QToolTip::showText(event->globalPosition().toPoint(), m_arithmetic, this);
    QWidget::mousePressEvent(event);
}

HeadlineBar::HeadlineBar(QWidget* parent) : QWidget(parent)
{
    m_grid = new QGridLayout(this);
    m_grid->setContentsMargins(0, 0, 0, 0);
    m_grid->setSpacing(4);
    for (auto*& tile : m_tiles)
        tile = new HeadlineTile(this);
    arrange(FigureCount);
    retranslate();
}

int HeadlineBar::widthFor(int columns) const
{
    int width = (columns - 1) * m_grid->horizontalSpacing();
    for (int c = 0; c < columns; ++c) {
        int widest = 0;
        for (int i = c; i < FigureCount; i += columns)
            widest = std::max(widest, m_tiles[i]->minimumSizeHint().width());
        width += widest;
    }
    return width;
}

void HeadlineBar::arrange(int columns)
{
    m_columns = columns;
    for (HeadlineTile* tile : m_tiles)
        m_grid->removeWidget(tile);
    for (int i = 0; i < FigureCount; ++i)
        m_grid->addWidget(m_tiles[i], i / columns, i % columns);
    for (int c = 0; c < FigureCount; ++c)
        m_grid->setColumnStretch(c, c < columns ? 1 : 0);
    updateGeometry();
}

QSize HeadlineBar::minimumSizeHint() const
{
    return {widthFor(m_fewestColumns), QWidget::minimumSizeHint().height()};
}

void HeadlineBar::setStacked(bool stacked)
{
    m_fewestColumns = stacked ? 2 : FigureCount / 2;
    // Stacked under the controls, height is what is short: every caption fits one line there,
    // and the tiles give up most of their padding (the verdict over them and all three rows fit
    // a 720-pixel projector).
    for (HeadlineTile* tile : m_tiles) {
        tile->setCaptionLines(stacked ? 1 : 2);
        tile->layout()->setContentsMargins(10, stacked ? 2 : 6, 10, stacked ? 2 : 6);
    }
    updateGeometry();
    fitColumns();
}

void HeadlineBar::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    fitColumns();
}

void HeadlineBar::fitColumns()
{
    int columns = m_fewestColumns;
    if (width() >= widthFor(FigureCount))
        columns = FigureCount;
    else if (width() >= widthFor(FigureCount / 2))
        columns = FigureCount / 2;
    if (columns != m_columns)
        arrange(columns);
}

void HeadlineBar::retranslate()
{
    // No "total" on the KV cache: with several GPUs its figure is each GPU's share, and the
    // detail line says so, as every tile's does.
    const QString captions[FigureCount] = {tr("KV per token"), tr("KV cache"),
                                           tr("Weights"),      tr("VRAM"),
                                           tr("Decode"),       tr("Longest context")};
    for (int i = 0; i < FigureCount; ++i)
        m_tiles[i]->setCaption(captions[i]);
    if (m_last)
        show(*m_last);
}

void HeadlineBar::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void HeadlineBar::setByteUnits(ByteUnits units)
{
    m_units = units;
    if (m_last)
        show(*m_last);
}

QString HeadlineBar::verdictText() const
{
    return m_verdictText;
}

void HeadlineBar::setScale(double scale)
{
    for (HeadlineTile* tile : m_tiles)
        tile->setScale(scale);
    fitColumns(); // the tiles' widths changed, the bar's may not have
}

QString HeadlineBar::against(double live, double reference) const
{
    if (!m_reference)
        return {};
    const ComparedFigure figure{"", "", FigureKind::Count, {reference, live}};
    const std::string change = relativeChangeText(figure, 1, UiText::numberStyle());
    if (change.empty())
        return {};
    return QLatin1Char('\n') +
           tr("%1 vs %2")
               .arg(QString::fromStdString(change), QString::fromStdString(m_reference->name));
}

void HeadlineBar::show(const EvaluationSnapshot& snap)
{
    m_last = &snap;
    // With scenarios pinned, each figure also says how it differs from the first (A).
    m_reference = snap.pinned->empty() ? nullptr : &snap.pinned->front();
    const TileInputs in{snap, m_reference ? &m_reference->evaluation : nullptr,
                        UiText::explanations(snap.scenario, snap.evaluation, m_units)};
    showKvTiles(in);
    showWeights(in);
    showFit(in);
    showDecode(in);
    showLongestContext(in);
    // A wider figure than before may no longer fit six to a row: two rows of three, not "2.00 M…".
    fitColumns();
}

QString HeadlineBar::TileInputs::why(const char* id) const
{
    return UiText::arithmetic(explanations, id);
}

QString HeadlineBar::bytes(double b) const
{
    return UiText::bytes(b, m_units);
}

// The KV figures are each GPU's share: with several GPUs the tiles say so, as the weights tile
// says it counts them all.
void HeadlineBar::showKvTiles(const TileInputs& in)
{
    const Scenario& s = in.snap.scenario;
    const Evaluation& e = in.snap.evaluation;
    const QString scope = s.gpuCount > 1 ? tr("per GPU; ") : QString();
    m_tiles[KvPerToken]->setValue(
        bytes(e.kv.bytesPerToken),
        scope + tr("%1 per layer").arg(bytes(e.kv.bytesPerTokenPerLayer)) +
            (in.ref ? against(e.kv.bytesPerToken, in.ref->kv.bytesPerToken) : QString()),
        in.why("kv_per_token"));
    // A context past the model's trained maximum fits in memory but not in the model: the tile
    // says so in the caution colour.
    const bool beyondModel = s.model.maxContext > 0 && s.context > s.model.maxContext;
    m_tiles[KvTotal]->setValue(
        bytes(e.kv.totalBytes),
        scope +
            tr("%1 × %2 seq.")
                .arg(UiText::contextShort(double(s.context)),
                     UiText::integer(e.kv.sequencesPerGpu)) + // its share under DP attention
            (e.kv.sequencesPerGpu < s.batch
                 ? tr(" of %1").arg(UiText::integer(s.batch)) // "32K × 8 seq. of 64"
                 : QString()) +
            (beyondModel
                 ? tr("; past the model's %1").arg(UiText::contextShort(double(s.model.maxContext)))
                 : QString()) +
            (in.ref ? against(e.kv.totalBytes, in.ref->kv.totalBytes) : QString()),
        in.why("kv_total"), beyondModel ? colors::caution : QColor());
}

void HeadlineBar::showWeights(const TileInputs& in)
{
    const Scenario& s = in.snap.scenario;
    const Evaluation& e = in.snap.evaluation;
    const VramSplit& v = e.vram;
    // Weights in host RAM (experts by --n-cpu-moe, llama.cpp's token embedding, layers past
    // -ngl): the tile says where they are, as the VRAM chart's smaller weights bar does.
    if (v.weightsOffloadedBytes > 0) {
        m_tiles[Weights]->setValue(
            bytes(e.weightsBytesTotal),
            tr("%1 per GPU, %2 in host RAM")
                .arg(bytes(v.weightsBytes), bytes(v.weightsOffloadedBytes * double(s.gpuCount))),
            v.expertsOffloadedBytes > 0
                ? in.why("weights") + QLatin1Char('\n') + in.why("experts_offloaded")
                : in.why("weights"));
        return;
    }
    // Copies (attention under data-parallel attention, a drafter) and uneven experts make a GPU
    // hold more than its share: the tile then says what each holds, not that the GPUs share it.
    const double shared = e.weightsBytesTotal / double(std::max(1, s.gpuCount));
    const bool evenShare = std::abs(v.weightsBytes - shared) <= 1e-3 * shared;
    const QString scope =
        s.gpuCount <= 1 ? QString()
        : evenShare
            ? tr("all %1 GPUs; ").arg(UiText::integer(s.gpuCount))
            : tr("%1 on each of %2 GPUs; ").arg(bytes(v.weightsBytes), UiText::integer(s.gpuCount));
    m_tiles[Weights]->setValue(
        bytes(e.weightsBytesTotal),
        scope +
            tr("%1 params, %2")
                .arg(QString::fromStdString(
                         formatParameters(e.parameters.total(), UiText::numberStyle())),
                     QString::fromStdString(s.weights.name)) +
            (in.ref ? against(e.weightsBytesTotal, in.ref->weightsBytesTotal) : QString()),
        in.why("weights"));
}

// The tile answers "does it run here", as the verdict does: VRAM that fits with host RAM short
// is not a green "Fits".
void HeadlineBar::showFit(const TileInputs& in)
{
    const Scenario& s = in.snap.scenario;
    const Verdict& verdict = in.snap.verdict;
    const VramSplit& v = in.snap.evaluation.vram;
    const QString capacity = in.why("capacity");
    const QString fitWhy =
        capacity.isEmpty() ? in.why("fit") : capacity + QLatin1Char('\n') + in.why("fit");
    const std::vector<Caution> found = cautionsOf(s, in.snap.evaluation, verdict);
    const QString cautions = PlannerText::cautions(found, m_units);
    const QString sentence = PlannerText::verdict(s, verdict, m_units) +
                             (cautions.isEmpty() ? QString() : QLatin1Char('\n') + cautions);
    m_verdictText = sentence;
    const QString arithmetic = sentence + QLatin1Char('\n') + fitWhy;
    const bool lowHeadroom = std::any_of(found.begin(), found.end(), [](const Caution& c) {
        return c.kind == CautionKind::LowHeadroom;
    });
    const QString needed =
        m_reference ? against(verdict.neededBytes, m_reference->verdict.neededBytes) : QString();
    // Memory is each GPU's: with several the detail says so, as the KV tiles' do.
    const QString scope = s.gpuCount > 1 ? tr("per GPU; ") : QString();
    if (!v.fits)
        m_tiles[Fit]->setValue(tr("Overflows"),
                               scope + tr("by %1").arg(bytes(-v.freeBytes)) + needed, arithmetic,
                               colors::overflow);
    else if (verdict.binding == Binding::HostRam && !verdict.runs)
        m_tiles[Fit]->setValue(
            tr("Host RAM short"),
            tr("by %1; VRAM has %2 free").arg(bytes(verdict.shortBytes()), bytes(v.freeBytes)),
            arithmetic, colors::overflow);
    else
        // A fit with hardly any room left is a caution, not a confident green.
        m_tiles[Fit]->setValue(lowHeadroom ? tr("Tight") : tr("Fits"),
                               scope + tr("%1 free").arg(bytes(v.freeBytes)) + needed, arithmetic,
                               lowHeadroom ? colors::caution : colors::fits);
}

void HeadlineBar::showDecode(const TileInputs& in)
{
    const Verdict& verdict = in.snap.verdict;
    const DecodeTiming& d = in.snap.evaluation.decode;
    const QString pcie = in.why("decode") + QLatin1Char('\n') + in.why("pcie");
    // A scenario that does not run has no decode speed; its would-be figure stays in the
    // arithmetic, not on the tile.
    if (!verdict.runs) {
        m_tiles[Decode]->setValue(QStringLiteral("—"), tr("does not run"), pcie);
        return;
    }
    // The time to the first token (the whole context's prefill, then one step) shares the
    // tile: a seventh tile would push the charts down a row on a laptop.
    // Drafting with MTP layers: its speed beside the plain step's, its arithmetic in the tooltip.
    const SpeculativeTiming& mtp = in.snap.evaluation.speculative;
    const QString speed = mtp.draftTokens > 0
                              ? tr("%1 tokens/s (drafting %2)")
                                    .arg(UiText::tokensPerSecond(d.tokensPerS),
                                         UiText::tokensPerSecond(mtp.tokensPerS))
                              : tr("%1 tokens/s").arg(UiText::tokensPerSecond(d.tokensPerS));
    const QString mtpWhy =
        mtp.draftTokens > 0
            ? QLatin1Char('\n') + tr("With speculative decoding: %1").arg(in.why("speculative"))
            : QString();
    m_tiles[Decode]->setValue(
        UiText::duration(d.selectedMs),
        tr("%1; first token in %2").arg(speed, UiText::duration(verdict.ttftMs)) +
            (in.ref && m_reference->verdict.runs ? against(d.selectedMs, in.ref->decode.selectedMs)
                                                 : QString()),
        pcie + mtpWhy +
            (d.hostExpertsMs > 0 ? QLatin1Char('\n') + in.why("host_experts") : QString()) +
            QLatin1Char('\n') + tr("Time to first token: %1").arg(in.why("ttft")) +
            QLatin1Char('\n') + UiText::decodeBand(in.snap.scenario) + QLatin1Char('\n') +
            tr("Measured first tokens of a prompt alone (one user): %1.")
                .arg(UiText::bandRange(speedBandOf(in.snap.scenario, SpeedFigure::TtftOneUser))));
}

// A scenario that does not run has no room today; the longest context that does, each evaluated
// whole as calc and the shorten-context remedy find it, or none at all.
void HeadlineBar::showLongestRunningContext(const TileInputs& in)
{
    const Scenario& s = in.snap.scenario;
    const std::optional<int64_t> longest = longestRunningContext(s, s.context - 1);
    if (!longest) {
        m_tiles[LongestContext]->setValue(QStringLiteral("—"), tr("no context runs"),
                                          in.why("longest_context"), colors::overflow);
        return;
    }
    m_tiles[LongestContext]->setValue(
        UiText::integer(*longest),
        s.batch == 1 ? tr("the longest that runs, at one sequence")
                     : tr("the longest that runs, at %1 sequences").arg(UiText::integer(s.batch)),
        in.why("longest_context"), colors::overflow);
}

void HeadlineBar::showLongestContext(const TileInputs& in)
{
    const Scenario& s = in.snap.scenario;
    const TokensFit& f = in.snap.evaluation.tokensFit;
    if (!in.snap.verdict.runs) {
        showLongestRunningContext(in);
        return;
    }
    const bool unbounded = f.contextUnbounded(f.perSequence);
    // Past the model's trained maximum the tokens fit but the model was not trained for them.
    const bool pastModel = s.model.maxContext > 0 && f.perSequence > s.model.maxContext;
    m_tiles[LongestContext]->setValue(
        unbounded ? tr("unbounded") : UiText::integer(f.perSequence),
        (pastModel ? tr("per sequence; the model is trained to %1")
                         .arg(UiText::contextShort(double(s.model.maxContext)))
                   : tr("tokens per sequence")) +
            (in.ref ? against(double(f.perSequence), double(in.ref->tokensFit.perSequence))
                    : QString()),
        in.why("longest_context"), f.perSequence < s.context ? colors::overflow : QColor());
}

} // namespace kvscope::ui
