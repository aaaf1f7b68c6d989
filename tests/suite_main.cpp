// SPDX-License-Identifier: GPL-3.0-or-later
// The main() of a test executable: `kvscope-tests tst_kvcache [Qt Test options]` runs one suite
// under the application it asks for; with no suite named, it lists them.

#include "suite_registry.h"

#include <QCoreApplication>
#include <QtTest>
#ifdef KVSCOPE_TESTS_WITH_WIDGETS
#include <QApplication>
#endif

#include <cstdio>
#include <cstring>
#include <vector>

namespace kvscope::test {

namespace {

std::vector<Suite>& suites()
{
    static std::vector<Suite> all;
    return all;
}

const Suite* suiteNamed(const char* name)
{
    for (const Suite& suite : suites())
        if (std::strcmp(suite.name, name) == 0)
            return &suite;
    return nullptr;
}

std::unique_ptr<QCoreApplication> makeApplication(SuiteApp kind, int& argc, char** argv)
{
#ifdef KVSCOPE_TESTS_WITH_WIDGETS
    if (kind == SuiteApp::FusionFixed) {
        qputenv("QT_FONT_DPI", "96"); // pixel-stable layouts, whatever the machine says
        auto app = std::make_unique<QApplication>(argc, argv);
        QApplication::setStyle(QStringLiteral("Fusion"));
        return app;
    }
    if (kind == SuiteApp::Widgets) {
        auto app = std::make_unique<QApplication>(argc, argv);
        QCoreApplication::setAttribute(Qt::AA_Use96Dpi, true);
        return app;
    }
#endif
    if (kind != SuiteApp::Core)
        return nullptr;
    auto app = std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setAttribute(Qt::AA_Use96Dpi, true);
    return app;
}

} // namespace

bool registerSuite(const Suite& suite)
{
    suites().push_back(suite);
    return true;
}

} // namespace kvscope::test

int main(int argc, char** argv)
{
    using namespace kvscope::test;
    const Suite* suite = argc > 1 ? suiteNamed(argv[1]) : nullptr;
    if (!suite) {
        std::fprintf(stderr, "usage: %s SUITE [Qt Test options]; the suites:\n", argv[0]);
        for (const Suite& s : suites())
            std::fprintf(stderr, "  %s\n", s.name);
        return 2;
    }
    // Qt Test reads the options after the suite's name, as if the suite were the program.
    std::vector<char*> args{argv[0]};
    args.insert(args.end(), argv + 2, argv + argc);
    int count = int(args.size());
    const auto app = makeApplication(suite->app, count, args.data());
    if (!app) {
        std::fprintf(stderr, "%s needs the window's test executable\n", suite->name);
        return 2;
    }
    const std::unique_ptr<QObject> test = suite->make();
    return QTest::qExec(test.get(), count, args.data());
}
