// SPDX-License-Identifier: GPL-3.0-or-later
// Tools > Check a start-up log, offscreen: a cited log in, its figures in the table, the window's
// GPU standing in where the log names none, "Use this scenario" and "Calibrate to this log"
// through the controller, refusals in words, Japanese, and a laptop screen.
//
// KVSCOPE_SCREENSHOT_DIR=/some/dir also saves the dialog as PNGs for a person to look at.

#include "suite_registry.h"
#include "window_fixture.h"

#include "panels/log_check_dialog.h"
#include "validation/validation_menus.h"
#include "window/ui_text.h"

#include <QAbstractButton>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QRegularExpression>
#include <QScrollBar>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QToolButton>
#include <QtTest>

using namespace kvscope;
using namespace kvscope::test;
using namespace kvscope::ui;
using namespace Qt::StringLiterals;

namespace {

QString logPath(const char* name)
{
    return QStringLiteral(KVSCOPE_TEST_DATA_DIR "/data/logs/") + QLatin1String(name);
}

void saveDialogShot(QWidget* widget, const QString& name)
{
    const QString dir = qEnvironmentVariable("KVSCOPE_SCREENSHOT_DIR");
    QCoreApplication::processEvents(); // the layout follows the last check
    if (!dir.isEmpty())
        QVERIFY(widget->grab().save(dir + u'/' + name + u".png"_s));
}

QAbstractButton* button(QDialog& dialog, const QString& text)
{
    for (QAbstractButton* b : dialog.findChildren<QAbstractButton*>())
        if (b->text() == text)
            return b;
    return nullptr;
}

QString summary(QDialog& dialog)
{
    return dialog.findChild<QLabel*>(QStringLiteral("logSummary"))->text();
}

} // namespace

class TestLogCheckUi : public QObject
{
    Q_OBJECT

private slots:
    void init() { m_fixture.open(); }
    void cleanup() { m_fixture.close(); }

    void toolsMenuOpensIt()
    {
        auto* menus = m_fixture.window->findChild<ValidationMenus*>();
        QVERIFY(menus && menus->checkLogAction());
        QCOMPARE(menus->checkLogAction()->text(), QStringLiteral("Check a &start-up log..."));
    }

    // vLLM V0 on an A100 (the window's GPU, as the log names none): nine figures, each
    // beside the evaluation of the scenario the log describes.
    void readsALogIntoTheTable()
    {
        QVERIFY(m_fixture.change({{"gpu", "a100-80gb"}}));
        LogCheckDialog dialog(m_fixture.controller.get(), m_fixture.window.get());
        dialog.show();
        QVERIFY(dialog.openLogFile(logPath("vllm-phi4-gptq4bit-a100-david-share.log")));
        QVERIFY(dialog.check());
        QCOMPARE(dialog.check()->scenario.gpu.id, std::string("a100-80gb"));
        QCOMPARE(dialog.check()->scenario.model.id, std::string("phi-4"));
        QVERIFY(summary(dialog).contains(QStringLiteral("GPU: the log names none")));
        QTableWidget* table = dialog.table();
        QCOMPARE(table->rowCount(), 9);
        QCOMPARE(table->item(0, 0)->text(), QStringLiteral("GPU memory (one GPU)"));
        QCOMPARE(table->item(0, 1)->text(), QStringLiteral("79.25 GiB"));
        QCOMPARE(table->item(6, 0)->text(), QStringLiteral("KV cache blocks (one GPU)"));
        QCOMPARE(table->item(6, 1)->text(), QStringLiteral("715"));
        QCOMPARE(table->item(6, 2)->text(),
                 UiText::integer(dialog.check()->evaluation.engine.kvBlocks));
        QCOMPARE(table->item(6, 4)->text(), QStringLiteral("17"));
        // At the dialog's own size every column shows whole.
        QCoreApplication::processEvents();
        QCOMPARE(table->horizontalScrollBar()->maximum(), 0);
        saveDialogShot(&dialog, QStringLiteral("log-check-en"));
    }

