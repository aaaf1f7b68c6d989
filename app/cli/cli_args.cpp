// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_args.h"

#include "kvscope/settings/scenario_options.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace kvscope::cli {

Expected<double> numberOption(const ParsedArgs& args, const std::string& name)
{
    const std::string* text = args.value(name);
    if (!text)
        return FieldError{"--" + name, "", "a number"};
    double value = 0;
    auto [ptr, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (ec != std::errc() || ptr != text->data() + text->size() || !std::isfinite(value))
        return FieldError{"--" + name, *text, "a number"};
    return value;
}

std::vector<std::string> listOption(const ParsedArgs& args, const std::string& name)
{
    std::vector<std::string> words;
    const std::string* text = args.value(name);
    if (!text)
        return words;
    size_t start = 0;
    while (start <= text->size()) {
        const size_t comma = std::min(text->find(',', start), text->size());
        if (comma > start)
            words.push_back(text->substr(start, comma - start));
        start = comma + 1;
    }
    return words;
}

const std::string* ParsedArgs::value(const std::string& name) const
{
    for (auto it = values.rbegin(); it != values.rend(); ++it)
        if (it->first == name)
            return &it->second;
    return nullptr;
}

std::vector<std::pair<std::string, std::string>> ParsedArgs::scenarioValues() const
{
    std::vector<std::pair<std::string, std::string>> scenario;
    for (const auto& option : values)
        if (isScenarioOption(option.first))
            scenario.push_back(option);
    return scenario;
}

Expected<ParsedArgs> parseArgs(const std::vector<std::string>& args,
                               const std::set<std::string>& valued,
                               const std::set<std::string>& switches)
{
    ParsedArgs parsed;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg.size() > 4096)
            return FieldError{"argument " + std::to_string(i + 1),
                              "text of " + std::to_string(arg.size()) + " characters",
                              "at most 4,096 characters"};
        if (arg.rfind("--", 0) != 0 || arg == "--") {
            if (!arg.empty() && arg[0] == '-' && arg != "-")
                return FieldError{"option", arg, "options spelled --name (see --help)"};
            if (parsed.command.empty())
                parsed.command = arg;
            else
                parsed.positional.push_back(arg);
            continue;
        }
        std::string name = arg.substr(2);
        std::string value;
        bool inlineValue = false;
        if (const size_t eq = name.find('='); eq != std::string::npos) {
            value = name.substr(eq + 1);
            name = name.substr(0, eq);
            inlineValue = true;
        }
        if (switches.count(name)) {
            if (inlineValue)
                return FieldError{"--" + name, value, "no value (it is a switch)"};
            parsed.flags.insert(name);
        } else if (valued.count(name)) {
            if (!inlineValue) {
                if (i + 1 >= args.size())
                    return FieldError{"--" + name, "", "a value after the option"};
                value = args[++i];
            }
            parsed.values.emplace_back(name, value);
        } else {
            return FieldError{"option", "--" + name, "an option this command knows (see --help)"};
        }
    }
    return parsed;
}

} // namespace kvscope::cli
