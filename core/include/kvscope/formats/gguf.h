// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// GGUF model files (llama.cpp, ollama): the header only, that is the metadata and the tensor
// infos, never the tensor data. Format: https://github.com/ggml-org/ggml/blob/master/docs/gguf.md

#include "kvscope/base/field_error.h"
#include "kvscope/model/model_spec.h"

#include <cstdint>
#include <filesystem>
#include <istream>
#include <map>
#include <string>
#include <variant>
#include <vector>

namespace kvscope {

// Limits no real file comes near (a 405B model has about 1,100 tensors and 40 keys); a header
// that claims more is refused before anything is allocated for it.
inline constexpr uint64_t maxGgufTensors = 65'536;
inline constexpr uint64_t maxGgufKeys = 65'536;
inline constexpr uint64_t maxGgufKeyBytes = 65'535;
inline constexpr uint64_t maxGgufKeptString = 4'096;     // longer string values are skipped
inline constexpr uint64_t maxGgufKeptArray = 65'536;     // longer numeric arrays keep their count
inline constexpr uint64_t maxGgufHeaderBytes = 1u << 30; // metadata + tensor infos

// One metadata value: a number, a flag or a string, or an array's length and (for numeric
// arrays up to maxGgufKeptArray) its values. Strings past maxGgufKeptString are kept empty.
struct GgufArray
{
    uint32_t itemType = 0;
    uint64_t count = 0;
    std::vector<double> numbers; // numeric items, when kept
};
using GgufValue = std::variant<int64_t, uint64_t, double, bool, std::string, GgufArray>;

struct GgufTensor
{
    std::string name;
    std::vector<uint64_t> dims; // ne[0] first, as stored
    uint32_t type = 0;          // ggml type id
    uint64_t offset = 0;        // from the start of the data section
    uint64_t elements = 0;
    uint64_t bytes = 0; // from the type's block size and bytes per block
};

struct GgufHeader
{
    uint32_t version = 0;
    std::map<std::string, GgufValue> metadata;
    std::vector<GgufTensor> tensors;
    uint64_t dataOffset = 0;  // where the tensor data starts (aligned)
    uint64_t dataBytes = 0;   // what the tensor infos claim, to the end of the last tensor
    uint64_t streamBytes = 0; // the file's size: smaller than dataOffset + dataBytes when the
                              // file holds only the header (a partial download, a test file)
};

// A ggml tensor type: its name, elements per block and bytes per block.
struct GgmlType
{
    uint32_t id = 0;
    const char* name = "";
    uint32_t blockElements = 1;
    uint32_t blockBytes = 0;
};
const GgmlType* ggmlType(uint32_t id);

// Reads a GGUF header from `in`, which holds `streamBytes` bytes. Every count and length is
// checked against what is left of the stream before it is used.
Expected<GgufHeader> readGgufHeader(std::istream& in, uint64_t streamBytes);
Expected<GgufHeader> readGgufFile(const std::filesystem::path& path);

// The model a header describes: dimensions from `<arch>.*` keys, tensor bytes by role.
Expected<ModelSpec> modelFromGguf(const GgufHeader& header, const std::string& fallbackId);
Expected<ModelSpec> modelFromGgufFile(const std::filesystem::path& path);
// The model metadata alone describes (no tensors: what llama.cpp prints of a file at start-up),
// its weights estimated from its shape.
Expected<ModelSpec> modelFromGgufMetadata(const GgufHeader& header, const std::string& fallbackId);

bool looksLikeGgufPath(const std::string& path); // ends in .gguf (any case)

} // namespace kvscope
