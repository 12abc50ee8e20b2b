#include "tiled_steps.hpp"

#include <algorithm>

namespace ts::model {

namespace {

struct SubStepText {
    SubStep sub;
    std::string_view name;
    std::string_view title;
};

constexpr SubStepText kTexts[] = {
    {SubStep::LoadTiles, "load", "load tiles into shared memory"},
    {SubStep::SyncAfterLoad, "sync1", "__syncthreads(): wait until both tiles are loaded"},
    {SubStep::Compute, "compute", "compute: multiply the tiles out of shared memory"},
    {SubStep::SyncAfterCompute, "sync2", "__syncthreads(): wait until every thread is done with the tiles"},
    {SubStep::Store, "store", "store each thread's sum into C"},
};

const SubStepText& text_of(SubStep sub) { return kTexts[static_cast<int>(sub)]; }

}  // namespace

std::string_view substep_name(SubStep sub) { return text_of(sub).name; }
std::string_view substep_title(SubStep sub) { return text_of(sub).title; }

std::optional<SubStep> parse_substep(std::string_view text) {
    for (const SubStepText& t : kTexts)
        if (t.name == text) return t.sub;
    return std::nullopt;
}

int tiled_step_count(int phases) { return std::max(phases, 1) * kSubStepsPerPhase + 1; }

TiledStep tiled_step_at(int phases, int index) {
    phases = std::max(phases, 1);
    index = std::clamp(index, 0, tiled_step_count(phases) - 1);
    if (index == phases * kSubStepsPerPhase) return {phases - 1, SubStep::Store};
    return {index / kSubStepsPerPhase, static_cast<SubStep>(index % kSubStepsPerPhase)};
}

int tiled_step_index(int phases, TiledStep step) {
    phases = std::max(phases, 1);
    if (step.sub == SubStep::Store) return phases * kSubStepsPerPhase;
    return std::clamp(step.phase, 0, phases - 1) * kSubStepsPerPhase + static_cast<int>(step.sub);
}

KRange accumulated_at(const Problem& problem, int tile, TiledStep step) {
    const bool computed = step.sub == SubStep::Compute || step.sub == SubStep::SyncAfterCompute ||
                          step.sub == SubStep::Store;
    return accumulated_k(problem, tile, computed ? step.phase : step.phase - 1);
}

}  // namespace ts::model
