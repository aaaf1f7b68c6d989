// SPDX-License-Identifier: GPL-3.0-or-later
// The window at the sizes it is shown at: laptops (1280x800, 1366x768) and projectors (1280x720,
// 1366x768, 1920x1080), normal and presentation mode, English and Japanese. What a reader needs
// is checked from the laid-out widgets: readable plot areas, whole legends, a window no larger
// than the screen, headline figures inside it.

#include "window_fixture.h"

#include "charts/chart_base.h"
#include "charts/view_registry.h"
#include "export/screenshot.h"
#include "panels/headline_bar.h"

#include <QApplication>
#include <QTest>

using namespace kvscope;

class TestLayout : public QObject
{
    Q_OBJECT

    test::WindowFixture f;

    // The window's scenario with `options` applied (CLI names), evaluated.
    void change(const std::vector<std::pair<std::string, std::string>>& options)
    {
        QVERIFY(f.change(options));
    }

    // Every plot on the Charts tab at least 240 x 160 pixels, its legend whole.
    void checkPlots()
    {
        for (ui::ChartBase* chart : f.window->charts()) {
            if (chart->view()->page != ui::ViewPage::Charts)
                continue;
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
    void init() { f.open(); }
    void cleanup() { f.close(); }

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
    }

    void presentationFitsTheProjector_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<QString>("lang");
        for (const QSize size : {QSize(1280, 720), QSize(1366, 768), QSize(1920, 1080)})
            for (const char* lang : {"en", "ja"})
                QTest::addRow("%dx%d %s", size.width(), size.height(), lang)
                    << size << QString::fromLatin1(lang);
    }

    // Presentation mode's large figures on a projector: the window no larger than the screen
    // (the headline figures take two rows where six in a row do not fit), every figure inside it.
    void presentationFitsTheProjector()
    {
        QFETCH(QSize, size);
        QFETCH(QString, lang);
        f.window->setLanguage(lang);
        f.window->setPresentationMode(true);
        ui::renderWindow(*f.window, *f.controller, size);
        QCOMPARE(f.window->size(), size);
        const QRect inWindow(QPoint(0, 0), size);
        for (int i = 0; i < ui::HeadlineBar::FigureCount; ++i) {
            const auto* tile = f.window->headline()->tile(ui::HeadlineBar::Figure(i));
            const QRect box(tile->mapTo(f.window.get(), QPoint(0, 0)), tile->size());
            QVERIFY2(inWindow.contains(box), qPrintable(QStringLiteral("tile %1").arg(i)));
        }
        checkPlots();
        f.window->setPresentationMode(false);
    }
};

QTEST_MAIN(TestLayout)
#include "tst_layout.moc"
