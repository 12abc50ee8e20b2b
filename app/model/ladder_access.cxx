#include "ladder_access.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "format.hpp"

namespace ts::model {

namespace {

constexpr int kWarp = 32;
constexpr int kBanks = 32;

}  // namespace

bool stored_in_parts(LadderShape s, const LadderLoad& load) {
    return load.operand == Operand::A && s.as_transposed && load.width > 1;
}

int ladder_thread_of_tile_cell(LadderShape s, int row, int col) {
    const int group = (row / s.warp_m()) * s.warps_per_row() + col / s.warp_n();
    const int lane_row = (row % s.warp_m()) % s.sub_m() / s.tm;
    const int lane_col = (col % s.warp_n()) % s.sub_n() / s.tn;
    return group * s.group_threads() + lane_row * s.threads_per_row() + lane_col;
}

std::vector<LadderLoad> ladder_thread_loads(LadderShape s, int thread) {
    std::vector<LadderLoad> loads;
    const int threads = s.threads();
    for (int i = 0; i < s.a_loads_per_thread(); ++i) {
        LadderLoad load{Operand::A, i, ladder_load_row(thread, i, threads, s.bk, s.a_vec()),
                        ladder_load_col(thread, i, threads, s.bk, s.a_vec()), s.a_vec()};
        for (int j = 0; j < load.width; ++j) load.slots[j] = ladder_as_slot(s, load.row, load.col + j);
        loads.push_back(load);
    }
    for (int i = 0; i < s.b_loads_per_thread(); ++i) {
        LadderLoad load{Operand::B, i, ladder_load_row(thread, i, threads, s.bn, s.vec),
                        ladder_load_col(thread, i, threads, s.bn, s.vec), s.vec};
        for (int j = 0; j < load.width; ++j) load.slots[j] = row_major(load.row, load.col + j, s.bn);
        loads.push_back(load);
    }
    return loads;
}

LoadOwner ladder_load_owner(LadderShape s, Operand operand, int row, int col) {
    // The loads walk the tile row-major, `width` elements per load, thread after thread.
    const int cols = operand == Operand::A ? s.bk : s.bn;
    const int width = operand == Operand::A ? s.a_vec() : s.vec;
    const int vector = (row * cols + col) / width;
    return {vector % s.threads(), vector / s.threads()};
}

std::vector<FragmentRead> ladder_fragment_reads(LadderShape s, int thread, int k) {
    std::vector<FragmentRead> a_reads, b_reads;
    // With 128-bit reads, four registers at a time (ladder_vector.cuh, load_fragment_piece);
    // the scalar rungs read one value per instruction.
    const int width = s.vec;
    for (int sub_i = 0; sub_i < s.wm_iter; ++sub_i)
        for (int r = 0; r < s.tm; r += width) {
            const int row = ladder_tile_row(s, thread, sub_i) + r;
            a_reads.push_back({Operand::A, ladder_as_slot(s, row, k), width, sub_i * s.tm + r, row, k});
        }
    for (int sub_j = 0; sub_j < s.wn_iter; ++sub_j)
        for (int c = 0; c < s.tn; c += width) {
            const int col = ladder_tile_col(s, thread, sub_j) + c;
            b_reads.push_back({Operand::B, row_major(k, col, s.bn), width, sub_j * s.tn + c, k, col});
        }
    // 06 reads its one value of Bs first and keeps it for the TM products (06_regtile_1d.cu);
    // the others read their A fragment first.
    std::vector<FragmentRead>& first = s.tn == 1 && s.tm > 1 ? b_reads : a_reads;
    std::vector<FragmentRead>& second = s.tn == 1 && s.tm > 1 ? a_reads : b_reads;
    first.insert(first.end(), second.begin(), second.end());
    return first;
}

BankMap bank_map(const std::vector<LaneAccess>& accesses) {
    BankMap map;
    int width = 1;
    for (const LaneAccess& a : accesses) width = std::max(width, a.width);
    map.phases = width;
    const int lanes_per_phase = kWarp / width;
    // phase → bank → the distinct words it must serve
    std::vector<std::map<int, std::set<int>>> per_phase(width);
    for (const LaneAccess& a : accesses) {
        const int phase = std::min(a.lane / lanes_per_phase, width - 1);
        for (int j = 0; j < a.width; ++j) {
            const int word = a.slot + j;
            const int bank = word % kBanks;
            per_phase[phase][bank].insert(word);
            map.words.push_back(word);
            map.banks.push_back(bank);
            map.lanes.push_back(a.lane);
            map.phase_of.push_back(phase);
        }
    }
    for (const auto& banks : per_phase) {
        if (banks.empty()) continue;
        int most = 1;
        for (const auto& [bank, words] : banks) most = std::max(most, static_cast<int>(words.size()));
        map.wavefronts += most;
        map.ideal += 1;
        map.degree = std::max(map.degree, most);
    }
    return map;
}

std::vector<LaneAccess> warp_store_accesses(LadderShape s, int warp, Operand operand, int instruction, int part) {
    std::vector<LaneAccess> accesses;
    for (int lane = 0; lane < kWarp; ++lane) {
        const int thread = warp * kWarp + lane;
        if (thread >= s.threads()) break;
        for (const LadderLoad& load : ladder_thread_loads(s, thread)) {
            if (load.operand != operand || load.instruction != instruction) continue;
            if (stored_in_parts(s, load))
                accesses.push_back({lane, load.slots[std::clamp(part, 0, load.width - 1)], 1});
            else
                accesses.push_back({lane, load.slots[0], load.width});
        }
    }
    return accesses;
}

std::vector<LaneAccess> warp_fragment_accesses(LadderShape s, int warp, int k, int read) {
    std::vector<LaneAccess> accesses;
    for (int lane = 0; lane < kWarp; ++lane) {
        const int thread = warp * kWarp + lane;
        if (thread >= s.threads()) break;
        const std::vector<FragmentRead> reads = ladder_fragment_reads(s, thread, k);
        if (read < 0 || read >= static_cast<int>(reads.size())) continue;
        accesses.push_back({lane, reads[read].slot, reads[read].width});
    }
    return accesses;
}

std::optional<LayoutComparison> layout_comparison(LadderShape s, Operand operand) {
    LadderShape other = s;
    if (operand == Operand::B) {
        if (s.wm > 0 || s.vec != 4) return std::nullopt;
        if (s.wn_iter == 1 && s.tn == 8) {
            other.tn = 4, other.wn_iter = 2;
            return LayoutComparison{other, "read as 09 does: two halves 64 columns apart"};
        }
        if (s.wn_iter == 2 && s.tn == 4) {
            other.tn = 8, other.wn_iter = 1;
            return LayoutComparison{other, "read as 08 did: 8 columns side by side"};
        }
        return std::nullopt;
    }
    if (s.as_pad > 0) {
        other.as_pad = 0;
        return LayoutComparison{other, format_text("without the padding of {}", s.as_pad)};
    }
    if (s.as_transposed) {
        other.as_pad = 4;
        return LayoutComparison{other, "with As padded by 4, as 09 has it"};
    }
    other.as_pad = 1;
    return LayoutComparison{other, "with As padded by 1 (this rung is not)"};
}

std::vector<StageState> pipeline_stages(LadderShape s, int steps, int step) {
    std::vector<StageState> stages;
    if (s.stages <= 1) {
        stages.push_back({0, step, StageUse::Computing});
        return stages;
    }
    for (int stage = 0; stage < s.stages; ++stage) stages.push_back({stage, -1, StageUse::Free});
    // Step `step` computes from its stage; the copies of the next stages − 2 steps are on
    // their way, and this step's pass has just issued those of step + stages − 1 into the
    // stage the step before used (11_pipelined.cuh, pipeline_body).
    for (int ahead = 0; ahead < s.stages; ++ahead) {
        const int held = step + ahead;
        if (held >= steps) break;
        StageState& state = stages[held % s.stages];
        state.k_step = held;
        state.use = ahead == 0 ? StageUse::Computing : StageUse::Copying;
    }
    return stages;
}

}  // namespace ts::model
