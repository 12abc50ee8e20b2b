// whole_number.hpp — a JSON number read into an integer field, only when the field holds it.
// nlohmann's get<int>() casts whatever number is there: 1.3·10^34 into an int is undefined
// behaviour, and 2^40 into an int wraps. Every reader of outside JSON (the worker's messages,
// experiment files) asks here instead.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

namespace ts::record {

// The whole number `value` holds, when T holds it; nullopt for anything else (text, a fraction,
// a number out of T's range). A float with no fraction, as a hand-written 50.0, counts as whole.
// BasicJson: nlohmann::json or nlohmann::ordered_json.
template <typename T, typename BasicJson>
std::optional<T> whole_number(const BasicJson& value) {
    static_assert(std::is_integral_v<T> && !std::is_same_v<T, bool>);
    if (value.is_number_unsigned()) {
        const auto u = value.template get<std::uint64_t>();
        if (u > static_cast<std::uint64_t>(std::numeric_limits<T>::max())) return std::nullopt;
        return static_cast<T>(u);
    }
    std::int64_t s = 0;
    if (value.is_number_integer()) {
        s = value.template get<std::int64_t>();
    } else if (value.is_number_float()) {
        const double d = value.template get<double>();
        // 2^63 is the first double past int64's range (and NaN fails both comparisons).
        if (!(d >= -0x1p63 && d < 0x1p63) || d != std::floor(d)) return std::nullopt;
        s = static_cast<std::int64_t>(d);
    } else {
        return std::nullopt;
    }
    const bool fits = s < 0 ? std::is_signed_v<T> && s >= static_cast<std::int64_t>(std::numeric_limits<T>::min())
                            : static_cast<std::uint64_t>(s) <= static_cast<std::uint64_t>(std::numeric_limits<T>::max());
    if (!fits) return std::nullopt;
    return static_cast<T>(s);
}

}  // namespace ts::record
