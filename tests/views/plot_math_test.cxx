// The plot's arithmetic without ImGui: nice ticks that cover their range on every axis
// scale, transforms that invert, pan and zoom that keep the content under the mouse, log
// axes that skip what they cannot show, and picking the point nearest the mouse.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "views/common/plot_math.hpp"

using namespace ts::views;

namespace {

// 1, 2 or 5 times a power of ten.
bool is_nice(double step) {
    const double exponent = std::floor(std::log10(step) + 1e-9);
    const double mantissa = step / std::pow(10.0, exponent);
    return std::fabs(mantissa - 1.0) < 1e-9 || std::fabs(mantissa - 2.0) < 1e-9 || std::fabs(mantissa - 5.0) < 1e-9;
}

bool is_integer(double x) { return std::fabs(x - std::round(x)) < 1e-6; }

std::vector<double> values_of(const std::vector<Tick>& ticks) {
    std::vector<double> values;
    for (const Tick& t : ticks) values.push_back(t.value);
    return values;
}

TEST(NiceStep, IsOneTwoOrFiveTimesAPowerOfTen) {
    EXPECT_DOUBLE_EQ(nice_step(10.0, 5), 2.0);
    EXPECT_DOUBLE_EQ(nice_step(10.0, 10), 1.0);
    EXPECT_DOUBLE_EQ(nice_step(7.0, 5), 2.0);
    EXPECT_DOUBLE_EQ(nice_step(0.3, 6), 0.05);
    EXPECT_DOUBLE_EQ(nice_step(40000.0, 4), 10000.0);
    EXPECT_DOUBLE_EQ(nice_step(26.0, 5), 10.0);  // 5.2 per step: 5 is too small
    EXPECT_DOUBLE_EQ(nice_step(0.0, 5), 1.0);    // nothing to divide: any step will do
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> exponent(-12.0, 12.0);
    for (int i = 0; i < 2000; ++i) {
        const double span = std::pow(10.0, exponent(rng));
        const int steps = 2 + i % 9;
        const double step = nice_step(span, steps);
        ASSERT_TRUE(is_nice(step)) << span << " / " << steps << " → " << step;
        ASSERT_GE(step * steps, span * (1 - 1e-9));      // few enough steps
        ASSERT_LT(step * steps, span * 5.0 * (1 + 1e-9));  // and not absurdly few
    }
}

TEST(Ticks, LinearTicksAreNiceMultiplesCoveringTheRange) {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    std::uniform_real_distribution<double> exponent(-6.0, 9.0);
    for (int i = 0; i < 2000; ++i) {
        const double scale = std::pow(10.0, exponent(rng));
        double a = unit(rng) * scale;
        double b = unit(rng) * scale;
        if (a == b) continue;
        const AxisRange range{std::min(a, b), std::max(a, b)};
        const std::vector<Tick> ticks = make_ticks(range, AxisScale::Linear, 6);
        ASSERT_GE(ticks.size(), 2u) << range.min << " .. " << range.max;
        ASSERT_LE(ticks.size(), 13u);
        const double step = ticks[1].value - ticks[0].value;
        ASSERT_TRUE(is_nice(step)) << step;
        for (const Tick& t : ticks) {
            ASSERT_TRUE(is_integer(t.value / step)) << t.value << " is not a multiple of " << step;
            ASSERT_GE(t.value, range.min - step * 1e-6);
            ASSERT_LE(t.value, range.max + step * 1e-6);
            ASSERT_FALSE(t.label.empty());
        }
        // Covering: no gap of a whole step is left at either end.
        EXPECT_LT(ticks.front().value - range.min, step * (1 + 1e-9));
        EXPECT_LT(range.max - ticks.back().value, step * (1 + 1e-9));
    }
}

TEST(Ticks, LinearLabels) {
    const auto ticks = make_ticks({0.0, 1.0}, AxisScale::Linear, 5);
    ASSERT_EQ(ticks.size(), 6u);
    EXPECT_EQ(ticks[0].label, "0.0");
    EXPECT_EQ(ticks[1].label, "0.2");
    EXPECT_EQ(ticks[3].label, "0.6");  // not 0.6000000000000001
    // One suffix per axis once the numbers are large: GFLOP/s of a fast GPU.
    const auto large = make_ticks({0.0, 52000.0}, AxisScale::Linear, 6);
    EXPECT_EQ(large[0].label, "0");
    EXPECT_EQ(large[1].label, "10k");
    EXPECT_EQ(large.back().label, "50k");
    // Across zero: no "-0.0", and no suffix on zero.
    std::vector<std::string> labels;
    for (const Tick& t : make_ticks({-0.3, 0.3}, AxisScale::Linear, 6)) labels.push_back(t.label);
    EXPECT_EQ(labels, (std::vector<std::string>{"-0.3", "-0.2", "-0.1", "0.0", "0.1", "0.2", "0.3"}));
    EXPECT_EQ(make_ticks({-20000.0, 20000.0}, AxisScale::Linear, 4)[2].label, "0");
}

TEST(Ticks, Log2TicksArePowersOfTwoForSizes) {
    const auto ticks = make_ticks({100.0, 5000.0}, AxisScale::Log2, 10);
    EXPECT_EQ(values_of(ticks), (std::vector<double>{128, 256, 512, 1024, 2048, 4096}));
    EXPECT_EQ(ticks[3].label, "1024");
    // Many octaves: every 2nd, 5th, ... power, still powers of two.
    const auto wide = make_ticks({1.0, std::ldexp(1.0, 40)}, AxisScale::Log2, 6);
    ASSERT_GE(wide.size(), 2u);
    ASSERT_LE(wide.size(), 11u);
    for (const Tick& t : wide) EXPECT_TRUE(is_integer(std::log2(t.value))) << t.value;
    EXPECT_EQ(wide.back().label, "2^40");
    EXPECT_EQ(make_ticks({0.2, 1.0}, AxisScale::Log2, 6).front().label, "0.25");
    // Room for two only (a narrow plot, large text): still two powers of two, not none.
    EXPECT_EQ(values_of(make_ticks({100.0, 5000.0}, AxisScale::Log2, 2)), (std::vector<double>{128, 4096}));
}

TEST(Ticks, Log10TicksArePowersOfTenOrOneTwoFive) {
    const auto decades = make_ticks({0.05, 200000.0}, AxisScale::Log10, 10);
    EXPECT_EQ(values_of(decades), (std::vector<double>{0.1, 1, 10, 100, 1000, 10000, 100000}));
    EXPECT_EQ(decades[0].label, "0.1");
    EXPECT_EQ(decades[4].label, "1000");
    EXPECT_EQ(decades[5].label, "10k");
    EXPECT_EQ(decades[6].label, "100k");
    // Room for three ticks a decade: 1, 2, 5 of each decade.
    const auto narrow = make_ticks({15.0, 600.0}, AxisScale::Log10, 10);
    EXPECT_EQ(values_of(narrow), (std::vector<double>{20, 50, 100, 200, 500}));
    for (const Tick& t : narrow) EXPECT_TRUE(is_nice(t.value)) << t.value;
    const auto roomy = make_ticks({200.0, 60000.0}, AxisScale::Log10, 12);
    EXPECT_EQ(values_of(roomy), (std::vector<double>{200, 500, 1000, 2000, 5000, 10000, 20000, 50000}));
    EXPECT_EQ(roomy[6].label, "20k");
    // The same range with room for fewer: the decades alone.
    EXPECT_EQ(values_of(make_ticks({200.0, 60000.0}, AxisScale::Log10, 5)), (std::vector<double>{1000, 10000}));
    // Many decades: every few, still powers of ten, at most about max_ticks.
    const auto wide = make_ticks({1e-6, 1e30}, AxisScale::Log10, 6);
    ASSERT_LE(wide.size(), 11u);
    for (const Tick& t : wide) EXPECT_TRUE(is_integer(std::log10(t.value))) << t.value;
}

TEST(Ticks, NarrowLogRangesFallBackToLinear) {
    // 1000..1300 holds no power of two or ten, and one 1-2-5 value at most.
    for (AxisScale scale : {AxisScale::Log2, AxisScale::Log10}) {
        const auto ticks = make_ticks({1010.0, 1300.0}, scale, 6);
        ASSERT_GE(ticks.size(), 2u);
        const double step = ticks[1].value - ticks[0].value;
        EXPECT_TRUE(is_nice(step)) << step;
    }
}

TEST(Ticks, EmptyOrBackwardRangesHaveNone) {
    EXPECT_TRUE(make_ticks({1.0, 1.0}, AxisScale::Linear, 5).empty());
    EXPECT_TRUE(make_ticks({2.0, 1.0}, AxisScale::Linear, 5).empty());
    EXPECT_TRUE(make_ticks({-1.0, 10.0}, AxisScale::Log10, 5).empty());  // a log axis cannot reach -1
}

TEST(Transform, MapsEndsAndRoundTrips) {
    for (AxisScale scale : {AxisScale::Linear, AxisScale::Log2, AxisScale::Log10}) {
        const AxisRange range = scale == AxisScale::Linear ? AxisRange{-3.0, 7.0} : AxisRange{0.01, 8192.0};
        // A y axis: the minimum at the bottom (pixel 500), the maximum at the top (pixel 100).
        const AxisTransform t(range, scale, 500.0, 100.0);
        EXPECT_NEAR(*t.to_pixel(range.min), 500.0, 1e-9);
        EXPECT_NEAR(*t.to_pixel(range.max), 100.0, 1e-9);
        for (double pixel = -50.0; pixel <= 650.0; pixel += 3.7) {
            const double value = t.to_value(pixel);
            ASSERT_NEAR(*t.to_pixel(value), pixel, 1e-6) << "scale " << static_cast<int>(scale);
        }
        for (double value : {range.min, (range.min + range.max) / 3.0, range.max})
            EXPECT_NEAR(t.to_value(*t.to_pixel(value)), value, std::fabs(value) * 1e-12);
    }
    // Log axes place each doubling (or decade) the same distance apart.
    const AxisTransform sizes({128.0, 8192.0}, AxisScale::Log2, 0.0, 600.0);
    EXPECT_NEAR(*sizes.to_pixel(256.0) - *sizes.to_pixel(128.0), 100.0, 1e-9);
    EXPECT_NEAR(*sizes.to_pixel(4096.0) - *sizes.to_pixel(2048.0), 100.0, 1e-9);
}

TEST(Transform, LogAxesRejectWhatTheyCannotShow) {
    const AxisTransform t({1.0, 1000.0}, AxisScale::Log10, 0.0, 300.0);
    EXPECT_FALSE(t.to_pixel(0.0).has_value());
    EXPECT_FALSE(t.to_pixel(-5.0).has_value());
    EXPECT_FALSE(t.to_pixel(std::numeric_limits<double>::quiet_NaN()).has_value());
    EXPECT_FALSE(t.to_pixel(std::numeric_limits<double>::infinity()).has_value());
    EXPECT_TRUE(t.to_pixel(1e-300).has_value());  // tiny but positive: off the axis, still a number
    // A log range that reaches zero cannot be drawn; the transform falls back instead of
    // producing NaN pixels.
    const AxisTransform broken({0.0, 100.0}, AxisScale::Log2, 0.0, 100.0);
    EXPECT_EQ(broken.range(), default_range(AxisScale::Log2));
    EXPECT_TRUE(std::isfinite(*broken.to_pixel(4.0)));
    // Linear axes take any finite number.
    EXPECT_TRUE(AxisTransform({-1.0, 1.0}, AxisScale::Linear, 0, 1).to_pixel(-0.5).has_value());
}

TEST(FitRange, SkipsUnplottableValuesAndPads) {
    const std::vector<double> values{0.0, -4.0, 128.0, 8192.0, std::numeric_limits<double>::quiet_NaN()};
    const auto log = fit_range(values, AxisScale::Log2, 0.0);
    ASSERT_TRUE(log.has_value());
    EXPECT_DOUBLE_EQ(log->min, 128.0);
    EXPECT_DOUBLE_EQ(log->max, 8192.0);
    // Padding is a share of the span in axis space: 6 octaves × 0.5 = 3 octaves each side.
    const auto padded = fit_range(values, AxisScale::Log2, 0.5);
    EXPECT_NEAR(padded->min, 16.0, 1e-9);
    EXPECT_NEAR(padded->max, 65536.0, 1e-6);
    const auto linear = fit_range(values, AxisScale::Linear, 0.0);
    EXPECT_DOUBLE_EQ(linear->min, -4.0);
    EXPECT_DOUBLE_EQ(linear->max, 8192.0);
    EXPECT_FALSE(fit_range(std::vector<double>{0.0, -1.0}, AxisScale::Log10).has_value());
    EXPECT_FALSE(fit_range(std::vector<double>{}, AxisScale::Linear).has_value());
    // A single value gets room around it.
    const auto single = fit_range(std::vector<double>{5.0}, AxisScale::Log10, 0.0);
    EXPECT_LT(single->min, 5.0);
    EXPECT_GT(single->max, 5.0);
    const auto zero = fit_range(std::vector<double>{0.0}, AxisScale::Linear, 0.0);
    EXPECT_LT(zero->min, 0.0);
    EXPECT_GT(zero->max, 0.0);
}

TEST(PanZoom, ContentFollowsTheMouse) {
    for (AxisScale scale : {AxisScale::Linear, AxisScale::Log2, AxisScale::Log10}) {
        const AxisRange range = scale == AxisScale::Linear ? AxisRange{0.0, 100.0} : AxisRange{1.0, 1024.0};
        const AxisTransform before(range, scale, 0.0, 400.0);
        // Drag right by 40 px: the value that was at pixel 100 is now at pixel 140.
        const double value = before.to_value(100.0);
        const AxisTransform after(pan(range, scale, 40.0, 400.0), scale, 0.0, 400.0);
        EXPECT_NEAR(*after.to_pixel(value), 140.0, 1e-9);
        // Zooming keeps the anchor where it was and scales the span.
        const double anchor = before.to_value(300.0);
        const AxisTransform zoomed(zoom(range, scale, anchor, 0.5), scale, 0.0, 400.0);
        EXPECT_NEAR(*zoomed.to_pixel(anchor), 300.0, 1e-9);
        // Twice as far from the anchor: 100 px left of it becomes 200 px left.
        EXPECT_NEAR(*zoomed.to_pixel(before.to_value(200.0)), 100.0, 1e-9);
        // And zooming back out by the inverse factor restores the range.
        const AxisRange back = zoom(zoom(range, scale, anchor, 0.5), scale, anchor, 2.0);
        EXPECT_NEAR(back.min, range.min, 1e-9 * range.max);
        EXPECT_NEAR(back.max, range.max, 1e-9 * range.max);
    }
    // A log axis never pans or zooms to zero or below.
    const AxisRange log = zoom({1.0, 1e6}, AxisScale::Log10, 1.0, 1e6);
    EXPECT_GT(log.min, 0.0);
    // Zooming in past what doubles can tell apart stops rather than collapsing the range.
    AxisRange tight{1.0, 2.0};
    for (int i = 0; i < 200; ++i) tight = zoom(tight, AxisScale::Linear, 1.5, 0.5);
    EXPECT_GT(tight.max, tight.min);
}

TEST(Nearest, PicksTheClosestWithinReach) {
    const std::vector<ScreenPoint> points{{0, 0, 10.0, 10.0}, {0, 1, 50.0, 10.0}, {1, 0, 52.0, 30.0}};
    const auto hit = nearest_point(points, 49.0, 14.0, 12.0);
    ASSERT_TRUE(hit.has_value());
    EXPECT_EQ(hit->series, 0);
    EXPECT_EQ(hit->index, 1);
    const auto other = nearest_point(points, 52.0, 26.0, 12.0);
    ASSERT_TRUE(other.has_value());
    EXPECT_EQ(other->series, 1);
    EXPECT_FALSE(nearest_point(points, 200.0, 200.0, 12.0).has_value());
    EXPECT_FALSE(nearest_point({}, 0.0, 0.0, 12.0).has_value());
    // Two points on top of each other: the earlier (the series drawn first) wins.
    const std::vector<ScreenPoint> same{{2, 5, 10.0, 10.0}, {3, 7, 10.0, 10.0}};
    EXPECT_EQ(nearest_point(same, 11.0, 10.0, 5.0)->series, 2);
}

}  // namespace
