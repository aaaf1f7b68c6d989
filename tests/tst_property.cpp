// SPDX-License-Identifier: GPL-3.0-or-later
// Properties over the whole catalog: every preset model x every GPU x every weight format x
// batch 1, 8, 256 x every KV placement,
//  - at contexts on a log grid up to 10^7 tokens: every number finite and non-negative (the
//    documented signed fields aside), KV total and decode times never fall as context grows, and
//    overlapping the KV copy with the GPU's step is never slower than not (pipelined <= serial);
//  - at GPU memory on a log grid (the rest fixed): tokens that fit never fall as memory grows.
//
// KVSCOPE_PROPERTY_THIN=N keeps every N-th GPU and every N-th weight format (all models, contexts,
// batches and placements stay): the asan CI run sets it, as a sanitized build is ~30x slower.

#include "evaluation_checks.h"
#include "suite_registry.h"
#include "testutils.h"

#include <QtTest>

#include <array>
#include <vector>

using namespace kvscope;
using namespace kvscope::test;
using namespace Qt::StringLiterals;

namespace {

constexpr std::array<int64_t, 3> kBatches{1, 8, 256};
constexpr std::array<KvPlacement, 4> kPlacements{KvPlacement::Gpu, KvPlacement::CpuRam,
                                                 KvPlacement::Nvme, KvPlacement::Sata};
constexpr int64_t kMemorySweepContext = 8192;

// 1, 2, 5, 10, 20, 50, ... 10^7: three points a decade.
std::vector<int64_t> contextGrid()
{
    std::vector<int64_t> grid;
    for (int64_t decade = 1; decade <= 10'000'000; decade *= 10)
        for (int64_t step : {1, 2, 5})
            if (decade * step <= 10'000'000)
                grid.push_back(decade * step);
    return grid;
}

// 1 GiB to 1 TiB, doubling.
std::vector<double> memoryGrid()
{
    std::vector<double> grid;
    for (double gib = 1; gib <= 1024; gib *= 2)
        grid.push_back(gib);
    return grid;
}

template <typename T> std::vector<T> everyNth(const std::vector<T>& all, int n)
{
    std::vector<T> kept;
    for (size_t i = 0; i < all.size(); i += size_t(n))
        kept.push_back(all[i]);
    return kept;
}

QString describe(const Scenario& s)
{
    return QStringLiteral("%1 / %2 / %3 / context %4 / batch %5 / KV %6 / %7 GiB")
        .arg(qs(s.model.id), qs(s.gpu.id), qs(s.weights.id))
        .arg(s.context)
        .arg(s.batch)
        .arg(QString::fromUtf8(kvPlacementId(s.kvPlacement)))
        .arg(s.gpu.memoryGiB);
}

// The decode figures that must not fall as the context grows.
std::array<double, 7> decodeTimes(const Evaluation& e)
{
    const DecodeTiming& d = e.decode;
    return {d.tierMs[0], d.tierMs[1], d.tierMs[2], d.tierMs[3], d.tierMs[4], d.selectedMs, d.gpuMs};
}

// The token counts that must not fall as memory grows.
std::array<int64_t, 6> fittingTokens(const Evaluation& e)
{
    const TokensFit& t = e.tokensFit;
    return {t.model, t.mha, t.gqa, t.mqa, t.perSequence, t.maxConcurrency};
}

} // namespace

class TestProperty : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void contextSweep();
    void memorySweep();

private:
    int m_thin = 1;
    std::vector<GpuSpec> m_gpus;
    std::vector<WeightFormat> m_formats;
};

void TestProperty::initTestCase()
{
    bool ok = false;
    const int thin = qEnvironmentVariableIntValue("KVSCOPE_PROPERTY_THIN", &ok);
    m_thin = ok && thin > 1 ? thin : 1;
    m_gpus = everyNth(catalog().gpus, m_thin);
    m_formats = everyNth(catalog().weightFormats, m_thin);
    QVERIFY(catalog().models.size() >= 30);
    QVERIFY(catalog().gpus.size() >= 30);
    QVERIFY(catalog().weightFormats.size() >= 15);
    if (m_thin > 1)
        qInfo("KVSCOPE_PROPERTY_THIN=%d: %zu of %zu GPUs, %zu of %zu weight formats", m_thin,
              m_gpus.size(), catalog().gpus.size(), m_formats.size(),
              catalog().weightFormats.size());
}

