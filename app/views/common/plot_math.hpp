// plot_math.hpp — the arithmetic behind plot.hpp, with no ImGui: axis ranges, "nice" ticks
// on linear, log2 and log10 axes, data ↔ pixel transforms, pan and zoom, and finding the
// point nearest the mouse. Kept apart so every rule is unit-tested without a window.
//
// Log axes work in exponent space: log2(x) or log10(x). A value that an axis cannot show
// (≤ 0 on a log axis, NaN, infinity) is not an error: to_pixel() answers nullopt and the
// plot skips it, and fit_range() ignores it.
#pragma once

#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace ts::views {

// A value not (yet) known: plots leave a gap for it.
inline constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

enum class AxisScale { Linear, Log2, Log10 };

// Data values at the two ends of an axis; min < max, and min > 0 on log axes.
struct AxisRange {
    double min = 0.0;
    double max = 1.0;
    bool operator==(const AxisRange&) const = default;
};

// Finite, and positive on a log axis.
bool plottable(double value, AxisScale scale);
// Value → axis space (itself, log2 or log10); nullopt when not plottable.
std::optional<double> to_axis(double value, AxisScale scale);
double from_axis(double axis_value, AxisScale scale);

// The smallest range holding every plottable value, widened by `padding` of its span at
// each end (in axis space, so a log axis pads by a factor). One value, or all equal, gets
// a range around it; nullopt when no value is plottable.
std::optional<AxisRange> fit_range(std::span<const double> values, AxisScale scale, double padding = 0.05);

// The fallback when there is nothing to fit: [0, 1], or [1, 10] on a log axis.
AxisRange default_range(AxisScale scale);

// The smallest 1, 2 or 5 × 10^k that is at least span / max_steps.
double nice_step(double span, int max_steps);

struct Tick {
    double value = 0.0;
    std::string label;  // "0.25", "1024", "10k"
};

// At most about `max_ticks` ticks inside `range`, in increasing order:
// - Linear: the multiples of nice_step(span, max_ticks).
// - Log10: 1, 2 and 5 × 10^k when max_ticks leaves room for three a decade; otherwise
//   powers of ten, every 1, 2, 5, 10, ... decades when there are many.
// - Log2: powers of two, every 1, 2, 5, 10, ... octaves when there are many: matrix sizes.
// A log range too narrow to hold two such ticks gets linear ticks instead.
// Linear labels share one suffix per axis ("0", "5k", "10k" once the largest is ≥ 10 000);
// log labels each take their own ("10", "100", "1k", "10k").
std::vector<Tick> make_ticks(AxisRange range, AxisScale scale, int max_ticks);

// One axis mapped onto pixels: range.min to pixel_from and range.max to pixel_to (for a y
// axis pixel_from is the bottom, so pixels grow downwards while values grow up).
class AxisTransform {
public:
    AxisTransform() = default;
    AxisTransform(AxisRange range, AxisScale scale, double pixel_from, double pixel_to);

    std::optional<double> to_pixel(double value) const;  // nullopt: not plottable here
    double to_value(double pixel) const;                 // the inverse, for any pixel
    AxisRange range() const { return m_range; }
    AxisScale scale() const { return m_scale; }

private:
    AxisRange m_range;
    AxisScale m_scale = AxisScale::Linear;
    double m_pixel_from = 0.0;
    double m_pixel_to = 1.0;
    double m_axis_min = 0.0;  // range in axis space
    double m_axis_max = 1.0;
};

// The range after dragging the content by `pixel_delta` along an axis `pixel_span` pixels
// long (positive: towards higher values' pixels), so the content follows the mouse.
AxisRange pan(AxisRange range, AxisScale scale, double pixel_delta, double pixel_span);
// The range after zooming by `factor` (< 1 zooms in) about `anchor`, which stays in place.
AxisRange zoom(AxisRange range, AxisScale scale, double anchor, double factor);

// A point as drawn: which series, which point, where.
struct ScreenPoint {
    int series = 0;
    int index = 0;
    double x = 0.0;
    double y = 0.0;
};

// The candidate nearest (x, y), if one lies within max_distance pixels; the earliest of
// equally near ones.
std::optional<ScreenPoint> nearest_point(std::span<const ScreenPoint> candidates, double x, double y,
                                         double max_distance);

}  // namespace ts::views
