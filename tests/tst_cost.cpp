// SPDX-License-Identifier: GPL-3.0-or-later
// What a configuration costs: on the rent basis the catalog's rental price per GPU-hour; on the
// own basis the purchase price written off, the host's share, power and colocation; a user's
// prices file over the catalog's, hostile entries refused.
#include "kvscope/planning/cost.h"
#include "kvscope/planning/verdict.h"
#include "kvscope/settings/scenario_defaults.h"
#include "kvscope/settings/scenario_options.h"
#include "suite_registry.h"
#include "testutils.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <filesystem>

using namespace kvscope;

using test::Checked;

class TestCost : public QObject
{
    Q_OBJECT

private slots:
    void costFollowsThePrices()
    {
        // RTX 4090, rented (the default basis): RunPod's $0.34 an hour (catalog).
        const Checked c = test::checked({});
        QCOMPARE(c.scenario.gpu.prices.rental.usdPerHour, 0.34);
        const Cost cost = costOf(c.scenario, c.evaluation, c.verdict.runs);
        QCOMPARE(cost.basis, CostBasis::Rent);
        QVERIFY(qFuzzyCompare(cost.perHour, 0.34));
        // Output tokens at the batch's decode rate; prompt tokens at the prefill rate of the
        // context's compute (each prompt after the first pays only that); the two at the
        // workload's mix, 1,024 prompt tokens to 256 output tokens.
        const double output = cost.perHour / (c.evaluation.decode.tokensPerS * 3600) * 1e6;
        QVERIFY(qFuzzyCompare(cost.perMillionOutputTokens, output));
        const double promptPerS =
            2048.0 / (c.evaluation.breakeven.prefillComputeMs / 1000.0); // context 2,048
        const double prompt = cost.perHour / (promptPerS * 3600) * 1e6;
        QVERIFY(qFuzzyCompare(cost.perMillionPromptTokens, prompt));
        QVERIFY(prompt < output / 10); // a prefill reads the weights once for every token
        QVERIFY(qFuzzyCompare(cost.perMillionTokens, (1024 * prompt + 256 * output) / 1280));
        // Owned: bought at $1,599, written off over 3 years of 8,766 hours, with its power
        // (450 W x 1.0 x PUE 1.54 x $0.15/kWh), colocation ($184.06 per kW-month for 0.45 kW)
        // and the desktop around it ($623, gpu_prices.json), written off alike.
        const Checked own = test::checked({{"cost-basis", "own"}});
        QCOMPARE(own.scenario.gpu.prices.purchase.usd, 1599.0);
        const Cost owned = costOf(own.scenario, own.evaluation, own.verdict.runs);
        QCOMPARE(owned.basis, CostBasis::Own);
        const double tdpKw = own.scenario.gpu.tdpW / 1000;
        QCOMPARE(tdpKw, 0.45);
        const double expected = (1599.0 + 623.0) / (3 * 8766.0) + tdpKw * 1.54 * 0.15 +
                                tdpKw * 184.06 * 12 / (365.25 * 24);
        QVERIFY2(qFuzzyCompare(owned.perHour, expected), std::to_string(owned.perHour).c_str());
        QVERIFY(qFuzzyCompare(owned.owning.total(), expected));
        // A GPU with no price on the basis has no cost: the A10 is only rented in the catalog.
        const Checked a10 = test::checked({{"gpu", "a10"}, {"cost-basis", "own"}});
        QVERIFY(!costOf(a10.scenario, a10.evaluation, a10.verdict.runs).known);
        // Rented by the hour: an A100 80GB at the catalog's rate, x 2 GPUs, in yen at 150.
        const Checked a = test::checked(
            {{"gpu", "a100-80gb"}, {"gpus", "2"}, {"currency", "JPY"}, {"usd-rate", "150"}});
        QCOMPARE(a.scenario.gpu.prices.rental.kind, GpuPrice::Kind::Rental);
        const Cost yen = costOf(a.scenario, a.evaluation, a.verdict.runs);
        QVERIFY(qFuzzyCompare(yen.perHour, a.scenario.gpu.prices.rental.usdPerHour * 2 * 150));
        // Yen without a rate would show dollars as yen: refused, naming the setting.
        Scenario bad = c.scenario;
        bad.cost.currency = "JPY";
        auto e = evaluate(bad);
        QVERIFY(!e);
        QCOMPARE(e.error().field, std::string("usd_rate"));
        QVERIFY(!scenarioFromOptions({{"currency", "JPY"}}, test::catalog()));
    }

