// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_args.h"

#include "kvscope/settings/scenario_options.h"

namespace kvscope::cli {

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
            return FieldError{"argument " + std::to_string(i + 1), "text of " +
                              std::to_string(arg.size()) + " characters", "at most 4,096 characters"};
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
