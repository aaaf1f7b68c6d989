// SPDX-License-Identifier: GPL-3.0-or-later
// URL layout and variables as huggingface_hub documents them: {endpoint}/{repo}/resolve/
// {revision}/{file}, HF_ENDPOINT, HF_TOKEN (a Bearer token), HF_HUB_OFFLINE
// (https://huggingface.co/docs/huggingface_hub/package_reference/environment_variables).
#include "hub_fetch.h"

#include "hub_parts.h"
#include "hub_request.h"

#include "kvscope/formats/config_import.h"
#include "kvscope/formats/hub_id.h"

#include <QCoreApplication>
#include <QDir>
#include <QEventLoop>
#include <QFileInfo>
#include <QNetworkRequest>
#include <QSaveFile>
#include <QStandardPaths>
#include <QUrl>

#include <memory>
#include <optional>
#include <ostream>

#include <nlohmann/json.hpp>

namespace kvscope::hub {

namespace detail {

bool offline()
{
    const QString v = qEnvironmentVariable("HF_HUB_OFFLINE").trimmed().toLower();
    return v == QLatin1String("1") || v == QLatin1String("true") || v == QLatin1String("yes") ||
           v == QLatin1String("on");
}

QString endpoint()
{
    QString e = qEnvironmentVariable("HF_ENDPOINT", QStringLiteral("https://huggingface.co"));
    while (e.endsWith(QLatin1Char('/')))
        e.chop(1);
    return e;
}

std::string cachedNote(const QString& file, const std::string& why)
{
    const QString when = QFileInfo(file).lastModified().toString(Qt::ISODate);
    return why + ": using the config.json cached on " + when.toStdString();
}

// Keeps the response as the Hub sent it, with hf_repo added when the config has none, so the
// launch commands name the repository rather than the cache folder.
std::optional<FieldError> store(const QByteArray& body, const HubId& id, const QString& file,
                                const std::string& value)
{
    auto json = parseJsonText(body.toStdString(), "model");
    if (!json)
        return FieldError{"model", value,
                          "a Hub response that is a config.json (" + json.error().message() + ")"};
    nlohmann::json config = *json;
    if (!config.contains("hf_repo"))
        config["hf_repo"] = id.repo;
    QDir().mkpath(QFileInfo(file).path());
    QSaveFile out(file);
    const std::string text = config.dump(2) + "\n";
    if (!out.open(QIODevice::WriteOnly) || out.write(text.data(), qint64(text.size())) < 0 ||
        !out.commit())
        return FieldError{"model", value,
                          "a writable cache directory (" + file.toStdString() + ")"};
    return std::nullopt;
}

QNetworkRequest configRequest(const HubId& id)
{
    const QUrl url(endpoint() + QLatin1Char('/') + QString::fromStdString(id.repo) +
                   QStringLiteral("/resolve/") + QString::fromStdString(id.revision) +
                   QStringLiteral("/config.json"));
    QNetworkRequest request(url);
    request.setTransferTimeout(kTimeoutMs);
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                         QNetworkRequest::NoLessSafeRedirectPolicy);
    request.setHeader(QNetworkRequest::UserAgentHeader, QStringLiteral("kvscope"));
    const QByteArray token = qgetenv("HF_TOKEN");
    if (!token.isEmpty())
        request.setRawHeader("Authorization", "Bearer " + token.trimmed());
    return request;
}

FieldError refusedAccess(const std::string& value, int status)
{
    return FieldError{"model", value,
                      qgetenv("HF_TOKEN").isEmpty()
                          ? "a public model, or HF_TOKEN set to a token that may read this "
                            "gated or private one (HTTP " +
                                std::to_string(status) + ")"
                          : "a model HF_TOKEN may read: accept its licence on the Hub (HTTP " +
                                std::to_string(status) + ")"};
}

} // namespace detail

Expected<std::string> resolveForCli(const std::string& value, std::ostream& err)
{
    auto fetched = fetchConfig(value);
    if (!fetched)
        return fetched.error();
    if (!fetched->note.empty())
        err << "kvscope-cli: note: " << value << ": " << fetched->note << "\n";
    return fetched->path;
}

std::string cacheDirectory()
{
    return (QStandardPaths::writableLocation(QStandardPaths::GenericCacheLocation) +
            QStringLiteral("/kvscope/hub"))
        .toStdString();
}

Expected<Fetched> fetchConfig(const std::string& value)
{
    // The command line has no event loop of its own: one for the length of the request. The
    // window never comes here; it runs a HubConfigRequest and keeps its own loop.
    std::unique_ptr<QCoreApplication> app;
    if (!QCoreApplication::instance()) {
        static int argc = 1;
        static char name[] = "kvscope-cli";
        static char* argv[] = {name, nullptr};
        app = std::make_unique<QCoreApplication>(argc, argv);
    }
    HubConfigRequest request;
    QEventLoop loop;
    QObject::connect(&request, &HubConfigRequest::finished, &loop, &QEventLoop::quit);
    request.start(value);
    loop.exec();
    return *request.result();
}

} // namespace kvscope::hub
