// fragments.hpp — the tensor-core rungs in the theatre, first picture: who holds which element.
//
// For wmma, mma and mma-async (13–15): one mma.sync.m16n8k16, its A (16×16), B (16×8) and C (16×8)
// side by side, every element coloured by the lane of the warp that holds it and marked with that
// lane's number; below, A's tile as shared memory stores it, each 16-byte row coloured by the lane
// that gives ldmatrix.x4 its address (the lane that gives an address is not the lane that
// receives its values). For wgmma to tc-tuned (16–19): the FP32 accumulators of one wgmma m64nNk16 over
// its first 32 columns, coloured by thread of the warpgroup (its four warps own 16 rows each).
// Hovering an element names its lane (or thread), register and half, and the PTX ISA's formula
// with the numbers filled in; clicking pins a lane, and every element it holds is outlined, with
// its register written in.
//
// Everything comes from model/tensor_core/fragments.hpp, the functions the kernels themselves call to put
// each value where the instruction expects it. The pure parts (which lane, which register, the
// formula) are here for the tests; draw_tc_fragments draws them.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "views/window/app_state.hpp"

namespace ts::views {

// LdmatrixA: A's 16×16 tile in shared memory, by the lane that gives each row's address.
enum class FragmentOperand { MmaA, MmaB, MmaC, WgmmaD, LdmatrixA };

// One grid of the picture: which operand, its size, its caption (one line over the grid: the
// longest of `title` and `short_title` that fits), and its line (0: the top one).
struct FragmentGrid {
    FragmentOperand operand = FragmentOperand::MmaA;
    int rows = 0, cols = 0;
    std::string title;
    int line = 0;
    std::string short_title;
};
// The grids the theatre draws for a tensor-core rung: A, B and C of one mma for 13–15, the
// accumulators of one wgmma (64 × 32) for 16–19; none for other kernels.
std::vector<FragmentGrid> fragment_grids(model::KernelKind kind);

// The colour of lane `lane` (0–31): 32 hues, far apart for neighbouring lanes.
ImU32 lane_colour(int lane);

// Who holds element (row, col): the lane of the warp (mma) or the thread of the warpgroup (wgmma);
// for LdmatrixA the lane that gives the address of the 16-byte row the element is in.
int fragment_holder(FragmentOperand operand, int row, int col);
// "a2, low half" (mma A and B: registers of two 16-bit halves), "c3" or "d13" (FP32 accumulators).
std::string fragment_register(FragmentOperand operand, int row, int col);
// The hover text: holder, register, and the PTX ISA's layout formula with this element's numbers.
std::string fragment_formula(FragmentOperand operand, int row, int col);

// Where the grids go in an area at `origin` of `avail` pixels with text `font` pixels high: each
// line of grids under a one-line caption, side by side two cells apart, square cells as large as
// fit, a wgmma's warp names on the right. cell 0: too small to draw.
struct FragmentLayout {
    float cell = 0.0f;
    std::vector<ImVec2> tops;  // each grid's top-left corner
};
FragmentLayout layout_fragments(const std::vector<FragmentGrid>& grids, ImVec2 origin, ImVec2 avail, float font);

// How wide the picture of `kind`'s grids is when it is `height` pixels high.
float fragments_width(model::KernelKind kind, float height, float font);

// The words beside or above the picture: what the grids are, the trace's line, what a hover
// and a click do; paragraphs fold where they would leave the picture less than `keep` of the view.
// Its checkbox sets theatre.traces.replay (`theatre` is app.theatre).
void draw_tc_fragments_words(TheatreState& theatre, const AppState& app, float keep);

// The picture of app.kernel.kind's fragments in the current ImGui window's remaining area
// (layout_fragments at the cursor), reported in `picture` (app.picture); a click pins or lets go
// of a lane (theatre.pinned_lane).
void draw_tc_fragments(TheatreState& theatre, PictureLayout& picture, const AppState& app);

}  // namespace ts::views
