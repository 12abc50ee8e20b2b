#include "views/common/plot_math.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

namespace ts::views {

namespace {

// Tick arithmetic works on values like 0.30000000000000004; this absorbs that.
constexpr double kSlack = 1e-9;

std::string printed(const char* format, double value) {
    char text[32];
    std::snprintf(text, sizeof text, format, value);
    return text;
}

// A value on a log axis: "0.5", "1000", "20k", "1M", "1e-05".
std::string compact(double value) {
    struct Suffix { double scale; const char* name; };
    static const Suffix suffixes[] = {{1e9, "G"}, {1e6, "M"}, {1e3, "k"}};
    if (value >= 1e4 && value < 1e12)
        for (const Suffix& s : suffixes)
            if (value >= s.scale) return printed("%g", value / s.scale) + s.name;
    if (value >= 1e-3 && value < 1e12) return printed("%g", value);
    return printed("%.0e", value);
}

// A power of two on a size axis: "1024" and "0.25" rather than 2^10 and 2^-2, as far as
// that stays short.
std::string power_of_two(int exponent) {
    if (exponent >= 0 && exponent <= 16) return printed("%.0f", std::ldexp(1.0, exponent));
    if (exponent < 0 && exponent >= -4) return printed("%g", std::ldexp(1.0, exponent));
    return "2^" + std::to_string(exponent);
}

int decimals_for(double step) { return std::max(0, static_cast<int>(-std::floor(std::log10(step) + kSlack))); }

std::vector<Tick> linear_ticks(AxisRange range, int max_ticks) {
    const double step = nice_step(range.max - range.min, max_ticks);
    const double first = std::ceil(range.min / step - kSlack);
    const double last = std::floor(range.max / step + kSlack);
    // One suffix for the whole axis, chosen by its largest label.
    const double largest = std::max(std::fabs(first * step), std::fabs(last * step));
    const double divisor = largest >= 1e10 ? 1e9 : largest >= 1e7 ? 1e6 : largest >= 1e4 ? 1e3 : 1.0;
    const char* suffix = divisor == 1e9 ? "G" : divisor == 1e6 ? "M" : divisor == 1e3 ? "k" : "";
    const std::string format = "%." + std::to_string(decimals_for(step / divisor)) + "f";
    std::vector<Tick> ticks;
    // A range whose span is lost in its magnitude's rounding (1e18 + 1) has no ticks to show.
    if (!(last - first <= 4.0 * max_ticks)) return ticks;
    const int count = static_cast<int>(last - first);
    for (int i = 0; i <= count; ++i) {
        // first + i is a whole number, so zero comes out exactly 0, never a rounding error.
        const double value = (first + i) * step;
        ticks.push_back({value, printed(format.c_str(), value / divisor) + (value == 0.0 ? "" : suffix)});
    }
    return ticks;
}

// Exponents e_lo..e_hi, every `step`-th of them (multiples of step).
std::vector<int> exponents(double lo, double hi, int max_ticks) {
    const int first = static_cast<int>(std::ceil(lo - kSlack));
    const int last = static_cast<int>(std::floor(hi + kSlack));
    if (last < first) return {};
    const int step = std::max(1, static_cast<int>(nice_step(last - first, max_ticks)));
    std::vector<int> result;
    for (int e = first; e <= last; ++e)
        if (e % step == 0) result.push_back(e);
    // Fewer than two multiples of the step (a narrow plot at presenter mode's large text: 2^7
    // to 2^12 in steps of 5 holds only 2^10): the steps counted from the first power instead.
    if (result.size() < 2 && last > first) {
        result.clear();
        for (int e = first; e <= last; e += step) result.push_back(e);
    }
    return result;
}

}  // namespace

bool plottable(double value, AxisScale scale) {
    return std::isfinite(value) && (scale == AxisScale::Linear || value > 0.0);
}

std::optional<double> to_axis(double value, AxisScale scale) {
    if (!plottable(value, scale)) return std::nullopt;
    switch (scale) {
        case AxisScale::Linear: return value;
        case AxisScale::Log2: return std::log2(value);
        case AxisScale::Log10: return std::log10(value);
    }
    return std::nullopt;
}

double from_axis(double axis_value, AxisScale scale) {
    switch (scale) {
        case AxisScale::Linear: return axis_value;
        case AxisScale::Log2: return std::exp2(axis_value);
        case AxisScale::Log10: return std::pow(10.0, axis_value);
    }
    return axis_value;
}

AxisRange default_range(AxisScale scale) { return scale == AxisScale::Linear ? AxisRange{0.0, 1.0} : AxisRange{1.0, 10.0}; }

std::optional<AxisRange> fit_range(std::span<const double> values, AxisScale scale, double padding) {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -lo;
    for (double value : values)
        if (const auto a = to_axis(value, scale)) {
            lo = std::min(lo, *a);
            hi = std::max(hi, *a);
        }
    if (lo > hi) return std::nullopt;
    if (hi - lo <= std::fabs(hi) * kSlack) {
        // One value: half a unit (linear, or a tenth of the value) or half an octave or
        // decade either side.
        const double half = scale != AxisScale::Linear ? 0.5 : lo == 0.0 ? 0.5 : std::fabs(lo) * 0.1;
        lo -= half;
        hi += half;
    }
    const double pad = (hi - lo) * padding;
    return AxisRange{from_axis(lo - pad, scale), from_axis(hi + pad, scale)};
}

double nice_step(double span, int max_steps) {
    if (!(span > 0.0) || max_steps < 1) return 1.0;
    const double raw = span / max_steps;
    const double base = std::pow(10.0, std::floor(std::log10(raw)));
    for (double multiple : {1.0, 2.0, 5.0})
        if (multiple * base >= raw * (1.0 - kSlack)) return multiple * base;
    return 10.0 * base;
}

std::vector<Tick> make_ticks(AxisRange range, AxisScale scale, int max_ticks) {
    if (!(range.max > range.min) || max_ticks < 1) return {};
    if (scale == AxisScale::Linear) return linear_ticks(range, max_ticks);
    const auto lo = to_axis(range.min, scale);
    const auto hi = to_axis(range.max, scale);
    if (!lo || !hi) return {};
    std::vector<Tick> ticks;
    if (scale == AxisScale::Log2) {
        for (int e : exponents(*lo, *hi, max_ticks)) ticks.push_back({std::ldexp(1.0, e), power_of_two(e)});
    } else if ((*hi - *lo) * 3.0 > max_ticks) {
        for (int e : exponents(*lo, *hi, max_ticks)) {
            const double value = std::pow(10.0, e);
            ticks.push_back({value, compact(value)});
        }
    } else {
        // Room for three ticks a decade: 1, 2 and 5 of each, as on log paper.
        const int first = static_cast<int>(std::floor(*lo)) - 1;
        for (int e = first; e <= static_cast<int>(std::ceil(*hi)); ++e)
            for (double multiple : {1.0, 2.0, 5.0}) {
                const double value = multiple * std::pow(10.0, e);
                if (value >= range.min * (1.0 - kSlack) && value <= range.max * (1.0 + kSlack))
                    ticks.push_back({value, compact(value)});
            }
    }
    if (ticks.size() < 2) return linear_ticks(range, max_ticks);
    return ticks;
}

AxisTransform::AxisTransform(AxisRange range, AxisScale scale, double pixel_from, double pixel_to)
    : m_range(range), m_scale(scale), m_pixel_from(pixel_from), m_pixel_to(pixel_to) {
    // A range this axis cannot show (a log axis reaching 0) falls back rather than divide
    // by zero or take log(0).
    if (!plottable(range.min, scale) || !plottable(range.max, scale) || !(range.max > range.min))
        m_range = default_range(scale);
    m_axis_min = *to_axis(m_range.min, scale);
    m_axis_max = *to_axis(m_range.max, scale);
}

std::optional<double> AxisTransform::to_pixel(double value) const {
    const auto a = to_axis(value, m_scale);
    if (!a) return std::nullopt;
    const double t = (*a - m_axis_min) / (m_axis_max - m_axis_min);
    return m_pixel_from + t * (m_pixel_to - m_pixel_from);
}

double AxisTransform::to_value(double pixel) const {
    const double t = (pixel - m_pixel_from) / (m_pixel_to - m_pixel_from);
    return from_axis(m_axis_min + t * (m_axis_max - m_axis_min), m_scale);
}

AxisRange pan(AxisRange range, AxisScale scale, double pixel_delta, double pixel_span) {
    const auto lo = to_axis(range.min, scale);
    const auto hi = to_axis(range.max, scale);
    if (!lo || !hi || !(pixel_span > 0.0)) return range;
    const double shift = -pixel_delta / pixel_span * (*hi - *lo);
    return {from_axis(*lo + shift, scale), from_axis(*hi + shift, scale)};
}

AxisRange zoom(AxisRange range, AxisScale scale, double anchor, double factor) {
    const auto lo = to_axis(range.min, scale);
    const auto hi = to_axis(range.max, scale);
    if (!lo || !hi || !(factor > 0.0)) return range;
    const double a = to_axis(anchor, scale).value_or((*lo + *hi) / 2.0);
    const double new_lo = a + (*lo - a) * factor;
    const double new_hi = a + (*hi - a) * factor;
    // Stop where doubles run out of digits to tell the ends apart, or a log axis overflows.
    if (new_hi - new_lo < 1e-9 * std::max(1.0, std::fabs(a))) return range;
    const AxisRange zoomed{from_axis(new_lo, scale), from_axis(new_hi, scale)};
    if (!plottable(zoomed.min, scale) || !plottable(zoomed.max, scale) || !(zoomed.max > zoomed.min)) return range;
    return zoomed;
}

std::optional<ScreenPoint> nearest_point(std::span<const ScreenPoint> candidates, double x, double y,
                                         double max_distance) {
    std::optional<ScreenPoint> best;
    double best_distance = max_distance;
    for (const ScreenPoint& p : candidates) {
        const double distance = std::hypot(p.x - x, p.y - y);
        if (distance < best_distance || (!best && distance == best_distance)) {
            best = p;
            best_distance = distance;
        }
    }
    return best;
}

}  // namespace ts::views
