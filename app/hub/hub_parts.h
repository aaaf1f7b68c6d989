// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the synchronous and the asynchronous Hub fetch share: the environment's settings, the
// request, the cache and the answers to an HTTP status.

#include "kvscope/base/field_error.h"
#include "kvscope/formats/hub_id.h"

#include <QByteArray>
#include <QNetworkRequest>
#include <QString>

#include <optional>
#include <string>

namespace kvscope::hub::detail {

// A request that has received nothing for this long is given up.
inline constexpr int kTimeoutMs = 20'000;

bool offline();     // HF_HUB_OFFLINE is 1, true, yes or on
QString endpoint(); // HF_ENDPOINT without its trailing slashes, or https://huggingface.co
// "<why>: using the config.json cached on <date>"
std::string cachedNote(const QString& file, const std::string& why);
// Writes the response to the cache (atomically), or says why it is no config.json.
std::optional<FieldError> store(const QByteArray& body, const HubId& id, const QString& file,
                                const std::string& value);
// GET {endpoint}/{repo}/resolve/{revision}/config.json, with HF_TOKEN as a Bearer token.
QNetworkRequest configRequest(const HubId& id);
// HTTP 401 or 403: what the user can do about it, with or without a token.
FieldError refusedAccess(const std::string& value, int status);

} // namespace kvscope::hub::detail
