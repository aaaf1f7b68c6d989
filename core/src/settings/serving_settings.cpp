// SPDX-License-Identifier: GPL-3.0-or-later
// The serving workload: the average request the serving view sizes concurrency for. The number
// of users is the batch setting (--users).
#include "scenario/field_access.h"
#include "settings/catalog_settings.h"

#include "kvscope/engines/engine_module.h"
#include "kvscope/scenario/scenario.h"

namespace kvscope {

std::vector<Setting> servingSettings()
{
    std::vector<Setting> r;
    {
        Setting s = makeSetting("prompt_tokens", "prompt-tokens", "N", SettingType::Integer, 1,
                                double(limits::maxContext));
        s.unit = "tokens";
        s.defaultText = "1024";
        s.help = "serving workload: average prompt length of a request";
        s.fileSection = "workload";
        s.apply = KVSCOPE_FIELD_SETTER(workload.promptTokens, integerOf);
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(workload.promptTokens));
        r.push_back(s);
    }
    {
        Setting s = makeSetting("output_tokens", "output-tokens", "N", SettingType::Integer, 1,
                                double(limits::maxContext));
        s.unit = "tokens";
        s.defaultText = "256";
        s.help = "serving workload: average answer length of a request (its max_new_tokens)";
        s.fileSection = "workload";
        s.apply = KVSCOPE_FIELD_SETTER(workload.outputTokens, integerOf);
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(workload.outputTokens));
        r.push_back(s);
    }
    {
        Setting s = makeSetting("shared_prefix_tokens", "shared-prefix-tokens", "N",
                                SettingType::Integer, 0, double(limits::maxContext));
        s.unit = "tokens";
        s.defaultText = "0";
        s.help = "serving workload: tokens every prompt starts with (a system prompt, shared "
                 "documents), found in the engine's prefix cache";
        s.fileSection = "workload";
        s.apply = KVSCOPE_FIELD_SETTER(workload.sharedPrefixTokens, integerOf);
        settings_detail::setNumber(s, KVSCOPE_FIELD_NUMBER(workload.sharedPrefixTokens));
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Shared prompt prefix");
        s.texts.toolTip = KVSCOPE_TRANSLATE_NOOP(
            "kvscope::Setting", "Tokens every request's prompt starts with (a system prompt, "
                                "shared documents): the prefix cache skips their prefill");
        r.push_back(s);
    }
    {
        Setting s = makeSetting("prefix_caching", "prefix-caching", "on|off", SettingType::Switch);
        s.defaultText = "the engine's (vLLM V1, TGI and llama.cpp: on)";
        s.help = "the engine keeps the KV of prompts it has served and reuses it for a request "
                 "that starts the same way (vLLM --enable-prefix-caching)";
        s.engineNames = {{"vllm", "enable_prefix_caching"},
                         {"tgi", "PREFIX_CACHING"},
                         {"llamacpp", "cache_prompt"}};
        s.apply = KVSCOPE_FIELD_SETTER(prefixCaching, switchOf);
        s.current = KVSCOPE_OPTIONAL_GETTER(prefixCaching);
        s.shownWhenUnset = [](const Scenario& sc) {
            return engineModule(sc.engine).cachesPrefixes(sc) ? 1.0 : 0.0;
        };
        s.place = ControlPlace::EngineDrawer;
        s.texts.label = KVSCOPE_TRANSLATE_NOOP("kvscope::Setting", "Prefix caching");
        r.push_back(s);
    }
    return r;
}

} // namespace kvscope
