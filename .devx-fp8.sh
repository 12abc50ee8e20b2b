#!/usr/bin/env bash
# FP8 on the device (run from the repository root, with `build` built here for sm_90 and shipped):
# the gpu test of FP8, `check --dtype fp8`, bench per tensor and block at 4096³ and 8192³, and
# compute-sanitizer's memcheck on the quantisation kernels. Logs go to $OUT when it is set.
set -u
out=${OUT:-/tmp/fp8-out}
mkdir -p "$out"
cli=build/app/cli/tilescope-cli
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
fail=0
step() {  # step NAME LIMIT_S COMMAND...: runs it time-boxed, logs it, prints the last lines
  local name=$1 limit=$2
  shift 2
  timeout "$limit" "$@" > "$out/$name.log" 2>&1
  local rc=$?
  echo "== $name rc=$rc"
  tail -n 25 "$out/$name.log"
  [ $rc -ne 0 ] && fail=1
}
# 1. The FP8 gpu tests (quantisation bit for bit against the host, cuBLASLt through the runner).
step gpu_fp8 120 bash -c 'cd build/tests/gpu && ./gpu_tests --gtest_filter="*Fp8*" --gtest_brief=1'
# 2. The check suite in fp8: cuBLAS is fp8's only kernel, in both scalings (odd sizes may be skipped
#    with cuBLASLt's words).
step check_fp8 300 "$cli" check --dtype fp8 --kernel cublas --seed 1
# 3. bench: one point each, with the quantisation time and the error against FP64.
for size in 4096 8192; do
  for scaling in tensor block; do
    step "bench_${scaling}_${size}" 240 "$cli" bench --kernel cublas --dtype fp8 --scaling "$scaling" --size "$size"
  done
done
# 4. memcheck on the quantisation kernels (the FP8 gpu test's Fp8Quantise cases).
step memcheck_quantise 240 bash -c 'cd build/tests/gpu && /usr/local/cuda/bin/compute-sanitizer --tool memcheck \
  --error-exitcode 3 ./gpu_tests --gtest_filter="Scalings/Fp8Quantise.*" --gtest_brief=1'
exit $fail
