// failures.hpp — the lab's measurements that failed, said where they happen (issue #22).
//
// A request can fail after it was sent: CUDA refuses the launch, the kernel faults, the GPU
// worker is killed or overruns its deadline (gpu/supervisor.hpp says so in one sentence:
// "the GPU worker stopped during tiled T=1 float 2048³: killed by signal 9 (SIGKILL: Killed);
// it was restarted"). The lab keeps each failed request here, one per point, so that every
// view draws that point, cell or bar as failed in its own place instead of "not measured";
// hovering it gives the sentence, a click queues exactly that request again, and the status
// bar names the latest failure. A later success of the same point removes its failure.
//
// A measurement may hold failed points too (`tilescope-cli bench` writes them with ok = false
// and the error): where nothing measured that point since, it is drawn failed the same way.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gpu/runner.hpp"
#include "imgui.h"
#include "record/measurement_file.hpp"

namespace ts::views {

struct LabMeasurements;

struct Failure {
    gpu::RunRequest request;  // what failed; "measure again" queues it unchanged
    std::string what;         // gpu::describe_point: "tiled T=1 float 2048³"
    std::string sentence;     // the runner's words, or the measurement's error
    bool recorded = false;    // a failed point of the measurement, not of this session
    int serial = 0;           // this session's failures count up: the highest is the latest
};

struct Failures {
    std::vector<Failure> failed;  // at most one per point (kernel, size, dtype, batch)
    int next_serial = 1;
    // Every failure as it arrives, also those a newer one of the same point replaced in the
    // same frame, for --run to write to stderr; kept only while `keep_unreported` is set.
    bool keep_unreported = false;
    std::vector<Failure> unreported;
};

// A Measure result that no newer request replaced (take_live_result): a failure is kept in
// place of an older one of the same point, a success removes the point's failure.
void note_measure_result(Failures& failures, const gpu::RunResult& result);

// The failure of the point that `request` measures (its kernel, size, dtype and batch): this
// session's, else a failed point among `points` (lab_points) where none of them succeeded;
// nullopt when the point has not failed. For a recorded failure, `request` is what a click
// measures.
std::optional<Failure> failure_at(const LabMeasurements& measured, const std::vector<const record::Point*>& points,
                                  const gpu::RunRequest& request);

// This session's latest failure still standing, for the status bar; null when none.
const Failure* latest_failure(const Failures& failures);

// Queues the failed request again (on a GPU; the main loop submits it), under a key of its own
// so that it neither joins nor disturbs a sweep.
void measure_again(LabMeasurements& measured, const Failure& failure);

// The tooltip: "tiled T=1 float 2048³ failed:", the sentence, and how to measure it again
// (`can_measure`: a usable GPU is there).
std::string failure_tooltip(const Failure& failure, bool can_measure);

// A failed cell or bar in [a, b): pale red inside a red outline, "failed" in red at
// `text_at` (and how to learn why and measure again, where the box is wide enough); hovered (in the current window), failure_tooltip. True when it was clicked and
// `can_measure`: the caller then calls measure_again.
bool failed_box(ImDrawList* draw, ImVec2 a, ImVec2 b, ImVec2 text_at, const Failure& failure, bool can_measure);

}  // namespace ts::views
