// SPDX-License-Identifier: GPL-3.0-or-later
// Hugging Face models by id (--model hf:ORG/NAME[@REVISION]) against a local HTTP server the
// test starts (HF_ENDPOINT): a fetch, a gated model with and without HF_TOKEN, one that does not
// exist, the cache when offline or unreachable, and ids that are not ids. No internet needed.

#include "cli.h"
#include "hub_fetch.h"
#include "hub_request.h"
#include "suite_registry.h"
#include "testutils.h"

#include "kvscope/formats/hub_id.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <sstream>

using namespace kvscope;
using namespace Qt::StringLiterals;

// Named, not anonymous: TestHub holds a FakeHub, and a unity build compiles this file as a header.
namespace hub_fixture {

// Answers GET /ORG/NAME/resolve/REV/config.json: a public model, a gated one (401 without the
// token, 403 with a wrong one) and 404 for anything else. Records the last request.
class FakeHub : public QObject
{
public:
    FakeHub()
    {
        connect(&m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = m_server.nextPendingConnection())
                connect(s, &QTcpSocket::readyRead, this, [this, s] { answer(s); });
        });
        m_server.listen(QHostAddress::LocalHost);
    }
    QString url() const { return QStringLiteral("http://127.0.0.1:%1").arg(m_server.serverPort()); }
    QByteArray lastRequest;
    int requests = 0;

private:
    void answer(QTcpSocket* s)
    {
        const QByteArray request = s->readAll();
        lastRequest = request;
        ++requests;
        const QByteArray path = request.split(' ').value(1);
        if (path == "/kvscope-test/Slow-7B/resolve/main/config.json")
            return; // a Hub that never answers: only Cancel ends the wait
        const QByteArray config = test::qs(modelToText()).toUtf8();
        QByteArray status = "404 Not Found", body = R"({"error": "Repository Not Found"})";
        if (path == "/kvscope-test/Tiny-7B/resolve/main/config.json") {
            status = "200 OK";
            body = config;
        } else if (path == "/kvscope-test/Gated-7B/resolve/main/config.json") {
            const bool token = request.contains("Authorization: Bearer good-token");
            status = token                                ? "200 OK"
                     : request.contains("Authorization:") ? "403 Forbidden"
                                                          : "401 Unauthorized";
            body = token ? config : R"({"error": "gated"})";
        } else if (path == "/kvscope-test/Garbage-7B/resolve/main/config.json") {
            status = "200 OK";
            body = "<html>a captive portal</html>";
        } else if (path == "/kvscope-test/Array-7B/resolve/main/config.json") {
            status = "200 OK";
            body = "[1, 2, 3]";
        } else if (path == "/kvscope-test/Huge-7B/resolve/main/config.json") {
            status = "200 OK";
            body = "{\"pad\": \"" + QByteArray(5 << 20, 'x') + "\"}";
        }
        s->write("HTTP/1.1 " + status + "\r\nContent-Type: application/json\r\nContent-Length: " +
                 QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
        s->disconnectFromHost();
    }
    static std::string modelToText()
    {
        // Llama 2 7B's dimensions under another name, without hf_repo (the Hub's files have none).
        return R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama",
            "hidden_size": 4096, "intermediate_size": 11008, "num_attention_heads": 32,
            "num_hidden_layers": 32, "num_key_value_heads": 32, "vocab_size": 32000,
            "max_position_embeddings": 4096, "tie_word_embeddings": false})";
    }

    QTcpServer m_server;
};

} // namespace hub_fixture

using namespace hub_fixture;

