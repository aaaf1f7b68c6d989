// SPDX-License-Identifier: GPL-3.0-or-later
// The window at the sizes it is shown at: laptops (1280x800, 1366x768) and projectors (1280x720,
// 1366x768, 1920x1080), normal and presentation mode, English and Japanese. What a reader needs
// is checked from the laid-out widgets: readable plot areas, whole legends, a window no larger
// than the screen, headline figures inside it.

#include "layout_checks.h"
#include "panels/fitting_combo_box.h"
#include "suite_registry.h"
#include "window_fixture.h"

#include "charts/chart_base.h"
#include "charts/fit_matrix_chart.h"
#include "charts/line_breaks.h"
#include "charts/steady_label.h"
#include "charts/view_registry.h"
#include "export/layout_file.h"
#include "export/screenshot.h"
#include "panels/compare_page.h"
#include "panels/context_control.h"
#include "panels/headline_bar.h"
#include "panels/remedies_panel.h"
#include "panels/scenario_panel.h"
#include "window/palettes.h"
#include "window/presentation_mode.h"

#include <QAbstractSpinBox>
#include <QAccessible>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QScrollArea>
#include <QStyleOptionComboBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTextDocumentFragment>
#include <QTextLayout>
#include <QToolButton>

#include <cmath>

using namespace kvscope;
using kvscope::test::layoutProblem;

using namespace Qt::StringLiterals;

class TestLayout : public QObject
{
    Q_OBJECT

    test::WindowFixture f;

    // The window's scenario with `options` applied (CLI names), evaluated.
    void change(const std::vector<std::pair<std::string, std::string>>& options)
    {
        QVERIFY(f.change(options));
    }

    // Presentation mode's promise: model, weights, GPU, GPUs, host link and context, each shown
    // at its full height and inside the window.
    void checkKeyControlsShown()
    {
        ui::ScenarioPanel* panel = f.window->panel();
        const QWidget* key[] = {panel->modelBox(),   panel->weightSlider(),
                                panel->gpuBox(),     panel->gpuCountBox(),
                                panel->pcieSlider(), panel->contextControl()};
        const QRect inWindow(QPoint(0, 0), f.window->size());
        for (const QWidget* control : key) {
            const QRect box(control->mapTo(f.window.get(), QPoint(0, 0)), control->size());
            QVERIFY2(
                control->isVisible() && control->height() >= control->minimumSizeHint().height() &&
                    inWindow.contains(box),
                qPrintable(QStringLiteral("%1: %2x%3 at %4,%5, %6")
                               .arg(QString::fromLatin1(control->metaObject()->className()),
                                    QString::number(box.width()), QString::number(box.height()),
                                    QString::number(box.x()), QString::number(box.y()),
                                    control->isVisible() ? u"shown"_s : u"hidden"_s)));
        }
        // The model and the GPU by their names ("Llama 3.1..." hid which model it was).
        for (const QComboBox* box : {panel->modelBox(), panel->gpuBox()}) {
            QStyleOptionComboBox option;
            option.initFrom(box);
            option.editable = box->isEditable();
            const QRect field = box->style()->subControlRect(QStyle::CC_ComboBox, &option,
                                                             QStyle::SC_ComboBoxEditField, box);
            // The face may drop a trailing "(80 GiB)", never end in an ellipsis.
            const QString shown = ui::FittingComboBox::fitted(box->currentText().trimmed(),
                                                              box->fontMetrics(), field.width());
            QVERIFY2(!shown.endsWith(QChar(0x2026)),
                     qPrintable(u"\"%1\" shown as \"%2\" in %3 px"_s.arg(box->currentText(), shown)
                                    .arg(field.width())));
        }
    }

    // The panel's column as wide as what it holds: nothing cut off at its right edge (the
    // Import button, the lanes box and the remedies' Apply buttons were, in Japanese).
    void checkColumnHoldsItsContents()
    {
        QWidget* content = f.window->panel()->parentWidget();
        auto* scroll = qobject_cast<QScrollArea*>(content->parentWidget()->parentWidget());
        QVERIFY(scroll);
        QVERIFY2(content->width() <= scroll->viewport()->width(),
                 qPrintable(QStringLiteral("content %1 px in a %2 px column")
                                .arg(content->width())
                                .arg(scroll->viewport()->width())));
    }

    // Every word-wrapping label in the window (the panel's verdict, remedies and context
    // maximum; the Plan, Matrix and Compare tabs' summaries and hints) breaks only where
    // Japanese and units allow: "50.0 トー|クン/秒", "30.2 |ms" and "8 |ビット" once broke there.
    void checkWrappingLabelsKeepWordsWhole()
    {
        for (const QLabel* label : f.window->findChildren<QLabel*>()) {
            if (!label->wordWrap() || label->text().isEmpty())
                continue;
            // Rich text (the remedies) read back raw: toPlainText() turns no-break spaces into
            // plain ones.
            const bool rich =
                label->textFormat() == Qt::RichText ||
                (label->textFormat() == Qt::AutoText && Qt::mightBeRichText(label->text()));
            const QString plain =
                rich ? QTextDocumentFragment::fromHtml(label->text()).toRawText() : label->text();
            for (const QString& line :
                 plain.split(QRegularExpression(QStringLiteral("[\n\u2029]")))) {
                QString raw = line;
                raw.remove(QChar(0x2060)).replace(QChar(0x00A0), QLatin1Char(' '));
                QVERIFY2(ui::withoutForbiddenBreaks(raw) == line, qPrintable(line));
            }
        }
    }

