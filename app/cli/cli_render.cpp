// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_render.h"

#include "charts/chart_base.h"
#include "charts/chart_set.h"
#include "charts/view_registry.h"
#include "cli_args.h"
#include "cli_commands.h"
#include "export/chart_export.h"
#include "export/report_writer.h"
#include "kvscope/settings/scenario_file.h"
#include "kvscope/settings/scenario_options.h"
#include "window/language.h"
#include "window/palettes.h"
#include "window/scenario_controller.h"

#include <QApplication>
#include <QWidget>

#include <charconv>
#include <memory>
#include <ostream>

namespace kvscope::cli {

namespace {

// A QApplication for drawing, on the offscreen platform when there is no display (scripts, CI),
// unless one runs already (the tests). It ends with the command, before main returns: a static
// one would be destroyed after Qt's own globals at exit and crash there (a hatched overflow bar
// left a brush pattern that Qt's clean-up then freed twice).
class ApplicationScope
{
public:
    ApplicationScope()
    {
        if (QCoreApplication::instance())
            return;
        if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
            qEnvironmentVariableIsEmpty("DISPLAY") &&
            qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY"))
            qputenv("QT_QPA_PLATFORM", "offscreen");
        m_app = std::make_unique<QApplication>(m_argc, m_argv);
        QApplication::setStyle(QStringLiteral("Fusion"));
    }

private:
    int m_argc = 1;
    char m_name[12] = "kvscope-cli";
    char* m_argv[2] = {m_name, nullptr};
    std::unique_ptr<QApplication> m_app; // declared last: destroyed before the arguments it holds
};

bool integerOption(const ParsedArgs& args, const std::string& name, int lo, int hi, int* out,
                   std::ostream& err)
{
    const std::string* text = args.value(name);
    if (!text)
        return true;
    int value = 0;
    auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (ec != std::errc() || ptr != text->data() + text->size() || value < lo || value > hi) {
        badInput(err, {"--" + name, *text,
                       "an integer from " + std::to_string(lo) + " to " + std::to_string(hi)});
        return false;
    }
    *out = value;
    return true;
}

// The registry's `export --chart` values as a sentence: "vram, tokens, kv, ... or latency".
std::string chartChoices()
{
    const std::vector<std::string> ids = ui::cliChartIds();
    std::string text;
    for (size_t i = 0; i < ids.size(); ++i)
        text += (i == 0 ? "" : i + 1 == ids.size() ? " or " : ", ") + ids[i];
    return text;
}

// What render and report were asked to write, read from their options.
struct RenderRequest
{
    bool report = false;                   // report: a PDF report; else one chart (render)
    std::string chartId;                   // render: the chart's CLI id
    ui::ChartExportOptions options;        // render: format, size, scale and palette
    ui::ReportOptions reportOptions;       // byte units (charts too) and the report's page size
    const std::string* language = nullptr; // --lang, "en" when unset
};

// render's chart, format, size and scale. Returns exitOk, or the exit code once the refusal is
// printed.
int readChartOptions(const ParsedArgs& args, RenderRequest& r, std::ostream& err)
{
    ui::ExportFormat format = ui::ExportFormat::Pdf;
    if (!r.report) {
        const std::string* chart = args.value("chart");
        if (!chart || !ui::findViewByCliId(*chart))
            return badInput(err, {"--chart", chart ? *chart : "", chartChoices()});
        r.chartId = *chart;
        const std::string* f = args.value("format");
        if (!f || !ui::parseExportFormat(QString::fromStdString(*f), &format))
            return badInput(err, {"--format", f ? *f : "", "png, svg or pdf"});
    }
    // --slide is a size and scale together; --width, --height and --scale still override it.
    r.options = args.has("slide") ? ui::slideExportOptions(format) : ui::ChartExportOptions{};
    r.options.format = format;
    if (!integerOption(args, "width", 200, 10000, &r.options.width, err) ||
        !integerOption(args, "height", 150, 10000, &r.options.height, err))
        return exitBadInput;
    if (const std::string* scale = args.value("scale")) {
        double value = 0;
        auto [ptr, ec] = std::from_chars(scale->data(), scale->data() + scale->size(), value);
        if (ec != std::errc() || ptr != scale->data() + scale->size() || value < 0.25 || value > 8)
            return badInput(err, {"--scale", *scale, "a number from 0.25 to 8"});
        r.options.scale = value;
    }
    r.options.printPalette = !args.has("dark");
    return exitOk;
}

// The options both commands read: units, page size and language.
int readReportOptions(const ParsedArgs& args, RenderRequest& r, std::ostream& err)
{
    r.reportOptions.units = args.has("si") ? ByteUnits::Si : ByteUnits::Binary;
    if (const std::string* page = args.value("page")) {
        if (*page != "a4" && *page != "letter")
            return badInput(err, {"--page", *page, "a4 or letter"});
        r.reportOptions.pageSize = *page == "letter" ? QPageSize::Letter : QPageSize::A4;
    }
    r.language = args.value("lang");
    if (r.language && *r.language != "en" && *r.language != "ja")
        return badInput(err, {"--lang", *r.language, "en or ja"});
    return exitOk;
}

// Every chart sized for export and drawn from the snapshot.
void drawCharts(const ui::ChartSet& charts, const ui::EvaluationSnapshot& snapshot, ByteUnits units,
                bool dark)
{
    for (ui::ChartBase* chart : charts) {
        chart->resize(1200, 750);
        chart->setByteUnits(units);
        // --dark draws in the window's dark palette (without it, in the print palette): the
        // chart's own style would otherwise be the light default of a window never shown.
        if (dark)
            chart->setChartStyle(
                ui::ChartStyle::fromPalette(ui::darkPalette(), chart->chartStyle().font, 1.0));
        chart->show(snapshot);
    }
}

// Writes the report, or the one chart asked for; false with `error` set when it cannot.
bool writeRequested(const RenderRequest& r, const ui::ChartSet& charts,
                    const ui::ScenarioController& controller, const Catalog& catalog,
                    const std::string& path, QString* error)
{
    if (r.report)
        return ui::ReportWriter::write(controller.snapshot(), catalog, charts,
                                       QString::fromStdString(path), r.reportOptions, error);
    bool written = false;
    for (ui::ChartBase* chart : charts)
        if (chart->view()->cliId == r.chartId)
            written = ui::exportChart(*chart, QString::fromStdString(path), r.options, error);
    return written;
}

} // namespace

void registerRenderCommand()
{
    setRenderCommand(&renderCommand, ui::cliChartIds());
}

int renderCommand(const ParsedArgs& args, const Catalog& catalog, std::ostream& out,
                  std::ostream& err)
{
    const std::string* path = args.value("out");
    if (!path || path->empty())
        return badInput(err, {"--out", "", "the file to write"});
    RenderRequest request;
    request.report = args.command == "report";
    if (int code = readChartOptions(args, request, err); code != exitOk)
        return code;
    if (int code = readReportOptions(args, request, err); code != exitOk)
        return code;
    auto scenario = scenarioFromOptions(args.scenarioValues(), catalog);
    if (!scenario)
        return badInput(err, scenario.error());

    const ApplicationScope application; // before every Qt object below, so it ends after them
    ui::Language language;
    language.apply(request.language ? QString::fromStdString(*request.language)
                                    : QStringLiteral("en"));
    std::vector<std::string> compareFiles;
    for (const auto& [name, value] : args.values)
        if (name == "compare")
            compareFiles.push_back(value);
    auto pinned = pinnedFromOptions(args.scenarioValues(), compareFiles, catalog);
    if (!pinned)
        return badInput(err, pinned.error());
    ui::ScenarioController controller(catalog);
    if (auto error = controller.setPinned(*pinned))
        return badInput(err, *error);
    controller.setScenario(*scenario);
    controller.evaluateNow();
    if (!controller.hasSnapshot())
        return badInput(
            err, validate(*scenario).value_or(FieldError{"scenario", "", "a valid scenario"}));

    QWidget host;
    host.resize(1200, 750);
    const ui::ChartSet charts = ui::createCharts(&host);
    drawCharts(charts, controller.snapshot(), request.reportOptions.units, args.has("dark"));
    QString error;
    if (!writeRequested(request, charts, controller, catalog, *path, &error)) {
        err << "kvscope-cli: --out: cannot write " << *path << ": " << error.toStdString() << "\n";
        return exitFailure;
    }
    out << *path << "\n";
    return exitOk;
}

} // namespace kvscope::cli
