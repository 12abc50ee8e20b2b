#include "stage_record.hpp"

#include "model/format.hpp"

namespace ts::model {

namespace {

// The tile dimensions of the operand a word sits in: A's BM × BK, then B's BK × BN.
struct TileOf {
    bool of_a;
    int rows, cols, first_word;
};
TileOf tile_of(WgmmaShape s, int index) {
    const int a_words = s.a_tile_bytes() / s.element_bytes;
    if (index < a_words) return {true, s.bm, s.bk, 0};
    return {false, s.bk, s.bn, a_words};
}

std::string element_text(const StageWord& w) {
    if (w.foreign) return "a number no element of the tile holds";
    if (w.zero_fill) return "a zero (TMA's fill)";
    return format_text("{}[{}][{}]", w.of_a ? "A" : "B", w.row, w.col);
}

}  // namespace

std::vector<std::uint16_t> stage_words_expected(WgmmaShape s, const Problem& problem) {
    std::vector<std::uint16_t> words(static_cast<std::size_t>(s.stage_bytes() / s.element_bytes), 0);
    // A is M×K, B K×N (TileScope's layouts); block (0, 0)'s first K step reads rows and columns
    // from 0, so an element is inside the matrix when its tile coordinates are.
    for (int r = 0; r < s.bm; ++r)
        for (int c = 0; c < s.bk; ++c) {
            const int at = tma_tile_offset(s.swizzle, s.bm, r, c, s.element_bytes) / s.element_bytes;
            words[static_cast<std::size_t>(at)] =
                r < problem.m && c < problem.k ? stage_element_number(r, c, s.bm, s.bk) : std::uint16_t{0};
        }
    const int b_first = s.a_tile_bytes() / s.element_bytes;
    for (int r = 0; r < s.bk; ++r)
        for (int c = 0; c < s.bn; ++c) {
            const int at = b_first + tma_tile_offset(s.swizzle, s.bk, r, c, s.element_bytes) / s.element_bytes;
            words[static_cast<std::size_t>(at)] =
                r < problem.k && c < problem.n ? stage_element_number(r, c, s.bk, s.bn) : std::uint16_t{0};
        }
    return words;
}

StageWord read_stage_word(WgmmaShape s, int index, std::uint16_t word) {
    const TileOf t = tile_of(s, index);
    StageWord w;
    w.of_a = t.of_a;
    if (word == 0) {
        const StageWord place = stage_word_place(s, index);
        w.row = place.row;
        w.col = place.col;
        w.zero_fill = true;
        return w;
    }
    const int number = word - 1;
    if (number >= t.rows * t.cols) {
        w.foreign = true;
        return w;
    }
    w.row = number / t.cols;
    w.col = number % t.cols;
    return w;
}

StageWord stage_word_place(WgmmaShape s, int index) {
    const TileOf t = tile_of(s, index);
    // tma_tile_offset is its own inverse within a slab (the swizzle is an involution): undo the
    // slab, then the swizzle, then read row and column off the plain row of one span.
    const int span = swizzle_span_bytes(s.swizzle);
    const int byte = (index - t.first_word) * s.element_bytes;
    const int slab_bytes = t.rows * span;
    const int slab = byte / slab_bytes;
    const int plain = swizzle_bytes(s.swizzle, byte % slab_bytes);
    StageWord w;
    w.of_a = t.of_a;
    w.row = plain / span;
    w.col = slab * (span / s.element_bytes) + (plain % span) / s.element_bytes;
    return w;
}

std::optional<std::string> compare_stage_words(WgmmaShape s, const Problem& problem,
                                               const std::vector<std::uint16_t>& recorded) {
    const std::vector<std::uint16_t> expected = stage_words_expected(s, problem);
    if (recorded.size() != expected.size())
        return format_text("the recorded stage has {} words, the model's {}", recorded.size(), expected.size());
    const int a_words = s.a_tile_bytes() / s.element_bytes;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        if (recorded[i] == expected[i]) continue;
        const int index = static_cast<int>(i);
        const bool of_a = index < a_words;
        const int byte = (of_a ? index : index - a_words) * s.element_bytes;
        return format_text("{}'s tile, byte {} (128-byte line {}, 16-byte chunk {}): recorded {}, model {}",
                           of_a ? "A" : "B", byte, byte / 128, byte % 128 / 16,
                           element_text(read_stage_word(s, index, recorded[i])),
                           element_text(read_stage_word(s, index, expected[i])));
    }
    return std::nullopt;
}

// ---- The mma rung's registers after ldmatrix ----------------------------------------------------

