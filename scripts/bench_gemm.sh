#!/usr/bin/env bash
# Side-by-side GEMM benchmark: fxgen's Go Sgemm against OpenBLAS cblas_sgemm.
#
# Run by hand from the repository root: scripts/bench_gemm.sh [ROUNDS]
# It is a measuring stick only; nothing in the Go build or tests needs it.
# It installs libopenblas-dev with apt-get when the library is missing and
# runs scripts/gemmvs (cgo, built only with the openblas tag), which times
# both libraries in one process, alternating short batches on the same
# matrices, so that the ratios hold up on a machine whose speed drifts:
#   1. OPENBLAS_CORETYPE=SkylakeX, Go's Sgemm;
#   2. OPENBLAS_CORETYPE=SkylakeX, Go's SgemmPacked (weights packed once, as
#      generated code does) on the inference shapes;
#   3. OpenBLAS as installed (it detects the core itself).
# ROUNDS (default 15) is the number of rounds per shape in 1 and 2.
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
echo "== OPENBLAS_CORETYPE=SkylakeX, Sgemm"
OPENBLAS_CORETYPE=SkylakeX "$tmp/gemmvs" -rounds "$rounds"
echo
echo "== OPENBLAS_CORETYPE=SkylakeX, SgemmPacked on the MxKxN shapes"
OPENBLAS_CORETYPE=SkylakeX "$tmp/gemmvs" -rounds "$rounds" -packed -shapes 1x784x512,64x784x512,128x256x1024,3136x576x64
echo
echo "== OpenBLAS as installed, Sgemm"
env -u OPENBLAS_CORETYPE "$tmp/gemmvs" -rounds 5
echo
echo "Shapes named by one number are square C = A·B; MxKxN shapes are C = X·Wᵀ with W"
echo "stored [N, K], as a linear layer. The best 1-worker figure over 169 GFLOP/s"
echo "(one core's peak here) is the fraction of peak."
