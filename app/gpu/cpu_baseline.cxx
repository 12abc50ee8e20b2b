#include "cpu_baseline.hpp"

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <numeric>
#include <random>

#include "sample_stats.hpp"

namespace ts::gpu {

namespace {

// The textbook loop, one batch after another. Nothing here may be "improved": it is the
// baseline students write first.
template <typename T>
void triple_loop(const model::Problem& p, const T* a, const T* b, T* c) {
    for (std::int64_t batch = 0; batch < p.batch; ++batch) {
        const T* a_batch = a + batch * p.a_elements();
        const T* b_batch = b + batch * p.b_elements();
        T* c_batch = c + batch * p.c_elements();
        for (std::int64_t i = 0; i < p.m; ++i)
            for (std::int64_t j = 0; j < p.n; ++j) {
                T sum = 0;
                for (std::int64_t k = 0; k < p.k; ++k) sum += a_batch[i * p.k + k] * b_batch[k * p.n + j];
                c_batch[i * p.n + j] = sum;
            }
    }
}

template <typename T>
std::vector<T> random_values(std::int64_t count, std::mt19937_64& rng) {
    std::vector<T> values(static_cast<std::size_t>(count));
    if constexpr (std::is_integral_v<T>) {
        std::uniform_int_distribution<T> uniform(-8, 8);
        for (T& x : values) x = uniform(rng);
    } else {
        std::uniform_real_distribution<T> uniform(-1, 1);
        for (T& x : values) x = uniform(rng);
    }
    return values;
}

template <typename T>
double time_typed(const model::Problem& p) {
    std::mt19937_64 rng(1);
    const std::vector<T> a = random_values<T>(p.a_elements() * p.batch, rng);
    const std::vector<T> b = random_values<T>(p.b_elements() * p.batch, rng);
    std::vector<T> c(static_cast<std::size_t>(p.c_elements() * p.batch));
    std::vector<double> runs_ms;
    double total_ms = 0.0;
    do {
        const auto began = std::chrono::steady_clock::now();
        triple_loop(p, a.data(), b.data(), c.data());
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - began).count();
        runs_ms.push_back(ms);
        total_ms += ms;
    } while (total_ms < 200.0 && runs_ms.size() < 100);
    // Make C observable, so the compiler cannot drop the loop as unused.
    volatile T sink = std::accumulate(c.begin(), c.end(), T{0});
    (void)sink;
    return summarize(runs_ms).median;
}

double work(const model::Problem& p) {
    return static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k) *
           static_cast<double>(p.batch);
}

model::Problem cube(std::int64_t side, model::Dtype dtype) {
    model::Problem p;
    p.m = p.n = p.k = side;
    p.dtype = dtype;
    return p;
}

}  // namespace

double time_triple_loop(const model::Problem& problem) {
    switch (problem.dtype) {
        case model::Dtype::Int32: return time_typed<std::int32_t>(problem);
        case model::Dtype::Float32: return time_typed<float>(problem);
        case model::Dtype::Float64: return time_typed<double>(problem);
        // A CPU has no BF16, FP16 or FP8 arithmetic to speak of: the triple loop runs in float.
        case model::Dtype::BFloat16:
        case model::Dtype::Float16:
        case model::Dtype::Fp8E4M3: return time_typed<float>(problem);
    }
    return 0.0;
}

std::vector<CpuTime> cpu_baseline(std::span<const model::Problem> problems, double limit_s,
                                  const std::function<void(const model::Problem&)>& on_run) {
    const double limit_ms = limit_s * 1e3;
    std::map<model::Dtype, CpuTime> largest;  // the basis for estimates, per element type
    auto run = [&](const model::Problem& p) {
        if (on_run) on_run(p);
        const double ms = time_triple_loop(p);
        const CpuTime time{p, ms, false, p, ms};
        auto [it, added] = largest.try_emplace(p.dtype, time);
        if (!added && work(p) > work(it->second.problem)) it->second = time;
        return time;
    };
    auto predict_ms = [&](const model::Problem& p) {
        const CpuTime& basis = largest.at(p.dtype);
        return basis.ms * work(p) / work(basis.problem);
    };

    constexpr std::int64_t kFirstSide = 128;  // a few milliseconds: the first prediction
    std::vector<std::size_t> order(problems.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t x, std::size_t y) { return work(problems[x]) < work(problems[y]); });

    std::vector<CpuTime> times(problems.size());
    for (std::size_t index : order) {
        const model::Problem& p = problems[index];
        if (!largest.contains(p.dtype)) {
            if (work(p) <= work(cube(kFirstSide, p.dtype))) {
                times[index] = run(p);
                continue;
            }
            run(cube(kFirstSide, p.dtype));
        }
        // Too long to run: climb towards the limit first, so the estimate is scaled from as
        // close to this size as the limit allows.
        if (predict_ms(p) > limit_ms) {
            std::int64_t side = kFirstSide;
            while (work(cube(side, p.dtype)) <= work(largest.at(p.dtype).problem)) side *= 2;
            while (work(cube(side, p.dtype)) < work(p) && predict_ms(cube(side, p.dtype)) <= limit_ms) {
                run(cube(side, p.dtype));
                side *= 2;
            }
        }
        if (predict_ms(p) <= limit_ms) {
            times[index] = run(p);
        } else {
            const CpuTime& basis = largest.at(p.dtype);
            times[index] = CpuTime{p, predict_ms(p), true, basis.problem, basis.ms};
        }
    }
    return times;
}

}  // namespace ts::gpu
