// SPDX-License-Identifier: GPL-3.0-or-later
#include "kvscope/formats/gguf.h"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <optional>
#include <system_error>

namespace kvscope {

namespace {

constexpr uint32_t kMagic = 0x46554747; // "GGUF" read as a little-endian uint32
constexpr uint64_t kDefaultAlignment = 32;
constexpr uint32_t kMaxDims = 4; // GGML_MAX_DIMS

enum ValueType : uint32_t {
    U8 = 0,
    I8,
    U16,
    I16,
    U32,
    I32,
    F32,
    Bool,
    String,
    Array,
    U64,
    I64,
    F64
};

uint64_t fixedSize(uint32_t type)
{
    switch (type) {
    case U8:
    case I8:
    case Bool:
        return 1;
    case U16:
    case I16:
        return 2;
    case U32:
    case I32:
    case F32:
        return 4;
    case U64:
    case I64:
    case F64:
        return 8;
    default:
        return 0; // string, array or unknown
    }
}

// Reads little-endian values, refusing any read that would pass the end of the header.
class Reader
{
public:
    Reader(std::istream& in, uint64_t size) : m_in(in), m_size(size) {}

    uint64_t position() const { return m_pos; }
    uint64_t left() const { return m_size - m_pos; }
    const std::optional<FieldError>& error() const { return m_error; }

    void fail(const std::string& field, const std::string& value, const std::string& accepted)
    {
        if (!m_error)
            m_error = FieldError{"gguf." + field, value, accepted};
    }

