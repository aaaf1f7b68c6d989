// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// One fetch of a Hugging Face model's config.json, asynchronous: the window stays responsive,
// shows the download's progress and can cancel it. The same answers as fetchConfig (which runs
// one of these to the end for the command line): the cache when offline or unreachable, HTTP
// errors named, a response that is no config.json refused and not cached.

#include "hub_fetch.h"

#include <QObject>
#include <QString>

#include <memory>
#include <optional>

class QNetworkAccessManager;
class QNetworkReply;

namespace kvscope::hub {

class HubConfigRequest : public QObject
{
    Q_OBJECT
public:
    explicit HubConfigRequest(QObject* parent = nullptr);
    ~HubConfigRequest() override;

    // Starts fetching `value` ("hf:ORG/NAME[@REVISION]"). finished() always follows, from the
    // event loop, even when the answer is known at once (a malformed id, offline with a cache).
    void start(const std::string& value);
    // Stops the download; finished() follows with cancelled() true and no result.
    void cancel();
    bool isFinished() const { return m_result.has_value() || m_cancelled; }
    bool cancelled() const { return m_cancelled; }
    // The cached config.json and its note, or the error; set when finished() was emitted (and
    // not cancelled).
    const std::optional<Expected<Fetched>>& result() const { return m_result; }

signals:
    // Bytes received so far, and the whole response's size (-1 while the server has not said).
    void progress(qint64 received, qint64 total);
    void finished();

private:
    void finishLater(Expected<Fetched> result);
    void replyFinished();
    Expected<Fetched> answerFromReply();

    std::unique_ptr<QNetworkAccessManager> m_manager;
    QNetworkReply* m_reply = nullptr; // owned by m_manager's children until finished
    std::string m_value;
    QString m_cacheFile;
    bool m_cached = false;
    bool m_tooLarge = false;
    bool m_cancelled = false;
    std::optional<Expected<Fetched>> m_result;
};

} // namespace kvscope::hub