    void useScenarioPutsItInTheWindow()
    {
        // The log states 67.7 GiB of weights on one GPU: the window's 24 GiB card cannot be
        // its GPU, so it does not stand in and nothing that depends on the GPU is predicted.
        QVERIFY(m_fixture.change({{"gpu", "rtx-4090"}}));
        LogCheckDialog dialog(m_fixture.controller.get(), m_fixture.window.get());
        QVERIFY(dialog.openLogFile(logPath("vllm-pr12569-llama3.1-70b-w8a8-v1-gpu-blocks.log")));
        QVERIFY(dialog.check()->assumes(LogAssumption::GpuNotNamed));
        QVERIFY(!button(dialog, QStringLiteral("Use this scenario"))->isEnabled());
        QVERIFY(m_fixture.change({{"gpu", "h100-sxm"}}));
        QVERIFY(dialog.openLogFile(logPath("vllm-pr12569-llama3.1-70b-w8a8-v1-gpu-blocks.log")));
        QVERIFY(button(dialog, QStringLiteral("Use this scenario"))->isEnabled());
        QVERIFY(dialog.useScenario());
        const Scenario& s = m_fixture.controller->scenario();
        QCOMPARE(s.model.id, std::string("llama-3.1-70b"));
        QCOMPARE(s.weights.id, std::string("int8"));
        QCOMPARE(s.context, int64_t(2048));
        QCOMPARE(s.engine.family, EngineFamily::Vllm);
    }

    // 1,381 blocks of 16 tokens: after calibrating, the window predicts that KV cache size.
    void calibrateToTheLog()
    {
        QVERIFY(m_fixture.change({{"gpu", "h100-sxm"}}));
        LogCheckDialog dialog(m_fixture.controller.get(), m_fixture.window.get());
        QVERIFY(dialog.openLogFile(logPath("vllm-pr12569-llama3.1-70b-w8a8-v1-gpu-blocks.log")));
        QCOMPARE(dialog.check()->loggedKvCacheTokens, 1381.0 * 16);
        QVERIFY(dialog.calibrate());
        m_fixture.controller->evaluateNow();
        QCOMPARE(m_fixture.controller->snapshot().evaluation.engine.kvCacheTokens,
                 int64_t(1381 * 16));
        QVERIFY(m_fixture.controller->scenario().calibration);
    }

    // Save as machine profile: the file in the user's data directory, the window on it; a name
    // no file can take is refused in the dialog.
    void saveAsMachineProfile()
    {
        QTemporaryDir home;
        const QByteArray previous = qgetenv("XDG_DATA_HOME");
        qputenv("XDG_DATA_HOME", home.path().toUtf8());
        QVERIFY(m_fixture.change({{"gpu", "h100-sxm"}}));
        LogCheckDialog dialog(m_fixture.controller.get(), m_fixture.window.get());
        QVERIFY(dialog.openLogFile(logPath("vllm-pr12569-llama3.1-70b-w8a8-v1-gpu-blocks.log")));
        QVERIFY(button(dialog, QStringLiteral("Save as machine profile..."))->isEnabled());
        const bool refused = !dialog.saveProfile(QStringLiteral("../escape"));
        const QString refusal = dialog.problemText();
        const bool saved = dialog.saveProfile(QStringLiteral("lab-h100"));
        const QString path = dialog.savedProfilePath();
        if (previous.isEmpty())
            qunsetenv("XDG_DATA_HOME");
        else
            qputenv("XDG_DATA_HOME", previous);
        QVERIFY(refused);
        QVERIFY(refusal.contains(QStringLiteral("profile")));
        QVERIFY(saved);
        QCOMPARE(path, home.path() + QStringLiteral("/kvscope/profiles/lab-h100.json"));
        QVERIFY(QFile::exists(path));
        QCOMPARE(m_fixture.controller->scenario().profile->id, std::string("lab-h100"));
        m_fixture.controller->evaluateNow();
        QCOMPARE(m_fixture.controller->snapshot().evaluation.engine.kvCacheTokens,
                 int64_t(1381 * 16));

        // The Advanced drawer lists it at once, for this GPU and engine only; "none" leaves it.
        auto* list = m_fixture.window->findChild<QComboBox*>(QStringLiteral("profile"));
        QVERIFY(list);
        QCOMPARE(list->count(), 2);
        QCOMPARE(list->currentData().toString(), QStringLiteral("lab-h100"));
        list->activated(0);
        QVERIFY(!m_fixture.controller->scenario().profile);
        QCOMPARE(list->currentIndex(), 0);
        list->activated(1);
        QCOMPARE(m_fixture.controller->scenario().profile->id, std::string("lab-h100"));
        m_fixture.window->resize(1280, 800);
        m_fixture.window->show();
        for (auto* toggle : m_fixture.window->findChildren<QToolButton*>())
            if (toggle->isCheckable() && !toggle->isChecked() &&
                toggle->arrowType() == Qt::RightArrow)
                toggle->setChecked(true); // the Advanced drawer, where the list is
        saveDialogShot(list->parentWidget(), u"profile-list"_s);
        QVERIFY(m_fixture.change({{"gpu", "a100-80gb"}}));
        QCOMPARE(list->count(), 1); // fitted on an H100: not offered on an A100
        QVERIFY(!list->isEnabled());
        QVERIFY(m_fixture.change({{"gpu", "h100-sxm"}}));
    }

