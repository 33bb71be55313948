#!/usr/bin/env bash
# Side-by-side GEMM benchmark: fxgen's Go Sgemm against OpenBLAS cblas_sgemm.
#
# Run by hand from the repository root: scripts/bench_gemm.sh [ROUNDS]
# It is a measuring stick only; nothing in the Go build or tests needs it.
# It installs libopenblas-dev with apt-get when the library is missing and
# runs scripts/gemmvs (cgo, built only with the openblas tag), which times
# both libraries in one process, alternating short batches on the same
# matrices, so that the ratios hold up on a machine whose speed drifts:
#   1. Go's Sgemm;
#   2. Go's SgemmPacked (weights packed once, as generated code does) on the
#      inference shapes;
#   3. Go's Sgemm on the products Conv2d runs for ResNet-18's 3×3 layers and
#      stem at 224², batch 1 (weights times patch matrix, B stored k×n);
#   4. with fxgen's AVX2 tier forced (FXGEN_ISA=avx2), Sgemm, when the CPU
#      has AVX-512 (the stand-in for AMD and older Intel servers), against
#      OpenBLAS's Haswell kernels (OPENBLAS_CORETYPE=Haswell), which such a
#      server runs.
# OpenBLAS detects the core itself, except on CPUs with AVX-512, which
# Debian's build (0.3.21) misdetects: Intel Sapphire Rapids, and AMD Zen 5
# (family 26), which it runs on its Haswell kernels at half the speed of
# its SkylakeX ones (1024³, 1 thread: 100 against 171 GFLOP/s). There
# OPENBLAS_CORETYPE=SkylakeX, whatever the environment says (a machine
# seen here sets Haswell). gemmvs prints the core OpenBLAS runs.
# ROUNDS (default 15) is the number of rounds per shape.
set -euo pipefail

rounds=${1:-15}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

if ! ldconfig -p | grep -q 'libopenblas\.so '; then
	echo "installing libopenblas-dev" >&2
	apt-get update -qq && apt-get install -y -qq libopenblas-dev >/dev/null
fi
(cd "$root" && go build -tags openblas -o "$tmp/gemmvs" ./scripts/gemmvs)

unset OPENBLAS_NUM_THREADS OPENBLAS_L2_SIZE
if grep -qw avx512f /proc/cpuinfo && grep -qw avx512bw /proc/cpuinfo; then
	export OPENBLAS_CORETYPE=SkylakeX
fi
grep -m1 'model name' /proc/cpuinfo
echo "== Sgemm (OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-detected})"
"$tmp/gemmvs" -rounds "$rounds"
echo
echo "== SgemmPacked on the MxKxN shapes"
"$tmp/gemmvs" -rounds "$rounds" -packed -shapes 1x784x512,64x784x512,128x256x1024,3136x576x64
echo
echo "== Sgemm on convolution shapes"
"$tmp/gemmvs" -rounds "$rounds" -shapes 64x147x6272/n,64x576x1568/n,128x1152x784/n,256x2304x196/n,512x4608x49/n
echo
if grep -qw avx512f /proc/cpuinfo; then
	# What an AVX2 server runs on both sides: OpenBLAS's Haswell kernels.
	echo "== FXGEN_ISA=avx2, Sgemm, against OPENBLAS_CORETYPE=Haswell"
	FXGEN_ISA=avx2 OPENBLAS_CORETYPE=Haswell "$tmp/gemmvs" -rounds "$rounds"
	echo
fi
echo "Shapes named by one number are square C = A·B; MxKxN shapes are C = X·Wᵀ with W"
echo "stored [N, K], as a linear layer; MxKxN/n shapes are C = A·B with B stored [K, N]."
