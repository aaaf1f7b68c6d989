// SPDX-License-Identifier: GPL-3.0-or-later
// The serving workload: the average request the serving view sizes concurrency for. The number
// of users is the batch setting (--users).
#include "scenario/field_access.h"
#include "settings/catalog_settings.h"

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
    return r;
}

} // namespace kvscope
