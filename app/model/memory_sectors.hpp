// memory_sectors.hpp — what one warp's access costs global memory: the hardware serves a
// warp's loads in 32-byte sectors, so 32 neighbouring floats (128 bytes) take 4 sectors,
// while 32 floats a row apart take 32, eight times the bytes for the same useful data.
//
// Offsets are in elements from the start of the matrix stack; cudaMalloc aligns that start
// to 256 bytes, so sector boundaries fall at multiples of 32 bytes from it.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "index_math.hpp"
#include "problem.hpp"
#include "tile_schedule.hpp"

namespace ts::model {

inline constexpr int kSectorBytes = 32;

// Distinct 32-byte sectors that the accesses at `element_offsets` fall in; negative offsets
// are lanes that access nothing and are skipped.
int sectors_touched(std::span<const std::int64_t> element_offsets, std::size_t element_size);

// Which thread index walks the fast (column) dimension of the matrix: the kernels' own
// choice (threadIdx.x → column: a warp's neighbouring lanes read neighbouring addresses),
// or threadIdx.x → row, as 02_naive_row_from_x.cu does.
enum class WarpMapping { Coalesced, XIsRow };

struct WarpAccess {
    std::array<std::int64_t, kWarpSize> offsets{};  // per lane; -1: no access (no thread, ghost, padding)
    int active_lanes = 0;
    int distinct = 0;  // distinct addresses: lanes reading the same one share it (a broadcast)
    int sectors = 0;
    std::int64_t bytes_requested(std::size_t element_size) const {
        return static_cast<std::int64_t>(active_lanes) * static_cast<std::int64_t>(element_size);
    }
    // The data itself: what an ideal memory, moving exactly the bytes asked for, would move.
    std::int64_t bytes_distinct(std::size_t element_size) const {
        return static_cast<std::int64_t>(distinct) * static_cast<std::int64_t>(element_size);
    }
    std::int64_t bytes_moved() const { return static_cast<std::int64_t>(sectors) * kSectorBytes; }
};

// The tiled kernel's load in phase `phase`: the element of `operand` each lane of warp
// `warp` (lanes are threads warp·32 .. warp·32+31 of the T×T block, x fastest) of `block`
// copies into shared memory, in matrix `batch` of the stack. XIsRow swaps tx and ty in the
// global index: thread (tx, ty) would load A[by·T + tx][p·T + ty].
WarpAccess tiled_load_access(const Problem& problem, int tile, Index2 block, int phase, Operand operand, int warp,
                             WarpMapping mapping, int batch = 0);

// A one-cell-per-thread kernel with blocks of block_dim threads at step k of its loop: each
// lane's A[row][k] or B[k][col]. Coalesced is 01_naive.cu's mapping, XIsRow
// 02_naive_row_from_x.cu's; ghost threads read nothing.
WarpAccess naive_read_access(const Problem& problem, Index2 block_dim, Index2 block, int k, Operand operand, int warp,
                             WarpMapping mapping, int batch = 0);

}  // namespace ts::model