    // A user's prices file overrides the catalog's by GPU id; hostile entries are skipped and
    // named in the catalog's problems, never applied, never a crash or a NaN cost.
    void userPricesOverrideAndHostileEntriesAreRefused()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QDir(dir.path()).mkpath(QStringLiteral("catalog"));
        QFile f(dir.filePath(QStringLiteral("catalog/gpu_prices.json")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(R"({"prices": [
            {"gpu": "rtx-4090", "kind": "rental", "usd_per_gpu_hour": 0.5, "source": "my quote"},
            {"gpu": "a100-80gb", "kind": "rental", "usd_per_gpu_hour": "cheap", "source": "x"},
            {"gpu": "h100-sxm", "kind": "rental", "usd_per_gpu_hour": -3, "source": "x"},
            {"gpu": "h200", "kind": "lease", "usd": 5, "source": "x"},
            {"gpu": "b200", "kind": "purchase", "source": "x"},
            {"gpu": "l4", "kind": "purchase", "usd": 1e300, "source": "x"},
            {"kind": "rental", "usd_per_gpu_hour": 1, "source": "x"},
            [1, 2], "text", null
        ], "owning": [
            {"id": "pue", "value": 1.2, "source": "my facility"},
            {"id": "electricity_usd_per_kwh", "value": "cheap", "source": "x"},
            {"id": "utilization", "value": -1, "source": "x"},
            {"id": "hosting_usd_per_kw_month", "value": 100},
            {"id": "rent_usd", "value": 5, "source": "x"},
            7, null
        ]})");
        f.close();
        std::vector<std::filesystem::path> dirs{dir.path().toStdString()};
        for (const auto& d : defaultDataDirs(QCoreApplication::applicationFilePath().toStdString()))
            dirs.push_back(d);
        const Catalog c = loadCatalog(dirs);
        QCOMPARE(c.gpu("rtx-4090")->prices.rental.kind, GpuPrice::Kind::Rental);
        QCOMPARE(c.gpu("rtx-4090")->prices.rental.usdPerHour, 0.5);
        // The refused ones keep the shipped price.
        for (const char* id : {"a100-80gb", "h100-sxm", "h200", "b200", "l4"})
            QCOMPARE(c.gpu(id)->prices.rental.source, test::gpu(id).prices.rental.source);
        int named = 0;
        for (const std::string& p : c.problems)
            named += p.find("gpu_prices.json") != std::string::npos;
        QVERIFY2(named >= 15, std::to_string(named).c_str());
        // The user's PUE replaces the catalog's; the refused owning costs keep theirs.
        const Scenario own = defaultScenario(c).value();
        QCOMPARE(own.cost.pue, 1.2);
        QCOMPARE(own.cost.electricityUsdPerKwh, 0.15);
        QCOMPARE(own.cost.utilization, 1.0);
        QVERIFY(qFuzzyCompare(own.cost.hostingUsdPerKwMonth, 184.06));
        for (const GpuSpec& g : c.gpus)
            for (const GpuPrice* price : {&g.prices.rental, &g.prices.purchase})
                QVERIFY(std::isfinite(gpuUsdPerHour(*price, 3)) && gpuUsdPerHour(*price, 3) >= 0);
    }

    // An Apple machine is priced with the memory it has in the catalog, or not at all: the
    // $3,999 Mac Studio is the 96 GB M3 Ultra, not the catalog's 512 GB one, and ranked a model
    // needing 400 GB at the price of a machine that cannot hold it.
    void appleMachinesArePricedWithTheirMemory()
    {
        const Catalog& c = test::catalog();
        const GpuSpec m3 = test::gpu("m3-ultra");
        QCOMPARE(m3.memoryGiB, 512.0);
        QCOMPARE(m3.prices.purchase.usd, 9499.0);
        QCOMPARE(m3.prices.purchase.memoryGiB, 512.0);
        // The catalog's M2 Ultra is the 76-core, 192 GB machine: $3,999 for the base Mac Studio
        // + $1,000 for the 76-core GPU + $1,600 for 192 GB.
        QCOMPARE(test::gpu("m2-ultra").prices.purchase.usd, 6599.0);
        QCOMPARE(test::gpu("m2-ultra").prices.purchase.memoryGiB, 192.0);
        // Only the 36 GB M4 Max's price was found; the catalog's is the 128 GB machine.
        QVERIFY(!test::gpu("m4-max").prices.has(GpuPrice::Kind::Purchase));
        for (const GpuSpec& g : c.gpus)
            if (g.unifiedMemory && g.prices.has(GpuPrice::Kind::Purchase))
                QVERIFY2(g.prices.purchase.memoryGiB >= g.memoryGiB * 0.99, g.id.c_str());
    }
};

KVSCOPE_TEST_SUITE(TestCost, "tst_cost", kvscope::test::SuiteApp::Core)
#include "tst_cost.moc"
