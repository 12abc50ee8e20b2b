#include "views/theatre/tensor_core/source_tab.hpp"

#include <imgui.h>

#include <algorithm>
#include <cctype>

#include "model/format.hpp"
#include "model/ladder_rungs.hpp"
#include "model/tensor_core/mma.hpp"
#include "model/tensor_core/pipeline.hpp"
#include "views/common/text.hpp"
#include "views/common/theme.hpp"
#include "views/theatre/phase_player.hpp"
#include "views/theatre/theatre_traces.hpp"

namespace ts::views {

using model::format_text;

namespace {

using K = model::KernelKind;

// The copy loop, the waits and the barriers of each rung, in the order one K step runs them.
using A = TcAction;
constexpr TcSubStep kWmmaSteps[] = {
    {"copy the tiles", "every thread", "for (int i = 0; i < kShape.chunks_per_thread(); ++i) {", A::CopyStep},
    {"wait for its copies", "every thread", "cp_async_wait<0>();", A::WaitOwnCopies},
    {"barrier: tiles whole", "the block", "__syncthreads();", A::BarrierWhole},
    {"load fragments", "each warp", "wmma::load_matrix_sync(b_frag[j]", A::Fragments},
    {"wmma::mma_sync", "each warp", "wmma::mma_sync(acc", A::WmmaMultiply},
    {"barrier: done reading", "the block", "__syncthreads();", A::BarrierRead},
    {"store C", "each warp", "wmma::store_matrix_sync(", A::StoreC},
};
constexpr TcSubStep kMmaSteps[] = {
    {"copy the tiles", "every thread", "for (int i = 0; i < kShape.chunks_per_thread(); ++i) {", A::CopyStep},
    {"wait for its copies", "every thread", "cp_async_wait<0>();", A::WaitOwnCopies},
    {"barrier: tiles whole", "the block", "__syncthreads();", A::BarrierWhole},
    {"ldmatrix, then mma", "each warp", "mma_warp_step<kShape, T>(", A::Fragments},
    {"barrier: done reading", "the block", "__syncthreads();", A::BarrierRead},
    {"store C", "each warp", "store_mma_tiles<kShape, T>(", A::StoreC},
};
constexpr TcSubStep kMmaAsyncSteps[] = {
    {"fill the first stages", "every thread", "if (s < k_steps) copy_step<Aligned>(", A::CopyFirst},
    {"wait for this stage", "every thread", "cp_async_wait<kShape.stages - 2>();", A::WaitStage},
    {"barrier: stage whole", "the block", "__syncthreads();", A::BarrierWhole},
    {"copy a later step", "every thread", "if (ahead < k_steps) copy_step<Aligned>(", A::CopyAhead},
    {"ldmatrix, then mma", "each warp", "mma_warp_step<kShape, T>(", A::Fragments},
    {"store C", "each warp", "store_mma_tiles<kShape, T>(", A::StoreC},
};
constexpr TcSubStep kWgmmaSteps[] = {
    {"fill the ring", "thread 0", "issue_stage<kShape>(smem, full, &a_map, &b_map, block_m, block_n, batch, step, b_runs);",
     A::FillRing},
    {"wait: stage full", "both warpgroups", "mbarrier_wait(&full[ring.stage], ring.full_parity);", A::WaitFull},
    {"wgmmas", "each warpgroup", "wgmma_stage<kShape, T>(", A::Wgmmas},
    {"wait for the wgmmas", "each warpgroup", "wgmma_wait<0>();", A::WaitWgmmas},
    {"barrier: stage read", "the block", "__syncthreads();", A::BarrierStage},
    {"refill the stage", "thread 0",
     "issue_stage<kShape>(smem, full, &a_map, &b_map, block_m, block_n, batch, step + kShape.stages", A::Refill},
    {"store C", "each warpgroup", "store_accumulators<kShape, T>(", A::StoreC},
};
constexpr TcSubStep kWarpSpecializedSteps[] = {
    {"wait: stage free", "the producer", "if (ring.producer_waits) mbarrier_wait(&empty[ring.stage], ring.empty_parity);",
     A::WaitFree},
    {"arm full, copy", "the producer", "issue_stage<kShape>(", A::ArmAndCopy},
    {"wait: stage full", "each consumer", "mbarrier_wait(&full[ring.stage], ring.full_parity);", A::WaitFull},
    {"wgmmas", "each consumer", "wgmma_stage<kShape, T>(", A::Wgmmas},
    {"wait for the wgmmas", "each consumer", "wgmma_wait<0>();", A::WaitWgmmas},
    {"release the stage", "each consumer", "mbarrier_arrive(&empty[ring.stage]);", A::Release},
    {"store C", "each consumer", "store_accumulators<kShape, T>(", A::StoreC},
};
constexpr TcSubStep kPersistentSteps[] = {
    {"take the next tile", "the producer",
     "for (; u.valid(); u = model::next_unit(split, cluster, u),", A::TakeTile},
    {"wait: stage free", "the producer", "if (ring.producer_waits) mbarrier_wait(&empty[ring.stage], ring.empty_parity);",
     A::WaitFree},
    {"arm full, copy", "the producer", "issue_cluster_stage<kShape>(", A::ArmAndCopy},
    {"wait: stage full", "each consumer", "mbarrier_wait(&full[ring.stage], ring.full_parity);", A::WaitFull},
    {"wgmmas", "each consumer", "wgmma_stage_from<kShape, T>(", A::Wgmmas},
    {"wait for the wgmmas", "each consumer", "wgmma_wait<0>();", A::WaitWgmmas},
    {"release the stage", "each consumer", "mbarrier_arrive_cluster(&empty[ring.stage], wg_thread);", A::Release},
    {"C out by TMA", "each consumer", "stage_and_store_c<kShape, T>(", A::StageC},
};
// 20 and 21: 18's loop over whole tiles, C from the registers times its scale; 21 promotes each
// K step's products into its FP32 sums, times their scales.
constexpr TcSubStep kFp8Steps[] = {
    {"take the next tile", "the producer", "for (int tile = cluster; tile < tiles; tile += clusters) {", A::TakeTile},
    {"wait: stage free", "the producer", "if (ring.producer_waits) mbarrier_wait(&empty[ring.stage], ring.empty_parity);",
     A::WaitFree},
    {"arm full, copy", "the producer", "issue_cluster_stage<kShape>(", A::ArmAndCopy},
    {"wait: stage full", "each consumer", "mbarrier_wait(&full[ring.stage], ring.full_parity);", A::WaitFull},
    {"wgmmas", "each consumer", "wgmma_stage_from<kShape, __nv_bfloat16>(", A::Wgmmas},
    {"wait for the wgmmas", "each consumer", "wgmma_wait<0>();", A::WaitWgmmas},
    {"release the stage", "each consumer", "mbarrier_arrive_cluster(&empty[ring.stage], wg_thread);", A::Release},
    {"C out, times the scales", "each consumer", "store_accumulators<kShape, __nv_bfloat16>(acc", A::StoreC},
};
constexpr TcSubStep kFp8BlocksSteps[] = {
    {"take the next tile", "the producer", "for (int tile = cluster; tile < tiles; tile += clusters) {", A::TakeTile},
    {"wait: stage free", "the producer", "if (ring.producer_waits) mbarrier_wait(&empty[ring.stage], ring.empty_parity);",
     A::WaitFree},
    {"arm full, copy", "the producer", "issue_cluster_stage<kShape>(", A::ArmAndCopy},
    {"wait: stage full", "each consumer", "mbarrier_wait(&full[ring.stage], ring.full_parity);", A::WaitFull},
    {"wgmmas", "each consumer", "wgmma_stage_from<kShape, __nv_bfloat16>(", A::Wgmmas},
    {"wait for the wgmmas", "each consumer", "wgmma_wait<0>();", A::WaitWgmmas},
    {"release the stage", "each consumer", "mbarrier_arrive_cluster(&empty[ring.stage], wg_thread);", A::Release},
    {"promote: sums += products · scales", "each consumer", "if constexpr (kBlocks) promote<kShape>(", A::Promote},
    {"C out", "each consumer", "store_accumulators<kShape, __nv_bfloat16>(sums", A::StoreC},
};

// The words of the mma rungs (13–15) at K step `k`.
std::string mma_words(model::KernelKind kind, const model::MmaShape& s, TcAction action, int k, int k_steps) {
    const int k0 = k * s.bk;
    switch (action) {
        case A::CopyStep:
        case A::CopyFirst:
        case A::CopyAhead: {
            const int copied = action == A::CopyAhead ? k + s.stages - 1 : (action == A::CopyFirst ? 0 : k);
            if (action == A::CopyFirst)
                return format_text("before the loop, its chunks of K steps 0–{} with cp.async, one commit group per "
                                   "step, into stages 0–{}.",
                                   std::min(s.stages - 1, k_steps) - 1, s.stages - 2);
            if (copied >= k_steps)
                return format_text("at K step {} the step to copy, {}, is past the last ({}): nothing, and an empty "
                                   "group is committed so that the wait's count stays right.",
                                   k, copied, k_steps - 1);
            return format_text("{} chunks of 16 bytes with cp.async, its share (1 of {} threads) of K step {}: A's "
                               "tile (the block's rows, columns {}–{}) and B's (rows {}–{}), {} bytes in all{}.",
                               s.chunks_per_thread(), s.threads(), copied, copied * s.bk, copied * s.bk + s.bk - 1,
                               copied * s.bk, copied * s.bk + s.bk - 1, grouped((s.bm + s.bn) * s.bk * s.element_bytes),
                               s.stages > 1 ? format_text(", into stage {} of {}", copied % s.stages, s.stages)
                                            : std::string());
        }
        case A::WaitOwnCopies:
            return "cp.async.wait_group 0: this thread's copies have landed. Not the others': hence the barrier.";
        case A::WaitStage:
            return format_text("cp.async.wait_group {}: at most {} groups may still be in flight, so K step {}'s "
                               "(stage {}) has landed for this thread.",
                               s.stages - 2, s.stages - 2, k, k % s.stages);
        case A::BarrierWhole:
            return "__syncthreads: every thread's copies are in, so any warp may read any part of the tiles.";
        case A::BarrierRead:
            return "__syncthreads: no warp still reads the tiles when the next K step's copies overwrite them.";
        case A::StoreC:
            return format_text("after the last K step, each warp writes its {}×{} accumulators to C, inside the matrix "
                               "only.",
                               s.wm, s.wn);
        case A::WmmaMultiply:
            return format_text("{} wmma::mma_sync per warp (16×16×16 each) on K {}–{}.", model::wmmas_per_warp_step(s), k0,
                               k0 + s.bk - 1);
        default: break;
    }
    if (kind == K::Wmma)
        return format_text("each of the {} warps loads its fragments of K {}–{} from shared memory (wmma "
                           "hides who holds what).",
                           s.warps(), k0, k0 + s.bk - 1);
    return format_text("each of the {} warps issues {} ldmatrix.x4 for A and {} for B, then {} mma.sync.m16n8k16 on K "
                       "{}–{}{}.",
                       s.warps(), model::ldmatrix_a_per_warp_step(s), model::ldmatrix_b_per_warp_step(s),
                       model::mmas_per_warp_step(s), k0, k0 + s.bk - 1,
                       s.stages > 1 ? format_text(" from stage {}", k % s.stages) : std::string());
}

// The words of the TMA rungs (16–19) at K step `k`.
std::string wgmma_words(const model::WgmmaShape& s, TcAction action, int k, int k_steps) {
    const model::StageStep ring = model::stage_step(s, k);
    switch (action) {
        case A::TakeTile:
            return "the cluster takes tiles cluster, cluster + clusters, … in the L2-aware order (the Tiles tab), and "
                   "with stream-K (tc-tuned #5) then its share of the last round's K steps; the ring's K steps count "
                   "on from one tile to the next.";
        case A::FillRing:
            return format_text("before the loop thread 0 arms full[s] and issues the copies of K steps 0–{}, one per "
                               "stage.",
                               std::min(s.stages, k_steps) - 1);
        case A::WaitFree:
            if (!ring.producer_waits)
                return format_text("K step {} fills stage {} for the first time (round 0): the ring starts empty, so "
                                   "the wait returns at once.",
                                   k, ring.stage);
            return format_text("K step {} refills stage {} (round {}): mbarrier.try_wait.parity empty[{}], {} waits for "
                               "the release of K step {}, by all {} consumer warpgroups{}.",
                               k, ring.stage, ring.round, ring.stage, ring.empty_parity, k - s.stages,
                               model::empty_arrivals(s), s.cluster_m > 1 ? " of the cluster" : "");
        case A::ArmAndCopy:
        case A::Refill: {
            const int filled = action == A::Refill ? k + s.stages : k;
            if (filled >= k_steps)
                return format_text("at K step {} the step to copy, {} + {} = {}, is past the last ({}): nothing.", k,
                                   k, s.stages, filled, k_steps - 1);
            return format_text("mbarrier.arrive.expect_tx on full[{}] with {} bytes, then TMA copies of K step {} (A's "
                               "{}×{} tile and B's {}×{}) into stage {}{}.",
                               filled % s.stages, grouped(model::expect_tx_bytes(s)), filled, s.bm, s.bk,
                               s.b_k_major ? s.bn : s.bk, s.b_k_major ? s.bk : s.bn,
                               filled % s.stages,
                               s.cluster_m > 1
                                   ? format_text("; each CTA brings 1/{} of B and multicasts it to both", s.cluster_m)
                                   : std::string());
        }
        case A::WaitFull:
            return format_text("K step {}: stage {}, round {}: mbarrier.try_wait.parity full[{}], {} returns once the "
                               "producer's arrival and all {} bytes are in.",
                               k, ring.stage, ring.round, ring.stage, ring.full_parity, grouped(ring.expect_tx));
        case A::Wgmmas:
            if (s.element_bytes == 1)
                return format_text("{} wgmma.mma_async per warpgroup on stage {} ({}×{}×32 each, e4m3: both tiles "
                                   "read K-major, B's rows being its columns), committed as one group; they run while "
                                   "the warps go on.",
                                   model::wgmmas_per_consumer_step(s), ring.stage, model::kWgmmaM, s.wgmma_n);
            return format_text("{} wgmma.mma_async per warpgroup on stage {} ({}×{}×16 each{}), committed as one group; "
                               "they run while the warps go on.",
                               model::wgmmas_per_consumer_step(s), ring.stage, model::kWgmmaM, s.wgmma_n,
                               s.swap_ab ? ", operands swapped: Cᵀ = Bᵀ·Aᵀ" : "");
        case A::Promote:
            return format_text("the K step's products (columns {}–{} of K), in a second set of accumulators, are added "
                               "to the FP32 sums times A's scale for the thread's two rows and B's for the tile's block: "
                               "{} FMAs a thread. The tensor cores' 13-bit sums last one K step.",
                               k * s.bk, k * s.bk + s.bk - 1, s.wgmma_n / 2);
        case A::WaitWgmmas:
            return "wgmma.wait_group 0: this warpgroup's wgmmas on the stage are done, so it no longer reads the stage.";
        case A::BarrierStage:
            return format_text("__syncthreads: both warpgroups are done with stage {} before thread 0 refills it.",
                               ring.stage);
        case A::Release:
            if (model::c_last_slab_in_stage(s) && k == k_steps - 1)
                return format_text("K step {} is the tile's last, and its stage {} is kept, not released: the "
                                   "consumer's last slab of C goes into its own part of it, and thread 0 arrives on "
                                   "empty[{}] of each CTA once that slab's TMA store has read it, during the next "
                                   "tile's first K step.",
                                   k, ring.stage, ring.stage);
            return format_text("{} arrives on empty[{}]{}: the phase completes after {} arrivals, and the producer "
                               "may refill the stage with K step {}.",
                               s.cluster_m > 1 ? "thread r of the warpgroup" : "thread 0 of the warpgroup", ring.stage,
                               s.cluster_m > 1 ? " of CTA r, for each CTA r of the cluster" : "",
                               model::empty_arrivals(s), k + s.stages);
        case A::StageC:
            if (model::c_last_slab_in_stage(s))
                return "after a tile's last K step, the accumulators are rounded to 16 bits and written swizzled with "
                       "stmatrix, the first 64-column slab into the staging area and the last into the consumer's "
                       "part of the kept stage; one thread sends each to C with a TMA store, which runs on under the "
                       "next tile's first K steps.";
            return "after a tile's last K step, the accumulators are rounded to 16 bits, written swizzled into shared "
                   "memory with stmatrix, and one thread sends them to C with TMA stores, which run on under the next "
                   "tile's first K steps.";
        default: break;
    }
    if (s.element_bytes == 1)
        return "after the tile's last K step each warpgroup writes its sums to C in BF16, inside the matrix only; per "
               "tensor, each times scale_a · scale_b first (one multiply a cell).";
    return "after the last K step each warpgroup writes its accumulators to C, inside the matrix only.";
}

}  // namespace

namespace {

// K steps of `kernel`'s loop over `k`, the K of one K step and the ring's stages (1 without one).
struct KLoop {
    int steps = 1, bk = 1, stages = 1;
};
KLoop k_loop(const model::KernelConfig& kernel, std::int64_t k_elements) {
    const int k = static_cast<int>(std::clamp<std::int64_t>(k_elements, 1, 1 << 30));
    if (const auto s = model::wgmma_shape_of(kernel)) return {model::wgmma_k_steps(*s, k), s->bk, s->stages};
    if (const auto s = model::mma_shape_of(kernel)) return {model::mma_k_steps(*s, k), s->bk, s->stages};
    return {};
}

}  // namespace

TcShownProblem tc_k_loop_problem(const AppState& state) {
    TcShownProblem shown{state.problem, ""};
    const KLoop loop = k_loop(state.kernel, state.problem.k);
    if (loop.steps > std::max(loop.stages, 1)) return shown;
    // A trace of the problem on show is drawn as the GPU ran it.
    const auto trace = tensor_core_trace(state.theatre.traces, state.kernel.kind);
    if (trace && trace_fits(*trace, state) && state.theatre.traces.replay) return shown;
    shown.problem.k = std::int64_t{kShownKSteps} * loop.bk;
    shown.note = format_text("Shown at K = {}, {} of {}, so that the K loop {}; your problem {} has {}.",
                             shown.problem.k, model::counted(kShownKSteps, "K step"), loop.bk,
                             loop.stages > 1 ? format_text("fills its ring of {} and turns", model::counted(loop.stages, "stage"))
                                             : std::string("runs more than once"),
                             model::problem_size_text(state.problem), model::counted(loop.steps, "K step"));
    return shown;
}

int tc_k_steps(const AppState& state) { return k_loop(state.kernel, tc_k_loop_problem(state).problem.k).steps; }

std::span<const TcSubStep> tc_substeps(model::KernelKind kind) {
    switch (kind) {
        case K::Wmma: return kWmmaSteps;
        case K::Mma: return kMmaSteps;
        case K::MmaAsync: return kMmaAsyncSteps;
        case K::Wgmma: return kWgmmaSteps;
        case K::WarpSpecialized: return kWarpSpecializedSteps;
        case K::Persistent:
        case K::TcTuned: return kPersistentSteps;
        case K::Fp8: return kFp8Steps;
        case K::Fp8Blocks: return kFp8BlocksSteps;
        default: return {};
    }
}

std::optional<SourceLines> tc_substep_lines(model::KernelKind kind, const std::vector<std::string_view>& lines,
                                            int index) {
    const auto steps = tc_substeps(kind);
    if (index < 0 || index >= static_cast<int>(steps.size())) return std::nullopt;
    const auto extent = kernel_extent(kind, lines);
    if (!extent) return std::nullopt;
    int from = extent->first;
    for (int i = 0; i <= index; ++i) {
        const auto line = find_line(lines, steps[static_cast<std::size_t>(i)].needle, from);
        if (!line || *line > extent->last) return std::nullopt;
        if (i == index) return SourceLines{*line, *line};
        from = *line + 1;
    }
    return std::nullopt;
}

std::string tc_substep_words(const AppState& state, int index, int k_step) {
    const auto steps = tc_substeps(state.kernel.kind);
    if (index < 0 || index >= static_cast<int>(steps.size())) return {};
    const TcSubStep& step = steps[static_cast<std::size_t>(index)];
    const int k_steps = tc_k_steps(state);
    const int k = std::clamp(k_step, 0, k_steps - 1);
    // "The producer: …", "Each consumer: …": who runs the statement, then what it does.
    std::string who(step.who);
    who[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(who[0])));
    if (const auto s = model::wgmma_shape_of(state.kernel)) return who + ": " + wgmma_words(*s, step.action, k, k_steps);
    if (const auto s = model::mma_shape_of(state.kernel)) return who + ": " + mma_words(state.kernel.kind, *s, step.action, k, k_steps);
    return {};
}

