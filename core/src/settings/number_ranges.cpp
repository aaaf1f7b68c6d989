// SPDX-License-Identifier: GPL-3.0-or-later
#include "settings/number_ranges.h"

#include "kvscope/scenario/scenario.h"
#include "kvscope/settings/settings_registry.h"
#include "scenario/field_access.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace kvscope {

namespace {

using Kind = NumberField::Kind;

// One field's accepted range as closed bounds: an open lower bound becomes the next number above
// it, so the test is two comparisons. A value left to its default reads as `lo`.
struct FieldRange
{
    uint32_t offset;
    double lo;
    double hi;
};

struct RangeTable
{
    std::array<std::vector<FieldRange>, 6> byKind; // indexed by NumberField::Kind
    std::vector<const Setting*> called;            // numbers with no plain field
    const std::vector<FieldRange>& of(Kind kind) const { return byKind[size_t(kind)]; }
};

const RangeTable& rangeTable()
{
    static const RangeTable table = [] {
        RangeTable t;
        for (const Setting& s : settingsRegistry()) {
            if (!s.number)
                continue;
            const double lo = s.loOpen ? std::nextafter(s.lo, INFINITY) : s.lo;
            // Finite bounds make the two comparisons refuse NaN and infinities too.
            if (s.field.kind == Kind::None || !std::isfinite(lo) || !std::isfinite(s.hi))
                t.called.push_back(&s);
            else
                t.byKind[size_t(s.field.kind)].push_back({s.field.offset, lo, s.hi});
        }
        return t;
    }();
    return table;
}

template <class T> const T& fieldOf(const Scenario& s, const FieldRange& r)
{
    return *reinterpret_cast<const T*>(reinterpret_cast<const char*>(&s) + r.offset);
}

template <class T> bool allInRange(const Scenario& s, const std::vector<FieldRange>& ranges)
{
    bool ok = true;
    for (const FieldRange& r : ranges) {
        const double v = double(fieldOf<T>(s, r));
        ok &= (v >= r.lo) & (v <= r.hi);
    }
    return ok;
}

template <class T>
bool allOptionalsInRange(const Scenario& s, const std::vector<FieldRange>& ranges)
{
    bool ok = true;
    for (const FieldRange& r : ranges) {
        const std::optional<T>& field = fieldOf<std::optional<T>>(s, r);
        const double v = field ? double(*field) : r.lo;
        ok &= (v >= r.lo) & (v <= r.hi);
    }
    return ok;
}

bool inSettingRange(const Setting& setting, const Scenario& s)
{
    const std::optional<double> v = setting.number(s);
    if (!v) // left to its default
        return true;
    const bool low = setting.loOpen ? *v > setting.lo : *v >= setting.lo;
    return std::isfinite(*v) && low && *v <= setting.hi;
}

} // namespace

bool registryNumbersInRange(const Scenario& s)
{
    const RangeTable& t = rangeTable();
    if (!allInRange<int>(s, t.of(Kind::Int)) || !allInRange<int64_t>(s, t.of(Kind::Int64)) ||
        !allInRange<double>(s, t.of(Kind::Real)) ||
        !allOptionalsInRange<int64_t>(s, t.of(Kind::OptionalInt64)) ||
        !allOptionalsInRange<double>(s, t.of(Kind::OptionalReal)))
        return false;
    return std::all_of(t.called.begin(), t.called.end(),
                       [&s](const Setting* setting) { return inSettingRange(*setting, s); });
}

const Setting* firstNumberOutOfRange(const Scenario& s)
{
    for (const Setting& setting : settingsRegistry())
        if (setting.number && !inSettingRange(setting, s))
            return &setting;
    return nullptr;
}

} // namespace kvscope
