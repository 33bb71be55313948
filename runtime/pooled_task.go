// This file holds pooled parallel tasks: how the kernels (GEMM, batched
// matmul, conv, pooling, batch norm, activations, softmax, layer norm)
// hand work to the worker pool without allocating.

package runtime

import "sync"

// pooledTask is a job of type J with a function value bound to it once, so
// that handing it to Parallel allocates nothing after warm-up.
type pooledTask[J any] struct {
	job J
	run func(lo, hi int)
}

// taskPool returns a pool of tasks whose run calls method on their job.
func taskPool[J any](method func(*J, int, int)) *sync.Pool {
	return &sync.Pool{New: func() any {
		t := new(pooledTask[J])
		t.run = func(lo, hi int) { method(&t.job, lo, hi) }
		return t
	}}
}

// runPooled runs method(&job, lo, hi) over [0, n) with Parallel, through a
// task from p (made by taskPool with that method).
func runPooled[J any](p *sync.Pool, n int, job J) {
	t := p.Get().(*pooledTask[J])
	t.job = job
	Parallel(n, t.run)
	var zero J
	t.job = zero // drop the references to the caller's data
	p.Put(t)
}