void TestProperty::contextSweep()
{
    const std::vector<int64_t> contexts = contextGrid();
    QCOMPARE(contexts.back(), int64_t(10'000'000));
    const EvaluateOptions options{.breakevenCrossings = false};
    int64_t checked = 0;
    Scenario s = scenario();
    for (const ModelSpec& model : catalog().models) {
        s.model = model;
        for (const GpuSpec& gpu : m_gpus) {
            s.gpu = gpu;
            for (const WeightFormat& format : m_formats) {
                s.weights = format;
                for (int64_t batch : kBatches) {
                    s.batch = batch;
                    for (KvPlacement placement : kPlacements) {
                        s.kvPlacement = placement;
                        double lastKv = 0;
                        std::array<double, 7> lastTimes{};
                        for (int64_t context : contexts) {
                            s.context = context;
                            const auto e = evaluate(s, options);
                            if (!e)
                                QFAIL(qPrintable(describe(s) + u": "_s + qs(e.error().message())));
                            if (const std::string bad = firstBadNumber(*e); !bad.empty())
                                QFAIL(qPrintable(describe(s) + u": "_s + qs(bad)));
                            if (e->kv.totalBytes < lastKv)
                                QFAIL(qPrintable(describe(s) + QStringLiteral(": KV total fell"
                                                                              " from %1 to %2")
                                                                   .arg(lastKv)
                                                                   .arg(e->kv.totalBytes)));
                            const auto& tier = e->decode.tierMs;
                            if (tier[size_t(Tier::CpuPipelined)] >
                                tier[size_t(Tier::CpuSerial)] * (1 + 1e-12))
                                QFAIL(qPrintable(describe(s) +
                                                 u": pipelined is slower than serial"_s));
                            const std::array<double, 7> times = decodeTimes(*e);
                            for (size_t i = 0; i < times.size(); ++i)
                                if (times[i] < lastTimes[i])
                                    QFAIL(qPrintable(
                                        describe(s) +
                                        QStringLiteral(": decode time %1 fell from %2 to %3")
                                            .arg(i)
                                            .arg(lastTimes[i])
                                            .arg(times[i])));
                            lastKv = e->kv.totalBytes;
                            lastTimes = times;
                            ++checked;
                        }
                    }
                }
            }
        }
    }
    const int64_t expected = int64_t(catalog().models.size() * m_gpus.size() * m_formats.size() *
                                     contexts.size() * kBatches.size() * kPlacements.size());
    qInfo("context sweep: %lld combinations (%zu models x %zu GPUs x %zu formats x %zu contexts"
          " x %zu batches x %zu placements)",
          static_cast<long long>(checked), catalog().models.size(), m_gpus.size(), m_formats.size(),
          contexts.size(), kBatches.size(), kPlacements.size());
    QCOMPARE(checked, expected);
    QVERIFY(checked >= (m_thin > 1 ? 100'000 : 1'000'000));
}

void TestProperty::memorySweep()
{
    const std::vector<double> memory = memoryGrid();
    const EvaluateOptions options{.breakevenCrossings = false};
    int64_t checked = 0;
    Scenario s = scenario();
    s.context = kMemorySweepContext;
    for (const ModelSpec& model : catalog().models) {
        s.model = model;
        for (const GpuSpec& gpu : m_gpus) {
            s.gpu = gpu;
            for (const WeightFormat& format : m_formats) {
                s.weights = format;
                for (int64_t batch : kBatches) {
                    s.batch = batch;
                    for (KvPlacement placement : kPlacements) {
                        s.kvPlacement = placement;
                        std::array<int64_t, 6> last{};
                        for (double gib : memory) {
                            s.gpu.memoryGiB = gib;
                            const auto e = evaluate(s, options);
                            if (!e)
                                QFAIL(qPrintable(describe(s) + u": "_s + qs(e.error().message())));
                            if (const std::string bad = firstBadNumber(*e); !bad.empty())
                                QFAIL(qPrintable(describe(s) + u": "_s + qs(bad)));
                            const std::array<int64_t, 6> fit = fittingTokens(*e);
                            for (size_t i = 0; i < fit.size(); ++i)
                                if (fit[i] < last[i])
                                    QFAIL(qPrintable(
                                        describe(s) +
                                        QStringLiteral(": tokens that fit (%1) fell from %2 to %3")
                                            .arg(i)
                                            .arg(last[i])
                                            .arg(fit[i])));
                            last = fit;
                            ++checked;
                        }
                    }
                }
            }
        }
    }
    const int64_t expected = int64_t(catalog().models.size() * m_gpus.size() * m_formats.size() *
                                     memory.size() * kBatches.size() * kPlacements.size());
    qInfo("memory sweep: %lld combinations (%zu models x %zu GPUs x %zu formats x %zu sizes"
          " x %zu batches x %zu placements)",
          static_cast<long long>(checked), catalog().models.size(), m_gpus.size(), m_formats.size(),
          memory.size(), kBatches.size(), kPlacements.size());
    QCOMPARE(checked, expected);
    QVERIFY(checked >= (m_thin > 1 ? 50'000 : 500'000));
}

KVSCOPE_TEST_SUITE(TestProperty, "tst_property", kvscope::test::SuiteApp::Core)
#include "tst_property.moc"
