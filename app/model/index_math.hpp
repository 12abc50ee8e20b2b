// index_math.hpp — the one place where CUDA's thread indices become matrix indices.
//
// The kernels in kernels/ and the views in app/views/ both call these functions, so
// what TileScope draws is exactly what runs on the GPU. Everything here is constexpr
// and header-only; under nvcc the functions are also __device__.
//
// Conventions (CUDA's, not the textbook's): x is the fast dimension. A is M×K, B is K×N,
// C is M×N, all row-major, so element (r, c) of a matrix with `cols` columns lives at
// r * cols + c. PMPP writes thread and block coordinates as (y, x); TileScope always
// says which is which.
#pragma once

#include <cstdint>

#if defined(__CUDACC__)
#define TS_HOST_DEVICE __host__ __device__
#else
#define TS_HOST_DEVICE
#endif

namespace ts::model {

inline constexpr int kWarpSize = 32;

struct Index2 {
    int x = 0;
    int y = 0;
    constexpr bool operator==(const Index2&) const = default;
};

struct Cell {
    int row = 0;
    int col = 0;
    constexpr bool operator==(const Cell&) const = default;
};

TS_HOST_DEVICE constexpr int ceil_div(int a, int b) { return (a + b - 1) / b; }
TS_HOST_DEVICE constexpr std::int64_t ceil_div64(std::int64_t a, std::int64_t b) { return (a + b - 1) / b; }

// Row-major linearization: the address the hardware sees, in elements, within one matrix.
// A 32-bit int, as in the textbook kernels: validate() rejects any matrix of 2^31 or more
// elements, so it cannot overflow here (batches are offset separately, in 64 bits).
TS_HOST_DEVICE constexpr int row_major(int row, int col, int cols) { return row * cols + col; }

// ---- Which C cell a thread computes -------------------------------------------------

// Naive kernel, coalesced mapping: threadIdx.x walks the columns of C, so the 32 threads
// of a warp read 32 neighbouring elements of B and write 32 neighbouring elements of C.
TS_HOST_DEVICE constexpr int naive_row(int block_y, int block_dim_y, int thread_y) {
    return block_y * block_dim_y + thread_y;
}
TS_HOST_DEVICE constexpr int naive_col(int block_x, int block_dim_x, int thread_x) {
    return block_x * block_dim_x + thread_x;
}

// Naive kernel with threadIdx.x as the row: the same arithmetic with the roles swapped, so
// the 32 threads of a warp walk down a column of C and touch addresses K elements apart.
TS_HOST_DEVICE constexpr int row_from_x_row(int block_x, int block_dim_x, int thread_x) {
    return block_x * block_dim_x + thread_x;
}
TS_HOST_DEVICE constexpr int row_from_x_col(int block_y, int block_dim_y, int thread_y) {
    return block_y * block_dim_y + thread_y;
}

// One output row per thread (the PMPP exercise): 1-D blocks, thread i of the grid owns row i
// of C and loops over every column of it.
TS_HOST_DEVICE constexpr int row_per_thread_row(int block_x, int block_dim_x, int thread_x) {
    return block_x * block_dim_x + thread_x;
}
// One output column per thread: 1-D blocks, thread j of the grid owns column j of C.
TS_HOST_DEVICE constexpr int column_per_thread_col(int block_x, int block_dim_x, int thread_x) {
    return block_x * block_dim_x + thread_x;
}

// Tiled kernel: blocks are T×T threads and each block owns one T×T tile of C, so the cell
// mapping is the coalesced naive one with blockDim = (T, T).
TS_HOST_DEVICE constexpr int tiled_row(int block_y, int tile, int thread_y) {
    return naive_row(block_y, tile, thread_y);
}
TS_HOST_DEVICE constexpr int tiled_col(int block_x, int tile, int thread_x) {
    return naive_col(block_x, tile, thread_x);
}

// Where matrix number `batch` of a stack of rows×cols matrices starts (blockIdx.z picks
// it in the batched kernels). 64-bit: a stack can hold more than 2^31 elements even when
// each matrix fits an int index.
TS_HOST_DEVICE constexpr std::int64_t batch_offset(int batch, int rows, int cols) {
    return static_cast<std::int64_t>(batch) * rows * cols;
}

// A thread whose cell lies outside C still exists (the grid is rounded up to whole
// blocks); it must not store anything. We call it a ghost thread.
TS_HOST_DEVICE constexpr bool inside(int row, int col, int rows, int cols) {
    return row >= 0 && col >= 0 && row < rows && col < cols;
}

// ---- Tiled kernel: what each thread loads in each phase -----------------------------

// Number of phases: the K dimension is walked one tile width at a time.
TS_HOST_DEVICE constexpr int phase_count(int k, int tile) { return ceil_div(k, tile); }

// In phase p, thread (tx, ty) of a block loads A[row][p*T + tx] into As[ty][tx] ...
TS_HOST_DEVICE constexpr int tiled_a_col(int phase, int tile, int thread_x) {
    return phase * tile + thread_x;
}
// ... and B[p*T + ty][col] into Bs[ty][tx]. Both loads are coalesced: tx is the fast index
// of the global address and of the shared-memory slot.
TS_HOST_DEVICE constexpr int tiled_b_row(int phase, int tile, int thread_y) {
    return phase * tile + thread_y;
}

// The k range one phase contributes to every cell of C: [phase*T, min((phase+1)*T, K)).
TS_HOST_DEVICE constexpr int phase_k_begin(int phase, int tile) { return phase * tile; }
TS_HOST_DEVICE constexpr int phase_k_end(int phase, int tile, int k) {
    return (phase + 1) * tile < k ? (phase + 1) * tile : k;
}

// ---- Threads, warps, lanes -----------------------------------------------------------

// CUDA linearizes the threads of a block x-fastest; consecutive groups of 32 form warps.
TS_HOST_DEVICE constexpr int linear_thread(int thread_x, int thread_y, int block_dim_x) {
    return thread_y * block_dim_x + thread_x;
}
TS_HOST_DEVICE constexpr int warp_of(int linear_thread_id) { return linear_thread_id / kWarpSize; }
TS_HOST_DEVICE constexpr int lane_of(int linear_thread_id) { return linear_thread_id % kWarpSize; }

}  // namespace ts::model
