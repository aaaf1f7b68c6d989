// SPDX-License-Identifier: GPL-3.0-or-later
// kvscope: the window. `kvscope [scenario options] [--screenshot FILE.png [--size WxH]]
// [--lang en|ja]` renders the window offscreen to a PNG and exits.

#include "export/layout_file.h"
#include "export/screenshot.h"
#include "gui_options.h"
#include "hub_fetch.h"
#include "hub_request.h"
#include "kvscope/catalog/catalog.h"
#include "kvscope/formats/hub_id.h"
#include "kvscope/settings/scenario_file.h"
#include "kvscope/settings/scenario_options.h"
#include "panels/fetch_progress_dialog.h"
#include "panels/log_check_dialog.h"
#include "validation/validation_view.h"
#include "window/app_settings.h"
#include "window/language.h"
#include "window/main_window.h"
#include "window/scenario_controller.h"

#include <QApplication>
#include <QIcon>
#include <QTextStream>
#include <QTimer>

#include <cstdio>

using namespace kvscope;

namespace {

// Fetches a model for File > Import from Hugging Face without blocking the window: a progress
// dialog with Cancel while it downloads, then the window imports it (or says why not).
void fetchFromHub(ui::MainWindow& window, const QString& id)
{
    auto* request = new hub::HubConfigRequest(&window);
    auto* dialog = new ui::FetchProgressDialog(id.trimmed(), &window);
    QObject::connect(request, &hub::HubConfigRequest::progress, dialog,
                     &ui::FetchProgressDialog::showProgress);
    QObject::connect(dialog, &QProgressDialog::canceled, request, &hub::HubConfigRequest::cancel);
    QObject::connect(
        request, &hub::HubConfigRequest::finished, &window, [&window, request, dialog] {
            dialog->deleteLater();
            request->deleteLater();
            if (request->cancelled())
                return;
            const auto& fetched = *request->result();
            window.importFetchedModel(fetched ? QString::fromStdString(fetched->path) : QString(),
                                      fetched ? QString::fromStdString(fetched->note)
                                              : QString::fromStdString(fetched.error().message()));
        });
    request->start("hf:" + id.trimmed().toStdString());
}

void setApplicationIdentity()
{
    QApplication::setApplicationName(QStringLiteral("kvscope"));
    QApplication::setOrganizationName(QStringLiteral("kvscope"));
    QApplication::setApplicationVersion(QStringLiteral(KVSCOPE_VERSION));
    // Wayland shells match the window to packaging/io.github.kvscope.kvscope.desktop by this id.
    QApplication::setDesktopFileName(QStringLiteral("io.github.kvscope.kvscope"));
    QApplication::setStyle(QStringLiteral("Fusion"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/kvscope.svg")));
}

// The saved geometry and theme, then what the command line overrides of them.
void applyWindowOptions(ui::MainWindow& window, const ui::GuiOptions& options)
{
    window.restoreState();
    if (options.presentation)
        window.setPresentationMode(true);
    if (!options.theme.isEmpty())
        window.setTheme(options.theme);
    if (!options.page.isEmpty())
        window.showPage(options.page);
    if (!options.view.isEmpty() && options.view != QLatin1String(ui::kValidationViewId))
        window.showPage(options.view);
}

// A window of its own over the main one (the validation view, the log check): rendered to the
// screenshot, or shown until the application quits.
int runOverWindow(ui::MainWindow& window, QWidget* own, const ui::GuiOptions& options)
{
    if (!options.screenshot.isEmpty())
        return ui::saveWidgetScreenshot(*own, options.screenshot, options.size) ? 0 : 1;
    window.show();
    own->setAttribute(Qt::WA_DeleteOnClose);
    own->show();
    return QApplication::exec();
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    setApplicationIdentity();

    auto options = ui::parseGuiOptions(QApplication::arguments());
    if (!options) {
        std::fprintf(stderr, "kvscope: %s\n", options.error().message().c_str());
        return 2;
    }
    if (options->helpText) {
        std::fputs(options->helpText->c_str(), stdout);
        return 0;
    }

    const Catalog catalog = loadCatalog(defaultDataDirs(argv[0]));
    const bool screenshot = !options->screenshot.isEmpty();
    ui::AppSettings settings;
    // The scenario: the command line's, else (for an interactive start) the last one, else the
    // seed's default.
    for (auto& [name, value] : options.value().scenarioOptions)
        if (name == "model" && isHubReference(value)) {
            auto fetched = hub::fetchConfig(value);
            if (!fetched) {
                std::fprintf(stderr, "kvscope: %s\n", fetched.error().message().c_str());
                return 2;
            }
            if (!fetched->note.empty())
                std::fprintf(stderr, "kvscope: note: %s\n", fetched->note.c_str());
            value = fetched->path;
        }
    Expected<Scenario> scenario = scenarioFromOptions(options->scenarioOptions, catalog);
    if (!scenario) {
        std::fprintf(stderr, "kvscope: %s\n", scenario.error().message().c_str());
        return 2;
    }
    if (options->scenarioOptions.empty() && !screenshot && !settings.lastScenario().isEmpty())
        if (auto last = scenarioFromText(settings.lastScenario().toStdString(), catalog))
            scenario = std::move(last);

    ui::Language language;
    language.apply(!options->language.isEmpty() ? options->language
                   : screenshot                 ? QStringLiteral("en")
                                                : settings.language());
    // Pinned beside it: the scenario file's own pinned scenarios, then each --compare file's.
    auto pinned = pinnedFromOptions(options->scenarioOptions, options->compare, catalog);
    if (!pinned) {
        std::fprintf(stderr, "kvscope: %s\n", pinned.error().message().c_str());
        return 2;
    }
    ui::ScenarioController controller(catalog);
    if (auto error = controller.setPinned(*pinned)) {
        std::fprintf(stderr, "kvscope: --compare %s\n", error->message().c_str());
        return 2;
    }
    controller.setScenario(*scenario);
    ui::MainWindow window(&controller, screenshot ? nullptr : &settings, &language);
    // File > Import from Hugging Face asks here, the app layer, which alone reads the network.
    QObject::connect(&window, &ui::MainWindow::hubModelRequested, &window,
                     [&window](const QString& id) { fetchFromHub(window, id); });
    applyWindowOptions(window, *options);
    // Tools > Check a start-up log, opened on the file; View > Validation against measurements.
    if (!options->checkLog.isEmpty()) {
        auto* dialog = new ui::LogCheckDialog(&controller, &window);
        QObject::connect(dialog, &ui::LogCheckDialog::hubModelWanted, &window,
                         &ui::MainWindow::hubModelRequested);
        dialog->openLogFile(options->checkLog);
        return runOverWindow(window, dialog, *options);
    }
    if (options->view == QLatin1String(ui::kValidationViewId))
        return runOverWindow(window, new ui::ValidationView(catalog, &window), *options);
    if (screenshot)
        return ui::saveScreenshot(window, controller, options->screenshot, options->size,
                                  options->view) &&
                       (options->layout.isEmpty() || ui::saveLayout(window, options->layout))
                   ? 0
                   : 1;
    window.show();
    // Scrolled to once shown and laid out: before, the view's place in the grid is not known.
    if (!options->view.isEmpty())
        QTimer::singleShot(0, &window, [&window, view = options->view] { window.showPage(view); });
    return app.exec();
}
