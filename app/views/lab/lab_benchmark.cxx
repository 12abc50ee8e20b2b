#include "views/lab/lab_benchmark.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "views/lab/latency_view.hpp"
#include "model/format.hpp"

namespace ts::views {

using model::format_text;

namespace {

std::string spread_text(const std::vector<double>& values) {
    const Spread s = spread(values);
    char text[96];
    std::snprintf(text, sizeof text, "median %.1f ms, p90 %.1f ms, max %.1f ms", s.median, s.p90, s.max);
    return text;
}

}  // namespace

Spread spread(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const std::size_t n = values.size();
    Spread s;
    s.median = n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2.0;
    s.p90 = values[static_cast<std::size_t>(std::ceil(0.9 * double(n))) - 1];
    s.max = values.back();
    return s;
}

LabBenchmark::LabBenchmark(int changes, std::vector<int> sizes, double timeout_s)
    : m_changes(changes), m_sizes(std::move(sizes)), m_timeout_s(timeout_s) {}

void LabBenchmark::on_frame(LabState& lab, const AppState& app, double now_s) {
    if (m_finished || m_failure) return;
    if (!m_first_frame_s) m_first_frame_s = now_s;
    if (!app.device) {
        if (now_s - *m_first_frame_s > m_timeout_s)
            m_failure = format_text("CUDA gave no answer about the GPU within {} s", m_timeout_s);
        return;
    }
    if (!app.device->usable) {
        m_failure = "no usable GPU: " + app.device->why_not;
        return;
    }
    if (m_made > 0) m_frame_ms.push_back((now_s - *m_last_frame_s) * 1e3);
    m_last_frame_s = now_s;

    m_superseded = lab.measured.superseded - m_superseded_before;
    if (m_waiting) {
        const int kept = lab.measured.points_kept - m_kept_before;
        // Points are kept in exchange_with_runner, before the views fill the plot this frame.
        if (kept > 0 && !m_first_seen) {
            m_first_ms.push_back((now_s - m_change_s) * 1e3);
            m_first_seen = true;
        }
        if (lab.measured.in_flight > 0 || !lab.measured.to_submit.empty()) {
            if (now_s - m_change_s > m_timeout_s)
                m_failure = format_text("change {} (size {}): not every result was back after {} s", m_made,
                                   lab.choices.latency.size, m_timeout_s);
            return;
        }
        m_waiting = false;
        if (kept < m_requests) {
            m_failure = format_text("change {} (size {}): {} of {} requests failed; the last error: {}", m_made,
                               lab.choices.latency.size, m_requests - kept, m_requests, lab.measured.last_error);
            return;
        }
        m_all_ms.push_back((now_s - m_change_s) * 1e3);
        if (m_made == m_changes) {
            m_finished = true;
            return;
        }
    }
    make_change(lab, app, now_s);
}

void LabBenchmark::make_change(LabState& lab, const AppState& app, double now_s) {
    if (m_made == 0) {
        m_device = app.device->limits.name;
        m_superseded_before = lab.measured.superseded;
    }
    lab.choices.latency.size = m_sizes[static_cast<std::size_t>(m_made) % m_sizes.size()];
    m_kept_before = lab.measured.points_kept;
    measure_latency_now(lab);
    const auto& queued = lab.measured.to_submit;
    m_requests = static_cast<int>(std::count_if(queued.begin(), queued.end(), [](const auto& request) {
        return request.first.rfind("latency/", 0) == 0;
    }));
    ++m_made;
    m_waiting = true;
    m_first_seen = false;
    m_change_s = now_s;
}

std::string LabBenchmark::report() const {
    std::string sizes;
    for (int size : m_sizes) sizes += (sizes.empty() ? "" : ", ") + std::to_string(size);
    std::string text = format_text("lab benchmark on {}: {} changes of the size ({}), {} requests each\n", m_device,
                              m_all_ms.size(), sizes, m_requests);
    text += "slider-to-point latency, first new point: " + spread_text(m_first_ms) + "\n";
    text += "slider-to-point latency, all points:      " + spread_text(m_all_ms) + "\n";
    text += format_text("frame time while measuring, {} frames: ", m_frame_ms.size()) + spread_text(m_frame_ms) + "\n";
    text += format_text("superseded requests: {}\n", m_superseded);
    return text;
}

}  // namespace ts::views
