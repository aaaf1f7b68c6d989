// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/source_names.h"

#include <QStringList>
#include <QUrl>

#include <iterator>

namespace kvscope::ui {

namespace {

struct Publisher
{
    const char* key;  // a host (any subdomain matches) or, for a code host, "owner/repo" or "owner"
    const char* name; // how the report names it
};

// Sites by publisher. A host matches itself and its subdomains; the most specific entry wins
// (forums.developer.nvidia.com before nvidia.com).
constexpr Publisher kSites[] = {
    {"docs.vllm.ai", "vLLM documentation"},
    {"blog.vllm.ai", "vLLM blog"},
    {"vllm.ai", "vLLM"},
    {"forums.developer.nvidia.com", "NVIDIA Developer Forums"},
    {"docs.nvidia.com", "NVIDIA documentation"},
    {"nvidia.github.io", "NVIDIA"},
    {"nvidia.com", "NVIDIA"},
    {"docs.amd.com", "AMD documentation"},
    {"rocm.docs.amd.com", "AMD ROCm documentation"},
    {"amd.com", "AMD"},
    {"intel.com", "Intel"},
    {"arxiv.org", "arXiv"},
    {"pytorch.org", "PyTorch"},
    {"openai.com", "OpenAI"},
    {"lambda.ai", "Lambda"},
    {"lambdalabs.com", "Lambda"},
    {"runpod.io", "RunPod"},
    {"coreweave.com", "CoreWeave"},
    {"baseten.co", "Baseten"},
    {"techpowerup.com", "TechPowerUp"},
    {"tomshardware.com", "Tom's Hardware"},
    {"servethehome.com", "ServeTheHome"},
    {"anandtech.com", "AnandTech"},
    {"notebookcheck.com", "Notebookcheck"},
    {"notebookcheck.net", "Notebookcheck"},
    {"tweaktown.com", "TweakTown"},
    {"techradar.com", "TechRadar"},
    {"dev.to", "DEV Community"},
    {"wccftech.com", "Wccftech"},
    {"hothardware.com", "HotHardware"},
    {"macrumors.com", "MacRumors"},
    {"apple.com", "Apple"},
    {"samsung.com", "Samsung"},
    {"micron.com", "Micron"},
    {"crucial.com", "Crucial"},
    {"kingston.com", "Kingston"},
    {"wikipedia.org", "Wikipedia"},
    {"reddit.com", "Reddit"},
    {"ollama.com", "Ollama"},
    {"ai.google.dev", "Google AI for Developers"},
    {"cloud.google.com", "Google Cloud"},
    {"aws.amazon.com", "AWS"},
    {"learn.microsoft.com", "Microsoft Learn"},
    // Other publishers the catalog cites (every catalog source has one: tst_export).
    {"aiminingco.com", "AI Mining Co"},
    {"airlinkfreights.com", "Airlink Freights"},
    {"aitooldiscovery.com", "AI Tool Discovery"},
    {"aiwiki.ai", "AI Wiki"},
    {"androidauthority.com", "Android Authority"},
    {"arstechnica.com", "Ars Technica"},
    {"flopsindex.com", "FLOPS Index"},
    {"hpctech.co.jp", "HPC Tech"},
    {"awesomeagents.ai", "Awesome Agents"},
    {"csdn.net", "CSDN"},
    {"businesstoday.in", "Business Today"},
    {"c-sharpcorner.com", "C# Corner"},
    {"calculator-cloud.com", "Calculator Cloud"},
    {"calculatorhub.com", "CalculatorHub"},
    {"calendar-uk.co.uk", "Calendar UK"},
    {"cbre.com", "CBRE"},
    {"cdrinfo.com", "CDRinfo"},
    {"chipversus.com", "ChipVersus"},
    {"cliffcenter.com", "Cliff Center"},
    {"frame.work", "Framework"},
    {"daringfireball.net", "Daring Fireball"},
    {"deploybase.ai", "DeployBase"},
    {"docs.google.com", "Google Docs"},
    {"docslib.org", "DocsLib"},
    {"dunyanews.tv", "Dunya News"},
    {"ecer.com", "ECER"},
    {"eia.gov", "U.S. Energy Information Administration"},
    {"engadget.com", "Engadget"},
    {"worldmagazine.it", "World Magazine"},
    {"thefpsreview.com", "TheFPSReview"},
    {"mrlatte.net", "Mr. Latte"},
    {"crunchbasenewstoday.com", "Crunchbase News Today"},
    {"eshumarneedi.com", "Eshu Marneedi"},
    {"inforeader.com", "InfoReader"},
    {"evokernel-specs.pages.dev", "EvoKernel Specs"},
    {"evrimagaci.org", "Evrim Ağacı"},
    {"factualminds.com", "FactualMinds"},
    {"fudzilla.net", "Fudzilla"},
    {"gamebastion.com", "Game Bastion"},
    {"gigazine.net", "GIGAZINE"},
    {"gitcode.com", "GitCode"},
    {"glennklockwood.com", "Glenn K. Lockwood"},
    {"gpu.blog", "GPU Blog"},
    {"guru3d.com", "Guru3D"},
    {"hardwareluxx.de", "Hardwareluxx"},
    {"heise.de", "heise online"},
    {"hmc-tech.com", "HMC Tech"},
    {"holynerdvana.blogspot.com", "Holy Nerdvana"},
    {"imore.com", "iMore"},
    {"indianexpress.com", "The Indian Express"},
    {"itcreations.com", "IT Creations"},
    {"jaredwatkins.com", "Jared Watkins"},
    {"mullet.se", "Mullet"},
    {"mybroadband.co.za", "MyBroadband"},
    {"mushfiqrahman.dev", "Mushfiq Rahman's blog"},
    {"johnmusgrave.com", "John Musgrave's blog"},
    {"myoceane.fr", "MyOceane"},
    {"newgearhub.com", "New Gear Hub"},
    {"pavlokhmel.com", "Pavlo Khmel"},
    {"pcpartdb.com", "PCPartDB"},
    {"pctiers.com", "PC Tiers"},
    {"pipedot.org", "Pipedot"},
    {"prepmusiclog.com", "Prep Music Log"},
    {"profilbaru.com", "Profilbaru"},
    {"slashgear.com", "SlashGear"},
    {"spheron.network", "Spheron"},
    {"stratrix.com", "Stratrix"},
    {"svethardware.cz", "Svět hardware"},
    {"sweclockers.com", "SweClockers"},
    {"sysrqmts.com", "SysRqmts"},
    {"t3.com", "T3"},
    {"techtwisted.com", "TechTwisted"},
    {"thefreesheet.com", "The Free Sheet"},
    {"thessdreview.com", "The SSD Review"},
    {"thundercompute.com", "Thunder Compute"},
    {"ti.com", "Texas Instruments"},
    {"toolengine.tech", "ToolEngine"},
    {"topcpu.net", "TopCPU"},
    {"trustedreviews.com", "Trusted Reviews"},
    {"vuink.com", "Vuink"},
    {"waredb.com", "WareDB"},
    {"willitrunai.com", "Will It Run AI"},
    {"wwt.com", "World Wide Technology"},
    {"xenon.com.au", "XENON Systems"},
    {"y-ic.de", "Y-IC"},
    {"yobitel.com", "Yobitel"},
    {"zeroentropy.dev", "ZeroEntropy"},
    {"zexron.com", "Zexron"},
};

// Repositories and organisations on GitHub by the name their project goes by; others keep
// their repository's name.
constexpr Publisher kRepositories[] = {
    {"vllm-project/vllm", "vLLM"},
    {"ggml-org/llama.cpp", "llama.cpp"},
    {"ggerganov/llama.cpp", "llama.cpp"},
    {"huggingface/transformers", "Transformers"},
    {"huggingface/text-generation-inference", "Text Generation Inference"},
    {"sgl-project/sglang", "SGLang"},
    {"NVIDIA/TensorRT-LLM", "TensorRT-LLM"},
    {"mlc-ai/mlc-llm", "MLC LLM"},
    {"ollama/ollama", "Ollama"},
};

// Hugging Face paths that are pages of the site, not a repository.
constexpr const char* kHubSections[] = {"docs",   "learn",       "blog",
                                        "papers", "collections", "hardware"};

// The entry whose key is `host` or a parent domain of it, the longest first.
const Publisher* siteOf(const QString& host)
{
    for (QString h = host; !h.isEmpty();) {
        for (const Publisher& p : kSites)
            if (h == QLatin1String(p.key))
                return &p;
        const qsizetype dot = h.indexOf(QLatin1Char('.'));
        if (dot < 0)
            break;
        h = h.mid(dot + 1);
    }
    return nullptr;
}

// The domain a person registers: the last two labels, or three under a country's second level
// (co.uk, com.au, co.za), without "www.". Close enough to the public suffix list for a name.
QString registrableDomain(const QString& host)
{
    const QStringList labels = host.split(QLatin1Char('.'), Qt::SkipEmptyParts);
    if (labels.size() <= 2)
        return host;
    const QString& second = labels[labels.size() - 2];
    const bool countrySecondLevel =
        labels.back().size() == 2 &&
        QStringList{QStringLiteral("co"),  QStringLiteral("com"), QStringLiteral("org"),
                    QStringLiteral("net"), QStringLiteral("ac"),  QStringLiteral("gov"),
                    QStringLiteral("ne"),  QStringLiteral("or")}
            .contains(second);
    return labels.mid(labels.size() - (countrySecondLevel ? 3 : 2)).join(QLatin1Char('.'));
}

QString gitHubName(const QStringList& parts)
{
    if (parts.isEmpty())
        return QStringLiteral("GitHub");
    const QString repo = parts.size() > 1 ? parts[0] + QLatin1Char('/') + parts[1] : QString();
    for (const Publisher& p : kRepositories)
        if (repo.compare(QLatin1String(p.key), Qt::CaseInsensitive) == 0 ||
            parts[0].compare(QLatin1String(p.key), Qt::CaseInsensitive) == 0)
            return QStringLiteral("%1 (GitHub)").arg(QLatin1String(p.name));
    return QStringLiteral("%1 (GitHub)").arg(parts.size() > 1 ? parts[1] : parts[0]);
}

QString hubName(const QStringList& parts)
{
    if (parts.isEmpty())
        return QStringLiteral("Hugging Face");
    for (const char* section : kHubSections)
        if (parts[0] == QLatin1String(section))
            return parts[0] == QLatin1String("docs") && parts.size() > 1
                       ? QStringLiteral("Hugging Face %1 documentation").arg(parts[1])
                       : QStringLiteral("Hugging Face");
    // datasets/<org>/<name> and spaces/<org>/<name> name their repository as models do.
    const bool typed = parts[0] == QLatin1String("datasets") || parts[0] == QLatin1String("spaces");
    const QStringList repo = parts.mid(typed ? 1 : 0, 2);
    return QStringLiteral("%1 (Hugging Face)").arg(repo.join(QLatin1Char('/')));
}

} // namespace

QString publisherName(const QUrl& url)
{
    QString host = url.host().toLower();
    if (host.startsWith(QLatin1String("www.")))
        host = host.mid(4);
    const QStringList parts = url.path().split(QLatin1Char('/'), Qt::SkipEmptyParts);
    if (host == QLatin1String("github.com") || host == QLatin1String("raw.githubusercontent.com"))
        return gitHubName(parts);
    if (host == QLatin1String("huggingface.co") || host == QLatin1String("hf.co"))
        return hubName(parts);
    if (const Publisher* site = siteOf(host))
        return QLatin1String(site->name);
    if (host.endsWith(QLatin1String(".github.io"))) // a project's pages: its owner
        return QStringLiteral("%1 (GitHub Pages)").arg(host.chopped(10));
    return registrableDomain(host);
}

} // namespace kvscope::ui
