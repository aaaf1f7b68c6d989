// SPDX-License-Identifier: GPL-3.0-or-later
#include "hub_request.h"

#include "hub_parts.h"

#include "kvscope/formats/config_import.h"
#include "kvscope/formats/hub_id.h"

#include <QFileInfo>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QTimer>
#include <QUrl>

namespace kvscope::hub {

using namespace detail;

HubConfigRequest::HubConfigRequest(QObject* parent)
    : QObject(parent), m_manager(std::make_unique<QNetworkAccessManager>())
{
}

HubConfigRequest::~HubConfigRequest()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
    }
}

void HubConfigRequest::start(const std::string& value)
{
    m_value = value;
    auto id = parseHubId(value);
    if (!id)
        return finishLater(id.error());
    m_cacheFile = QString::fromStdString(cacheDirectory() + "/" + hubCachePath(*id));
    m_cached = QFileInfo::exists(m_cacheFile);
    if (offline()) {
        if (m_cached)
            return finishLater(Fetched{m_cacheFile.toStdString(),
                                       cachedNote(m_cacheFile, "HF_HUB_OFFLINE is set")});
        return finishLater(FieldError{"model", value,
                                      "a model already in the cache (" + cacheDirectory() +
                                          ") while HF_HUB_OFFLINE is set"});
    }
    m_reply = m_manager->get(configRequest(*id));
    connect(m_reply, &QNetworkReply::downloadProgress, this, [this](qint64 received, qint64 total) {
        // A response larger than any config.json is cut off, not buffered whole.
        if (received > qint64(maxInputFileBytes)) {
            m_tooLarge = true;
            m_reply->abort();
            return;
        }
        emit progress(received, total);
    });
    connect(m_reply, &QNetworkReply::finished, this, &HubConfigRequest::replyFinished);
}

void HubConfigRequest::cancel()
{
    if (isFinished())
        return;
    m_cancelled = true;
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
        m_reply = nullptr;
    }
    QTimer::singleShot(0, this, &HubConfigRequest::finished);
}

void HubConfigRequest::finishLater(Expected<Fetched> result)
{
    m_result = std::move(result);
    QTimer::singleShot(0, this, &HubConfigRequest::finished);
}

void HubConfigRequest::replyFinished()
{
    m_result = answerFromReply();
    m_reply->deleteLater();
    m_reply = nullptr;
    emit finished();
}

Expected<Fetched> HubConfigRequest::answerFromReply()
{
    if (m_tooLarge)
        return FieldError{"model", m_value, "a config.json of at most 4 MiB from the Hub"};
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (status == 401 || status == 403)
        return refusedAccess(m_value, status);
    if (status == 404)
        return FieldError{"model", m_value,
                          "a model id and revision that exist on the Hub (HTTP 404 from " +
                              m_reply->request().url().toString().toStdString() + ")"};
    if (m_reply->error() != QNetworkReply::NoError || status != 200) {
        const std::string why =
            status > 0 ? "HTTP " + std::to_string(status) : m_reply->errorString().toStdString();
        if (m_cached)
            return Fetched{m_cacheFile.toStdString(),
                           cachedNote(m_cacheFile, "the Hub could not be reached (" + why + ")")};
        return FieldError{"model", m_value,
                          "a reachable Hub at " + endpoint().toStdString() + " (" + why +
                              "), or a cached copy (none in " + cacheDirectory() + ")"};
    }
    const auto id = parseHubId(m_value);
    if (auto error = store(m_reply->readAll(), *id, m_cacheFile, m_value))
        return *error;
    return Fetched{m_cacheFile.toStdString(), ""};
}

} // namespace kvscope::hub