class TestHub : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QVERIFY(m_cache.isValid());
        qputenv("XDG_CACHE_HOME", m_cache.path().toUtf8());
        qputenv("HF_ENDPOINT", m_hub.url().toUtf8());
        qunsetenv("HF_TOKEN");
        qunsetenv("HF_HUB_OFFLINE");
        cli::setModelResolver(hub::resolveForCli);
    }

    void idsFollowTheHubGrammar_data()
    {
        QTest::addColumn<QString>("value");
        QTest::addColumn<bool>("valid");
        QTest::newRow("org/name") << "hf:meta-llama/Llama-3.1-8B" << true;
        QTest::newRow("revision") << "hf:Qwen/Qwen3-8B@refs/pr/3" << true;
        QTest::newRow("no slash") << "hf:llama" << false;
        QTest::newRow("two slashes") << "hf:a/b/c" << false;
        QTest::newRow("dot dot") << "hf:a/../etc" << false;
        QTest::newRow("space") << "hf:a/b c" << false;
        QTest::newRow("empty revision") << "hf:a/b@" << false;
        QTest::newRow("leading dash") << "hf:-a/b" << false;
        QTest::newRow("too long") << u"hf:a/"_s + QString(97, QLatin1Char('x')) << false;
    }
    void idsFollowTheHubGrammar()
    {
        QFETCH(QString, value);
        QFETCH(bool, valid);
        QCOMPARE(parseHubId(value.toStdString()).ok(), valid);
    }

    void fetchesAndCachesAConfig()
    {
        const auto r = run({"calc", "--json", "--model", "hf:kvscope-test/Tiny-7B"});
        QVERIFY2(r.code == 0, r.err.c_str());
        const auto j = nlohmann::json::parse(r.out);
        QCOMPARE(j["scenario"]["model"].get<std::string>(), std::string("tiny-7b"));
        // Llama 2 7B's 6,738,415,616 parameters at FP16.
        QCOMPARE(j["weights"]["all_gpus_bytes"].get<double>(), 13'476'831'232.0);
        QVERIFY(m_hub.lastRequest.startsWith("GET /kvscope-test/Tiny-7B/resolve/main/config.json"));
        QVERIFY(!m_hub.lastRequest.contains("Authorization"));
        QVERIFY(QFile::exists(m_cache.filePath(u"kvscope/hub/kvscope-test/Tiny-7B/config.json"_s)));
        // The launch command names the repository, not the cache folder.
        const auto launch =
            run({"launch", "--model", "hf:kvscope-test/Tiny-7B", "--engine", "vllm"});
        QVERIFY2(launch.out.find("vllm serve kvscope-test/Tiny-7B") != std::string::npos,
                 launch.out.c_str());
    }

    void gatedModelsNeedAToken()
    {
        auto r = run({"calc", "--model", "hf:kvscope-test/Gated-7B"});
        QCOMPARE(r.code, cli::exitBadInput);
        QVERIFY2(r.err.find("HF_TOKEN") != std::string::npos &&
                     r.err.find("HTTP 401") != std::string::npos,
                 r.err.c_str());
        qputenv("HF_TOKEN", "wrong-token");
        r = run({"calc", "--model", "hf:kvscope-test/Gated-7B"});
        QVERIFY2(r.code == cli::exitBadInput && r.err.find("HTTP 403") != std::string::npos &&
                     r.err.find("licence") != std::string::npos,
                 r.err.c_str());
        qputenv("HF_TOKEN", "good-token");
        r = run({"calc", "--model", "hf:kvscope-test/Gated-7B"});
        qunsetenv("HF_TOKEN");
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY(m_hub.lastRequest.contains("Authorization: Bearer good-token"));
    }

    void missingModelsAreNamed()
    {
        const auto r = run({"calc", "--model", "hf:kvscope-test/No-Such-Model@v2"});
        QCOMPARE(r.code, cli::exitBadInput);
        QVERIFY2(r.err.rfind("kvscope-cli: model: got hf:kvscope-test/No-Such-Model@v2", 0) == 0 &&
                     r.err.find("HTTP 404") != std::string::npos,
                 r.err.c_str());
    }

    void offlineUsesTheCacheAndSaysSo()
    {
        QVERIFY(run({"calc", "--model", "hf:kvscope-test/Tiny-7B"}).code == 0); // cached
        const int before = m_hub.requests;
        qputenv("HF_HUB_OFFLINE", "1");
        auto r = run({"calc", "--model", "hf:kvscope-test/Tiny-7B"});
        QVERIFY2(r.code == 0, r.err.c_str());
        QVERIFY2(r.err.find("note:") != std::string::npos &&
                     r.err.find("HF_HUB_OFFLINE") != std::string::npos,
                 r.err.c_str());
        QCOMPARE(m_hub.requests, before); // nothing was asked of the Hub
        r = run({"calc", "--model", "hf:kvscope-test/Never-Fetched"});
        qunsetenv("HF_HUB_OFFLINE");
        QCOMPARE(r.code, cli::exitBadInput);
        QVERIFY2(r.err.find("cache") != std::string::npos, r.err.c_str());
    }

    // check-log --hub: a vLLM log naming a model the catalog lacks by its Hub id gets that
    // model's config.json, and every figure a prediction; only when asked, and never for a
    // model the catalog has or a log that names none.
    void aLogsModelComesFromTheHubWhenAsked()
    {
        QTemporaryDir dir;
        const QString log = dir.filePath(u"vllm.log"_s);
        QVERIFY(writeText(
            log,
            "INFO 04-07 06:07:16 [core.py:53] Initializing a V1 LLM engine (v0.8.1) with config: "
            "model='kvscope-test/Tiny-7B', tokenizer='kvscope-test/Tiny-7B', "
            "dtype=torch.float16, max_seq_len=4096, tensor_parallel_size=1, "
            "enforce_eager=False\n"
            "INFO 04-07 06:07:30 [kv_cache_utils.py:537] GPU KV cache size: 100,000 tokens\n"));
        const std::string path = log.toStdString();
        const int before = m_hub.requests;
        // Not asked: the logged figure is listed unpredicted, with the option that would read it.
        auto unasked = run({"check-log", path, "--gpu", "h100-sxm"});
        QVERIFY2(unasked.code == 0, unasked.err.c_str());
        QVERIFY2(unasked.out.find("--hub (or --model hf:kvscope-test/Tiny-7B)") !=
                     std::string::npos,
                 unasked.out.c_str());
        QCOMPARE(m_hub.requests, before); // not asked: the network is not read

        auto asked = run({"check-log", path, "--gpu", "h100-sxm", "--hub", "--json"});
        QVERIFY2(asked.code == 0, asked.err.c_str());
        const auto j = nlohmann::json::parse(asked.out);
        QVERIFY(j["predicted"].get<bool>());
        const auto& row = j["figures"][0];
        QCOMPARE(row["id"].get<std::string>(), std::string("kv_cache_tokens"));
        // The prediction is the one --model hf: gives for the scenario the log states (Llama 2
        // 7B's shape, 122,672 tokens on an H100 SXM).
        auto calc = run({"calc", "--json", "--model", "hf:kvscope-test/Tiny-7B", "--gpu",
                         "h100-sxm", "--engine", "vllm", "--engine-version", "0.8.1", "--context",
                         "4096", "--weights", "fp16"});
        QVERIFY2(calc.code == 0, calc.err.c_str());
        const double expected =
            nlohmann::json::parse(calc.out)["engine"]["kv_cache_tokens"].get<double>();
        QCOMPARE(row["predicted"].get<double>(), expected);
        QCOMPARE(expected, 122'672.0);

        auto twice = run({"check-log", path, "--hub", "--model", "llama-2-7b"});
        QCOMPARE(twice.code, cli::exitBadInput);
        QVERIFY2(twice.err.find("--hub") != std::string::npos, twice.err.c_str());
        const QString unnamed = dir.filePath(u"unnamed.log"_s);
        QVERIFY(writeText(
            unnamed,
            "INFO 04-07 06:07:30 [kv_cache_utils.py:537] GPU KV cache size: 100 tokens\n"));
        auto none = run({"check-log", unnamed.toStdString(), "--hub"});
        QCOMPARE(none.code, cli::exitBadInput);
        QVERIFY2(none.err.find("Hugging Face id") != std::string::npos, none.err.c_str());
        // A model the catalog has is the catalog's: nothing is fetched.
        const int fetched = m_hub.requests;
        auto known = run({"check-log",
                          KVSCOPE_TEST_DATA_DIR "/data/logs/vllm-pr12569-llama3.1-70b-w8a8-v1-"
                                                "gpu-blocks.log",
                          "--gpu", "h100-sxm", "--hub"});
        QVERIFY2(known.code == 0, known.err.c_str());
        QCOMPARE(m_hub.requests, fetched);
    }

    void anUnreachableHubFallsBackToTheCache()
    {
        QVERIFY(run({"calc", "--model", "hf:kvscope-test/Tiny-7B"}).code == 0);
        qputenv("HF_ENDPOINT", "http://127.0.0.1:1"); // nothing listens there
        auto r = run({"calc", "--model", "hf:kvscope-test/Tiny-7B"});
        QVERIFY2(r.code == 0 && r.err.find("could not be reached") != std::string::npos,
                 r.err.c_str());
        r = run({"calc", "--model", "hf:kvscope-test/Never-Fetched"});
        qputenv("HF_ENDPOINT", m_hub.url().toUtf8());
        QCOMPARE(r.code, cli::exitBadInput);
        QVERIFY2(r.err.find("reachable Hub") != std::string::npos, r.err.c_str());
    }

    void hostileResponsesAreRefusedAndNotCached_data()
    {
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("accepted");
        QTest::newRow("not JSON") << "hf:kvscope-test/Garbage-7B"
                                  << "is a config.json";
        QTest::newRow("an array") << "hf:kvscope-test/Array-7B"
                                  << "is a config.json";
        QTest::newRow("5 MiB") << "hf:kvscope-test/Huge-7B"
                               << "at most 4 MiB";
    }
    void hostileResponsesAreRefusedAndNotCached()
    {
        QFETCH(QString, id);
        QFETCH(QString, accepted);
        const auto r = run({"calc", "--model", id.toStdString()});
        QVERIFY2(r.err.find(accepted.toStdString()) != std::string::npos, r.err.c_str());
        QCOMPARE(r.code, cli::exitBadInput);
        QVERIFY2(r.err.rfind("kvscope-cli: model: got " + id.toStdString(), 0) == 0 &&
                     std::count(r.err.begin(), r.err.end(), '\n') == 1,
                 r.err.c_str());
        const QString folder = id.mid(3).section(QLatin1Char('/'), 1);
        QVERIFY(!QFile::exists(m_cache.filePath(u"kvscope/hub/kvscope-test/"_s + folder)));
    }

    void malformedIdsAreRefusedBeforeAnyRequest()
    {
        const int before = m_hub.requests;
        const auto r = run({"calc", "--model", "hf:not an id"});
        QCOMPARE(r.code, cli::exitBadInput);
        QVERIFY2(r.err.find("hf:ORG/NAME") != std::string::npos, r.err.c_str());
        QCOMPARE(m_hub.requests, before);
    }

    // The window's route: asynchronous, with progress, the same cache and answers as the CLI.
    void asyncRequestReportsProgressAndCaches()
    {
        QFile::remove(m_cache.filePath(u"kvscope/hub/kvscope-test/Tiny-7B/config.json"_s));
        hub::HubConfigRequest request;
        QSignalSpy progress(&request, &hub::HubConfigRequest::progress);
        QSignalSpy finished(&request, &hub::HubConfigRequest::finished);
        request.start("hf:kvscope-test/Tiny-7B");
        QVERIFY(!request.isFinished()); // the window's event loop runs on meanwhile
        QVERIFY(finished.wait(10000));
        QVERIFY(!request.cancelled());
        QVERIFY(request.result() && request.result()->ok());
        QVERIFY(QFile::exists(QString::fromStdString((*request.result())->path)));
        QVERIFY(!progress.isEmpty());
        QVERIFY(progress.last().at(0).toLongLong() > 0);
    }

    void cancelEndsARequestTheHubNeverAnswers()
    {
        hub::HubConfigRequest request;
        QSignalSpy finished(&request, &hub::HubConfigRequest::finished);
        request.start("hf:kvscope-test/Slow-7B");
        QTest::qWait(200);
        QCOMPARE(finished.count(), 0);
        request.cancel();
        QVERIFY(finished.wait(5000));
        QVERIFY(request.cancelled());
        QVERIFY(!request.result());
        QVERIFY(
            !QFile::exists(m_cache.filePath(u"kvscope/hub/kvscope-test/Slow-7B/config.json"_s)));
    }

    void answersKnownAtOnceStillArriveThroughFinished()
    {
        hub::HubConfigRequest request;
        QSignalSpy finished(&request, &hub::HubConfigRequest::finished);
        request.start("hf:not an id");
        QCOMPARE(finished.count(), 0); // a caller may connect after start()
        QVERIFY(finished.wait(5000));
        QVERIFY(request.result() && !request.result()->ok());
        QCOMPARE(request.result()->error().field, std::string("model"));
    }

private:
    static bool writeText(const QString& path, const QByteArray& text)
    {
        QFile file(path);
        return file.open(QIODevice::WriteOnly) && file.write(text) == text.size();
    }
    struct Result
    {
        int code = 0;
        std::string out, err;
    };
    Result run(const std::vector<std::string>& args)
    {
        std::ostringstream out, err;
        Result r;
        r.code = cli::run(args, test::catalog(), out, err);
        r.out = out.str();
        r.err = err.str();
        return r;
    }

    QTemporaryDir m_cache;
    FakeHub m_hub;
};

KVSCOPE_TEST_SUITE(TestHub, "tst_hub", kvscope::test::SuiteApp::Core)
#include "tst_hub.moc"
