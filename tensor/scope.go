// This file holds trace scopes: which goroutine a trace runs on, so that
// the ops that find no symbolic operand (constructors, ops on parameters)
// are recorded on that goroutine only, and run eagerly everywhere else.

package tensor

import (
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/fxgen/fxgen/internal/goid"
	"github.com/fxgen/fxgen/runtime"
)

// scope is one open trace: the goroutine running the model's Forward and
// its tracer.
type scope struct {
	goroutine uint64
	hook      Hook
}

// scopes is the immutable list of open traces, replaced whole under
// scopesMu; an empty list costs eager code one atomic load.
var (
	scopes   atomic.Pointer[[]scope]
	scopesMu sync.Mutex
)

// BeginTrace makes h the tracer of the calling goroutine until the returned
// function is called (on the same goroutine): constructors called there
// are recorded by h, ops and reads on the tensors h holds (Hook.Held) go to
// h, and nothing changes for other goroutines. Traces nest: the inner one wins
// until it ends. It is for package tracer.
func BeginTrace(h Hook) (end func()) {
	g := goid.Current()
	scopesMu.Lock()
	var list []scope
	if p := scopes.Load(); p != nil {
		list = slices.Clone(*p)
	}
	list = append(list, scope{goroutine: g, hook: h})
	scopes.Store(&list)
	scopesMu.Unlock()
	return func() {
		scopesMu.Lock()
		defer scopesMu.Unlock()
		list := slices.Clone(*scopes.Load())
		for i := len(list) - 1; i >= 0; i-- {
			if list[i].goroutine == g && list[i].hook == h {
				list = slices.Delete(list, i, i+1)
				break
			}
		}
		scopes.Store(&list)
	}
}

// openScopes returns the open traces, nil when there are none.
func openScopes() []scope {
	if p := scopes.Load(); p != nil {
		return *p
	}
	return nil
}

// hookHere returns the tracer of the calling goroutine, or nil. It reads
// the goroutine id only when some trace is open.
func hookHere() Hook {
	if s := scopeHere(); s != nil {
		return s.hook
	}
	return nil
}

// scopeHere returns the innermost trace of the calling goroutine, or nil.
func scopeHere() *scope {
	list := openScopes()
	if len(list) == 0 {
		return nil
	}
	g := goid.Current()
	for i := len(list) - 1; i >= 0; i-- {
		if list[i].goroutine == g {
			return &list[i]
		}
	}
	return nil
}

// heldHere returns the tracer of the calling goroutine when it holds t (t
// is a parameter or buffer of the model being traced there, or one it
// captures), else nil. Tensors no open trace holds cost no goroutine
// lookup, unless they are floating-point ones, which a trace may capture.
func heldHere(t *Tensor) Hook {
	if t == nil || t.sym != nil {
		return nil
	}
	held := false
	for _, s := range openScopes() {
		if s.hook.Held(t) {
			held = true
			break
		}
	}
	if !held && (t.arr == nil || t.arr.DType != runtime.Float32) {
		return nil // neither held nor one a trace may capture
	}
	if h := hookHere(); h != nil && (h.Held(t) || !held && h.Captures(t)) {
		return h
	}
	return nil
}

// epoch is the origin of Marks; it is set once.
var epoch = time.Now()

// Mark is a point in the life of the process. Every tensor records when it
// was made, so a tracer can tell the tensors made while it ran (constants
// of Forward) from those made with the model, before it began.
type Mark int64

// Now returns the current Mark (on the monotonic clock).
func Now() Mark { return Mark(time.Since(epoch)) }

// Made returns when the tensor was made.
func (t *Tensor) Made() Mark { return t.born }
