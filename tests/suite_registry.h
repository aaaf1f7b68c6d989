// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Many Qt Test suites in one executable, each still its own CTest test: a suite registers itself
// with KVSCOPE_TEST_SUITE, and suite_main.cpp runs the one its first argument names. Two
// executables (Qt-free suites, window suites) link once instead of thirty-eight times.

#include <QObject>

#include <memory>

namespace kvscope::test {

// The application a suite runs under, as its own main() used to build it.
enum class SuiteApp {
    Core,       // QCoreApplication at 96 DPI (QTEST_GUILESS_MAIN, or QTEST_MAIN without widgets)
    Widgets,    // QApplication at 96 DPI (QTEST_MAIN with widgets)
    FusionFixed // QApplication, Fusion style, QT_FONT_DPI=96: pixel-stable window layouts
};

struct Suite
{
    const char* name; // the CTest name and first argument: "tst_kvcache"
    SuiteApp app;
    std::unique_ptr<QObject> (*make)();
};

bool registerSuite(const Suite& suite);

} // namespace kvscope::test

#define KVSCOPE_TEST_SUITE(TestClass, suiteName, suiteApp)                                         \
    namespace {                                                                                    \
    const bool registered##TestClass = kvscope::test::registerSuite(                               \
        {suiteName, suiteApp, [] { return std::unique_ptr<QObject>(new TestClass); }});            \
    }
