// SPDX-License-Identifier: GPL-3.0-or-later
// The one formatting module (bytes, ms, rates, counts). CTest runs this suite twice, under
// LANG=C and LANG=de_DE.UTF-8: the process locale is switched on here, and the text must not
// change, since separators come only from NumberStyle (decimal commas bite calculators).

#include "suite_registry.h"
#include "testutils.h"

#include "kvscope/base/number_format.h"
#include "kvscope/io/result_json.h"
#include "kvscope/settings/scenario_file.h"
#include "kvscope/settings/scenario_options.h"
#include "kvscope/text/text_summary.h"

#include <QtTest>

#include <clocale>
#include <cstdio>
#include <limits>
#include <locale>
#include <sstream>

using namespace kvscope;
using namespace kvscope::test;

namespace {

const NumberStyle german{",", "."}; // decimal comma, dot grouping, as QLocale("de") gives
constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

} // namespace

class TestFormat : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void processLocaleIsInEffect();
    void bytes_data();
    void bytes();
    void integers_data();
    void integers();
    void durations_data();
    void durations();
    void ratesCountsAndPlain();
    void machineOutputIgnoresLocale();
    void summaryIgnoresLocale();
};

void TestFormat::initTestCase()
{
    // Adopt the locale LANG names, for C and C++ alike, as a GUI program would.
    const char* name = std::setlocale(LC_ALL, "");
    if (!name)
        QSKIP(qPrintable(QStringLiteral("the locale LANG=%1 names is not installed (install "
                                        "locales-all to run this suite under it)")
                             .arg(qEnvironmentVariable("LANG"))));
    try {
        std::locale::global(std::locale(""));
    } catch (const std::runtime_error& e) {
        QSKIP(e.what());
    }
    qInfo("process locale: %s (decimal point \"%s\")", name, std::localeconv()->decimal_point);
}

void TestFormat::processLocaleIsInEffect()
{
    // Proof that the German run is not vacuous: C and C++ formatting really use the comma now.
    if (std::string(std::localeconv()->decimal_point) != ",")
        QSKIP("the process locale uses a decimal point; nothing to prove");
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.1f", 1.5);
    QCOMPARE(QString::fromUtf8(buffer), QStringLiteral("1,5"));
    std::ostringstream stream;
    stream << 1.5;
    QCOMPARE(QString::fromStdString(stream.str()), QStringLiteral("1,5"));
}

void TestFormat::bytes_data()
{
    QTest::addColumn<double>("bytes");
    QTest::addColumn<bool>("si");
    QTest::addColumn<bool>("decimalComma");
    QTest::addColumn<QString>("expected");
    // Three significant digits; the seed's "16 KB" is 16,384 B.
    QTest::addRow("16 KiB") << 16'384.0 << false << false << "16.0 KiB";
    QTest::addRow("512 KiB") << 524'288.0 << false << false << "512 KiB";
    QTest::addRow("1 GiB") << 1'073'741'824.0 << false << false << "1.00 GiB";
    QTest::addRow("1 GiB in SI") << 1'073'741'824.0 << true << false << "1.07 GB";
    QTest::addRow("16 GiB") << 17'179'869'184.0 << false << false << "16.0 GiB";
    QTest::addRow("1 GiB, decimal comma") << 1'073'741'824.0 << false << true << "1,00 GiB";
    QTest::addRow("16 KiB, decimal comma") << 16'384.0 << false << true << "16,0 KiB";
    QTest::addRow("zero") << 0.0 << false << false << "0 B";
    QTest::addRow("1,023 B") << 1'023.0 << false << false << "1,023 B";
    // Rounds to the next unit rather than showing "1024 KiB".
    QTest::addRow("1 MiB - 1") << 1'048'575.0 << false << false << "1.00 MiB";
    // Overflow keeps its sign.
    QTest::addRow("-16 KiB") << -16'384.0 << false << false << "-16.0 KiB";
    QTest::addRow("-1 GiB in SI") << -1'073'741'824.0 << true << false << "-1.07 GB";
    QTest::addRow("-5.5 GiB") << -5.5 * 1'073'741'824.0 << false << false << "-5.50 GiB";
    // Never "nan" or "inf" on screen.
    QTest::addRow("NaN") << kNan << false << false << "—";
    QTest::addRow("inf") << kInf << false << false << "—";
    QTest::addRow("-inf in SI") << -kInf << true << false << "—";
}

