// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Shared by the suites: the catalog the tests run against, scenario shortcuts, and a check that
// a JSON tree holds only finite numbers.

#include "kvscope/catalog/catalog.h"
#include "kvscope/evaluation/evaluation.h"
#include "kvscope/planning/verdict.h"
#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/settings/scenario_options.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <QtGlobal>

#include <cmath>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace kvscope::test {

inline constexpr double KiB = 1024.0;
inline constexpr double MiB = 1024.0 * KiB;
inline constexpr double GiB = 1024.0 * MiB;

// A change to a scenario, as a data-driven test's column.
using Mutation = void (*)(Scenario&);

// A file's bytes, or none when it cannot be read (the caller's check then fails on the content).
inline QByteArray readAll(const QString& path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The build's staged catalog: CTest sets KVSCOPE_DATA_DIR to it and points XDG_DATA_HOME at an
// empty directory, so defaultDataDirs() finds exactly the shipped data.
inline const Catalog& catalog()
{
    static const Catalog loaded =
        loadCatalog(defaultDataDirs(QCoreApplication::applicationFilePath().toStdString()));
    return loaded;
}

// Catalog entries the suites name are part of the product; a missing one is a broken install,
// so stop with a clear message rather than fail every row on an empty spec.
inline const ModelSpec& model(const std::string& id)
{
    const ModelSpec* m = catalog().model(id);
    if (!m)
        qFatal("catalog has no model \"%s\" (is KVSCOPE_DATA_DIR set?)", id.c_str());
    return *m;
}

inline const GpuSpec& gpu(const std::string& id)
{
    const GpuSpec* g = catalog().gpu(id);
    if (!g)
        qFatal("catalog has no GPU \"%s\"", id.c_str());
    return *g;
}

inline const KvDtype& kvDtype(const std::string& id)
{
    const KvDtype* d = catalog().kvDtype(id);
    if (!d)
        qFatal("catalog has no KV dtype \"%s\"", id.c_str());
    return *d;
}

inline const WeightFormat& weightFormat(const std::string& id)
{
    const WeightFormat* f = catalog().weightFormat(id);
    if (!f)
        qFatal("catalog has no weight format \"%s\"", id.c_str());
    return *f;
}

// The seed article's scenario (Llama 2 7B, FP16, RTX 4090, 2,048 tokens), optionally with
// another model and GPU.
inline Scenario scenario(const std::string& modelId = "llama-2-7b",
                         const std::string& gpuId = "rtx-4090")
{
    auto s = defaultScenario(catalog());
    if (!s)
        qFatal("no default scenario: %s", s.error().message().c_str());
    Scenario result = s.value();
    result.model = model(modelId);
    result.gpu = gpu(gpuId);
    return result;
}

// The default scenario with `options` applied through the door `calc` uses (the CLI's flags,
// without dashes); stops the test with the message when they are refused.
inline Scenario scenarioFrom(const std::vector<std::pair<std::string, std::string>>& options)
{
    auto s = scenarioFromOptions(options, catalog());
    if (!s)
        qFatal("scenario: %s", s.error().message().c_str());
    return *s;
}

// Evaluates or stops the test with the error's message; `var` names the Evaluation.
#define KVSCOPE_EVALUATE(var, scenarioExpr, ...)                                                   \
    const auto var##_result = ::kvscope::evaluate(scenarioExpr __VA_OPT__(, ) __VA_ARGS__);        \
    QVERIFY2(var##_result.ok(), var##_result.ok() ? "" : var##_result.error().message().c_str());  \
    const ::kvscope::Evaluation& var = var##_result.value()

// A scenario from options, through the door `calc` uses, evaluated and judged.
struct Checked
{
    Scenario scenario;
    Evaluation evaluation;
    Verdict verdict;
};

inline Checked checked(const std::vector<std::pair<std::string, std::string>>& options)
{
    Checked c{scenarioFrom(options), {}, {}};
    auto e = evaluate(c.scenario);
    if (!e)
        qFatal("evaluate: %s", e.error().message().c_str());
    c.evaluation = *e;
    c.verdict = verdictOf(c.scenario, c.evaluation);
    return c;
}

// The first path in `j` holding a number that is NaN or infinite, or a null; "" when clean. A
// null that its object explains ("null_because": a count GPU memory does not limit) is clean.
inline std::string firstNonFinite(const nlohmann::json& j, const std::string& path = "",
                                  bool nullExplained = false)
{
    if (j.is_null())
        return nullExplained ? "" : path + " (null)";
    if (j.is_number_float() && !std::isfinite(j.get<double>()))
        return path;
    if (j.is_object() || j.is_array()) {
        size_t index = 0;
        for (auto it = j.begin(); it != j.end(); ++it, ++index) {
            const std::string child =
                path + "/" + (j.is_object() ? it.key() : std::to_string(index));
            const bool explained = j.is_object() && j.contains("null_because");
            if (std::string bad = firstNonFinite(*it, child, explained); !bad.empty())
                return bad;
        }
    }
    return "";
}

inline QString qs(const std::string& s)
{
    return QString::fromStdString(s);
}

// Writes a JSON object of more than 50 MB: `members` (ending in a comma) and then a padding
// string, generated at run time so no such file is ever committed. Returns the file's size.
inline qint64 writeLargeJson(const QString& path, const QByteArray& members)
{
    QFile large(path);
    if (!large.open(QIODevice::WriteOnly))
        return -1;
    large.write("{" + members + " \"padding\": \"");
    const QByteArray chunk(1 << 20, 'x');
    for (int i = 0; i < 50; ++i)
        large.write(chunk);
    large.write("\"}\n");
    large.close();
    return large.size();
}

// The catalog as a user's data directory holding one catalog file (`catalog/NAME` with
// `content`) sees it, ahead of the shipped data; for hostile-file tests.
struct CatalogWithUserFile
{
    Catalog catalog;
    QStringList problems; // those naming the file
};
inline CatalogWithUserFile catalogWithUserFile(const QString& name, const QString& content)
{
    QTemporaryDir dir;
    QDir(dir.path()).mkpath(QStringLiteral("catalog"));
    QFile file(dir.filePath(QStringLiteral("catalog/") + name));
    if (file.open(QIODevice::WriteOnly))
        file.write(content.toUtf8());
    file.close();
    std::vector<std::filesystem::path> dirs{dir.path().toStdString()};
    for (const auto& d : defaultDataDirs(QCoreApplication::applicationFilePath().toStdString()))
        dirs.push_back(d);
    CatalogWithUserFile out{loadCatalog(dirs), {}};
    for (const std::string& line : out.catalog.problems)
        if (line.find(name.toStdString()) != std::string::npos)
            out.problems << QString::fromStdString(line);
    return out;
}

} // namespace kvscope::test

Q_DECLARE_METATYPE(kvscope::test::Mutation)
