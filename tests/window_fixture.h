// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The window on the seed's scenario, in English, offscreen at 1600x1000, evaluated: what the
// window and export suites start every test from.

#include "testutils.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/scenario_controller.h"

#include <memory>

namespace kvscope::test {

struct WindowFixture
{
    std::unique_ptr<ui::ScenarioController> controller;
    std::unique_ptr<ui::Language> language;
    std::unique_ptr<ui::MainWindow> window;

    void open()
    {
        controller = std::make_unique<ui::ScenarioController>(catalog());
        controller->setScenario(*defaultScenario(catalog()));
        language = std::make_unique<ui::Language>();
        language->apply(QStringLiteral("en"));
        window = std::make_unique<ui::MainWindow>(controller.get(), nullptr, language.get());
        window->resize(1600, 1000);
        window->show();
        controller->evaluateNow();
    }

    // As kvscope's main() opens it with --presentation: the scenario and language set, then
    // presentation mode and the theme, before the window was ever laid out.
    void openAsTheCommandLine(const std::vector<std::pair<std::string, std::string>>& options,
                              const QString& lang, const QString& theme)
    {
        Scenario s = *defaultScenario(catalog());
        if (applyOptions(s, options, catalog()))
            qFatal("refused options");
        controller = std::make_unique<ui::ScenarioController>(catalog());
        controller->setScenario(s);
        language = std::make_unique<ui::Language>();
        language->apply(lang);
        window = std::make_unique<ui::MainWindow>(controller.get(), nullptr, language.get());
        window->setPresentationMode(true);
        window->setTheme(theme);
    }

    // Applies `options` (the CLI's names) to the scenario and evaluates; false when refused.
    bool change(const std::vector<std::pair<std::string, std::string>>& options)
    {
        Scenario next = controller->scenario();
        if (applyOptions(next, options, catalog()))
            return false;
        controller->setScenario(next);
        controller->evaluateNow();
        return true;
    }

    void close()
    {
        window.reset();
        language.reset();
        controller.reset();
    }
};

} // namespace kvscope::test
