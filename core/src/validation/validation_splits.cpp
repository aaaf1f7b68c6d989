// SPDX-License-Identifier: GPL-3.0-or-later
// Which validation files are held out: the directory's splits.json, written from the set's
// history, or the file name where a directory has none.
#include "kvscope/validation/validation_set.h"

#include "kvscope/formats/checked_json.h"
#include "kvscope/formats/config_import.h"

#include <system_error>

#include <nlohmann/json.hpp>

namespace kvscope {

namespace fs = std::filesystem;

bool isHeldOutFile(const std::string& fileName)
{
    return fileName.find("holdout") != std::string::npos;
}

bool ValidationSplits::isHeldOut(const std::string& fileName) const
{
    if (!listed)
        return isHeldOutFile(fileName);
    const auto it = heldOut.find(fileName);
    return it != heldOut.end() && it->second;
}

namespace {

// One file's entry: its name and split. A file named *holdout* that the history moved to the
// fit split would mislead whoever reads the directory, so the name must agree.
std::optional<FieldError> readSplit(JsonReader& r, ValidationSplits& splits)
{
    r.require({"file"});
    r.require({"split"});
    const std::string file = r.text({"file"}, "");
    const std::string split = r.text({"split"}, "");
    r.text({"history"}, "");
    r.text({"written"}, "");
    r.text({"scored"}, "");
    if (r.error())
        return r.error();
    if (split != "fit" && split != "held_out")
        return FieldError{r.field("split"), "\"" + split + "\"", "fit or held_out"};
    if (split == "fit" && isHeldOutFile(file))
        return FieldError{r.field("split"), "\"fit\"",
                          "held_out for a file named *holdout* (rename a file moved to fit)"};
    if (!splits.heldOut.emplace(file, split == "held_out").second)
        return FieldError{r.field("file"), "\"" + file + "\"", "a file listed once"};
    return std::nullopt;
}

} // namespace

Expected<ValidationSplits> validationSplitsFromJson(const nlohmann::json& json)
{
    ValidationSplits splits;
    const auto files = json.is_object() ? json.find("files") : json.end();
    if (files == json.end() || !files->is_array())
        return FieldError{std::string(kValidationSplitsFile) + ": files",
                          files == json.end() ? "" : describeJson(*files),
                          "an array of {file, split} entries"};
    for (size_t i = 0; i < files->size(); ++i) {
        const std::string where =
            std::string(kValidationSplitsFile) + ": files[" + std::to_string(i) + "]";
        if (!(*files)[i].is_object())
            return FieldError{where, describeJson((*files)[i]), "an object"};
        JsonReader r((*files)[i], where);
        if (auto e = readSplit(r, splits))
            return *e;
    }
    splits.listed = true;
    return splits;
}

Expected<ValidationSplits> loadValidationSplits(const fs::path& dir)
{
    std::error_code ec;
    if (!fs::exists(dir / kValidationSplitsFile, ec))
        return ValidationSplits{};
    auto json = readJsonFile(dir / kValidationSplitsFile, kValidationSplitsFile);
    if (!json)
        return json.error();
    return validationSplitsFromJson(*json);
}

} // namespace kvscope
