// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui_options.h"

#include "kvscope/settings/scenario_options.h"

#include "charts/view_registry.h"

#include <QCommandLineParser>

#include <algorithm>

namespace kvscope::ui {

Expected<GuiOptions> parseGuiOptions(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("kvscope - LLM inference memory and bandwidth planner"));
    const QCommandLineOption help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
                                  QStringLiteral("Show this help."));
    const QCommandLineOption version(QStringLiteral("version"),
                                     QStringLiteral("Show the version."));
    const QCommandLineOption screenshot(
        QStringLiteral("screenshot"),
        QStringLiteral("Render the window offscreen to a PNG and exit."),
        QStringLiteral("FILE.png"));
    const QCommandLineOption size(QStringLiteral("size"),
                                  QStringLiteral("Window size for --screenshot."),
                                  QStringLiteral("WxH"), QStringLiteral("1600x1000"));
    const QCommandLineOption lang(QStringLiteral("lang"), QStringLiteral("Language: en or ja."),
                                  QStringLiteral("en|ja"));
    const QCommandLineOption page(
        QStringLiteral("page"), QStringLiteral("The tab to show: charts, plan, matrix or compare."),
        QStringLiteral("charts|plan|matrix|compare"));
    const QCommandLineOption presentation(
        QStringList{QStringLiteral("presentation"), QStringLiteral("present")},
        QStringLiteral("Start in presentation mode: key controls and two views at a time, large; "
                       "Page Down / Page Up step through the views."));
    std::vector<std::string> viewIds{"charts", "compare"};
    for (const ViewEntry& v : viewRegistry())
        viewIds.emplace_back(v.id);
    QString viewList;
    for (const std::string& id : viewIds)
        viewList +=
            (viewList.isEmpty() ? QString() : QStringLiteral(", ")) + QString::fromStdString(id);
    const QCommandLineOption view(
        QStringLiteral("view"),
        QStringLiteral("The view to show (its tab, and in presentation mode its row): %1.")
            .arg(viewList),
        QStringLiteral("ID"));
    const QCommandLineOption theme(QStringLiteral("theme"),
                                   QStringLiteral("Colour theme: system, light or dark."),
                                   QStringLiteral("system|light|dark"));
    const QCommandLineOption layout(
        QStringLiteral("layout"),
        QStringLiteral("With --screenshot: also write what was drawn (plot areas, legends, labels "
                       "with their rectangles and texts) as JSON."),
        QStringLiteral("FILE.json"));
    const QCommandLineOption compare(
        QStringLiteral("compare"),
        QStringLiteral("Pin a scenario file (and the scenarios pinned in it) for comparison; "
                       "repeat for more, up to four in all."),
        QStringLiteral("FILE"));
    const QCommandLineOption checkLog(
        QStringLiteral("check-log"),
        QStringLiteral("Open Tools > Check a start-up log on this vLLM, llama.cpp or TGI log "
                       "(with --screenshot, the dialog is rendered)."),
        QStringLiteral("FILE"));
    parser.addOptions({help, version, screenshot, size, lang, page, presentation, view, theme,
                       layout, compare, checkLog});
    std::vector<QCommandLineOption> scenario;
    for (const ScenarioOption& o : scenarioOptions()) {
        scenario.emplace_back(QString::fromStdString(o.name), QString::fromStdString(o.help),
                              QString::fromStdString(o.valueName));
        parser.addOption(scenario.back());
    }
    if (!parser.parse(arguments))
        return FieldError{"option", parser.errorText().toStdString(), "options listed by --help"};
    if (!parser.positionalArguments().isEmpty())
        return FieldError{"argument", parser.positionalArguments().front().toStdString(),
                          "options only (see --help)"};

    GuiOptions options;
    if (parser.isSet(help))
        options.helpText = parser.helpText().toStdString();
    else if (parser.isSet(version))
        options.helpText = "kvscope " KVSCOPE_VERSION "\n";
    options.screenshot = parser.value(screenshot);
    const QStringList wh = parser.value(size).split(QLatin1Char('x'));
    bool okW = false, okH = false;
    const int w = wh.size() == 2 ? wh[0].toInt(&okW) : 0;
    const int h = wh.size() == 2 ? wh[1].toInt(&okH) : 0;
    if (!okW || !okH || w < 640 || h < 400 || w > 7680 || h > 4320)
        return FieldError{"--size", parser.value(size).toStdString(),
                          "WIDTHxHEIGHT from 640x400 to 7680x4320"};
    options.size = QSize(w, h);
    options.language = parser.value(lang);
    if (!options.language.isEmpty() && options.language != QLatin1String("en") &&
        options.language != QLatin1String("ja"))
        return FieldError{"--lang", options.language.toStdString(), "en or ja"};
    options.page = parser.value(page);
    if (!options.page.isEmpty() && options.page != QLatin1String("charts") &&
        options.page != QLatin1String("plan") && options.page != QLatin1String("matrix") &&
        options.page != QLatin1String("compare"))
        return FieldError{"--page", options.page.toStdString(), "charts, plan, matrix or compare"};
    options.presentation = parser.isSet(presentation);
    options.view = parser.value(view);
    if (!options.view.isEmpty() &&
        std::find(viewIds.begin(), viewIds.end(), options.view.toStdString()) == viewIds.end())
        return FieldError{"--view", options.view.toStdString(), viewList.toStdString()};
    options.theme = parser.value(theme);
    if (!options.theme.isEmpty() && options.theme != QLatin1String("system") &&
        options.theme != QLatin1String("light") && options.theme != QLatin1String("dark"))
        return FieldError{"--theme", options.theme.toStdString(), "system, light or dark"};
    options.layout = parser.value(layout);
    if (!options.layout.isEmpty() && options.screenshot.isEmpty())
        return FieldError{"--layout", options.layout.toStdString(),
                          "a JSON file, with --screenshot"};
    options.checkLog = parser.value(checkLog);
    for (const QString& file : parser.values(compare))
        options.compare.push_back(file.toStdString());
    // Scenario options in the order given, as the CLI applies them.
    for (const QString& name : parser.optionNames()) {
        if (!isScenarioOption(name.toStdString()))
            continue;
        for (const QString& value : parser.values(name))
            options.scenarioOptions.emplace_back(name.toStdString(), value.toStdString());
    }
    return options;
}

} // namespace kvscope::ui
