// Rung 05, tiled: TILE×TILE blocks stage tiles of A and B in shared memory, so each element
// is read from global memory once per block instead of once per thread.
// grid:   cdiv(N, 16), cdiv(M, 16)
// block:  16, 16
// shared: 0
#define TILE 16  // the block is TILE×TILE threads: keep // block: above the same
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    __shared__ float as[TILE][TILE];
    __shared__ float bs[TILE][TILE];
    const int tx = threadIdx.x;
    const int ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;
    // Ghost threads (row or col outside C) do not return early: they still load their share
    // of each tile and reach every barrier, because the threads inside C need both.
    float sum = 0;
    const int phases = (K + TILE - 1) / TILE;
    for (int phase = 0; phase < phases; ++phase) {
        const int a_col = phase * TILE + tx;
        const int b_row = phase * TILE + ty;
        // A slot whose element lies outside the matrix gets 0, which adds nothing below.
        as[ty][tx] = row < M && a_col < K ? A[row * K + a_col] : 0.0f;
        bs[ty][tx] = b_row < K && col < N ? B[b_row * N + col] : 0.0f;
        // Without this barrier a thread could read a slot that another thread has not
        // written yet, and add a stale value from the previous phase.
        __syncthreads();
        for (int i = 0; i < TILE; ++i) sum += as[ty][i] * bs[i][tx];
        // Without this barrier a fast thread could start the next phase and overwrite a
        // slot that a slower thread is still reading for this one.
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = sum;
}
