// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Writes small GGUF files for the tests: a header (metadata and tensor infos) and, on request,
// zeroed tensor data. Layout per ggml's docs/gguf.md; values little-endian.

#include "kvscope/formats/gguf.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace kvscope::test {

class GgufBuilder
{
public:
    enum Type : uint32_t { U32 = 4, I32 = 5, F32 = 6, Bool = 7, String = 8, Array = 9, U64 = 10 };

    uint32_t version = 3;
    uint64_t alignment = 32;

    void u32(const std::string& key, uint32_t v)
    {
        keyOf(key, U32);
        put(v);
    }
    void f32(const std::string& key, float v)
    {
        keyOf(key, F32);
        put(v);
    }
    void str(const std::string& key, const std::string& v)
    {
        keyOf(key, String);
        text(v);
    }
    void u32s(const std::string& key, const std::vector<uint32_t>& values)
    {
        keyOf(key, Array);
        put(uint32_t(U32));
        put(uint64_t(values.size()));
        for (uint32_t v : values)
            put(v);
    }
    void strings(const std::string& key, size_t count)
    {
        keyOf(key, Array);
        put(uint32_t(String));
        put(uint64_t(count));
        for (size_t i = 0; i < count; ++i)
            text("t" + std::to_string(i));
    }
    // Raw bytes after a key, for values the helpers above cannot write (hostile files).
    void raw(const std::string& key, uint32_t type, const std::string& bytes)
    {
        keyOf(key, type);
        m_kv += bytes;
    }

    void tensor(const std::string& name, std::vector<uint64_t> dims, uint32_t type)
    {
        const GgmlType* t = ggmlType(type);
        uint64_t elements = 1;
        for (uint64_t d : dims)
            elements *= d;
        const uint64_t bytes = t ? elements / t->blockElements * t->blockBytes : 0;
        m_tensors.push_back({name, std::move(dims), type, m_dataEnd, elements, bytes});
        m_dataEnd = (m_dataEnd + bytes + alignment - 1) / alignment * alignment;
    }
    std::vector<GgufTensor>& tensors() { return m_tensors; }
    uint64_t keyCount() const { return m_keys; }

    // The file; `withData` appends zeroed tensor data so the file is whole.
    std::string bytes(bool withData = false) const
    {
        std::string out;
        appendTo(out, uint32_t(0x46554747));
        appendTo(out, version);
        appendTo(out, uint64_t(m_tensors.size()));
        appendTo(out, m_keys);
        out += m_kv;
        for (const GgufTensor& t : m_tensors) {
            appendTo(out, uint64_t(t.name.size()));
            out += t.name;
            appendTo(out, uint32_t(t.dims.size()));
            for (uint64_t d : t.dims)
                appendTo(out, d);
            appendTo(out, t.type);
            appendTo(out, t.offset);
        }
        if (withData) {
            out.resize((out.size() + alignment - 1) / alignment * alignment, '\0');
            out.resize(out.size() + m_dataEnd, '\0');
        }
        return out;
    }

    template <typename T> static void appendTo(std::string& out, T v)
    {
        char raw[sizeof(T)];
        std::memcpy(raw, &v, sizeof(T)); // the tests run on little-endian machines
        out.append(raw, sizeof(T));
    }

private:
    template <typename T> void put(T v) { appendTo(m_kv, v); }
    void text(const std::string& v)
    {
        put(uint64_t(v.size()));
        m_kv += v;
    }
    void keyOf(const std::string& key, uint32_t type)
    {
        text(key);
        put(type);
        ++m_keys;
    }

    std::string m_kv;
    uint64_t m_keys = 0;
    std::vector<GgufTensor> m_tensors;
    uint64_t m_dataEnd = 0;
};

} // namespace kvscope::test
