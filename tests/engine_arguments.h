// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// An engine's argument list as its source declares it (tests/data/engine_args/*.json, written by
// the extract_*.py scripts beside them from a pinned commit), and a check that a launch command
// parses against it as the engine's own parser would: every environment variable read by the
// engine, the program's words, every option known (or its negative form), every value of the
// option's type or among its choices, no more positional words than it takes.

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace kvscope::test {

inline nlohmann::json engineArguments(const std::string& engine)
{
    std::ifstream in(std::string(KVSCOPE_TEST_DATA_DIR "/data/engine_args/") + engine + ".json");
    return nlohmann::json::parse(in);
}

// The words a POSIX shell splits `command` into: "\\\n" continues the line, single quotes keep
// what they hold (shellWord() writes nothing else).
inline std::vector<std::string> shellWords(const std::string& command)
{
    std::vector<std::string> words;
    std::string word;
    bool inWord = false;
    for (size_t i = 0; i < command.size(); ++i) {
        const char ch = command[i];
        if (ch == '\\' && i + 1 < command.size() && command[i + 1] == '\n') {
            ++i;
        } else if (ch == '\'') {
            const size_t end = command.find('\'', i + 1);
            word += command.substr(i + 1, end - i - 1);
            inWord = true;
            i = end == std::string::npos ? command.size() : end;
        } else if (ch == ' ' || ch == '\n' || ch == '\t') {
            if (inWord)
                words.push_back(word);
            word.clear();
            inWord = false;
        } else {
            word += ch;
            inWord = true;
        }
    }
    if (inWord)
        words.push_back(word);
    return words;
}

inline const nlohmann::json* optionNamed(const nlohmann::json& spec, const std::string& name,
                                         bool& negative)
{
    for (const nlohmann::json& option : spec.at("options")) {
        for (const auto& n : option.at("names"))
            if (n == name) {
                negative = false;
                return &option;
            }
        if (option.contains("negative_names"))
            for (const auto& n : option.at("negative_names"))
                if (n == name) {
                    negative = true;
                    return &option;
                }
        // argparse's BooleanOptionalAction ("optional-bool") adds --no-X for each --X.
        if (option.at("value") == "optional-bool" && name.starts_with("--no-"))
            for (const auto& n : option.at("names"))
                if (n == "--" + name.substr(5)) {
                    negative = true;
                    return &option;
                }
    }
    return nullptr;
}

template <typename Value> inline bool listed(const nlohmann::json& list, const Value& value)
{
    for (const auto& item : list)
        if (item == value)
            return true;
    return false;
}

// "" when `value` is one the option takes, else why not.
inline std::string valueProblem(const nlohmann::json& option, const std::string& value)
{
    const std::string kind = option.at("value");
    const std::string name = option.at("names").at(0);
    char* end = nullptr;
    if (kind == "int") {
        std::strtoll(value.c_str(), &end, 10);
        const bool special =
            option.contains("special_values") && listed(option.at("special_values"), value);
        if (value.empty() || (*end != '\0' && !special))
            return name + " takes an integer, not \"" + value + "\"";
    } else if (kind == "float") {
        std::strtod(value.c_str(), &end);
        if (value.empty() || *end != '\0')
            return name + " takes a number, not \"" + value + "\"";
    } else if (kind == "choice" && option.value("choice_type", "") == "int") {
        // argparse converts with type=int first, then checks the choices
        const long long number = std::strtoll(value.c_str(), &end, 10);
        if (value.empty() || *end != '\0' || !listed(option.at("choices"), number))
            return name + " takes none of \"" + value + "\"";
    } else if (kind == "choice" && !listed(option.at("choices"), value)) {
        return name + " takes none of \"" + value + "\"";
    } else if (option.contains("metavar_values") && !listed(option.at("metavar_values"), value)) {
        return name + " knows no \"" + value + "\"";
    }
    return "";
}

inline bool isEnvironmentAssignment(const std::string& word)
{
    const size_t eq = word.find('=');
    return eq != std::string::npos && eq > 0 &&
           word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") == eq;
}

// Environment assignments ahead of the program: each a variable the engine still reads.
inline std::string environmentProblem(const nlohmann::json& spec,
                                      const std::vector<std::string>& words, size_t& at)
{
    for (; at < words.size() && isEnvironmentAssignment(words[at]); ++at) {
        const std::string name = words[at].substr(0, words[at].find('='));
        bool read = false;
        for (const auto& variable : spec.value("environment", nlohmann::json::array()))
            read = read || (variable.at("name") == name && !variable.contains("removed_by"));
        if (!read)
            return "the engine does not read " + name;
    }
    return "";
}

// "" when the command parses against the engine's argument list, else the first reason not.
inline std::string argumentProblem(const nlohmann::json& spec, const std::string& command)
{
    const std::vector<std::string> words = shellWords(command);
    size_t at = 0;
    if (std::string problem = environmentProblem(spec, words, at); !problem.empty())
        return problem;
    for (const std::string& programWord : shellWords(spec.at("program")))
        if (at >= words.size() || words[at++] != programWord)
            return "the program is not " + spec.at("program").get<std::string>();
    size_t positionals = 0;
    while (at < words.size()) {
        const std::string& word = words[at++];
        if (word.empty() || word.front() != '-') {
            if (++positionals > spec.at("positional").size())
                return "an extra word \"" + word + "\"";
            continue;
        }
        bool negative = false;
        const nlohmann::json* option = optionNamed(spec, word, negative);
        if (!option)
            return "no option " + word;
        const std::string kind = option->at("value");
        if (negative || kind == "none" || kind == "optional-bool")
            continue;
        for (int n = kind == "string2" ? 2 : 1; n > 0; --n) {
            if (at >= words.size())
                return word + " lacks its value";
            if (std::string problem = valueProblem(*option, words[at++]); !problem.empty())
                return problem;
        }
    }
    return "";
}

} // namespace kvscope::test