    // Every wrapping label in the panel's column as tall as its lines at its width: none cut
    // through (two lines of Japanese in one line's height, in presentation mode).
    void checkPanelLabelsTallEnough()
    {
        for (const QLabel* label : f.window->panel()->findChildren<QLabel*>()) {
            if (!label->isVisible() || !label->wordWrap() || label->text().isEmpty())
                continue;
            const int needed = label->heightForWidth(label->width());
            QVERIFY2(label->height() >= needed,
                     qPrintable(
                         u"\"%1\": %2 px tall, %3 px needed at %4 px"_s.arg(label->text().left(40))
                             .arg(label->height())
                             .arg(needed)
                             .arg(label->width())));
        }
    }

    // Every plot on the Charts tab at least 240 x 160 pixels, its legend whole.
    void checkPlots()
    {
        for (ui::ChartBase* chart : f.window->charts()) {
            if (chart->view()->page != ui::ViewPage::Charts || !chart->isVisible())
                continue; // presentation mode shows one row at a time
            const QRect plot = chart->axisRect()->rect();
            QVERIFY2(plot.height() >= 160 && plot.width() >= 240,
                     qPrintable(QStringLiteral("%1: plot %2x%3")
                                    .arg(chart->chartId())
                                    .arg(plot.width())
                                    .arg(plot.height())));
            QVERIFY2(chart->legend->outerRect().bottom() <= chart->height(),
                     qPrintable(chart->chartId()));
        }
    }

private slots:
    // Every headline figure's caption, value and detail drawn within the lines its label has
    // and within its width: no line cut, none running into the next tile.
    void checkHeadlineText()
    {
        for (int i = 0; i < ui::HeadlineBar::FigureCount; ++i)
            for (const ui::SteadyLabel* label :
                 f.window->headline()->tile(ui::HeadlineBar::Figure(i))->labels()) {
                const QStringList lines = label->drawnLines();
                const QString where =
                    QStringLiteral("tile %1: %2").arg(i).arg(lines.join(QLatin1Char('|')));
                QVERIFY2(lines.size() <= label->lines(), qPrintable(where));
                for (const QString& line : lines)
                    QVERIFY2(label->fontMetrics().horizontalAdvance(line) <= label->width() + 1,
                             qPrintable(where));
                if (label->lines() == 1)
                    QVERIFY2(!lines.constFirst().contains(QChar(0x2026)), qPrintable(where));
            }
    }

    void init() { f.open(); }
    void cleanup() { f.close(); }

