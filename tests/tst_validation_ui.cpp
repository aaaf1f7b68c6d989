// SPDX-License-Identifier: GPL-3.0-or-later
// The Validation view and the Calibrate dialog in the window, offscreen: one point per compared
// case, tooltips, Apply through the controller, Japanese texts.
//
// KVSCOPE_SCREENSHOT_DIR=/some/dir also saves the view and the dialog as PNGs (English and
// Japanese) for a person to look at.

#include "charts/line_breaks.h"
#include "suite_registry.h"
#include "window_fixture.h"

#include "panels/calibration_dialog.h"
#include "validation/validation_menus.h"
#include "validation/validation_plot.h"
#include "validation/validation_view.h"
#include "window/scenario_document.h"

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QHeaderView>
#include <QImage>
#include <QLabel>
#include <QMenuBar>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace kvscope;
using namespace kvscope::test;
using namespace kvscope::ui;
using namespace Qt::StringLiterals;

namespace {

void saveValidationShot(QWidget* widget, const QString& name)
{
    const QString dir = qEnvironmentVariable("KVSCOPE_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    QCoreApplication::processEvents();
    for (ValidationPlot* plot : widget->findChildren<ValidationPlot*>())
        plot->replot(QCustomPlot::rpImmediateRefresh);
    QVERIFY(widget->grab().save(dir + u'/' + name + u".png"_s));
}

// Every visible text of a dialog a person reads as words (case ids and catalog data excluded).
QStringList dialogTexts(QWidget* dialog)
{
    QStringList texts{dialog->windowTitle()};
    for (QLabel* label : dialog->findChildren<QLabel*>())
        if (label->isVisibleTo(dialog))
            texts << QString(label->text()).remove(QRegularExpression(QStringLiteral("<[^>]*>")));
    for (QAbstractButton* button : dialog->findChildren<QAbstractButton*>())
        if (button->isVisibleTo(dialog))
            texts << button->text();
    for (QComboBox* combo : dialog->findChildren<QComboBox*>())
        for (int i = 0; i < combo->count(); ++i)
            texts << combo->itemText(i);
    for (ValidationPlot* plot : dialog->findChildren<ValidationPlot*>()) {
        texts << plot->titleText() << plot->summaryText() << plot->xAxis->label()
              << plot->yAxis->label();
        for (int i = 0; i < plot->legend->itemCount(); ++i)
            if (auto* item = qobject_cast<QCPPlottableLegendItem*>(plot->legend->item(i)))
                texts << item->plottable()->name();
    }
    for (QTableWidget* table : dialog->findChildren<QTableWidget*>()) {
        for (int c = 0; c < table->columnCount(); ++c)
            texts << table->horizontalHeaderItem(c)->text();
        for (int r = 0; r < table->rowCount(); ++r)
            for (int c : {1, 6, 8}) // kind, unit, note; ids, models and GPUs are catalog data
                texts << table->item(r, c)->text();
    }
    return texts;
}

} // namespace

class TestValidationUi : public QObject
{
    Q_OBJECT

private slots:
    void init() { m_fixture.open(); }
    void cleanup() { m_fixture.close(); }

    void menusOpenTheView();
    void onePointPerComparedCase();
    void hoverNamesTheCase();
    void tableListsSkippedCasesWithReasons();
    void calibrateDecodeAppliesThroughTheController();
    void calibrateCapacity();
    void outOfReachCannotBeApplied();
    void japanese();
    void followsTheTheme();
    void screenshotByItsViewName();
    void errorsInViewOnALaptop_data();
    void errorsInViewOnALaptop();

private:
    ValidationMenus* menus() const { return m_fixture.window->findChild<ValidationMenus*>(); }

