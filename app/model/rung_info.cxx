#include "rung_info.hpp"

#include <algorithm>

namespace ts::model {

namespace {
std::span<const RungInfo> g_table = kRungTable;

// By ladder, then up each ladder: the order of rungs_on and lab_rungs whatever the table's.
void climbing_order(std::vector<RungInfo>& rows) {
    std::stable_sort(rows.begin(), rows.end(), [](const RungInfo& a, const RungInfo& b) {
        return a.ladder != b.ladder ? a.ladder < b.ladder : a.position < b.position;
    });
}
}  // namespace

std::span<const RungInfo> rung_table() { return g_table; }

const RungInfo* find_rung(KernelKind kind) {
    // The shipped table holds kind i in row i (rows_in_order), and the model's loops over the cells
    // of C ask for a row per cell: that row first, a walk through a test's table only.
    const auto index = static_cast<std::size_t>(kind);
    if (index < g_table.size() && g_table[index].kind == kind) return &g_table[index];
    for (const RungInfo& row : g_table)
        if (row.kind == kind) return &row;
    return nullptr;
}

std::vector<RungInfo> rungs_on(Ladder ladder) {
    std::vector<RungInfo> rows;
    for (const RungInfo& row : g_table)
        if (row.ladder == ladder && ladder != Ladder::None) rows.push_back(row);
    climbing_order(rows);
    return rows;
}

std::vector<RungInfo> lab_rungs() {
    std::vector<RungInfo> rows;
    for (const RungInfo& row : g_table)
        if (row.lab != LabPlot::Own) rows.push_back(row);
    climbing_order(rows);
    return rows;
}

std::vector<bool> lab_rung_defaults() {
    std::vector<bool> shown;
    for (const RungInfo& row : lab_rungs()) shown.push_back(row.lab == LabPlot::On);
    return shown;
}

ScopedRungTable::ScopedRungTable(std::span<const RungInfo> table) : m_previous(g_table) { g_table = table; }

ScopedRungTable::~ScopedRungTable() { g_table = m_previous; }

}  // namespace ts::model