    bool bytes(void* out, uint64_t n, const std::string& field)
    {
        if (m_error)
            return false;
        if (n > left()) {
            fail(field, "the file ends at byte " + std::to_string(m_size),
                 "a complete GGUF header (the file is cut short)");
            return false;
        }
        m_in.read(static_cast<char*>(out), std::streamsize(n));
        if (!m_in) {
            fail(field, "unreadable at byte " + std::to_string(m_pos), "a readable file");
            return false;
        }
        m_pos += n;
        return true;
    }
    bool skip(uint64_t n, const std::string& field)
    {
        if (m_error)
            return false;
        if (n > left()) {
            fail(field, "the file ends at byte " + std::to_string(m_size),
                 "a complete GGUF header (the file is cut short)");
            return false;
        }
        m_in.seekg(std::streamoff(n), std::ios::cur);
        m_pos += n;
        return bool(m_in);
    }
    template <typename T> T number(const std::string& field)
    {
        unsigned char raw[sizeof(T)] = {};
        bytes(raw, sizeof(T), field);
        uint64_t bits = 0;
        for (size_t i = 0; i < sizeof(T); ++i)
            bits |= uint64_t(raw[i]) << (8 * i);
        T value{};
        if constexpr (sizeof(T) == 8) {
            std::memcpy(&value, &bits, 8);
        } else {
            const auto narrow = static_cast<std::conditional_t<
                sizeof(T) == 4, uint32_t, std::conditional_t<sizeof(T) == 2, uint16_t, uint8_t>>>(
                bits);
            std::memcpy(&value, &narrow, sizeof(T));
        }
        return value;
    }
    // A string's length, checked against the bytes left; its text when `keep` allows.
    std::optional<std::string> string(const std::string& field, uint64_t keep)
    {
        const uint64_t length = number<uint64_t>(field);
        if (m_error)
            return std::nullopt;
        if (length > left()) {
            fail(field, "a string of " + std::to_string(length) + " bytes",
                 "a length within the file's " + std::to_string(left()) + " remaining bytes");
            return std::nullopt;
        }
        if (length > keep) {
            skip(length, field);
            return std::string();
        }
        std::string text(length, '\0');
        bytes(text.data(), length, field);
        return text;
    }

private:
    std::istream& m_in;
    uint64_t m_size = 0;
    uint64_t m_pos = 0;
    std::optional<FieldError> m_error;
};

double scalarAsDouble(Reader& r, uint32_t type, const std::string& field)
{
    switch (type) {
    case U8:
        return r.number<uint8_t>(field);
    case I8:
        return r.number<int8_t>(field);
    case U16:
        return r.number<uint16_t>(field);
    case I16:
        return r.number<int16_t>(field);
    case U32:
        return r.number<uint32_t>(field);
    case I32:
        return r.number<int32_t>(field);
    case F32:
        return r.number<float>(field);
    case Bool:
        return r.number<uint8_t>(field) != 0 ? 1.0 : 0.0;
    case U64:
        return double(r.number<uint64_t>(field));
    case I64:
        return double(r.number<int64_t>(field));
    case F64:
        return r.number<double>(field);
    default:
        return 0;
    }
}

const char* kValueTypes = "a GGUF value type from 0 to 12";

// An array's item type and count, then its items: numbers kept up to maxGgufKeptArray, strings
// (the vocabulary) only counted.
std::optional<GgufValue> readArray(Reader& r, const std::string& field)
{
    GgufArray array;
    array.itemType = r.number<uint32_t>(field + ".type");
    array.count = r.number<uint64_t>(field + ".count");
    if (r.error())
        return std::nullopt;
    if (array.itemType == Array) {
        r.fail(field, "an array of arrays", "an array of numbers, flags or strings");
        return std::nullopt;
    }
    const uint64_t itemBytes = array.itemType == String ? 8 : fixedSize(array.itemType);
    if (itemBytes == 0) {
        r.fail(field + ".type", std::to_string(array.itemType), kValueTypes);
        return std::nullopt;
    }
    if (array.count > r.left() / itemBytes) {
        r.fail(field + ".count", std::to_string(array.count),
               "a count that fits in the file's " + std::to_string(r.left()) + " remaining bytes");
        return std::nullopt;
    }
    if (array.itemType == String) {
        for (uint64_t i = 0; i < array.count && !r.error(); ++i)
            r.string(field, 0); // the vocabulary: only its size matters here
    } else if (array.count <= maxGgufKeptArray) {
        array.numbers.reserve(array.count);
        for (uint64_t i = 0; i < array.count && !r.error(); ++i)
            array.numbers.push_back(scalarAsDouble(r, array.itemType, field));
    } else {
        r.skip(array.count * itemBytes, field);
    }
    if (r.error())
        return std::nullopt;
    return array;
}

std::optional<GgufValue> readValue(Reader& r, uint32_t type, const std::string& field)
{
    switch (type) {
    case U8:
    case U16:
    case U32:
        return uint64_t(scalarAsDouble(r, type, field));
    case U64:
        return r.number<uint64_t>(field);
    case I8:
    case I16:
    case I32:
        return int64_t(scalarAsDouble(r, type, field));
    case I64:
        return r.number<int64_t>(field);
    case F32:
    case F64:
        return scalarAsDouble(r, type, field);
    case Bool:
        return r.number<uint8_t>(field) != 0;
    case String: {
        auto text = r.string(field, maxGgufKeptString);
        if (!text)
            return std::nullopt;
        return std::move(*text);
    }
    case Array:
        return readArray(r, field);
    default:
        r.fail(field + ".type", std::to_string(type), kValueTypes);
        return std::nullopt;
    }
}

std::optional<GgufTensor> readTensorInfo(Reader& r, uint64_t index)
{
    const std::string field = "tensors[" + std::to_string(index) + "]";
    GgufTensor t;
    auto name = r.string(field + ".name", maxGgufKeyBytes);
    const uint32_t dims = r.number<uint32_t>(field + ".n_dims");
    if (!name || r.error())
        return std::nullopt;
    if (name->empty()) {
        r.fail(field + ".name", "", "a tensor name of 1 to 65,535 bytes");
        return std::nullopt;
    }
    t.name = std::move(*name);
    if (dims == 0 || dims > kMaxDims) {
        r.fail(field + ".n_dims", std::to_string(dims), "1 to 4 dimensions");
        return std::nullopt;
    }
    // Elements stay below 2^53 so that every count is exact as a double downstream.
    constexpr uint64_t maxElements = uint64_t(1) << 53;
    t.elements = 1;
    for (uint32_t d = 0; d < dims; ++d) {
        const uint64_t n = r.number<uint64_t>(field + ".ne");
        if (r.error())
            return std::nullopt;
        if (n == 0 || n > maxElements / t.elements) {
            r.fail(field + ".ne[" + std::to_string(d) + "]", std::to_string(n),
                   "a dimension of at least 1, with fewer than 2^53 elements in the tensor");
            return std::nullopt;
        }
        t.dims.push_back(n);
        t.elements *= n;
    }
    t.type = r.number<uint32_t>(field + ".type");
    t.offset = r.number<uint64_t>(field + ".offset");
    if (r.error())
        return std::nullopt;
    const GgmlType* type = ggmlType(t.type);
    if (!type) {
        r.fail(field + ".type", std::to_string(t.type),
               "a ggml tensor type kvscope knows (F32, F16, BF16, Q4_0 ... Q8_0, the K and IQ "
               "quants, MXFP4)");
        return std::nullopt;
    }
    if (t.dims[0] % type->blockElements != 0) {
        r.fail(field + ".ne[0]", std::to_string(t.dims[0]),
               std::string("a multiple of ") + type->name + "'s block of " +
                   std::to_string(type->blockElements) + " elements");
        return std::nullopt;
    }
    t.bytes = t.elements / type->blockElements * type->blockBytes;
    return t;
}

// Tensors may not overlap and must sit where the alignment puts them: a file whose infos say
// otherwise lies about its sizes.
std::optional<FieldError> checkLayout(GgufHeader& h, uint64_t alignment)
{
    std::vector<const GgufTensor*> byOffset;
    for (const GgufTensor& t : h.tensors)
        byOffset.push_back(&t);
    std::sort(byOffset.begin(), byOffset.end(),
              [](const GgufTensor* a, const GgufTensor* b) { return a->offset < b->offset; });
    uint64_t end = 0;
    for (const GgufTensor* t : byOffset) {
        if (t->offset % alignment != 0 || t->offset < end)
            return FieldError{"gguf.tensors." + t->name + ".offset", std::to_string(t->offset),
                              "an offset aligned to " + std::to_string(alignment) +
                                  " bytes past the end of the tensor before it (" +
                                  std::to_string(end) + ")"};
        constexpr uint64_t maxData = uint64_t(1) << 46; // 64 TiB, beyond any model
        if (t->offset > maxData || t->bytes > maxData - t->offset)
            return FieldError{"gguf.tensors." + t->name + ".offset", std::to_string(t->offset),
                              "tensor data ending before 64 TiB"};
        end = t->offset + t->bytes;
    }
    h.dataBytes = end;
    return std::nullopt;
}

} // namespace

Expected<GgufHeader> readGgufHeader(std::istream& in, uint64_t streamBytes)
{
    Reader r(in, streamBytes);
    GgufHeader h;
    h.streamBytes = streamBytes;
    const uint32_t magic = r.number<uint32_t>("magic");
    if (r.error() || magic != kMagic)
        return FieldError{"gguf.magic", r.error() ? "a file under 4 bytes" : "not \"GGUF\"",
                          "a GGUF file (it starts with the bytes \"GGUF\")"};
    h.version = r.number<uint32_t>("version");
    const uint64_t tensorCount = r.number<uint64_t>("tensor_count");
    const uint64_t keyCount = r.number<uint64_t>("metadata_kv_count");
    if (r.error())
        return *r.error();
    if (h.version != 2 && h.version != 3)
        return FieldError{"gguf.version", std::to_string(h.version),
                          "GGUF version 2 or 3, little-endian (version 1 predates August 2023)"};
    if (tensorCount > maxGgufTensors || tensorCount > r.left() / 32)
        return FieldError{"gguf.tensor_count", std::to_string(tensorCount),
                          "at most 65,536 tensors, each with room for its info in the file"};
    if (keyCount > maxGgufKeys || keyCount > r.left() / 13)
        return FieldError{"gguf.metadata_kv_count", std::to_string(keyCount),
                          "at most 65,536 keys, each with room in the file"};

    for (uint64_t i = 0; i < keyCount && !r.error(); ++i) {
        const std::string field = "metadata[" + std::to_string(i) + "]";
        auto key = r.string(field + ".key", maxGgufKeyBytes);
        const uint32_t type = r.number<uint32_t>(field + ".type");
        if (!key || r.error())
            break;
        if (key->empty()) {
            r.fail(field + ".key", "", "a key of 1 to 65,535 bytes");
            break;
        }
        auto value = readValue(r, type, *key);
        if (!value)
            break;
        h.metadata[*key] = std::move(*value);
    }
    for (uint64_t i = 0; i < tensorCount && !r.error(); ++i)
        if (auto t = readTensorInfo(r, i))
            h.tensors.push_back(std::move(*t));
    if (r.error())
        return *r.error();
    if (r.position() > maxGgufHeaderBytes)
        return FieldError{"gguf", std::to_string(r.position()) + " bytes of header",
                          "a header of at most 1 GiB"};

    uint64_t alignment = kDefaultAlignment;
    if (auto it = h.metadata.find("general.alignment"); it != h.metadata.end()) {
        const uint64_t* a = std::get_if<uint64_t>(&it->second);
        if (!a || *a == 0 || *a > 65'536 || (*a & (*a - 1)) != 0)
            return FieldError{"gguf.general.alignment", "", "a power of two up to 65,536"};
        alignment = *a;
    }
    h.dataOffset = (r.position() + alignment - 1) / alignment * alignment;
    if (auto error = checkLayout(h, alignment))
        return *error;
    return h;
}

Expected<GgufHeader> readGgufFile(const std::filesystem::path& path)
{
    std::error_code ec;
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec)
        return FieldError{"model", path.string(), "a readable GGUF file (" + ec.message() + ")"};
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return FieldError{"model", path.string(), "a readable GGUF file"};
    return readGgufHeader(in, uint64_t(size));
}

bool looksLikeGgufPath(const std::string& path)
{
    if (path.size() < 5)
        return false;
    std::string tail = path.substr(path.size() - 5);
    std::transform(tail.begin(), tail.end(), tail.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return tail == ".gguf";
}

} // namespace kvscope
