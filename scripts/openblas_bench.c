/* OpenBLAS cblas_sgemm measuring stick for fxgen's Go GEMM; not part of the Go build.
 *
 * Usage: openblas_bench THREADS [RUNS]
 * Prints one line per shape: "name GFLOP/s", the median of RUNS (default 5)
 * timed runs of at least 0.5 s each, after one warm-up run. Square sizes are
 * C = A·B; the MxKxN shapes are C = X·Wᵀ with W stored [N, K], the layout of
 * a linear layer (the same calls as BenchmarkSgemm in
 * runtime/gemm_bench_test.go).
 */
#include <cblas.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

extern void openblas_set_num_threads(int);
extern char *openblas_get_corename(void);

static double now(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

static float *randm(size_t n) {
	float *p = malloc(n * sizeof *p);
	for (size_t i = 0; i < n; i++) p[i] = (float)rand() / RAND_MAX - 0.5f;
	return p;
}

static int nruns = 5;

static void bench(const char *name, int m, int k, int n, int transB) {
	float *a = randm((size_t)m * k), *b = randm((size_t)k * n), *c = randm((size_t)m * n);
	double flops = 2.0 * m * n * k, runs[64];
	int ldb = transB ? k : n;
	for (int r = 0; r <= nruns; r++) {
		long iters = 0;
		double t0 = now(), t;
		do {
			cblas_sgemm(CblasRowMajor, CblasNoTrans, transB ? CblasTrans : CblasNoTrans,
			            m, n, k, 1.0f, a, k, b, ldb, 0.0f, c, n);
			iters++;
			t = now() - t0;
		} while (t < 0.5);
		if (r > 0) runs[r - 1] = flops * iters / t * 1e-9; /* run 0 warms up */
	}
	qsort(runs, nruns, sizeof runs[0], cmp);
	printf("%s %.1f\n", name, nruns % 2 ? runs[nruns / 2] : (runs[nruns / 2 - 1] + runs[nruns / 2]) / 2);
	fflush(stdout);
	free(a);
	free(b);
	free(c);
}

int main(int argc, char **argv) {
	int threads = argc > 1 ? atoi(argv[1]) : 1;
	if (argc > 2) nruns = atoi(argv[2]);
	if (nruns < 1 || nruns > 64) nruns = 5;
	openblas_set_num_threads(threads);
	printf("# OpenBLAS core %s, %d thread(s)\n", openblas_get_corename(), threads);
	int sq[] = {64, 128, 256, 512, 1024, 2048};
	char name[64];
	for (int i = 0; i < 6; i++) {
		snprintf(name, sizeof name, "%d", sq[i]);
		bench(name, sq[i], sq[i], sq[i], 0);
	}
	int shapes[][3] = {{1, 784, 512}, {64, 784, 512}, {128, 256, 1024}, {3136, 576, 64}};
	for (int i = 0; i < 4; i++) {
		snprintf(name, sizeof name, "%dx%dx%d", shapes[i][0], shapes[i][1], shapes[i][2]);
		bench(name, shapes[i][0], shapes[i][1], shapes[i][2], 1);
	}
	return 0;
}
