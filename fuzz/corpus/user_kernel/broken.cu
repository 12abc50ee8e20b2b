extern "C" __global__ void matmul(const float* A, const float* B, float* C, int M, int N, int K) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  float s = undefined_thing;
  int unused = 3;
  C[row] = s
}