    // A log naming a model the catalog lacks by its Hugging Face id: the dialog asks the window
    // for it (the app layer fetches; here a local config.json stands in for the Hub) and checks
    // the log against it once the window has it.
    void readsTheModelFromTheHub()
    {
        QTemporaryDir dir;
        const QString config = dir.filePath(u"config.json"_s);
        QFile file(config);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama",
            "hidden_size": 4096, "intermediate_size": 11008, "num_attention_heads": 32,
            "num_hidden_layers": 32, "num_key_value_heads": 32, "vocab_size": 32000,
            "max_position_embeddings": 4096, "torch_dtype": "float16"})");
        file.close();
        QVERIFY(m_fixture.change({{"gpu", "h100-sxm"}, {"model", "llama-2-7b"}}));
        LogCheckDialog dialog(m_fixture.controller.get(), m_fixture.window.get());
        QString asked;
        connect(&dialog, &LogCheckDialog::hubModelWanted, this, [&](const QString& id) {
            asked = id;
            m_fixture.window->importFetchedModel(config, QString());
        });
        dialog.setLogText(QStringLiteral(
            "INFO 04-07 06:07:16 [core.py:53] Initializing a V1 LLM engine (v0.8.1) with "
            "config: model='kvscope-test/Tiny-7B', dtype=torch.float16, max_seq_len=4096, "
            "tensor_parallel_size=1\n"
            "INFO 04-07 06:07:30 [kv_cache_utils.py:537] GPU KV cache size: 120,000 tokens\n"));
        QVERIFY(dialog.check() && !dialog.check()->predicted());
        QAbstractButton* read = button(dialog, QStringLiteral("Read the model from Hugging Face"));
        QVERIFY(read && read->isVisibleTo(&dialog) && read->isEnabled());
        QVERIFY(summary(dialog).contains(QStringLiteral("Read the model from Hugging Face")));
        read->click();
        QCOMPARE(asked, QStringLiteral("kvscope-test/Tiny-7B"));
        QVERIFY(dialog.check() && dialog.check()->predicted());
        QVERIFY(dialog.table()->item(0, 2) && !dialog.table()->item(0, 2)->text().isEmpty());
        QVERIFY(!read->isVisibleTo(&dialog));
        // A log whose model the catalog has offers nothing to read.
        QVERIFY(dialog.openLogFile(logPath("vllm-pr12569-llama3.1-70b-w8a8-v1-gpu-blocks.log")));
        QVERIFY(!read->isVisibleTo(&dialog));
    }

    // What cannot be checked says why, and nothing can be used or calibrated.
    void refusals()
    {
        LogCheckDialog dialog(m_fixture.controller.get(), m_fixture.window.get());
        QVERIFY(!button(dialog, QStringLiteral("Use this scenario"))->isEnabled());
        dialog.setLogText(QStringLiteral("hello\nworld\n"));
        QVERIFY(!dialog.check());
        QVERIFY(dialog.problemText().contains(QStringLiteral("log")));
        QVERIFY(!dialog.useScenario());
        QVERIFY(!dialog.calibrate());
        // A model the catalog lacks is never replaced by the window's catalog model: the
        // logged figures are listed with nothing predicted, and nothing can be used.
        QVERIFY(dialog.openLogFile(logPath("vllm-issue28228-kimi-linear-awq-tp2-2x3090.log")));
        QVERIFY(dialog.check());
        QVERIFY(!dialog.check()->predicted());
        QVERIFY(dialog.summaryText().contains(QStringLiteral("Kimi-Linear-48B")));
        QCOMPARE(dialog.table()->rowCount(), 3);
        QVERIFY(dialog.table()->item(0, 2)->text().isEmpty());
        QVERIFY(!button(dialog, QStringLiteral("Use this scenario"))->isEnabled());
        QVERIFY(!dialog.useScenario());
        QVERIFY(!dialog.openLogFile(logPath("no-such.log")));
        QVERIFY(!dialog.check());
        // A log with no figure: the scenario is there, the table is not.
        QVERIFY(dialog.openLogFile(logPath("tgi-issue832-llama2-13b-4shard-v1.0.log")));
        QVERIFY(dialog.check());
        QVERIFY(!dialog.table()->isVisibleTo(&dialog));
        QVERIFY(!button(dialog, QStringLiteral("Calibrate to this log"))->isEnabled());
    }

    void japanese()
    {
        m_fixture.window->setLanguage(QStringLiteral("ja"));
        QVERIFY(m_fixture.change({{"gpu", "h100-sxm"}}));
        LogCheckDialog dialog(m_fixture.controller.get(), m_fixture.window.get());
        dialog.show();
        QVERIFY(dialog.openLogFile(logPath("vllm-phi4-gptq4bit-a100-david-share.log")));
        saveDialogShot(&dialog, QStringLiteral("log-check-ja"));
        QStringList texts{dialog.windowTitle()};
        for (QLabel* label : dialog.findChildren<QLabel*>())
            texts << QString(label->text())
                         .remove(QRegularExpression(QStringLiteral("<[^>]*>")))
                         .remove(QChar(0x2060)) // the joiners of Japanese phrases
                         .replace(QChar(0x00A0), QLatin1Char(' '));
        for (QAbstractButton* b : dialog.findChildren<QAbstractButton*>())
            texts << b->text();
        for (int c = 0; c < dialog.table()->columnCount(); ++c)
            texts << dialog.table()->horizontalHeaderItem(c)->text();
        for (int r = 0; r < dialog.table()->rowCount(); ++r)
            texts << dialog.table()->item(r, 0)->text();
        // Engine names, units, and the settings as the command line spells them stay as they are.
        const QString model = QString::fromStdString(dialog.check()->scenario.model.name);
        const QString gpu = QString::fromStdString(dialog.check()->scenario.gpu.name);
        const QString format = QString::fromStdString(dialog.check()->scenario.weights.name);
        static const QRegularExpression options(QStringLiteral("--[a-z0-9-]+ [^ ]+"));
        static const QRegularExpression englishWord(QStringLiteral("\\b[A-Za-z]{4,}\\b"));
        for (QString text : texts) {
            text.remove(options);
            for (const QString& word :
                 {model, gpu, format, QStringLiteral("kvscope"), QStringLiteral("vLLM"),
                  QStringLiteral("llama.cpp"), QStringLiteral("ollama"), QStringLiteral("PyTorch"),
                  QStringLiteral("config.json"), QStringLiteral("GGUF"), QStringLiteral("CUDA"),
                  QStringLiteral("INFO"), QStringLiteral("tokens"), QStringLiteral("Hugging Face")})
                text.remove(word);
            text.remove(QLatin1Char('&'));
            const auto match = englishWord.match(text);
            QVERIFY2(!match.hasMatch(),
                     qPrintable(QStringLiteral("untranslated: \"%1\"").arg(text)));
        }
    }

    // 1366x768 and 1280x800 laptops: the dialog fits the screen with room for its frame.
    void fitsALaptop()
    {
        LogCheckDialog dialog(m_fixture.controller.get(), m_fixture.window.get());
        QVERIFY(dialog.size().width() <= 1280 && dialog.size().height() <= 768 - 60);
        QVERIFY(dialog.minimumSize().height() <= 768 - 60);
    }

private:
    WindowFixture m_fixture;
};

KVSCOPE_TEST_SUITE(TestLogCheckUi, "tst_log_check_ui", kvscope::test::SuiteApp::Widgets)
#include "tst_log_check_ui.moc"
