// B's tile stored transposed, b_tile[x][y] = B(k0 + y, col x), and read along its rows:
// the products are the same, but a warp (one ty, 32 tx) now writes and reads 32 words
// 32 apart: all in one bank of shared memory.
// grid:   cdiv(N, 32), cdiv(M, 32)
// block:  32, 32
// shared: 0
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    __shared__ float a_tile[32][32];
    __shared__ float b_tile[32][33];  // one column of padding: word x·33 + y, banks apart
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * 32 + ty, col = blockIdx.x * 32 + tx;
    float sum = 0.0f;
    for (int k0 = 0; k0 < K; k0 += 32) {
        a_tile[ty][tx] = row < M && k0 + tx < K ? A[row * K + k0 + tx] : 0.0f;
        b_tile[tx][ty] = k0 + ty < K && col < N ? B[(k0 + ty) * N + col] : 0.0f;
        __syncthreads();
        for (int i = 0; i < 32; ++i) sum += a_tile[ty][i] * b_tile[tx][i];
        __syncthreads();
    }
    if (row < M && col < N) C[row * N + col] = sum;
}
__device__ float helper(const float* p) {
    extern __shared__ float dynamic[];
    __shared__ float one[64];  /* a comment: __shared__ float no[2]; */
    one[threadIdx.x] = dynamic[threadIdx.x] + p[0];
    return one[0] + (dynamic + 64)[1];
}