void step_statement(TheatreState& theatre, int statements, int k_steps, int by) {
    // One position per statement of every K step, as the FP32 rungs' player steps sub-steps.
    const int last = statements * k_steps - 1;
    const int at = std::clamp(theatre.ring_step * statements + theatre.tc_substep + by, 0, last);
    theatre.ring_step = at / statements;
    theatre.tc_substep = at % statements;
}

void draw_tc_source(TheatreState& theatre, const AppState& app) {
    const model::KernelKind kind = app.kernel.kind;
    const auto steps = tc_substeps(kind);
    const KernelFile file = kernel_file(kind);
    const std::vector<std::string_view> lines = split_lines(file.text);
    const auto extent = kernel_extent(kind, lines);
    if (steps.empty() || !extent) {
        coloured_text_wrapped(colours::kError,
                              format_text("The {} kernel was not embedded as expected: no source to show.",
                                          model::kernel_name(kind))
                                  .c_str());
        return;
    }
    const int last_step = static_cast<int>(steps.size()) - 1;
    theatre.tc_substep = std::clamp(theatre.tc_substep, 0, last_step);
    const int k_steps = tc_k_steps(app);
    theatre.ring_step = std::clamp(theatre.ring_step, 0, k_steps - 1);

    // The FP32 rungs' player keys: Right and Left a statement (on into the next K step), Home and
    // End the first and the last.
    const int statements = last_step + 1;
    if (const int by = player_key_steps(statements * k_steps)) step_statement(theatre, statements, k_steps, by);

    // The step list and its words on the left, the kernel on the right.
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    const float list_width = std::floor(std::min(avail.x * 0.42f, ImGui::GetFontSize() * 26.0f));
    ImGui::BeginChild("##tc_steps", ImVec2(list_width, avail.y));
    if (const std::string note = tc_k_loop_problem(app).note; !note.empty()) ImGui::TextWrapped("%s", note.c_str());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 10.0f);
    int shown = theatre.ring_step;
    if (ImGui::SliderInt("K step", &shown, 0, k_steps - 1)) theatre.ring_step = shown;
    if (ImGui::Button("< previous")) step_statement(theatre, statements, k_steps, -1);
    ImGui::SameLine();
    if (ImGui::Button("next >")) step_statement(theatre, statements, k_steps, 1);
    ImGui::SameLine();
    muted_text("(Left, Right)");
    // What the lit statement does, before the list: at a projector's text size the column shows
    // little more than these words (and an exported frame no more than it shows).
    ImGui::Spacing();
    ImGui::TextWrapped("%s", tc_substep_words(app, theatre.tc_substep, theatre.ring_step).c_str());
    ImGui::Spacing();
    ImGui::Separator();
    for (int i = 0; i <= last_step; ++i) {
        const TcSubStep& step = steps[static_cast<std::size_t>(i)];
        const std::string item = format_text("{}. {}", i + 1, step.label);
        if (ImGui::Selectable(item.c_str(), i == theatre.tc_substep)) theatre.tc_substep = i;
    }
    ImGui::EndChild();
    ImGui::SameLine();
    ImGui::BeginChild("##tc_source", ImVec2(0.0f, avail.y), false, ImGuiWindowFlags_HorizontalScrollbar);
    heading(format_text("kernels/{}", file.file).c_str());
    muted_text("The real kernel, as compiled. Highlighted: the statement of the step on the left.");
    draw_source_lines(lines, *extent, tc_substep_lines(kind, lines, theatre.tc_substep));
    ImGui::EndChild();
}

}  // namespace ts::views