    // Presentation mode as `kvscope --presentation` starts it: the window no wider than the
    // screen and every key control shown at its height.
    void presentationFromTheCommandLine_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("theme");
        QTest::addColumn<QString>("scenario");
        for (const QSize size : {QSize(1280, 720), QSize(1366, 768), QSize(1920, 1080)})
            for (const QString& lang : {u"en"_s, u"ja"_s})
                for (const QString& theme : {u"light"_s, u"dark"_s})
                    QTest::addRow("%dx%d %s %s", size.width(), size.height(), qPrintable(lang),
                                  qPrintable(theme))
                        << size << lang << theme << u"dense"_s;
        // A long format name (MXFP4 (OCP Microscaling)) and a MoE remedy under llama.cpp: the
        // weights line widened the Japanese window to 1,354 pixels.
        for (const QString& lang : {u"en"_s, u"ja"_s})
            QTest::addRow("1280x720 %s moe", qPrintable(lang))
                << QSize(1280, 720) << lang << u"light"_s << u"moe"_s;
    }

    void presentationFromTheCommandLine()
    {
        QFETCH(QSize, size);
        QFETCH(QString, lang);
        QFETCH(QString, theme);
        QFETCH(QString, scenario);
        f.close();
        if (scenario == u"moe"_s)
            f.openAsTheCommandLine({{"model", "gpt-oss-120b"},
                                    {"weights", "mxfp4"},
                                    {"engine", "llamacpp"},
                                    {"context", "32768"}},
                                   lang, theme);
        else
            f.openAsTheCommandLine(
                {{"model", "llama-3.1-8b"}, {"context", "65536"}, {"batch", "2"}}, lang, theme);
        ui::renderWindow(*f.window, *f.controller, size);
        QVERIFY(!f.controller->snapshot().verdict.runs); // the remedies are in the column too
        QCOMPARE(f.window->size(), size);
        checkKeyControlsShown();
        checkColumnHoldsItsContents();
        checkWrappingLabelsKeepWordsWhole();
    }

    // The plan table's figures and costs in view without scrolling sideways: on a laptop and
    // in presentation mode, English and Japanese.
    void planCostsInView_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("lang");
        QTest::addColumn<bool>("presentation");
        QTest::addColumn<QString>("model");
        // The 7B's rows name long consumer cards ("RTX 4060 Ti 16GB"); gpt-oss-120b's, four of
        // a workstation card ("RTX 4000 Ada × 4") beside several engines; the 70B's, short ones.
        for (const QString& model : {u"llama-3.1-70b"_s, u"llama-2-7b"_s, u"gpt-oss-120b"_s})
            for (const QString& lang : {u"en"_s, u"ja"_s}) {
                QTest::addRow("1280x800 %s %s", qPrintable(lang), qPrintable(model))
                    << QSize(1280, 800) << lang << false << model;
                QTest::addRow("1366x768 %s %s", qPrintable(lang), qPrintable(model))
                    << QSize(1366, 768) << lang << false << model;
                QTest::addRow("1280x720 %s %s presented", qPrintable(lang), qPrintable(model))
                    << QSize(1280, 720) << lang << true << model;
            }
    }

    void planCostsInView()
    {
        QFETCH(QSize, size);
        QFETCH(QString, lang);
        QFETCH(bool, presentation);
        QFETCH(QString, model);
        f.window->setLanguage(lang);
        f.window->setPresentationMode(presentation);
        if (model == u"llama-2-7b"_s)
            change({{"model", "llama-2-7b"}, {"context", "2048"}, {"batch", "1"}});
        else if (model == u"gpt-oss-120b"_s)
            change({{"model", "gpt-oss-120b"},
                    {"weights", "mxfp4"},
                    {"engine", "llamacpp"},
                    {"context", "32768"},
                    {"batch", "1"}});
        else
            change({{"model", "llama-3.1-70b"},
                    {"engine", "vllm"},
                    {"weights", "fp16"},
                    {"context", "32768"},
                    {"batch", "8"}});
        f.window->showPage(u"plan"_s);
        ui::renderWindow(*f.window, *f.controller, size);
        const auto* table = f.window->findChild<QTableWidget*>(u"planTable"_s);
        QVERIFY(table && table->rowCount() > 0);
        const QHeaderView* header = table->horizontalHeader();
        const int perMillion = 9; // the last figure; only the notes may lie beyond
        const int right =
            header->sectionViewportPosition(perMillion) + header->sectionSize(perMillion);
        QVERIFY2(right <= table->viewport()->width(),
                 qPrintable(
                     u"cost column ends at %1 of %2"_s.arg(right).arg(table->viewport()->width())));
        // The notes in view too, elided at their end and whole on hover: they ran past the
        // viewport, "on the f" at 1366 pixels.
        const int notes = 10;
        const int notesEnd = header->sectionViewportPosition(notes) + header->sectionSize(notes);
        QVERIFY2(
            notesEnd <= table->viewport()->width(),
            qPrintable(u"notes end at %1 of %2"_s.arg(notesEnd).arg(table->viewport()->width())));
        // The GPUs are named whole unless the engines have given way to their heading first
        // ("RTX … × 4" beside a wide "vLLM" column named no GPU); elided, whole on hover.
        const int gpus = 1;
        const int engines = 2;
        int widestGpu = 0;
        for (int row = 0; row < table->rowCount(); ++row) {
            // Whole on hover, with the split across nodes ("..., TP 16") the notes lead with.
            QVERIFY2(table->item(row, gpus)->toolTip().startsWith(table->item(row, gpus)->text()),
                     qPrintable(table->item(row, gpus)->toolTip()));
            widestGpu = std::max(
                widestGpu, table->fontMetrics().horizontalAdvance(table->item(row, gpus)->text()));
        }
        QVERIFY2(header->sectionSize(gpus) > widestGpu ||
                     header->sectionSize(engines) <= header->sectionSizeHint(engines),
                 qPrintable(u"GPU column %1 px for names of %2 px, engines %3 px"_s
                                .arg(header->sectionSize(gpus))
                                .arg(widestGpu)
                                .arg(header->sectionSize(engines))));
    }

    void plotsKeepAReadableSizeOnALaptop_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("lang");
        QTest::addColumn<int>("pins");
        for (const QSize size : {QSize(1280, 800), QSize(1366, 768), QSize(1920, 1080)})
            for (const char* lang : {"en", "ja"})
                for (int pins : {0, 2, 4})
                    QTest::addRow("%dx%d %s %d pinned", size.width(), size.height(), lang, pins)
                        << size << QString::fromLatin1(lang) << pins;
    }

    // Every plot on the Charts tab stays readable, however many legend rows the comparison
    // adds: the grid scrolls instead of squeezing a plot to a strip.
    void plotsKeepAReadableSizeOnALaptop()
    {
        QFETCH(QSize, size);
        QFETCH(QString, lang);
        QFETCH(int, pins);
        f.window->setLanguage(lang);
        const char* weights[] = {"q8_0", "q4_k_m", "awq-int4", "fp8"};
        for (int i = 0; i < pins; ++i) {
            QVERIFY(f.controller->pin());
            change({{"weights", weights[i]}});
        }
        ui::renderWindow(*f.window, *f.controller, size);
        QVERIFY(!QApplication::focusWidget()); // no text caret in the picture
        checkPlots();
        checkHeadlineText();
    }

    void presentationFitsTheProjector_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("lang");
        QTest::addColumn<QString>("model");
        for (const QSize size :
             {QSize(1280, 720), QSize(1280, 800), QSize(1366, 768), QSize(1920, 1080)})
            for (const char* lang : {"en", "ja"})
                for (const QString& model :
                     {u"llama-2-7b"_s, u"llama-3.1-70b"_s, longestModelName()})
                    QTest::addRow("%dx%d %s %s", size.width(), size.height(), lang,
                                  qPrintable(model))
                        << size << QString::fromLatin1(lang) << model;
    }

    // The catalog's model whose name, shortened as the model box shortens it, is the widest.
    static QString longestModelName()
    {
        const QFontMetrics metrics(QApplication::font());
        const ModelSpec* widest = nullptr;
        auto width = [&](const ModelSpec& m) {
            return metrics.horizontalAdvance(
                ui::FittingComboBox::shortestName(QString::fromStdString(m.name)));
        };
        for (const ModelSpec& m : test::catalog().models)
            if (!widest || width(m) > width(*widest))
                widest = &m;
        return QString::fromStdString(widest->id);
    }

    // Presentation mode's large figures on a projector: the window no larger than the screen
    // (the headline figures take two rows where six in a row do not fit), every figure inside
    // it, and the model named whole, however long its name.
    void presentationFitsTheProjector()
    {
        QFETCH(QSize, size);
        QFETCH(QString, lang);
        QFETCH(QString, model);
        f.window->setLanguage(lang);
        change({{"model", model.toStdString()}});
        f.window->setPresentationMode(true);
        ui::renderWindow(*f.window, *f.controller, size);
        QCOMPARE(f.window->size(), size);
        const QRect inWindow(QPoint(0, 0), size);
        for (int i = 0; i < ui::HeadlineBar::FigureCount; ++i) {
            const auto* tile = f.window->headline()->tile(ui::HeadlineBar::Figure(i));
            const QRect box(tile->mapTo(f.window.get(), QPoint(0, 0)), tile->size());
            QVERIFY2(inWindow.contains(box), qPrintable(QStringLiteral("tile %1 at %2,%3 %4x%5")
                                                            .arg(i)
                                                            .arg(box.x())
                                                            .arg(box.y())
                                                            .arg(box.width())
                                                            .arg(box.height())));
            // Whole on screen, not scrolled out of the panel's column.
            QVERIFY2(tile->visibleRegion().boundingRect().size() == tile->size(),
                     qPrintable(QStringLiteral("tile %1 partly hidden").arg(i)));
        }
        // The verdict, where there is one, whole over the figures: it was cut at the panel's
        // bottom edge under them on a 720-pixel projector.
        const QLabel* verdict = f.window->remediesPanel()->verdictLabel();
        QCOMPARE(verdict->isVisible(), !f.controller->snapshot().verdict.meetsTargets());
        if (verdict->isVisible())
            QVERIFY2(verdict->visibleRegion().boundingRect().size() == verdict->size(),
                     qPrintable(verdict->text()));
        checkHeadlineText();
        checkKeyControlsShown();
        checkPanelLabelsTallEnough();
        // Page Down steps through the rows of views, two at a time.
        ui::PresentationMode* slides = f.window->presentationMode();
        QCOMPARE(slides->rowCount(), 3);
        for (int row = 0; row < slides->rowCount(); ++row) {
            QCOMPARE(slides->row(), row);
            QApplication::processEvents();
            checkPlots();
            slides->next();
        }
        QCOMPARE(f.window->pages()->currentIndex(), 1); // past the last row: the next tab
        slides->previous();
        QCOMPARE(f.window->pages()->currentIndex(), 0);
        QCOMPARE(slides->row(), 2);
        // The figures sit under the key controls, and go back above the charts afterwards.
        QWidget* column = f.window->panel()->parentWidget();
        QCOMPARE(f.window->headline()->parentWidget(), column);
        QVERIFY(f.window->panel()->keyControlsOnly());
        f.window->setPresentationMode(false);
        QVERIFY(f.window->headline()->parentWidget() != column);
        QCOMPARE(verdict->parentWidget(), f.window->remediesPanel());
        QVERIFY(!f.window->panel()->keyControlsOnly());
        for (ui::ChartBase* chart : f.window->charts())
            QVERIFY(chart->view()->page != ui::ViewPage::Charts || !chart->isHidden());
    }

    // Chart text breaks where Japanese allows: never inside a katakana word, between a number
    // and its unit, or between "KV" and the katakana word it names.
    void japaneseBreaksOnlyWhereAllowed()
    {
        const QString title =
            QStringLiteral("KV キャッシュの配置別 1 トークンあたりのデコード時間");
        QCOMPARE(ui::breakNearMiddle(title),
                 QStringLiteral("KV キャッシュの配置別\n1 トークンあたりのデコード時間"));
        const QString caption = QStringLiteral("（シーケンスあたり 5.2 トークン/秒）");
        for (qsizetype b : ui::lineBreaks(caption)) {
            const QString before = caption.left(b).trimmed(), after = caption.mid(b).trimmed();
            QVERIFY2(!before.endsWith(QLatin1String("5.2")) &&
                         !before.endsWith(QStringLiteral("ト")) &&
                         !before.endsWith(QStringLiteral("トー")) &&
                         !before.endsWith(QStringLiteral("トーク")),
                     qPrintable(before + QLatin1Char('|') + after));
        }
        QFont font = QApplication::font();
        font.setPointSize(12);
        const double narrow =
            QFontMetricsF(font).horizontalAdvance(QStringLiteral("（シーケンスあたり 5.2 トー"));
        const QStringList lines = ui::wrapText(caption, font, narrow).split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines[1], QStringLiteral("5.2 トークン/秒）"));
        // A word-wrapping QLabel gets the same rules as no-break spaces and word joiners.
        const QString verdict = QStringLiteral("KV キャッシュが 55.5 GiB 超過しています。");
        QString glued = ui::withoutForbiddenBreaks(verdict);
        QVERIFY(glued.contains(QStringLiteral("55.5\u00A0GiB")));
        QVERIFY(glued.contains(QStringLiteral("KV\u00A0キ")));
        QVERIFY(glued.contains(QStringLiteral("ッ\u2060シ")));
        QCOMPARE(glued.remove(QChar(0x2060)).replace(QChar(0x00A0), QLatin1Char(' ')), verdict);
        const QString rate = QStringLiteral("1 ユーザー：52.6 トークン/秒");
        for (qsizetype b : ui::lineBreaks(rate))
            QVERIFY2(!rate.left(b).endsWith(QLatin1Char('/')) && rate[b] != QLatin1Char('/'),
                     qPrintable(rate.left(b) + QLatin1Char('|')));
        // A command-line flag or a hyphenated word stays whole: "(--n-" | "cpu-moe 33)" once.
        const QString flag =
            QStringLiteral("Offload experts (--n-cpu-moe 33) for a full-context prompt");
        for (qsizetype b : ui::lineBreaks(flag))
            QVERIFY2(flag[b - 1] != QLatin1Char('-'), qPrintable(flag.left(b) + QLatin1Char('|')));
        QCOMPARE(ui::breakNearMiddle(QStringLiteral("Reload a saved KV cache vs recompute it")),
                 QStringLiteral("Reload a saved KV\ncache vs recompute it"));
    }

    // Unicode allows a line break between any two kana or kanji; Japanese breaks between
    // phrases: never inside a word (デ|コード, 最大コンテキスト|長), an inflection
    // (処理できま|せん, 示しま|す), or before a small kana or the long vowel mark.
    void japaneseBreaksBetweenPhrases_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QStringList>("phrases"); // the only pieces a line may end after
        QTest::addRow("decode") << u"デコード"_s << QStringList{u"デコード"_s};
        QTest::addRow("context") << u"最大コンテキスト長を超えています"_s
                                 << QStringList{u"最大コンテキスト長を"_s, u"超えています"_s};
        QTest::addRow("cannot") << u"この構成では処理できません。"_s
                                << QStringList{u"この"_s, u"構成では"_s, u"処理できません。"_s};
        QTest::addRow("shows") << u"次の表に示します。"_s
                               << QStringList{u"次の"_s, u"表に"_s, u"示します。"_s};
        QTest::addRow("small kana")
            << u"ちょっとキャッシュ"_s << QStringList{u"ちょっと"_s, u"キャッシュ"_s};
    }

    void japaneseBreaksBetweenPhrases()
    {
        QFETCH(QString, text);
        QFETCH(QStringList, phrases);
        QList<qsizetype> expected;
        qsizetype at = 0;
        for (const QString& phrase : phrases)
            expected << (at += phrase.size());
        expected.removeLast();
        const std::vector<qsizetype> breaks = ui::lineBreaks(text);
        QCOMPARE(QList<qsizetype>(breaks.begin(), breaks.end()), expected);
        // Qt's own wrapping (a word-wrapping label, the report) keeps the word joiners: laid out
        // as narrow as it goes, each line holds one phrase.
        QTextLayout layout(ui::withoutForbiddenBreaks(text), QApplication::font());
        QTextOption option;
        option.setWrapMode(QTextOption::WordWrap);
        layout.setTextOption(option);
        layout.beginLayout();
        QStringList lines;
        for (QTextLine line = layout.createLine(); line.isValid(); line = layout.createLine()) {
            line.setLineWidth(1);
            lines << layout.text().mid(line.textStart(), line.textLength()).remove(QChar(0x2060));
        }
        layout.endLayout();
        QCOMPARE(lines, phrases);
    }

    // A rich-text label gets the same joins in its text, and its tags untouched: a word joiner
    // beside the slash of "</b>" once turned a whole summary bold.
    void richTextKeepsItsTags()
    {
        const QString html = QStringLiteral("<b>vLLM</b>: 5.2 トークン/秒<br><i>示します</i>");
        const QString joined = ui::withoutForbiddenBreaksInHtml(html);
        static const QRegularExpression tag(QStringLiteral("<[^>]*>"));
        QStringList tags;
        for (const auto& m : tag.globalMatch(joined))
            tags << m.captured();
        QCOMPARE(tags, (QStringList{u"<b>"_s, u"</b>"_s, u"<br>"_s, u"<i>"_s, u"</i>"_s}));
        QCOMPARE(QString(joined).remove(tag),
                 ui::withoutForbiddenBreaks(u"vLLM: 5.2 トークン/秒"_s) +
                     ui::withoutForbiddenBreaks(u"示します"_s));
    }

    // WCAG's contrast ratio of `text` (blended over `back` where translucent) on `back`.
    static double contrast(const QColor& text, const QColor& back)
    {
        const double a = text.alphaF();
        auto mix = [&](double t, double b) { return float(t * a + b * (1 - a)); };
        return ui::contrastRatio(QColor::fromRgbF(mix(text.redF(), back.redF()),
                                                  mix(text.greenF(), back.greenF()),
                                                  mix(text.blueF(), back.blueF())),
                                 back);
    }

    // The dark theme's every text on the backgrounds it is drawn on, at WCAG AA (4.5:1):
    // hints (headline captions, the compare page's note) and disabled controls included.
    void darkThemeTextMeetsWcagAa()
    {
        const QPalette p = ui::darkPalette();
        const std::pair<QPalette::ColorRole, QPalette::ColorRole> pairs[] = {
            {QPalette::WindowText, QPalette::Window},
            {QPalette::Text, QPalette::Base},
            {QPalette::ButtonText, QPalette::Button},
            {QPalette::PlaceholderText, QPalette::Window},
            {QPalette::PlaceholderText, QPalette::Base},
            {QPalette::ToolTipText, QPalette::ToolTipBase},
            {QPalette::HighlightedText, QPalette::Highlight},
            {QPalette::Text, QPalette::AlternateBase}};
        for (QPalette::ColorGroup group :
             {QPalette::Active, QPalette::Inactive, QPalette::Disabled})
            for (const auto& [text, back] : pairs) {
                if (group == QPalette::Disabled && text == QPalette::HighlightedText)
                    continue; // nothing disabled is selected
                const double ratio = contrast(p.color(group, text), p.color(group, back));
                QVERIFY2(ratio >= 4.5, qPrintable(QStringLiteral("group %1, role %2 on %3: %4:1")
                                                      .arg(int(group))
                                                      .arg(int(text))
                                                      .arg(int(back))
                                                      .arg(ratio, 0, 'f', 2)));
            }
        // The charts' own greys (the subtle ink of notes and tick labels) on the dark plot.
        const ui::ChartStyle style = ui::ChartStyle::fromPalette(p, QApplication::font(), 1.0);
        QVERIFY(contrast(style.subtle, style.background) >= 4.5);
        QVERIFY(contrast(style.foreground, style.background) >= 4.5);
    }

    // Presentation mode enlarges the Compare table as it does the panel (it stayed at the
    // desk's size, unreadable from the back of the room), and the window stays the projector's
    // size on that tab, its buttons as they were.
    void compareTableEnlargedInPresentation()
    {
        f.window->setLanguage(u"ja"_s);
        QVERIFY(f.controller->pin());
        const QTableWidget* table = f.window->comparePage()->table();
        const double normal = table->font().pointSizeF();
        f.window->setPresentationMode(true);
        f.window->showPage(u"compare"_s);
        ui::renderWindow(*f.window, *f.controller, QSize(1280, 720));
        QCOMPARE(f.window->size(), QSize(1280, 720));
        QVERIFY2(table->font().pointSizeF() >= 1.25 * normal,
                 qPrintable(u"%1 pt against %2"_s.arg(table->font().pointSizeF()).arg(normal)));
        f.window->setPresentationMode(false);
        QCOMPARE(table->font().pointSizeF(), normal);
        f.window->setLanguage(u"en"_s);
    }

    // The fit matrix's three fills tell apart at a glance in both themes: in the dark one, "fits
    // a shorter context" and "does not fit" had tinted to two near browns (8 bits a channel,
    // 15 apart).
    void matrixFillsStandApartInBothThemes()
    {
        for (const QPalette& palette : {ui::lightPalette(), ui::darkPalette()}) {
            const ui::ChartStyle style =
                ui::ChartStyle::fromPalette(palette, QApplication::font(), 1.0);
            for (int a = 0; a < 3; ++a)
                for (int b = a + 1; b < 3; ++b) {
                    const QColor x = ui::FitMatrixChart::fillFor(style, a);
                    const QColor y = ui::FitMatrixChart::fillFor(style, b);
                    const double apart =
                        std::hypot(x.red() - y.red(), x.green() - y.green(), x.blue() - y.blue());
                    // On the dark theme by lightness too ("fits" and "does not fit" had one).
                    const auto lightness = [](const QColor& c) {
                        return 0.2126 * c.red() + 0.7152 * c.green() + 0.0722 * c.blue();
                    };
                    QVERIFY2(!style.isDark() || std::abs(lightness(x) - lightness(y)) >= 15,
                             qPrintable(u"%1 and %2: lightness %3 and %4"_s.arg(a)
                                            .arg(b)
                                            .arg(lightness(x))
                                            .arg(lightness(y))));
                    QVERIFY2(apart >= 40,
                             qPrintable(u"%1 and %2: %3 apart (%4)"_s.arg(a).arg(b).arg(apart).arg(
                                 style.isDark() ? u"dark"_s : u"light"_s)));
                }
        }
    }

    // A keyboard and a screen reader reach what a mouse does: every control of the panel has a
    // name, every chart its title, and each headline figure takes the focus and says its
    // arithmetic.
    void controlsAndFiguresHaveAccessibleNames()
    {
        f.window->setLanguage(QStringLiteral("ja"));
        for (QToolButton* drawer : f.window->panel()->findChildren<QToolButton*>())
            drawer->setChecked(true); // the advanced settings too
        for (QWidget* w : f.window->panel()->findChildren<QWidget*>()) {
            if (w->focusPolicy() == Qt::NoFocus || !w->isVisibleTo(f.window.get()) ||
                w->focusProxy())
                continue;
            if (qobject_cast<QLineEdit*>(w) && qobject_cast<QAbstractSpinBox*>(w->parentWidget()))
                continue; // a spin box's own editor: the spin box is named
            if (qobject_cast<QLineEdit*>(w) && qobject_cast<QComboBox*>(w->parentWidget()))
                continue; // an editable combo box's editor: likewise
            QAccessibleInterface* a = QAccessible::queryAccessibleInterface(w);
            QVERIFY(a);
            QVERIFY2(!a->text(QAccessible::Name).trimmed().isEmpty(),
                     qPrintable(
                         QStringLiteral("%1 in %2: %3")
                             .arg(QString::fromLatin1(w->metaObject()->className()),
                                  QString::fromLatin1(w->parentWidget()->metaObject()->className()),
                                  w->toolTip().left(80))));
        }
        for (ui::ChartBase* chart : f.window->charts())
            QCOMPARE(chart->accessibleName(), chart->chartTitle());
        const auto* tile = f.window->headline()->tile(ui::HeadlineBar::KvTotal);
        QCOMPARE(tile->focusPolicy(), Qt::TabFocus);
        QCOMPARE(tile->accessibleName(), QStringLiteral("KV キャッシュ"));
        QVERIFY(tile->accessibleDescription().contains(tile->arithmetic()));
        QVERIFY(tile->accessibleDescription().contains(tile->value()));
        f.window->setLanguage(QStringLiteral("en"));
    }

    // Every memory tile says whose memory it is where several GPUs share the work, the same way:
    // each GPU's ("KV cache total 40.0 GiB" was one GPU's beside all GPUs' weights), and the
    // report's figures name theirs too.
    void headlineTilesNameTheirScope()
    {
        for (const QString& lang : {u"en"_s, u"ja"_s}) {
            f.window->setLanguage(lang);
            change({{"model", "llama-3.1-70b"},
                    {"gpu", "h100-sxm"},
                    {"gpus", "2"},
                    {"engine", "vllm"},
                    {"context", "32768"},
                    {"batch", "8"}});
            const QString perGpu = lang == u"en"_s ? u"per GPU; "_s : u"GPU あたり、"_s;
            const QString allGpus = lang == u"en"_s ? u"all 2 GPUs; "_s : u"GPU 2 基合計、"_s;
            using H = ui::HeadlineBar;
            for (H::Figure figure : {H::KvPerToken, H::KvTotal, H::Fit})
                QVERIFY2(f.window->headline()->tile(figure)->detail().startsWith(perGpu),
                         qPrintable(f.window->headline()->tile(figure)->detail()));
            QVERIFY(f.window->headline()->tile(H::Weights)->detail().startsWith(allGpus));
            QVERIFY(!f.window->headline()->tile(H::KvTotal)->accessibleName().contains(u"total"_s));
            // Under data-parallel attention each GPU holds more than its share: the tile says
            // what each holds (DeepSeek-R1 FP8 on 8 x H200 under vLLM: 93.8 GiB).
            change({{"model", "deepseek-r1"},
                    {"gpu", "h200"},
                    {"gpus", "8"},
                    {"weights", "fp8"},
                    {"dp-attention", "on"},
                    {"expert-parallel", "on"}});
            const QString each = lang == u"en"_s ? u"93.8 GiB on each of 8 GPUs; "_s
                                                 : u"GPU 8 基の各々に 93.8 GiB、"_s;
            QVERIFY2(f.window->headline()->tile(H::Weights)->detail().startsWith(each),
                     qPrintable(f.window->headline()->tile(H::Weights)->detail()));
            change({{"dp-attention", "off"}, {"expert-parallel", "off"}});
        }
        f.window->setLanguage(u"en"_s);
    }

    void layoutFileKeepsEveryRule_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<bool>("present");
        QTest::addColumn<QString>("lang");
        for (const QSize size : {QSize(1280, 800), QSize(1366, 768), QSize(1920, 1080)})
            for (bool present : {false, true})
                for (const char* lang : {"en", "ja"})
                    QTest::addRow("%dx%d %s %s", size.width(), size.height(),
                                  present ? "present" : "normal", lang)
                        << size << present << QString::fromLatin1(lang);
    }

    // Every view of the chart grid brought on screen as a user would (scrolled to, or its row in
    // presentation mode), its layout written to a file as `--layout` writes it and checked from
    // that file alone.
    void layoutFileKeepsEveryRule()
    {
        QFETCH(QSize, size);
        QFETCH(bool, present);
        QFETCH(QString, lang);
        f.window->setLanguage(lang);
        f.window->setPresentationMode(present);
        ui::renderWindow(*f.window, *f.controller, size);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("layout.json"));
        int checked = 0;
        for (ui::ChartBase* chart : f.window->charts()) {
            if (chart->view()->page != ui::ViewPage::Charts)
                continue;
            QVERIFY(f.window->showPage(chart->chartId()));
            QApplication::processEvents();
            for (ui::ChartBase* c : f.window->charts())
                c->replot(QCustomPlot::rpImmediateRefresh);
            QVERIFY(ui::saveLayout(*f.window, path));
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QJsonObject layout = QJsonDocument::fromJson(file.readAll()).object();
            QCOMPARE(layout[QStringLiteral("presentation")].toBool(), present);
            bool listed = false;
            for (const QJsonValue& c : layout[QStringLiteral("charts")].toArray()) {
                listed =
                    listed || c.toObject()[QStringLiteral("id")].toString() == chart->chartId();
                const QString problem = layoutProblem(c.toObject());
                QVERIFY2(problem.isEmpty(), qPrintable(problem));
            }
            QVERIFY2(listed, qPrintable(chart->chartId()));
            ++checked;
        }
        QCOMPARE(checked, 6);
        f.window->setPresentationMode(false);
    }

    void matrixFitsItsPage_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("lang");
        QTest::addColumn<bool>("presentation");
        for (const QString& lang : {u"en"_s, u"ja"_s}) {
            QTest::addRow("1280x800 %s", qPrintable(lang)) << QSize(1280, 800) << lang << false;
            QTest::addRow("1366x768 %s", qPrintable(lang)) << QSize(1366, 768) << lang << false;
            QTest::addRow("1920x1080 %s", qPrintable(lang)) << QSize(1920, 1080) << lang << false;
            QTest::addRow("1280x720 %s presented", qPrintable(lang))
                << QSize(1280, 720) << lang << true;
        }
    }

    // The fit matrix as the page shows it: the models nearest the scenario's, each row's name
    // a line of its own (they ran into one another in presentation mode), the scenario's cell,
    // the column names, the heading and the legend all in view, none of it scrolled away.
    void matrixFitsItsPage()
    {
        QFETCH(QSize, size);
        QFETCH(QString, lang);
        QFETCH(bool, presentation);
        f.window->setLanguage(lang);
        f.window->setPresentationMode(presentation);
        change({{"model", "gpt-oss-120b"}, {"context", "32768"}, {"batch", "1"}});
        QVERIFY(f.window->showPage(u"matrix"_s));
        ui::renderWindow(*f.window, *f.controller, size);
        auto* matrix = static_cast<ui::FitMatrixChart*>(f.window->chart(u"matrix"_s));
        QVERIFY(matrix->shownRows() >= 3);
        const double pitch = matrix->axisRect()->height() / double(matrix->shownRows());
        QVERIFY2(pitch >= QFontMetrics(matrix->yAxis->tickLabelFont()).height(),
                 qPrintable(u"%1 rows at %2 px"_s.arg(matrix->shownRows()).arg(pitch)));
        const QRect visible = matrix->visibleRegion().boundingRect();
        QVERIFY2(visible.contains(matrix->currentCellRect()), "the scenario's cell");
        QVERIFY2(visible.contains(matrix->legend->outerRect()), "the legend");
        QVERIFY2(visible.top() <= matrix->axisRect()->top() - 40, "the column names");
        f.window->setPresentationMode(false);
    }

    // The fit matrix's heading states the scenario's GPU count, context and batch, in that
    // order, in both languages (it once said "8 GPUs ... at 2 tokens × 32,768 sequences").
    void matrixHeadingStatesTheScenariosNumbers()
    {
        // A model far down the list: the page opened at the top, its cell out of view.
        change({{"model", "qwen3-235b-a22b"}, {"gpus", "2"}, {"context", "32768"}, {"batch", "8"}});
        for (const QString& lang : {QStringLiteral("en"), QStringLiteral("ja")}) {
            f.window->setLanguage(lang);
            QVERIFY(f.window->showPage(QStringLiteral("matrix")));
            ui::renderWindow(*f.window, *f.controller, QSize(1280, 800));
            QTemporaryDir dir;
            const QString path = dir.filePath(QStringLiteral("layout.json"));
            QVERIFY(ui::saveLayout(*f.window, path));
            QFile file(path);
            QVERIFY(file.open(QIODevice::ReadOnly));
            QString heading;
            for (const QJsonValue& c :
                 QJsonDocument::fromJson(file.readAll())[QStringLiteral("charts")].toArray())
                if (c[QStringLiteral("id")].toString() == QStringLiteral("matrix"))
                    for (const QJsonValue& label : c[QStringLiteral("labels")].toArray())
                        if (label[QStringLiteral("kind")].toString() == QStringLiteral("axis"))
                            heading = label[QStringLiteral("text")].toString().section(
                                QLatin1Char('\n'), 0, 0);
            static const QRegularExpression number(QStringLiteral("\\d[\\d,]*"));
            QStringList numbers;
            for (auto m = number.globalMatch(heading); m.hasNext();)
                numbers << m.next().captured().remove(QLatin1Char(','));
            QCOMPARE(numbers, (QStringList{QStringLiteral("2"), QStringLiteral("32768"),
                                           QStringLiteral("8")}));
            QVERIFY2(!heading.contains(u"1 sequences"_s), qPrintable(heading));
        }
        // The legend promises "×N" only where some cell shows it; the scenario's cell is in view.
        auto* matrix = static_cast<ui::FitMatrixChart*>(f.window->chart(u"matrix"_s));
        bool anyCellText = false;
        for (size_t r = 0; r < matrix->shownRows(); ++r)
            for (size_t c = 0; c < matrix->shownColumns(); ++c)
                anyCellText = anyCellText || !matrix->cellText(r, c).isEmpty();
        bool promises = false;
        for (int i = 0; i < matrix->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(matrix->legend->item(i)))
                promises = promises || item->plottable()->name().contains(QChar(0x00D7));
        QCOMPARE(promises, anyCellText);
        const QRect cell = matrix->currentCellRect();
        QVERIFY(!cell.isEmpty());
        QVERIFY2(!matrix->visibleRegion().intersected(cell).isEmpty(),
                 "the scenario's cell is scrolled out of view");
        // One sequence is one, not "1 sequences".
        change({{"batch", "1"}});
        f.window->setLanguage(u"en"_s);
        QApplication::processEvents();
        const QString one = f.window->chart(u"matrix"_s)->xAxis2->label();
        QVERIFY2(one.contains(u"one sequence"_s), qPrintable(one));
        f.window->setLanguage(QStringLiteral("en"));
    }
};

KVSCOPE_TEST_SUITE(TestLayout, "tst_layout", kvscope::test::SuiteApp::Widgets)
#include "tst_layout.moc"
