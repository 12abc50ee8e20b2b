#include "tuning_table.hpp"

#include <algorithm>
#include <charconv>

#include "format.hpp"
#include "rung_info.hpp"

namespace ts::model {

namespace {

std::string_view trim(std::string_view s) {
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (!s.empty() && space(s.front())) s.remove_prefix(1);
    while (!s.empty() && space(s.back())) s.remove_suffix(1);
    return s;
}

template <typename Number>
std::optional<Number> whole_number(std::string_view text) {
    Number value{};
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    if (error != std::errc{} || stop != end) return std::nullopt;
    return value;
}

}  // namespace

// "tc-tuned: NVIDIA H100" names tc-tuned's rows for that GPU; a name with no rung before a colon
// is the tuned rung's (as every table before tc-tuned was written).
TuningSection section_named(std::string_view name) {
    for (KernelKind rung : kAllKernelKinds) {
        if (!is_tuned(rung)) continue;
        const std::string_view prefix = kernel_name(rung);
        if (name.starts_with(prefix) && name.substr(prefix.size()).starts_with(':'))
            return {std::string(trim(name.substr(prefix.size() + 1))), {}, rung};
    }
    return {std::string(name), {}, KernelKind::Tuned};
}

std::variant<TuningTable, std::string> parse_tuning_table(std::string_view text) {
    TuningTable table;
    int line_number = 0;
    while (!text.empty()) {
        const std::size_t end = std::min(text.find('\n'), text.size());
        const std::string_view line = trim(text.substr(0, end));
        text.remove_prefix(std::min(end + 1, text.size()));
        ++line_number;
        if (line.empty() || line.front() == '#') continue;
        if (line.front() == '[') {
            const std::string_view name = line.size() >= 2 ? trim(line.substr(1, line.size() - 2)) : "";
            TuningSection section = section_named(name);
            if (line.back() != ']' || section.gpu.empty())
                return format_text("line {}: a section is a GPU name in brackets, like [NVIDIA H100] or "
                                   "[tc-tuned: NVIDIA H100], got \"{}\"",
                                   line_number, line);
            table.sections.push_back(std::move(section));
            continue;
        }
        const std::size_t equals = line.find('=');
        if (equals == std::string_view::npos)
            return format_text("line {}: expected \"SIZE = CANDIDATE\" or \"[GPU name]\", got \"{}\"", line_number,
                               line);
        if (table.sections.empty())
            return format_text("line {}: \"{}\" comes before any [GPU name] section", line_number, line);
        const std::string_view size_text = trim(line.substr(0, equals));
        const std::string_view variant_text = trim(line.substr(equals + 1));
        TuningRow row;
        if (size_text != "*") {
            const auto size = whole_number<std::int64_t>(size_text);
            if (!size || *size < 1)
                return format_text("line {}: the size must be a whole number of at least 1 or *, got \"{}\"",
                                   line_number, size_text);
            row.up_to = *size;
        }
        const auto variant = whole_number<int>(variant_text);
        const KernelKind rung = table.sections.back().rung;
        if (!variant || *variant < 0 || *variant >= tuned_candidate_count(rung))
            return format_text("line {}: the candidate must be a number from 0 to {} ({} has {}), got \"{}\"",
                               line_number, tuned_candidate_count(rung) - 1, kernel_name(rung),
                               tuned_candidate_count(rung), variant_text);
        row.variant = *variant;
        table.sections.back().rows.push_back(row);
    }
    return table;
}

std::string write_tuning_table(const TuningTable& table) {
    std::string text =
        "# TileScope's tuned shapes (tilescope-cli tune): [GPU] for tuned, [tc-tuned: GPU], then size = candidate\n";
    for (const TuningSection& section : table.sections) {
        // The tuned rung's sections plainly, unless the name would read back as another rung's.
        const bool plain = section.rung == KernelKind::Tuned && section_named(section.gpu) == TuningSection{section.gpu, {}};
        text += plain ? format_text("\n[{}]\n", section.gpu)
                      : format_text("\n[{}: {}]\n", kernel_name(section.rung), section.gpu);
        for (const TuningRow& row : section.rows)
            text += row.up_to > 0 ? format_text("{} = {}\n", row.up_to, row.variant) : format_text("* = {}\n", row.variant);
    }
    return text;
}

std::optional<int> pick_variant(const TuningTable& table, std::string_view gpu, std::int64_t size, KernelKind rung) {
    const TuningSection* best = nullptr;
    for (const TuningSection& section : table.sections) {
        const bool matches = section.rung == rung && (section.gpu == "*" || gpu.starts_with(section.gpu));
        // The longest matching name is the most specific; "*" only when nothing else matches.
        const auto weight = [](const TuningSection& s) { return s.gpu == "*" ? 0 : s.gpu.size(); };
        if (matches && (!best || weight(section) > weight(*best))) best = &section;
    }
    if (!best) return std::nullopt;
    for (const TuningRow& row : best->rows)
        if (row.up_to == 0 || size <= row.up_to) return row.variant;
    return std::nullopt;
}

void set_section(TuningTable& table, TuningSection section) {
    for (TuningSection& existing : table.sections)
        if (existing.gpu == section.gpu && existing.rung == section.rung) {
            existing = std::move(section);
            return;
        }
    table.sections.push_back(std::move(section));
}

// Where the shipped table comes from (`tilescope-cli tune` on an H100 80GB HBM3 and an H200; the
// runs, their numbers and the power cap's part in them: docs/notes/tuning-table.md):
// - the tuned rung: 64×64 tiles at 1024, where 128×128 tiles leave most SMs idle; 128×256 from
//   2048 on, the same winners on both GPUs;
// - tc-tuned: 128×128 tiles without a cluster at 1024³ (32 tiles of 128×256 leave most SMs idle);
//   candidate 4 (18's shape with four stages, C a slab at a time) from 2048³ on; on the H100,
//   candidate 5 (4 with the last round split along K) past 4096³, where the last round is a small
//   share of the run; the H200 keeps candidate 4.
// Other GPUs run candidate 0 (the pipelined rung's own shape; 18's for tc-tuned) until tuned.
const std::string_view kShippedTuningTable = R"(# TileScope's shipped tuned shapes
[*]
* = 0

[NVIDIA H100]
1024 = 3
* = 1

[NVIDIA H200]
1024 = 3
* = 1

[tc-tuned: *]
* = 0

[tc-tuned: NVIDIA H100]
1024 = 3
4096 = 4
* = 5

[tc-tuned: NVIDIA H200]
1024 = 3
* = 4
)";

}  // namespace ts::model
