// lab_benchmark.hpp — `tilescope --view latency --lab-benchmark N`: how long after a change
// of the latency lab's size its new points are in the plot, and how long frames take
// meanwhile. The window's loop drives it once per frame and passes the clock in, so the
// tests can drive it with a fake clock and fake results.
//
// Each change goes through measure_latency_now, as the size control does, so the requests
// take the user's path: to_submit, then exchange_with_runner's submit_live on the next
// frame. The next change waits until every request of the previous one is back, so each
// latency belongs to one change.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "views/window/app_state.hpp"

namespace ts::views {

struct Spread {
    double median = 0.0;
    double p90 = 0.0;  // nearest rank
    double max = 0.0;
};

// Of `values`, which must not be empty.
Spread spread(std::vector<double> values);

class LabBenchmark {
public:
    // `sizes` (not empty) are taken in turn, one per change.
    LabBenchmark(int changes, std::vector<int> sizes, double timeout_s = 60.0);

    // Once per frame, after the views are drawn (so the plot holds this frame's points).
    // `now_s` is any steady clock in seconds.
    // Writes the lab (its size, and the requests of each change); reads the GPU from `app`.
    void on_frame(LabState& lab, const AppState& app, double now_s);

    bool finished() const { return m_finished; }
    // Why it stopped early: no usable GPU, a request failed, or no result in time.
    const std::optional<std::string>& failure() const { return m_failure; }
    // The summary to print once finished.
    std::string report() const;

    // Milliseconds from each change to its first new point, and to its last.
    const std::vector<double>& first_point_ms() const { return m_first_ms; }
    const std::vector<double>& all_points_ms() const { return m_all_ms; }
    // Every frame's duration from the first change on.
    const std::vector<double>& frame_ms() const { return m_frame_ms; }
    int superseded() const { return m_superseded; }

private:
    void make_change(LabState& lab, const AppState& app, double now_s);

    int m_changes;
    std::vector<int> m_sizes;
    double m_timeout_s;

    std::optional<double> m_first_frame_s;  // when it started waiting for the probe
    std::optional<double> m_last_frame_s;
    std::string m_device;
    int m_made = 0;           // changes made so far
    bool m_waiting = false;   // for the latest change's results
    double m_change_s = 0.0;
    int m_requests = 0;       // queued by the latest change
    int m_kept_before = 0;    // LabMeasurements::points_kept just before it
    int m_superseded_before = 0;
    bool m_first_seen = false;

    std::vector<double> m_first_ms;
    std::vector<double> m_all_ms;
    std::vector<double> m_frame_ms;
    int m_superseded = 0;
    bool m_finished = false;
    std::optional<std::string> m_failure;
};

}  // namespace ts::views
