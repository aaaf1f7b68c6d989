// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace kvscope {

// An input the core cannot accept: which field, the value it got, and what it accepts.
// The core never throws to its callers; front ends turn this into a sentence
// (the CLI in English, the window translated).
struct FieldError
{
    std::string field; // dotted path of the input, e.g. "context" or "config.num_key_value_heads"
    std::string value; // the offending value as the user wrote it ("" when missing)
    std::string accepted; // what would be accepted, e.g. "an integer from 1 to 100,000,000"

    // "context: got 1000000000000; accepted: an integer from 1 to 100,000,000"
    std::string message() const;
};

// A value or the reason there is none (std::expected arrives with C++23).
template <typename T> class Expected
{
public:
    Expected(T value) : m_state(std::move(value)) {}
    Expected(FieldError error) : m_state(std::move(error)) {}
    // A default value built in place, to be filled where it stands (no copy of a large T).
    explicit Expected(std::in_place_t) : m_state(std::in_place_index<0>) {}
    // A value built from its parts (an aggregate's members, in order). Braced, and so moved in
    // once: Clang 14 has no parenthesised aggregate initialisation to build it where it stands.
    template <typename... Parts>
    explicit Expected(std::in_place_t, Parts&&... parts)
        : m_state(std::in_place_index<0>, T{std::forward<Parts>(parts)...})
    {
    }

    bool ok() const { return m_state.index() == 0; }
    explicit operator bool() const { return ok(); }
    const T& value() const& { return std::get<0>(m_state); }
    T& value() & { return std::get<0>(m_state); }
    T&& value() && { return std::get<0>(std::move(m_state)); }
    const T* operator->() const { return &value(); }
    const T& operator*() const { return value(); }
    const FieldError& error() const { return std::get<1>(m_state); }

private:
    std::variant<T, FieldError> m_state;
};

} // namespace kvscope
