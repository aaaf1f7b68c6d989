// SPDX-License-Identifier: GPL-3.0-or-later
#include "evaluation/number_ranges.h"

#include "kvscope/evaluation/scenario.h"
#include "kvscope/settings/settings_registry.h"
#include "settings/field_access.h"

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
    std::vector<FieldRange> ints, int64s, reals, optionalInt64s, optionalReals;
    std::vector<const Setting*> called; // numbers with no plain field, read through `number`
};

const RangeTable& rangeTable()
{
    static const RangeTable table = [] {
        RangeTable t;
        for (const Setting& s : settingsRegistry()) {
            if (!s.number)
                continue;
            const double lo = s.loOpen ? std::nextafter(s.lo, INFINITY) : s.lo;
            const FieldRange range{s.field.offset, lo, s.hi};
            // Finite bounds make the two comparisons refuse NaN and infinities too.
            const bool plain = std::isfinite(lo) && std::isfinite(s.hi);
            switch (plain ? s.field.kind : Kind::None) {
            case Kind::Int:
                t.ints.push_back(range);
                break;
            case Kind::Int64:
                t.int64s.push_back(range);
                break;
            case Kind::Real:
                t.reals.push_back(range);
                break;
            case Kind::OptionalInt64:
                t.optionalInt64s.push_back(range);
                break;
            case Kind::OptionalReal:
                t.optionalReals.push_back(range);
                break;
            case Kind::None:
                t.called.push_back(&s);
                break;
            }
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
    bool ok = allInRange<int>(s, t.ints) & allInRange<int64_t>(s, t.int64s) &
              allInRange<double>(s, t.reals) & allOptionalsInRange<int64_t>(s, t.optionalInt64s) &
              allOptionalsInRange<double>(s, t.optionalReals);
    for (const Setting* setting : t.called)
        ok &= inSettingRange(*setting, s);
    return ok;
}

const Setting* firstNumberOutOfRange(const Scenario& s)
{
    for (const Setting& setting : settingsRegistry())
        if (setting.number && !inSettingRange(setting, s))
            return &setting;
    return nullptr;
}

} // namespace kvscope
