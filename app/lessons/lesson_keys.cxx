#include "lesson_keys.hpp"

#include <algorithm>
#include <charconv>

#include "cli/setup_options.hpp"
#include "model/format.hpp"
#include "model/experiment.hpp"
#include "model/kernel_config.hpp"
#include "model/phase_timeline.hpp"
#include "model/problem.hpp"

namespace ts::lessons {

using model::format_text;

namespace {

// In the order a lesson usually names them: what is shown, the problem, the kernel, then
// where the theatre stands.
constexpr std::string_view kStateKeys[] = {"view",  "m",        "n",        "k",      "batch",   "dtype",
                                           "kernel", "tile",    "block-size", "select", "block", "phase",
                                           "sub-step", "k-step", "side-by-side", "panel", "hover-a", "hover-b",
                                           "axis", "metric", "experiment"};

// Keys whose effect can be taken back: a step may unpin a cell or leave the theatre's
// defaults again.
constexpr std::string_view kNoneKeys[] = {"select", "block", "phase", "sub-step", "k-step", "panel", "hover-a",
                                          "hover-b", "experiment"};

struct Answer {
    std::string_view word;
    bool needs_cell;
};
constexpr Answer kAnswers[] = {
    {"offset-of-a", true},           {"offset-of-b", true},          {"offset-of-c", true},
    {"loads-of-a", true},            {"loads-of-b", true},           {"reuse-factor", false},
    {"warp-sectors-coalesced", false}, {"warp-sectors-x-as-row", false}, {"threads-per-block", false},
    {"coalescing-penalty", false},   {"measured-speedup", false},
    // The kernel ladder: the step's `kernel:` rung against the rung below it, or against
    // tiled T=32 and cuBLAS.
    {"rung-speedup-predicted", false}, {"rung-speedup-measured", false}, {"speedup-over-tiled", false},
    {"percent-of-cublas", false},
    // The tensor-core ladder, in BF16: the step's rung against the rung below it, cuBLAS BF16,
    // and cuBLAS FP32.
    {"tc-rung-speedup-measured", false}, {"tc-speedup-over-fp32", false}, {"tc-percent-of-cublas", false},
    // What each type costs in accuracy: C's correct digits in each (the model, on the CPU), and the
    // largest error `check` found for the step's kernel in BF16 (measured).
    {"digits-fp32", false}, {"digits-tf32", false}, {"digits-fp16", false}, {"digits-bf16", false},
    {"check-error", false},
    // Breaking a kernel on purpose (the step's `experiment:`): how many runs came out wrong,
    // the stores past C's end of no-bounds-check, the slow-down of bank-conflicts.
    {"experiment-wrong-runs", false}, {"stray-writes", false}, {"experiment-slowdown", false},
    // Eight bits: e4m3's significant bits (the model's decoder); cuBLASLt FP8 against cuBLAS BF16 in
    // speed, and its error against FP64 on the FP32 inputs (measured); the accumulator's error at
    // K = 4096, never promoted and promoted every 128 of K (the GPU's run this session, else the model).
    {"e4m3-significant-bits", false}, {"fp8-speedup-over-bf16", false}, {"fp8-error-vs-fp64", false},
    {"fp8-accumulator-error", false}, {"fp8-promoted-error", false},
    // Power and clocks: the step's tensor-core rung against cuBLAS BF16 in joules per matmul, its
    // average watts, and its SM clock as a share of cuBLAS's while the energy was measured.
    {"tc-joules-vs-cublas", false}, {"tc-avg-watts", false}, {"tc-clock-vs-cublas", false},
};

template <typename Range>
bool contains(const Range& range, std::string_view word) {
    return std::find(std::begin(range), std::end(range), word) != std::end(range);
}

std::optional<std::string> check_count(std::string_view key, std::string_view value, long long low, long long high) {
    const auto number = parse_whole(value);
    if (!number) return format_text("{} expects a whole number from {} to {}, got \"{}\"", key, low, high, value);
    if (*number < low || *number > high) return format_text("{} must be from {} to {}, got {}", key, low, high, value);
    return std::nullopt;
}

}  // namespace

std::optional<long long> parse_whole(std::string_view text) {
    long long value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (text.empty() || text.front() == '-' || error != std::errc{} || stop != end) return std::nullopt;
    return value;
}

std::optional<std::pair<int, int>> parse_pair(std::string_view text) {
    const auto comma = text.find(',');
    if (comma == std::string_view::npos) return std::nullopt;
    auto trim = [](std::string_view s) {
        while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
        while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
        return s;
    };
    const auto first = parse_whole(trim(text.substr(0, comma)));
    const auto second = parse_whole(trim(text.substr(comma + 1)));
    if (!first || !second || *first > 1'000'000 || *second > 1'000'000) return std::nullopt;
    return std::pair{static_cast<int>(*first), static_cast<int>(*second)};
}

bool is_state_key(std::string_view key) { return contains(kStateKeys, key); }

std::string step_keys() {
    std::string keys = "step, text, predict, answer, expect-error";
    for (std::string_view key : kStateKeys) keys += format_text(", {}", key);
    return keys;
}

std::optional<std::string> check_state_value(std::string_view key, std::string_view value) {
    if (value == "none" && contains(kNoneKeys, key)) return std::nullopt;
    if (key == "m" || key == "n" || key == "k") return check_count(key, value, 1, kMaxLessonSize);
    if (key == "batch") return check_count(key, value, 1, 65535);
    if (key == "tile") return check_count(key, value, 1, kMaxLessonTile);
    if (key == "phase" || key == "k-step") return check_count(key, value, 0, kMaxLessonSize);
    if (key == "kernel") {
        if (model::parse_kernel(value)) return std::nullopt;
        return format_text("kernel must be one of {}, got \"{}\"", cli::kernel_names(), value);
    }
    if (key == "dtype") {
        if (model::parse_dtype(value)) return std::nullopt;
        return format_text("dtype must be int32, float, double, bf16, fp16 or fp8, got \"{}\"", value);
    }
    if (key == "sub-step") {
        if (model::parse_substep(value)) return std::nullopt;
        return format_text("sub-step must be load, sync1, compute, sync2, store or none, got \"{}\"", value);
    }
    if (key == "experiment") {
        if (model::parse_experiment(value) || value == kAccumulatorExperiment) return std::nullopt;
        return format_text("experiment must be one of {}, {} or none, got \"{}\"", model::experiment_names(),
                           kAccumulatorExperiment, value);
    }
    if (key == "side-by-side") {
        if (value == "yes" || value == "no") return std::nullopt;
        return format_text("side-by-side must be yes or no, got \"{}\"", value);
    }
    if (key == "axis") {
        if (value == "latency" || value == "latency-log" || value == "gflops" || value == "speedup")
            return std::nullopt;
        return format_text("axis must be latency, latency-log, gflops or speedup, got \"{}\"", value);
    }
    if (key == "metric") {
        if (value == "speed" || value == "energy") return std::nullopt;
        return format_text("metric must be speed or energy, got \"{}\"", value);
    }
    if (key == "block-size") {
        const auto x = value.find('x');
        const auto bx = x == std::string_view::npos ? std::nullopt : parse_whole(value.substr(0, x));
        const auto by = x == std::string_view::npos ? std::nullopt : parse_whole(value.substr(x + 1));
        if (!bx || !by || *bx < 1 || *by < 1 || *bx > 1024 || *by > 1024)
            return format_text("block-size expects XxY with sides from 1 to 1024, such as 32x8, got \"{}\"", value);
        return std::nullopt;
    }
    if (key == "select" || key == "block" || key == "hover-a" || key == "hover-b") {
        if (parse_pair(value)) return std::nullopt;
        const char* what = key == "block" ? "BX,BY (blockIdx.x, blockIdx.y)" : "ROW,COL";
        return format_text("{} expects {}: two whole numbers from 0, or none; got \"{}\"", key, what, value);
    }
    // view and panel: their words are the views' own, checked when the step is applied.
    return std::nullopt;
}

std::string answer_words() {
    std::string words;
    for (const Answer& answer : kAnswers) {
        if (!words.empty()) words += ", ";
        words += answer.word;
        if (answer.needs_cell) words += " ROW,COL";
    }
    return words;
}

std::optional<std::string> parse_answer(std::string_view text, ParsedAnswer& out) {
    const auto space = text.find(' ');
    const std::string_view word = text.substr(0, space);
    const std::string_view rest = space == std::string_view::npos ? std::string_view{} : text.substr(space + 1);
    const auto known = std::find_if(std::begin(kAnswers), std::end(kAnswers),
                                    [&](const Answer& answer) { return answer.word == word; });
    if (known == std::end(kAnswers))
        return format_text("answer must be one of {} (the app computes it), got \"{}\"", answer_words(), text);
    out.word = std::string(word);
    out.cell.reset();
    if (known->needs_cell) {
        out.cell = parse_pair(rest);
        if (!out.cell) return format_text("answer {} expects the element as ROW,COL, such as {} 0,0", word, word);
    } else if (!rest.empty()) {
        return format_text("answer {} takes nothing after it, got \"{}\"", word, rest);
    }
    return std::nullopt;
}

}  // namespace ts::lessons
