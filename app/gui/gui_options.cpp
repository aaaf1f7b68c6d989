// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui_options.h"

#include "kvscope/settings/scenario_options.h"

#include "charts/view_registry.h"

#include <QCommandLineParser>

#include <algorithm>

namespace kvscope::ui {

namespace {

// What --view accepts: the two tabs that are not views, every registered view, and the
// validation window.
std::vector<std::string> viewIds()
{
    std::vector<std::string> ids{"charts", "compare"};
    for (const ViewEntry& v : viewRegistry())
        ids.emplace_back(v.id);
    ids.emplace_back(kValidationViewId);
    return ids;
}

QString joined(const std::vector<std::string>& ids)
{
    QString list;
    for (const std::string& id : ids)
        list += (list.isEmpty() ? QString() : QStringLiteral(", ")) + QString::fromStdString(id);
    return list;
}

// The window's own options, besides the scenario's; `viewList` names what --view accepts.
struct WindowOptions
{
    explicit WindowOptions(const QString& viewList)
        : help(QStringList{QStringLiteral("h"), QStringLiteral("help")},
               QStringLiteral("Show this help.")),
          version(QStringLiteral("version"), QStringLiteral("Show the version.")),
          screenshot(QStringLiteral("screenshot"),
                     QStringLiteral("Render the window offscreen to a PNG and exit."),
                     QStringLiteral("FILE.png")),
          size(QStringLiteral("size"), QStringLiteral("Window size for --screenshot."),
               QStringLiteral("WxH"), QStringLiteral("1600x1000")),
          lang(QStringLiteral("lang"), QStringLiteral("Language: en or ja."),
               QStringLiteral("en|ja")),
          page(QStringLiteral("page"),
               QStringLiteral("The tab to show: charts, plan, matrix or compare."),
               QStringLiteral("charts|plan|matrix|compare")),
          presentation(
              QStringList{QStringLiteral("presentation"), QStringLiteral("present")},
              QStringLiteral("Start in presentation mode: key controls and two views at a time, "
                             "large; Page Down / Page Up step through the views.")),
          view(QStringLiteral("view"),
               QStringLiteral("The view to show (its tab, and in presentation mode its row): %1.")
                   .arg(viewList),
               QStringLiteral("ID")),
          theme(QStringLiteral("theme"), QStringLiteral("Colour theme: system, light or dark."),
                QStringLiteral("system|light|dark")),
          layout(QStringLiteral("layout"),
                 QStringLiteral("With --screenshot: also write what was drawn (plot areas, "
                                "legends, labels with their rectangles and texts) as JSON."),
                 QStringLiteral("FILE.json")),
          compare(QStringLiteral("compare"),
                  QStringLiteral("Pin a scenario file (and the scenarios pinned in it) for "
                                 "comparison; repeat for more, up to four in all."),
                  QStringLiteral("FILE")),
          checkLog(
              QStringLiteral("check-log"),
              QStringLiteral("Open Tools > Check a start-up log on this vLLM, llama.cpp, TGI or "
                             "SGLang log (with --screenshot, the dialog is rendered)."),
              QStringLiteral("FILE"))
    {
    }

    QList<QCommandLineOption> all() const
    {
        return {help,         version, screenshot, size,   lang,    page,
                presentation, view,    theme,      layout, compare, checkLog};
    }

    const QCommandLineOption help, version, screenshot, size, lang, page, presentation, view, theme,
        layout, compare, checkLog;
};

// --size WIDTHxHEIGHT, within what a screenshot can be taken at.
Expected<QSize> parseSize(const QString& text)
{
    const QStringList wh = text.split(QLatin1Char('x'));
    bool okW = false, okH = false;
    const int w = wh.size() == 2 ? wh[0].toInt(&okW) : 0;
    const int h = wh.size() == 2 ? wh[1].toInt(&okH) : 0;
    if (!okW || !okH || w < 640 || h < 400 || w > 7680 || h > 4320)
        return FieldError{"--size", text.toStdString(), "WIDTHxHEIGHT from 640x400 to 7680x4320"};
    return QSize(w, h);
}

bool isOneOf(const QString& value, std::initializer_list<const char*> accepted)
{
    return std::any_of(accepted.begin(), accepted.end(),
                       [&](const char* a) { return value == QLatin1String(a); });
}

// The window options whose values are checked: language, tab, view, theme and layout file.
std::optional<FieldError> readChoices(const QCommandLineParser& parser, const WindowOptions& o,
                                      GuiOptions& options)
{
    options.language = parser.value(o.lang);
    if (!options.language.isEmpty() && !isOneOf(options.language, {"en", "ja"}))
        return FieldError{"--lang", options.language.toStdString(), "en or ja"};
    options.page = parser.value(o.page);
    if (!options.page.isEmpty() && !isOneOf(options.page, {"charts", "plan", "matrix", "compare"}))
        return FieldError{"--page", options.page.toStdString(), "charts, plan, matrix or compare"};
    options.presentation = parser.isSet(o.presentation);
    options.view = parser.value(o.view);
    const std::vector<std::string> views = viewIds();
    if (!options.view.isEmpty() &&
        std::find(views.begin(), views.end(), options.view.toStdString()) == views.end())
        return FieldError{"--view", options.view.toStdString(), joined(views).toStdString()};
    options.theme = parser.value(o.theme);
    if (!options.theme.isEmpty() && !isOneOf(options.theme, {"system", "light", "dark"}))
        return FieldError{"--theme", options.theme.toStdString(), "system, light or dark"};
    options.layout = parser.value(o.layout);
    if (!options.layout.isEmpty() && options.screenshot.isEmpty())
        return FieldError{"--layout", options.layout.toStdString(),
                          "a JSON file, with --screenshot"};
    return std::nullopt;
}

// Scenario options in the order given, as the CLI applies them.
void readScenarioOptions(const QCommandLineParser& parser, GuiOptions& options)
{
    for (const QString& name : parser.optionNames()) {
        if (!isScenarioOption(name.toStdString()))
            continue;
        for (const QString& value : parser.values(name))
            options.scenarioOptions.emplace_back(name.toStdString(), value.toStdString());
    }
}

} // namespace

Expected<GuiOptions> parseGuiOptions(const QStringList& arguments)
{
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QStringLiteral("kvscope - LLM inference memory and bandwidth planner"));
    const WindowOptions o(joined(viewIds()));
    parser.addOptions(o.all());
    for (const ScenarioOption& s : scenarioOptions())
        parser.addOption(QCommandLineOption(QString::fromStdString(s.name),
                                            QString::fromStdString(s.help),
                                            QString::fromStdString(s.valueName)));
    if (!parser.parse(arguments))
        return FieldError{"option", parser.errorText().toStdString(), "options listed by --help"};
    if (!parser.positionalArguments().isEmpty())
        return FieldError{"argument", parser.positionalArguments().front().toStdString(),
                          "options only (see --help)"};

    GuiOptions options;
    if (parser.isSet(o.help))
        options.helpText = parser.helpText().toStdString();
    else if (parser.isSet(o.version))
        options.helpText = "kvscope " KVSCOPE_VERSION "\n";
    options.screenshot = parser.value(o.screenshot);
    auto size = parseSize(parser.value(o.size));
    if (!size)
        return size.error();
    options.size = *size;
    if (auto error = readChoices(parser, o, options))
        return *error;
    options.checkLog = parser.value(o.checkLog);
    for (const QString& file : parser.values(o.compare))
        options.compare.push_back(file.toStdString());
    readScenarioOptions(parser, options);
    return options;
}

} // namespace kvscope::ui
