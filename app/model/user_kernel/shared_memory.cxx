#include "model/user_kernel/shared_memory.hpp"

#include <algorithm>
#include <tuple>

#include "model/format.hpp"
#include "model/tensor_core/swizzle.hpp"

namespace ts::model {

namespace {

// One shared-memory note, unpacked, with its place in the buffer (each thread's own order).
struct SharedNote {
    int block = 0;
    int thread = 0;  // linear within the block: y · block_x + x
    int x = 0, y = 0;
    int barriers = 0;
    int array = 0;
    bool write = false;
    int line = 0;
    int word = 0;
    std::int64_t order = 0;
    std::int64_t ordinal = 0;  // the thread's how-many-th access on this line, array and kind
};

std::int64_t element_of(const UserTrace& r, const SharedNote& n) {
    const std::size_t info = 3 * static_cast<std::size_t>(n.array);
    return info < r.shared_info.size() ? static_cast<std::int64_t>(n.word) - r.shared_info[info] : n.word;
}

// Wavefronts one warp access takes: the most distinct words asked of one bank (tensor_core/swizzle.hpp's count,
// as for ldmatrix's phases).
int wavefronts_of(const std::vector<int>& words) {
    std::vector<int> bytes(words.size());
    for (std::size_t i = 0; i < words.size(); ++i) bytes[i] = words[i] * kBankWordBytes;
    return phase_wavefronts(bytes.data(), static_cast<int>(bytes.size()), kBankWordBytes);
}

}  // namespace

SharedReport shared_report_of(const UserTrace& r) {
    SharedReport report;
    report.not_recorded = r.shared_not_recorded;
    for (std::size_t id = 0; id < r.shared_names.size(); ++id) {
        SharedArrayUse use;
        use.name = r.shared_names[id];
        if (3 * id + 2 < r.shared_info.size()) {
            use.rows = static_cast<int>(r.shared_info[3 * id + 1]);
            use.cols = static_cast<int>(r.shared_info[3 * id + 2]);
        }
        report.arrays.push_back(use);
    }
    const std::int64_t block_x = std::max<std::int64_t>(1, r.shape.block_x);
    std::vector<SharedNote> notes;
    for (std::size_t i = 0; i < r.events.size(); ++i) {
        const UserEvent& e = r.events[i];
        if (access_of(e) != UserAccess::Shared) continue;
        SharedNote n;
        n.block = e.block;
        n.x = e.thread_x;
        n.y = e.thread_y;
        n.thread = static_cast<int>(e.thread_y * block_x + e.thread_x);
        n.barriers = e.barriers;
        n.array = shared_array_of(e);
        n.write = shared_write_of(e);
        n.line = shared_line_of(e);
        n.word = shared_word_of(e);
        n.order = static_cast<std::int64_t>(i);
        if (n.array >= static_cast<int>(report.arrays.size())) report.arrays.resize(static_cast<std::size_t>(n.array) + 1);
        SharedArrayUse& use = report.arrays[static_cast<std::size_t>(n.array)];
        if (use.name.empty()) use.name = format_text("shared array {}", n.array);
        ++(n.write ? use.writes : use.reads);
        notes.push_back(n);
    }

    // Each thread's accesses on a line, in its own order: the k-th is its warp's k-th instruction there.
    const auto per_thread = [](const SharedNote& n) { return std::tie(n.block, n.thread, n.line, n.array, n.write); };
    std::stable_sort(notes.begin(), notes.end(),
                     [&](const SharedNote& a, const SharedNote& b) { return per_thread(a) < per_thread(b); });
    for (std::size_t i = 0; i < notes.size(); ++i)
        notes[i].ordinal = i > 0 && per_thread(notes[i - 1]) == per_thread(notes[i]) ? notes[i - 1].ordinal + 1 : 0;

    // Warp accesses: a warp's threads' k-th access on one line.
    const auto per_warp = [](const SharedNote& n) {
        return std::make_tuple(n.line, n.array, n.write, n.block, n.thread / 32, n.ordinal);
    };
    std::sort(notes.begin(), notes.end(), [&](const SharedNote& a, const SharedNote& b) { return per_warp(a) < per_warp(b); });
    std::vector<int> words;
    for (std::size_t i = 0; i < notes.size();) {
        std::size_t j = i;
        words.clear();
        while (j < notes.size() && per_warp(notes[j]) == per_warp(notes[i])) words.push_back(notes[j++].word);
        const int wavefronts = wavefronts_of(words);
        if (report.lines.empty() || report.lines.back().line != notes[i].line || report.lines.back().array != notes[i].array ||
            report.lines.back().write != notes[i].write)
            report.lines.push_back(SharedLineUse{notes[i].line, notes[i].array, notes[i].write});
        SharedLineUse& line = report.lines.back();
        ++line.warp_accesses;
        line.wavefronts += wavefronts;
        line.worst = std::max(line.worst, wavefronts);
        ++report.warp_accesses;
        report.wavefronts += wavefronts;
        i = j;
    }

    // Races: one word of one block between the same two barriers, touched by two threads, one writing.
    const auto per_word = [](const SharedNote& n) { return std::make_tuple(n.block, n.barriers, n.word, n.order); };
    std::sort(notes.begin(), notes.end(), [&](const SharedNote& a, const SharedNote& b) { return per_word(a) < per_word(b); });
    for (std::size_t i = 0; i < notes.size();) {
        std::size_t j = i;
        const SharedNote* writer = nullptr;
        while (j < notes.size() && notes[j].block == notes[i].block && notes[j].barriers == notes[i].barriers &&
               notes[j].word == notes[i].word) {
            if (notes[j].write && writer == nullptr) writer = &notes[j];
            ++j;
        }
        if (writer != nullptr) {
            const SharedNote* other = nullptr;
            for (std::size_t k = i; k < j && other == nullptr; ++k)
                if (notes[k].thread != writer->thread) other = &notes[k];
            if (other != nullptr) {
                ++report.races;
                if (static_cast<int>(report.examples.size()) < kSharedRaceExamples)
                    report.examples.push_back(SharedRace{writer->array, element_of(r, *writer), writer->block,
                                                         writer->barriers, writer->x, writer->y, writer->line, other->x,
                                                         other->y, other->line, other->write});
            }
        }
        i = j;
    }
    return report;
}

std::string shared_element_name(const SharedReport& report, int array, std::int64_t element) {
    const SharedArrayUse* use =
        array >= 0 && array < static_cast<int>(report.arrays.size()) ? &report.arrays[static_cast<std::size_t>(array)] : nullptr;
    const std::string name = use != nullptr ? use->name : "?";
    if (use != nullptr && use->cols > 1) return format_text("{}[{}][{}]", name, element / use->cols, element % use->cols);
    return format_text("{}[{}]", name, element);
}

std::vector<SharedSentence> describe_shared(const SharedReport& report) {
    std::vector<SharedSentence> out;
    if (!report.not_recorded.empty()) {
        out.push_back({"Shared memory was not recorded: " + report.not_recorded, SharedTone::NotRecorded});
        return out;
    }
    if (report.arrays.empty()) {
        out.push_back({"Shared memory: none used."});
        return out;
    }
    std::string arrays = "Shared memory:";
    for (std::size_t i = 0; i < report.arrays.size(); ++i) {
        const SharedArrayUse& a = report.arrays[i];
        const std::string shape = a.cols > 1 ? format_text(" ({} × {})", a.rows, a.cols)
                                  : a.rows > 0 ? format_text(" ({})", a.rows)
                                               : std::string(" (extern)");
        arrays += format_text("{} {}{}: {} writes, {} reads", i == 0 ? "" : ";", a.name, shape, a.writes, a.reads);
    }
    out.push_back({arrays + "."});
    const auto line_name = [](int line) { return line > 0 ? format_text("line {}", line) : std::string("a line past 1023"); };
    if (report.wavefronts == report.warp_accesses) {
        out.push_back({format_text("Banks: no conflicts: each of the {} warp accesses took one wavefront.",
                                   report.warp_accesses)});
    } else {
        out.push_back({format_text("Banks: {} warp accesses took {} wavefronts ({}× the conflict-free count):",
                                   report.warp_accesses, report.wavefronts,
                                   fixed(static_cast<double>(report.wavefronts) / static_cast<double>(report.warp_accesses), 2)),
                       SharedTone::Conflict});
        for (const SharedLineUse& l : report.lines) {
            if (l.wavefronts == l.warp_accesses) continue;
            const std::string name = l.array < static_cast<int>(report.arrays.size())
                                         ? report.arrays[static_cast<std::size_t>(l.array)].name
                                         : std::string("?");
            out.push_back({format_text("  {}, {} of {}: {} warp accesses, {} wavefronts, up to {}-way conflicts",
                                       line_name(l.line), l.write ? "writes" : "reads", name, l.warp_accesses,
                                       l.wavefronts, l.worst),
                           SharedTone::Conflict});
        }
    }
    if (report.races == 0) {
        out.push_back({"Barriers: no two threads touched one word between the same two barriers with one of them writing."});
        return out;
    }
    out.push_back({format_text("RACE: {} times two threads touched one word of shared memory between the same two "
                               "barriers, one of them writing; which came first is up to the GPU: a barrier is missing.",
                               report.races),
                   SharedTone::Race});
    for (const SharedRace& race : report.examples) {
        const std::string element = shared_element_name(report, race.array, race.element);
        out.push_back({format_text("  block {}, after {} barriers: thread ({}, {}) wrote {} on {}, and thread ({}, {}) "
                                   "{} it on {}{}",
                                   race.block, race.barriers, race.writer_x, race.writer_y, element,
                                   line_name(race.writer_line), race.other_x, race.other_y,
                                   race.other_writes ? "wrote" : "read", line_name(race.other_line),
                                   race.other_writes ? "" : ": it may have read the value from before the write"),
                       SharedTone::Race});
    }
    return out;
}

}  // namespace ts::model