void TestFormat::bytes()
{
    QFETCH(double, bytes);
    QFETCH(bool, si);
    QFETCH(bool, decimalComma);
    QFETCH(QString, expected);
    const std::string text = formatBytes(bytes, si ? ByteUnits::Si : ByteUnits::Binary,
                                         decimalComma ? german : NumberStyle{});
    QCOMPARE(qs(text), expected);
}

void TestFormat::integers_data()
{
    QTest::addColumn<qint64>("value");
    QTest::addColumn<bool>("decimalComma");
    QTest::addColumn<QString>("expected");
    QTest::addRow("36,864") << qint64(36'864) << false << "36,864";
    QTest::addRow("36.864 (German)") << qint64(36'864) << true << "36.864";
    QTest::addRow("zero") << qint64(0) << false << "0";
    QTest::addRow("999") << qint64(999) << false << "999";
    QTest::addRow("negative") << qint64(-4'608) << false << "-4,608";
    QTest::addRow("int64 max") << std::numeric_limits<qint64>::max() << false
                               << "9,223,372,036,854,775,807";
}

void TestFormat::integers()
{
    QFETCH(qint64, value);
    QFETCH(bool, decimalComma);
    QFETCH(QString, expected);
    QCOMPARE(qs(formatInteger(value, decimalComma ? german : NumberStyle{})), expected);
}

void TestFormat::durations_data()
{
    QTest::addColumn<double>("ms");
    QTest::addColumn<bool>("decimalComma");
    QTest::addColumn<QString>("expected");
    QTest::addRow("42.6 ms") << 42.6 << false << "42.6 ms"; // 1 GiB over PCIe 4.0 x16
    QTest::addRow("42,6 ms") << 42.6 << true << "42,6 ms";
    QTest::addRow("1.50 s") << 1500.0 << false << "1.50 s";
    QTest::addRow("1,50 s") << 1500.0 << true << "1,50 s";
    QTest::addRow("0.42 ms") << 0.42 << false << "0.42 ms";
    QTest::addRow("below 0.01 ms") << 0.001 << false << "< 0.01 ms";
    QTest::addRow("zero") << 0.0 << false << "0.00 ms";
    QTest::addRow("999 ms") << 999.4 << false << "999 ms";
    QTest::addRow("just under a second rounds up") << 999.6 << false << "1.00 s";
    QTest::addRow("1.50 min") << 90'000.0 << false << "1.50 min";
    // Three significant figures like the other units, so sums in hours still add up.
    QTest::addRow("2.00 h") << 7.2e6 << false << "2.00 h";
    QTest::addRow("1.07 h") << 3.852e6 << false << "1.07 h";
    QTest::addRow("240 h") << 8.64e8 << false << "240 h";
    QTest::addRow("NaN") << kNan << false << "—";
    QTest::addRow("inf") << kInf << false << "—";
}

void TestFormat::durations()
{
    QFETCH(double, ms);
    QFETCH(bool, decimalComma);
    QFETCH(QString, expected);
    QCOMPARE(qs(formatDuration(ms, decimalComma ? german : NumberStyle{})), expected);
}

void TestFormat::ratesCountsAndPlain()
{
    QCOMPARE(qs(formatRate(25.2061)), QStringLiteral("25.2 GB/s"));
    QCOMPARE(qs(formatRate(1008)), QStringLiteral("1,008 GB/s"));
    QCOMPARE(qs(formatRate(25.2061, german)), QStringLiteral("25,2 GB/s"));
    QCOMPARE(qs(formatRate(kNan)), QStringLiteral("—"));
    QCOMPARE(qs(formatParameters(6'738'415'616)), QStringLiteral("6.74 B"));
    QCOMPARE(qs(formatParameters(46.7e9)), QStringLiteral("46.7 B"));
    QCOMPARE(qs(formatParameters(671e9)), QStringLiteral("671 B"));
    QCOMPARE(qs(formatParameters(1.54e12)), QStringLiteral("1.54 T"));
    QCOMPARE(qs(formatParameters(262'144'000)), QStringLiteral("262 M"));
    QCOMPARE(qs(formatParameters(kInf)), QStringLiteral("—"));
    QCOMPARE(qs(formatTokensPerSecond(56.4372)), QStringLiteral("56.4"));
    QCOMPARE(qs(formatTokensPerSecond(1500.4)), QStringLiteral("1,500"));
    QCOMPARE(qs(formatTokensPerSecond(kNan)), QStringLiteral("—"));
    QCOMPARE(qs(formatNumber(36'864.5, 1)), QStringLiteral("36,864.5"));
    QCOMPARE(qs(formatNumber(1'234'567.891, 2, german)), QStringLiteral("1.234.567,89"));
    QCOMPARE(qs(formatNumber(-0.0001, 2)), QStringLiteral("0.00")); // no "-0.00"
    QCOMPARE(qs(formatNumber(kNan, 2)), QStringLiteral("—"));
    QCOMPARE(qs(formatPlain(0.8)), QStringLiteral("0.8"));
    QCOMPARE(qs(formatPlain(1e308)), QStringLiteral("1e+308"));
}

void TestFormat::machineOutputIgnoresLocale()
{
    // JSON output, scenario files and option parsing use '.' whatever the process locale.
    Scenario s = scenario();
    s.memoryFraction = 0.9;
    s.efficiency.hostMemory = 0.78;
    KVSCOPE_EVALUATE(e, s);
    const std::string json = evaluationToJson(s, e).dump();
    QVERIFY(json.find("\"gpu_mem_util\":0.9") != std::string::npos);
    QVERIFY(json.find("\"pcie_effective_gb_per_s\":25.2061") != std::string::npos);

    const std::string text = scenarioToText(s);
    QVERIFY(text.find("0.78") != std::string::npos);
    auto back = scenarioFromText(text, catalog());
    QVERIFY2(back.ok(), back.ok() ? "" : back.error().message().c_str());
    QCOMPARE(back->efficiency.hostMemory, 0.78);
    QCOMPARE(back->memoryFraction.value_or(0), 0.9);

    auto parsed =
        scenarioFromOptions({{"gpu-mem-util", "0.85"}, {"hbm-efficiency", "0.7"}}, catalog());
    QVERIFY2(parsed.ok(), parsed.ok() ? "" : parsed.error().message().c_str());
    QCOMPARE(parsed->memoryFraction.value_or(0), 0.85);
    QCOMPARE(parsed->efficiency.hbm, 0.7);
    // A decimal comma on the command line is not a number, in any locale.
    auto comma = scenarioFromOptions({{"gpu-mem-util", "0,85"}}, catalog());
    QVERIFY(!comma.ok());
    QCOMPARE(qs(comma.error().field), QStringLiteral("--gpu-mem-util"));
}

void TestFormat::summaryIgnoresLocale()
{
    // The CLI table and the window's "Copy summary" text: the same bytes under the process
    // locale as under the classic "C" locale (a German locale would group 65536 as "65.536").
    Scenario s = scenario();
    s.batch = 65'536;
    s.gpuCount = 1'024;
    s.model = model("llama-3.1-405b");
    KVSCOPE_EVALUATE(e, s);
    const std::string underProcessLocale = textSummary(s, e, ByteUnits::Binary);
    const std::locale process = std::locale::global(std::locale::classic());
    const std::string underClassic = textSummary(s, e, ByteUnits::Binary);
    std::locale::global(process);
    QCOMPARE(qs(underProcessLocale.substr(0, underProcessLocale.find("\n\n"))),
             qs(underClassic.substr(0, underClassic.find("\n\n"))));
    QCOMPARE(qs(underProcessLocale), qs(underClassic));
}

KVSCOPE_TEST_SUITE(TestFormat, "tst_format", kvscope::test::SuiteApp::Core)
#include "tst_format.moc"
