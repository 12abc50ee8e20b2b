#include "views/theatre/block/thread_inspector.hpp"

#include <algorithm>

#include "imgui.h"
#include "model/format.hpp"
#include "model/thread_map.hpp"
#include "views/theatre/theatre_logic.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"

namespace ts::views {

using model::format_text;
using model::SubStep;

std::string address_run(std::int64_t first, std::int64_t stride, int count) {
    if (count <= 0) return "none";
    if (count == 1) return format_text("{}", first);
    const std::int64_t last = first + stride * (count - 1);
    if (stride == 1) return format_text("{}..{}", first, last);
    if (count <= 3) {
        std::string text = format_text("{}", first);
        for (int i = 1; i < count; ++i) text += format_text(", {}", first + stride * i);
        return text;
    }
    return format_text("{}, {}, …, {} ({} apart)", first, first + stride, last, stride);
}

namespace {

// Blocks listed by blockIdx, at most six of them.
std::string block_list(int count, const auto& block_at) {
    std::string text;
    for (int i = 0; i < std::min(count, 6); ++i) {
        const model::Index2 b = block_at(i);
        text += format_text(i ? ", ({},{})" : "({},{})", b.x, b.y);
    }
    if (count > 6) text += format_text(", … ({} blocks)", count);
    return text;
}

// A line about matrix z of a batched stack: the addresses above are inside one matrix.
std::string batch_line(const AppState& state) {
    const model::Problem& p = state.problem;
    if (p.batch <= 1) return {};
    const int z = state.theatre.batch_z;
    return format_text("\nbatch: matrix z = {} of {} (blockIdx.z = {}): add z·M·K = {} to A's addresses, z·K·N = {} to "
                  "B's, z·M·N = {} to C's",
                  z, p.batch, z, model::batch_offset(z, static_cast<int>(p.m), static_cast<int>(p.k)),
                  model::batch_offset(z, static_cast<int>(p.k), static_cast<int>(p.n)),
                  model::batch_offset(z, static_cast<int>(p.m), static_cast<int>(p.n)));
}

// What the thread at (row, col), threadIdx t, reads or writes in `step`, with addresses.
std::string step_part(const AppState& state, model::Cell cell, model::Index2 t) {
    const model::Timeline timeline = theatre_timeline(state);
    const model::KernelStep step = current_step(state);
    const int n = static_cast<int>(state.problem.n), k = static_cast<int>(state.problem.k);
    const int tile = timeline.tile;
    const model::KRange r = step_k_range(timeline, state.problem, step);
    const int count = r.end - r.begin;
    const std::string a_run = address_run(model::row_major(cell.row, r.begin, k), 1, count);
    const std::string b_run = address_run(model::row_major(r.begin, cell.col, n), n, count);
    const std::string reads = count == 1 ? format_text("A[{}][{}] and B[{}][{}]", cell.row, r.begin, r.begin, cell.col)
                                         : format_text("A[{}][{}..{}] and B[{}..{}][{}]", cell.row, r.begin, r.end - 1,
                                                  r.begin, r.end - 1, cell.col);
    const std::string where = format_text("\n  A at {}\n  B at {}", a_run, b_run);
    if (step.sub == SubStep::Store)
        return format_text("Store: writes its sum to C[{}][{}], address {}·{} + {} = {}.", cell.row, cell.col, cell.row, n,
                      cell.col, model::row_major(cell.row, cell.col, n));
    if (timeline.naive) {
        if (count == 0) return format_text("k = {} is past K = {}: its loop has ended.", r.begin + step.k, k);
        return format_text("This step it reads {} straight from global memory, addresses (row-major, in elements):{}",
                      reads, where);
    }
    const int p = step.phase;
    switch (step.sub) {
        case SubStep::LoadTiles: {
            const int a_col = model::tiled_a_col(p, tile, t.x), b_row = model::tiled_b_row(p, tile, t.y);
            const auto load = [&](bool of_a) {
                const int rr = of_a ? cell.row : b_row, cc = of_a ? a_col : cell.col;
                const int rows = of_a ? static_cast<int>(state.problem.m) : k, cols = of_a ? k : n;
                const std::string slot = format_text("{}[{}][{}]", of_a ? "As" : "Bs", t.y, t.x);
                const std::string formula = of_a ? format_text("A[row][phase·T + tx] = A[{}][{}·{} + {}]", cell.row, p, tile, t.x)
                                                 : format_text("B[phase·T + ty][col] = B[{}·{} + {}][{}]", p, tile, t.y, cell.col);
                if (!model::inside(rr, cc, rows, cols))
                    return format_text("\n  {} = {}[{}][{}] lies outside {} (K = {}): {} = 0, no load", formula,
                                  of_a ? "A" : "B", rr, cc, of_a ? "A" : "B", k, slot);
                return format_text("\n  {} → {}, address {}·{} + {} = {}", formula, slot, rr, cols, cc,
                              model::row_major(rr, cc, cols));
            };
            return format_text("Phase {} (k {}..{}): its own two loads from global memory:{}{}", p, r.begin, r.end - 1,
                          load(true), load(false));
        }
        case SubStep::SyncAfterLoad:
        case SubStep::SyncAfterCompute:
            return format_text("It waits at __syncthreads() with the other {} threads of its block.", tile * tile - 1);
        case SubStep::Compute: {
            if (step.k >= 0) {
                const int kk = model::phase_k_begin(p, tile) + step.k;
                if (kk >= k)
                    return format_text("i = {}: k = {} lies past K = {}: As[{}][{}] and Bs[{}][{}] hold padding, 0·0 adds "
                                  "nothing.",
                                  step.k, kk, k, t.y, step.k, step.k, t.x);
                return format_text("i = {}: adds As[{}][{}]·Bs[{}][{}], copies of A[{}][{}] and B[{}][{}] (addresses {} "
                              "and {}).",
                              step.k, t.y, step.k, step.k, t.x, cell.row, kk, kk, cell.col,
                              model::row_major(cell.row, kk, k), model::row_major(kk, cell.col, n));
            }
            return format_text("Its k loop reads As[{}][0..{}] and Bs[0..{}][{}] from shared memory: copies of {} that "
                          "other threads of its block loaded;{}",
                          t.y, tile - 1, tile - 1, t.x, reads, where);
        }
        case SubStep::Store: break;
    }
    return {};
}

}  // namespace

std::string thread_report(const AppState& state, model::Cell cell) {
    const int m = static_cast<int>(state.problem.m), n = static_cast<int>(state.problem.n);
    if (!model::inside(cell.row, cell.col, m, n)) return {};
    const model::KernelConfig config = played_config(state);
    const auto id = model::thread_of_cell(config, state.problem, cell);
    if (!id) return {};
    const int bdx = config.kind == model::KernelKind::Tiled ? config.tile : config.block_x;
    const int bdy = config.kind == model::KernelKind::Tiled ? config.tile : config.block_y;
    const int linear = model::linear_thread(id->thread.x, id->thread.y, bdx);
    std::string text = format_text("C[{}][{}] is computed by the {} kernel's thread with\n", cell.row, cell.col,
                              model::kernel_name(config.kind));
    text += format_text("  blockIdx (x={}, y={}), threadIdx (x={}, y={}), blockDim ({}, {})\n", id->block.x, id->block.y,
                   id->thread.x, id->thread.y, bdx, bdy);
    text += format_text("  row = blockIdx.y·blockDim.y + threadIdx.y = {}·{} + {} = {}\n", id->block.y, bdy, id->thread.y,
                   cell.row);
    text += format_text("  col = blockIdx.x·blockDim.x + threadIdx.x = {}·{} + {} = {}\n", id->block.x, bdx, id->thread.x,
                   cell.col);
    text += format_text("  warp {}, lane {}: threadIdx.y·blockDim.x + threadIdx.x = {}·{} + {} = {} = 32·{} + {}\n",
                   id->warp, id->lane, id->thread.y, bdx, id->thread.x, linear, id->warp, id->lane);
    return text + step_part(state, cell, id->thread) + batch_line(state);
}

std::string element_report(const AppState& state, model::Operand operand, model::Cell e) {
    const model::Problem& p = state.problem;
    const bool of_a = operand == model::Operand::A;
    const int m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k);
    const int rows = of_a ? m : k, cols = of_a ? k : n;
    if (!model::inside(e.row, e.col, rows, cols)) return {};
    const char* name = of_a ? "A" : "B";
    const model::KernelConfig config = played_config(state);
    const model::Timeline timeline = theatre_timeline(state);
    const int tile = timeline.tile;
    const int k_index = of_a ? e.col : e.row;
    const int phase = k_index / tile;
    std::string text = format_text("{}[{}][{}]: address {}·{} + {} = {} (row-major, {} columns)\n", name, e.row, e.col,
                              e.row, cols, e.col, model::row_major(e.row, e.col, cols), cols);
    const model::Index2 grid = block_grid(config, p);
    if (config.kind == model::KernelKind::Tiled) {
        const int own = of_a ? e.row / tile : e.col / tile;  // the block row (A) or column (B) that needs it
        const int tx = e.col % tile, ty = e.row % tile;
        text += format_text("Loaded from global memory in phase {} / {} = {} (k {}..{}), into {}[{}][{}]\n", k_index, tile,
                       phase, phase * tile, std::min((phase + 1) * tile, k) - 1, of_a ? "As" : "Bs", ty, tx);
        text += format_text("by thread (tx={}, ty={}) of every block with blockIdx.{} = {} / {} = {}:\n  ", tx, ty,
                       of_a ? "y" : "x", of_a ? e.row : e.col, tile, own);
        text += of_a ? block_list(grid.x, [&](int i) { return model::Index2{i, own}; })
                     : block_list(grid.y, [&](int i) { return model::Index2{own, i}; });
        text += format_text("\nThat is grid.{} = {} global loads of it; the naive kernel makes {} = {}.\n", of_a ? "x" : "y",
                       of_a ? grid.x : grid.y, of_a ? "N" : "M", of_a ? n : m);
        text += format_text("In each block the {} threads of {} {} = {} read it from shared memory in the k loop.",
                       tile, of_a ? "row" : "column", of_a ? "ty" : "tx", of_a ? ty : tx);
    } else {
        const int bdx = config.block_x, bdy = config.block_y;
        text += format_text("Read straight from global memory at k = {} (phase {} in chunks of T = {})\n", k_index, phase,
                       tile);
        if (of_a)
            text += format_text("by the N = {} threads computing row {} of C: threadIdx.y = {} in every block with "
                           "blockIdx.y = {}:\n  {}",
                           n, e.row, e.row % bdy, e.row / bdy,
                           block_list(grid.x, [&](int i) { return model::Index2{i, e.row / bdy}; }));
        else
            text += format_text("by the M = {} threads computing column {} of C: threadIdx.x = {} in every block with "
                           "blockIdx.x = {}:\n  {}",
                           m, e.col, e.col % bdx, e.col / bdx,
                           block_list(grid.y, [&](int i) { return model::Index2{e.col / bdx, i}; }));
    }
    const std::int64_t so_far = state.theatre.source->element_reads(config.kind, p, tile, current_step(state), operand,
                                                                      e.row, e.col);
    text += format_text("\nRead so far: {} (all blocks in lockstep).", model::counted(so_far, "time"));
    return text + batch_line(state);
}

void draw_hover_tooltip(const AppState& state, const Inspected& hovered) {
    std::string tip;
    if (hovered.c) tip = thread_report(state, *hovered.c);
    if (hovered.a) tip = element_report(state, model::Operand::A, *hovered.a);
    if (hovered.b) tip = element_report(state, model::Operand::B, *hovered.b);
    if (tip.empty()) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 38.0f);
    ImGui::TextUnformatted((tip + "\n(click to pin)").c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

void draw_thread_panel(const AppState& state, const Inspected& inspected) {
    std::string text;
    if (inspected.c) text = thread_report(state, *inspected.c);
    if (text.empty() && inspected.a) text = element_report(state, model::Operand::A, *inspected.a);
    if (text.empty() && inspected.b) text = element_report(state, model::Operand::B, *inspected.b);
    if (text.empty()) {
        muted_text("Hover over a cell of C for its thread, or over an element of A or B for the threads that load "
                   "it; click to pin it. (Flags: --select ROW,COL, --hover-a ROW,COL, --hover-b ROW,COL.)");
        return;
    }
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
}

}  // namespace ts::views