    WindowFixture m_fixture;
};

void TestValidationUi::menusOpenTheView()
{
    QVERIFY(menus());
    QStringList titles;
    for (QAction* a : m_fixture.window->menuBar()->actions())
        titles << a->text();
    QVERIFY2(titles.contains(QStringLiteral("&Tools")), qPrintable(titles.join(u',')));
    ValidationView* view = menus()->showValidation();
    QVERIFY(view && view->isVisible());
    QCOMPARE(menus()->showValidation(), view); // one view, raised again
    saveValidationShot(view, QStringLiteral("validation-view-en"));
}

void TestValidationUi::onePointPerComparedCase()
{
    ValidationView* view = menus()->showValidation();
    const ValidationReport& report = view->report();
    QVERIFY(report.results.size() >= 46);
    for (ValidationKind kind : allValidationKinds) {
        int compared = 0, notRun = 0;
        for (const ValidationResult& r : report.results) {
            compared += r.kind == kind && !r.skipped() ? 1 : 0;
            notRun += r.kind == kind && !r.skipped() && r.doesNotFit ? 1 : 0;
        }
        QVERIFY(compared > 0);
        QCOMPARE(view->plot(kind)->pointCount(), compared);
        // The summary's "of N" counts the cases with an error; one predicted not to run is
        // named apart.
        const QString summary = view->plot(kind)->summaryText();
        QVERIFY2(summary.contains(QStringLiteral(" of ") + QString::number(compared - notRun)),
                 qPrintable(summary));
        QVERIFY(notRun == 0 || summary.contains(QString::number(notRun)));
    }
}

void TestValidationUi::hoverNamesTheCase()
{
    ValidationView* view = menus()->showValidation();
    view->resize(1400, 900);
    QCoreApplication::processEvents();
    for (ValidationKind kind : allValidationKinds) {
        ValidationPlot* plot = view->plot(kind);
        plot->replot(QCustomPlot::rpImmediateRefresh);
        for (const ValidationResult& r : view->report().results) {
            if (r.kind != kind || r.skipped())
                continue;
            const QPointF at = plot->pixelOf(QString::fromStdString(r.id));
            QVERIFY(plot->rect().contains(at.toPoint()));
            const QString tip = plot->hoverText(at.toPoint());
            // Overlapping points show one of them; each shows both figures.
            QVERIFY2(tip.contains(QStringLiteral("Predicted")) &&
                         tip.contains(QStringLiteral("Measured")),
                     qPrintable(tip));
            break;
        }
        QVERIFY(plot->hoverText(QPoint(1, 1)).isEmpty());
    }
}

void TestValidationUi::errorsInViewOnALaptop_data()
{
    QTest::addColumn<QSize>("size");
    for (const QSize size : {QSize(1280, 720), QSize(1280, 800), QSize(1366, 768)})
        QTest::addRow("%dx%d", size.width(), size.height()) << size;
}

// The measured figure and its error in view without scrolling sideways: the model, case and
// speed class columns give way (elided in the middle, whole on hover); a wide window elides none.
void TestValidationUi::errorsInViewOnALaptop()
{
    QFETCH(QSize, size);
    ValidationView* view = menus()->showValidation();
    view->resize(size);
    QApplication::processEvents();
    const QTableWidget* table = view->table();
    const QHeaderView* header = table->horizontalHeader();
    const int error = 8;
    QCOMPARE(table->horizontalHeaderItem(error)->text(), u"Error"_s);
    // The unit after it too: the predicted and measured figures mix tokens, GiB, ms and tokens/s.
    const int unit = 9;
    QCOMPARE(table->horizontalHeaderItem(unit)->text(), u"Unit"_s);
    const int right = header->sectionViewportPosition(unit) + header->sectionSize(unit);
    QVERIFY2(
        right <= table->viewport()->width(),
        qPrintable(u"unit column ends at %1 of %2"_s.arg(right).arg(table->viewport()->width())));
    // Every plot's points and both axes' titles in view, the second row too: it scrolled, its
    // axis titles cut on a laptop and a strip in presentation mode.
    for (const ValidationPlot* plot : view->findChildren<ValidationPlot*>()) {
        const QRect axes = plot->axisRect()->outerRect();
        QVERIFY2(plot->visibleRegion().boundingRect().contains(axes),
                 qPrintable(u"%1: axes %2x%3 at %4,%5, in view %6 px high"_s.arg(plot->objectName())
                                .arg(axes.width())
                                .arg(axes.height())
                                .arg(axes.x())
                                .arg(axes.y())
                                .arg(plot->visibleRegion().boundingRect().height())));
    }
    // Every title and summary line whole: "predicted not to run" once ran off the decode plot.
    for (const ValidationPlot* plot : view->findChildren<ValidationPlot*>())
        QVERIFY2(
            plot->textOverflow() <= 0,
            qPrintable(
                u"%1: %2 px past the plot"_s.arg(plot->summaryText()).arg(plot->textOverflow())));
    view->resize(2400, 1000);
    QApplication::processEvents();
    for (int row = 0; row < table->rowCount(); ++row) {
        const QTableWidgetItem* id = table->item(row, 0);
        QVERIFY2(table->fontMetrics().horizontalAdvance(id->text()) < header->sectionSize(0),
                 qPrintable(id->text()));
    }
}

void TestValidationUi::tableListsSkippedCasesWithReasons()
{
    ValidationView* view = menus()->showValidation();
    QTableWidget* table = view->table();
    QCOMPARE(table->rowCount(), int(view->report().results.size()));
    const int noteColumn = table->columnCount() - 1; // the note is the last column
    int skipped = 0;
    for (int row = 0; row < table->rowCount(); ++row)
        if (table->item(row, noteColumn)->text().startsWith(QStringLiteral("Skipped")))
            ++skipped;
    // Each row says its split, as splits.json gives it, and the caption the held-out figures.
    int heldOut = 0;
    for (int row = 0; row < table->rowCount(); ++row)
        heldOut += table->item(row, 2)->text() == QStringLiteral("held out") ? 1 : 0;
    int expectedHeldOut = 0;
    for (const ValidationResult& r : view->report().results)
        expectedHeldOut += r.heldOut ? 1 : 0;
    QCOMPARE(heldOut, expectedHeldOut);
    bool captioned = false;
    for (const QLabel* label : view->findChildren<QLabel*>())
        captioned = captioned || label->text().contains(QStringLiteral("Held out (no default"));
    QVERIFY(captioned);
    int expected = 0;
    for (const ValidationResult& r : view->report().results)
        expected += r.skipped() ? 1 : 0;
    QCOMPARE(skipped, expected);
}

void TestValidationUi::calibrateDecodeAppliesThroughTheController()
{
    ScenarioController* controller = m_fixture.controller.get();
    const double before = controller->snapshot().evaluation.decode.tokensPerS;
    const double measured = before * 0.8;
    QVERIFY(!m_fixture.window->isWindowModified());
    CalibrationDialog dialog(controller, m_fixture.window.get());
    dialog.show();
    dialog.setMeasurement(CalibrationKind::DecodeTokensPerS, measured);
    QVERIFY(dialog.result());
    QVERIFY(dialog.previewText().contains(QStringLiteral("→")));
    saveValidationShot(&dialog, QStringLiteral("calibrate-en"));
    QVERIFY(dialog.apply());
    controller->evaluateNow();
    const Scenario& s = controller->scenario();
    QCOMPARE(s.efficiency.hbm, dialog.result()->fittedValue);
    QVERIFY(s.calibration);
    const double after = controller->snapshot().evaluation.decode.tokensPerS;
    QVERIFY2(std::fabs(after / measured - 1) < 0.005, qPrintable(QString::number(after)));
    QVERIFY(m_fixture.window->document()->isModified());
    QVERIFY(m_fixture.window->isWindowModified());
}

void TestValidationUi::calibrateCapacity()
{
    ScenarioController* controller = m_fixture.controller.get();
    controller->edit([](Scenario& s) {
        s.model = test::model("llama-3.1-8b");
        s.gpu = test::gpu("a100-80gb");
        applyEngine(s, *test::catalog().engine("vllm"));
        s.context = 8192;
    });
    controller->evaluateNow();
    const double before = double(controller->snapshot().evaluation.engine.kvCacheTokens);
    const double measured = std::round(before * 0.85 / 16) * 16;
    CalibrationDialog dialog(controller, m_fixture.window.get());
    dialog.setMeasurement(CalibrationKind::KvCacheTokens, measured);
    QVERIFY(dialog.result());
    QVERIFY(dialog.apply());
    controller->evaluateNow();
    QCOMPARE(double(controller->snapshot().evaluation.engine.kvCacheTokens), measured);
    QCOMPARE(controller->scenario().engine.runtimeOverheadMiB, dialog.result()->fittedValue);
}

void TestValidationUi::outOfReachCannotBeApplied()
{
    CalibrationDialog dialog(m_fixture.controller.get(), m_fixture.window.get());
    dialog.setMeasurement(CalibrationKind::DecodeTokensPerS, 1e6);
    QVERIFY(!dialog.result());
    QVERIFY(!dialog.apply());
    const auto labels = dialog.findChildren<QLabel*>();
    QVERIFY(std::any_of(labels.begin(), labels.end(),
                        [](QLabel* l) { return l->text().contains(QStringLiteral("No value")); }));
}

void TestValidationUi::japanese()
{
    m_fixture.window->setLanguage(QStringLiteral("ja"));
    ValidationView* view = menus()->showValidation();
    CalibrationDialog dialog(m_fixture.controller.get(), m_fixture.window.get());
    dialog.show();
    dialog.setMeasurement(CalibrationKind::DecodeTokensPerS,
                          m_fixture.controller->snapshot().evaluation.decode.tokensPerS * 0.9);
    saveValidationShot(view, QStringLiteral("validation-view-ja"));
    saveValidationShot(&dialog, QStringLiteral("calibrate-ja"));
    // Words that stay in English in a Japanese engineer's UI, and the catalog's names.
    QStringList same =
        QStringLiteral("kvscope PCIe GPU KV vLLM llama.cpp llama-bench tg128 MiB GB/s "
                       "GiB hbm_efficiency gpu_memory_utilization max_model_len n_ctx TPOT TTFT")
            .split(QLatin1Char(' '));
    same << QString::fromStdString(m_fixture.controller->scenario().model.name)
         << QString::fromStdString(m_fixture.controller->scenario().gpu.name);
    static const QRegularExpression englishWord(QStringLiteral("\\b[A-Za-z]{4,}\\b"));
    for (QWidget* w : std::initializer_list<QWidget*>{view, &dialog}) {
        for (QString text : dialogTexts(w)) {
            if (text.startsWith(QLatin1Char('/')) || text.contains(QStringLiteral("validation")))
                continue; // a path
            for (const QString& word : same)
                text.remove(word);
            text.remove(QLatin1Char('&'));
            const auto match = englishWord.match(text);
            QVERIFY2(!match.hasMatch(),
                     qPrintable(QStringLiteral("untranslated: \"%1\"").arg(text)));
        }
    }
    // Wrapping Japanese keeps its words whole ("一致", "なら" were split across lines).
    for (QWidget* w : std::initializer_list<QWidget*>{view, &dialog})
        for (const QLabel* label : w->findChildren<QLabel*>()) {
            if (!label->wordWrap() || label->text().isEmpty() || Qt::mightBeRichText(label->text()))
                continue;
            QString raw = label->text();
            raw.remove(QChar(0x2060)).replace(QChar(0x00A0), QLatin1Char(' '));
            QVERIFY2(withoutForbiddenBreaks(raw) == label->text(), qPrintable(label->text()));
        }
    // Japanese lines run longer: each title and summary whole on a 1280 x 800 laptop.
    view->resize(1280, 800);
    QApplication::processEvents();
    for (const ValidationPlot* plot : view->findChildren<ValidationPlot*>())
        QVERIFY2(plot->textOverflow() <= 0, qPrintable(plot->summaryText()));
    QStringList menuTexts;
    for (QAction* a : m_fixture.window->menuBar()->actions())
        menuTexts << a->text();
    QVERIFY(!menuTexts.contains(QStringLiteral("&Tools")));
}

void TestValidationUi::followsTheTheme()
{
    ValidationView* view = menus()->showValidation();
    m_fixture.window->setTheme(QStringLiteral("dark"));
    QCoreApplication::processEvents();
    for (ValidationKind kind : allValidationKinds)
        QVERIFY(view->plot(kind)->axisRect()->backgroundBrush().color().lightnessF() < 0.5);
    saveValidationShot(view, QStringLiteral("validation-view-dark"));
    m_fixture.window->setTheme(QStringLiteral("light"));
    QCoreApplication::processEvents();
    QVERIFY(view->plot(ValidationKind::Decode)->axisRect()->backgroundBrush().color().lightnessF() >
            0.5);
}

KVSCOPE_TEST_SUITE(TestValidationUi, "tst_validation_ui", kvscope::test::SuiteApp::Widgets)
// `kvscope --view validation --screenshot` renders the validation window, as --view does for the
// others, so it can be looked at and shown in documentation.
void TestValidationUi::screenshotByItsViewName()
{
    QTemporaryDir dir;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.path());
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir.path());
    const QString shot = dir.filePath(QStringLiteral("validation.png"));
    QProcess app;
    app.setProcessEnvironment(env);
    app.start(QStringLiteral(KVSCOPE_GUI_EXECUTABLE),
              {QStringLiteral("--view"), QStringLiteral("validation"), QStringLiteral("--size"),
               QStringLiteral("1280x800"), QStringLiteral("--screenshot"), shot});
    QVERIFY(app.waitForFinished(120000));
    QCOMPARE(app.exitCode(), 0);
    const QImage image(shot);
    QCOMPARE(image.size(), QSize(1280, 800));
    // The three scatter plots' points: more than one colour on the page.
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    QVERIFY(colours.size() > 20);
}

#include "tst_validation_ui.moc"