namespace {

// The number element (row, col) of the 16×16 square holds: A is cut in BM × BK tiles, B in BK × BN.
std::uint16_t fragment_element_number(bool of_b, Cell cell) {
    const MmaShape& s = kRecordedFragmentShape;
    return of_b ? stage_element_number(cell.row, cell.col, s.bk, s.bn)
                : stage_element_number(cell.row, cell.col, s.bm, s.bk);
}

// The inverse: the element of the 16×16 square whose number `number` is; nullopt for 0 (the zero
// fill) and numbers of elements outside the square.
std::optional<Cell> fragment_element_of(bool of_b, std::uint16_t number) {
    if (number == 0) return std::nullopt;
    const int cols = of_b ? kRecordedFragmentShape.bn : kRecordedFragmentShape.bk;
    const Cell cell{(number - 1) / cols, (number - 1) % cols};
    if (cell.row >= 16 || cell.col >= 16) return std::nullopt;
    return cell;
}

// Whether element `cell` of A's (m, k) or B's (k, n) 16×16 square of block (0, 0) lies inside the matrix.
bool inside_square(const Problem& p, bool of_b, Cell cell) {
    return of_b ? cell.row < p.k && cell.col < p.n : cell.row < p.m && cell.col < p.k;
}

}  // namespace

std::vector<std::uint16_t> fragment_words_expected(const Problem& problem) {
    std::vector<std::uint16_t> words(static_cast<std::size_t>(kRecordedFragmentWords));
    for (int lane = 0; lane < kWarpSize; ++lane)
        for (const bool of_b : {false, true})
            for (int reg = 0; reg < 4; ++reg)
                for (int half = 0; half < 2; ++half) {
                    const Cell cell = fragment_word_cell(lane, of_b, reg, half);
                    words[static_cast<std::size_t>(fragment_word_slot(lane, of_b, reg, half))] =
                        inside_square(problem, of_b, cell) ? fragment_element_number(of_b, cell) : 0;
                }
    return words;
}

FragmentHolders recorded_holders(const std::vector<std::uint16_t>& words, bool of_b) {
    FragmentHolders holders{};
    if (words.size() != static_cast<std::size_t>(kRecordedFragmentWords)) return holders;
    // Each word names its element by number; the first slot that names one is its holder.
    for (int lane = kWarpSize - 1; lane >= 0; --lane)
        for (int reg = 3; reg >= 0; --reg)
            for (int half = 1; half >= 0; --half)
                if (const auto cell = fragment_element_of(
                        of_b, words[static_cast<std::size_t>(fragment_word_slot(lane, of_b, reg, half))]))
                    holders[static_cast<std::size_t>(cell->row * 16 + cell->col)] = FragmentHolder{lane, reg, half};
    return holders;
}

std::optional<FragmentHolder> recorded_holder(const std::vector<std::uint16_t>& words, bool of_b, int row, int col) {
    if (row < 0 || row >= 16 || col < 0 || col >= 16) return std::nullopt;
    return recorded_holders(words, of_b)[static_cast<std::size_t>(row * 16 + col)];
}

std::optional<std::string> compare_fragment_words(const Problem& problem, const std::vector<std::uint16_t>& recorded) {
    if (recorded.size() != static_cast<std::size_t>(kRecordedFragmentWords))
        return format_text("the record holds {} words; 32 lanes × 16 halves are {}", recorded.size(),
                           kRecordedFragmentWords);
    const std::vector<std::uint16_t> expected = fragment_words_expected(problem);
    for (int lane = 0; lane < kWarpSize; ++lane)
        for (const bool of_b : {false, true})
            for (int reg = 0; reg < 4; ++reg)
                for (int half = 0; half < 2; ++half) {
                    const auto slot = static_cast<std::size_t>(fragment_word_slot(lane, of_b, reg, half));
                    if (recorded[slot] == expected[slot]) continue;
                    const Cell want = fragment_word_cell(lane, of_b, reg, half);
                    const char name = of_b ? 'B' : 'A';
                    // The element the recorded number names, in the same 16×16 square if it is one.
                    std::string got = recorded[slot] == 0 ? std::string("0 (zero fill)")
                                                          : format_text("the number {}", recorded[slot]);
                    if (const auto cell = fragment_element_of(of_b, recorded[slot]))
                        got = format_text("{}[{}][{}]", name, cell->row, cell->col);
                    const std::string model = expected[slot] == 0
                                                  ? format_text("0 ({}[{}][{}] lies outside the matrix)", name, want.row,
                                                                want.col)
                                                  : format_text("{}[{}][{}]", name, want.row, want.col);
                    return format_text("lane {}, {} register {}, {} half: recorded {}, the model says {}", lane, name, reg,
                                       half == 0 ? "low" : "high", got, model);
                }
    return std::nullopt;
}

}  // namespace ts::model
