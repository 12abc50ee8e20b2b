// rung_text.cxx — the rung theatre in words (declared in rung_canvas.hpp): the step's
// title and detail, the block's counts, the Thread and Warp tabs, the rung's textbook problem.
// Apart from rung_canvas.cxx because none of it draws on the canvas: it reads the same
// RungFrame (rung_frame.hpp) and says in sentences and lists what the picture shows.
#include "views/theatre/rungs/rung_canvas.hpp"

#include <algorithm>

#include "model/format.hpp"
#include "model/ladder_access.hpp"
#include "model/thread_map.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/theatre/bank_map.hpp"
#include "views/theatre/rungs/rung_frame.hpp"

namespace ts::views {

using model::format_text;
using model::Operand;
using model::SubStep;
using namespace rung_theatre;

int rung_focus_thread(const AppState& state) {
    const model::LadderShape s = model::ladder_shape(state.kernel);
    if (!state.selected) return 0;
    const int r = state.selected->row - state.theatre.block.y * s.bm, c = state.selected->col - state.theatre.block.x * s.bn;
    if (r < 0 || c < 0 || r >= s.bm || c >= s.bn) return 0;
    return model::ladder_thread_of_tile_cell(s, r, c);
}

model::Problem rung_textbook_problem(model::KernelConfig config) {
    const model::LadderShape s = model::ladder_shape(config);
    model::Problem problem;
    problem.m = 2 * s.bm;
    problem.n = 2 * s.bn;
    // Enough K steps to see the pipeline fill, run and drain: stages + 2 of them, at least 3.
    problem.k = static_cast<std::int64_t>(s.bk) * std::max(3, s.stages + 2);
    return problem;
}

std::string rung_step_title(const AppState& state, model::KernelStep step) {
    const RungFrame l = make_rung_frame(state);
    if (step.sub == SubStep::Store)
        return format_text("After {}: store the register tiles to C",
                           l.steps == 1 ? std::string("the one K step") : "all " + model::counted(l.steps, "K step"));
    std::string what;
    const bool pipelined = l.s.stages > 1;
    switch (step.sub) {
        case SubStep::LoadTiles:
            what = pipelined ? format_text("start copying step {} (cp.async)", step.phase + l.s.stages - 1)
                             : std::string("load the tiles into shared memory");
            break;
        case SubStep::SyncAfterLoad:
            what = pipelined ? std::string("this step's copies have arrived") : std::string("barrier: the tiles are complete");
            break;
        case SubStep::Compute: what = "outer products from registers"; break;
        case SubStep::SyncAfterCompute:
            what = pipelined ? std::string("wait for the next step's copies, one barrier")
                             : std::string("barrier: everyone is done reading");
            break;
        case SubStep::Store: break;
    }
    std::string title = format_text("K step {} of {} (step = {} in the code): {}", step.phase + 1, l.steps, step.phase, what);
    if (step.k >= 0) title += format_text(", k = {} of {}", step.k, l.s.bk);
    return title;
}

std::string rung_step_detail(const AppState& state, model::KernelStep step) {
    const RungFrame l = make_rung_frame(state);
    const model::LadderShape& s = l.s;
    const int k0 = step.phase * s.bk;
    switch (step.sub) {
        case SubStep::LoadTiles: {
            const std::string a_how = s.a_vec() > 1 ? "float4s (one instruction, four slots)" : "single floats";
            const std::string b_how = s.vec > 1 ? "float4s" : "single values";
            std::string text = format_text("The {} threads copy A's {}×{} tile (columns {}..{}) in {} and B's {}×{} tile in "
                                           "{}: {} + {} load instructions each, neighbouring threads on neighbouring "
                                           "addresses. Thread {}'s loads are lit; its warp's are dark.",
                                           s.threads(), s.bm, s.bk, k0, k0 + s.bk - 1, a_how, s.bk, s.bn, b_how,
                                           s.a_loads_per_thread(), s.b_loads_per_thread(), l.thread);
            if (s.as_transposed) text += " As is stored transposed (k-major), so a thread's column of A values sits side by side.";
            if (s.stages > 1)
                text += format_text(" These copies are of step {}, {} ahead: they travel while this step computes.",
                                    step.phase + s.stages - 1, model::counted(s.stages - 1, "step"));
            if (l.trace)
                text += format_text(" Warp {}'s loads are drawn as its threads recorded them on the {} ({}).", l.warp,
                                    l.trace->device, l.trace->recorded_at);
            return text;
        }
        case SubStep::SyncAfterLoad:
            return s.stages > 1 ? "The step's stage was filled by copies started stages − 1 steps ago; the barrier at the end "
                                  "of the step before made them visible to every thread."
                                : format_text("No thread may read As or Bs until all {} threads have written their slots.",
                                              s.threads());
        case SubStep::Compute: {
            const int reads = static_cast<int>(model::ladder_fragment_reads(s, l.thread, 0).size());
            const std::string k_text = step.k >= 0 ? format_text("For k = {} (k {} of the dot products)", step.k, k0 + step.k)
                                                   : format_text("For each k of the {}", s.bk);
            return format_text("{}, every thread reads {} values of As and {} of Bs into registers ({}) and "
                               "multiplies every pair: {} multiply-adds, {} per value read. Thread {}'s fragments "
                               "are lit, its warp's dark.",
                               k_text, s.tm * s.wm_iter, s.tn * s.wn_iter, model::counted(reads, "instruction"),
                               s.cells_per_thread(),
                               model::fixed(static_cast<double>(s.cells_per_thread()) / (s.tm * s.wm_iter + s.tn * s.wn_iter), 1),
                               l.thread);
        }
        case SubStep::SyncAfterCompute:
            return s.stages > 1 ? format_text("One barrier per step: it publishes step {}'s copies and tells every thread "
                                              "this stage may be refilled.",
                                              step.phase + 1)
                                : "No thread may overwrite As or Bs with the next step's tiles until all are done reading.";
        case SubStep::Store:
            return format_text("Each thread writes its {} sums to C{}; cells outside C (hatched) are not written.",
                               s.cells_per_thread(), s.vec > 1 ? ", four at a time where the rows allow" : "");
    }
    return {};
}

std::string rung_counts_line(const AppState& state) {
    const model::LadderShape s = model::ladder_shape(state.kernel);
    const int reads = static_cast<int>(model::ladder_fragment_reads(s, 0, 0).size());
    const model::LadderCounts whole = model::count_ladder(s, state.problem.m, state.problem.n, state.problem.k);
    return format_text("Per K step, one block: {} + {} elements from global memory in {} load instructions; per thread "
                       "and k: {} shared reads for {} multiply-adds. Whole grid: {} global loads, {} shared reads, {} "
                       "multiply-adds ({} per value read).",
                       s.bm * s.bk, s.bk * s.bn, (s.a_loads_per_thread() + s.b_loads_per_thread()) * s.threads(), reads,
                       s.cells_per_thread(), grouped(whole.global_loads_a + whole.global_loads_b),
                       grouped(whole.shared_loads), grouped(whole.fmas), model::fixed(whole.fmas_per_shared_load(), 2));
}

void draw_rung_thread_panel(const AppState& state) {
    const RungFrame l = make_rung_frame(state);
    const model::LadderShape& s = l.s;
    heading(format_text("Thread {} of block ({}, {})", l.thread, l.block.x, l.block.y).c_str());
    muted_text(format_text("warp {}, lane {}; click a cell of C to follow its thread", l.warp, l.lane));
    ImGui::TextWrapped("%s", format_text("Owns {} cells: {}×{} register {} of {}×{}, at rows {} and columns {} of "
                                         "the block's tile.",
                                         s.cells_per_thread(), s.wm_iter, s.wn_iter,
                                         model::noun_for(s.wm_iter * s.wn_iter, "tile"), s.tm, s.tn,
                                         model::ladder_tile_row(s, l.thread), model::ladder_tile_col(s, l.thread))
                                 .c_str());
    ImGui::Separator();
    ImGui::TextUnformatted("Loads of each K step:");
    for (const model::LadderLoad& load : model::ladder_thread_loads(s, l.thread)) {
        const bool a = load.operand == Operand::A;
        const int row = a ? a_row(l, load.row) : b_row(l, load.row), col = a ? a_col(l, load.col) : b_col(l, load.col);
        std::string slots;
        for (int j = 0; j < load.width; ++j) slots += (j ? ", " : "") + std::to_string(load.slots[j]);
        ImGui::BulletText("%s", format_text("i = {}: {}[{}][{}{}] ({}) → {}s {} {}", load.instruction, a ? "A" : "B", row,
                                            col, load.width > 1 ? format_text("..{}", col + load.width - 1) : std::string(),
                                            load.width > 1 ? "float4" : "float", a ? "A" : "B",
                                            model::noun_for(load.width, "slot"), slots)
                                    .c_str());
    }
    ImGui::Separator();
    const int k = shown_k(l);
    ImGui::TextUnformatted(format_text("Fragment reads for k = {}:", k).c_str());
    for (const model::FragmentRead& read : model::ladder_fragment_reads(s, l.thread, k))
        ImGui::BulletText("%s", format_text("{}s {} {}{} → {} {} {}{}", read.operand == Operand::A ? "A" : "B",
                                            model::noun_for(read.width, "slot"), read.slot,
                                            read.width > 1 ? format_text("..{}", read.slot + read.width - 1) : std::string(),
                                            read.operand == Operand::A ? "A" : "B", model::noun_for(read.width, "register"),
                                            read.first_register,
                                            read.width > 1 ? format_text("..{}", read.first_register + read.width - 1)
                                                           : std::string())
                                    .c_str());
}

void draw_rung_warp_panel(const AppState& state) {
    const RungFrame l = make_rung_frame(state);
    heading(format_text("Warp {}'s shared-memory accesses", l.warp).c_str());
    muted_text("32 banks of 4-byte words. A 128-bit access is served a quarter-warp (8 lanes) at a time; within one, two "
               "different words in the same bank take two wavefronts (a conflict). The same word is broadcast.");
    const auto row = [&](const std::string& what, Operand operand, const auto& accesses_of) {
        std::string text = format_text("{}: {}", what, bank_summary(model::bank_map(accesses_of(l.s))));
        if (const auto comparison = model::layout_comparison(l.s, operand))
            text += format_text("; {}: {}", comparison->label, bank_summary(model::bank_map(accesses_of(comparison->other))));
        ImGui::BulletText("%s", text.c_str());
    };
    ImGui::TextUnformatted("Stores into As and Bs (each K step):");
    for (const ThreadStore& store : thread_stores(l)) {
        const model::LadderLoad& load = store.load;
        row(format_text("{}s, load {}{}", load.operand == Operand::A ? "A" : "B", load.instruction,
                        store.in_parts ? format_text(" value {}", store.part) : std::string()),
            load.operand, [&](model::LadderShape shape) { return store.warp_accesses(shape, l.warp); });
    }
    const int k = shown_k(l);
    ImGui::TextUnformatted(format_text("Fragment reads for k = {}:", k).c_str());
    const auto reads = model::ladder_fragment_reads(l.s, l.thread, k);
    for (int r = 0; r < static_cast<int>(reads.size()); ++r)
        row(format_text("read {} ({}s)", r, reads[r].operand == Operand::A ? "A" : "B"), reads[r].operand,
            [&](model::LadderShape shape) { return model::warp_fragment_accesses(shape, l.warp, k, r); });
}

}  // namespace ts::views
