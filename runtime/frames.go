// This file holds Frames, the free list of per-call workspaces that lets
// one compiled model serve many goroutines at once.

package runtime

import "sync"

// Frames is a free list of *T, the per-call state of a compiled model
// (its workspace and the arrays bound to it). Forward takes a frame with
// Get, computes in it and gives it back with Put, so concurrent calls
// never share one, and a frame carries its buffers from call to call.
// The zero value is ready to use; it is safe for concurrent use.
//
// A frame is kept until the Frames is dropped: a model called by at most k
// goroutines at once holds at most k frames. Unlike a sync.Pool, which
// drops its items at every garbage collection, Frames keeps them, so
// Forward allocates nothing in the steady state however often the
// collector runs (a workspace can be tens of megabytes).
type Frames[T any] struct {
	mu   sync.Mutex
	free []*T
}

// Get returns a free frame, or a new zero one when none is free.
func (p *Frames[T]) Get() *T {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		f := p.free[n-1]
		p.free[n-1] = nil
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return f
	}
	p.mu.Unlock()
	return new(T)
}

// Put returns f to the free list. The caller must not use f afterwards.
func (p *Frames[T]) Put(f *T) {
	p.mu.Lock()
	p.free = append(p.free, f)
	p.mu.Unlock()
}
