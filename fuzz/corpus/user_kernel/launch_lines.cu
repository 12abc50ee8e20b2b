// grid: max(1, cdiv(N, 64)), min(M, (K + 3) / 4 * 2 % 7)
// block: 32, -8
// shared: 9223372036854775807 * 2
