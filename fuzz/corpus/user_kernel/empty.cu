// Your kernel: C = A·B, row-major floats, A is M×K, B is K×N, C is M×N.
// TileScope launches it on the grid and block you set beside the editor and checks C.
extern "C" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
    const int row = blockIdx.y * blockDim.y + threadIdx.y;
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M || col >= N) return;  // threads past the edge of C do nothing
    float sum = 0.0f;
    // Your loop over K goes here.
    C[row * N + col] = sum;
}
