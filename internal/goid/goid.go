// Package goid identifies the calling goroutine. fxgen uses it to scope a
// trace (and a seeded parameter initialisation) to the goroutine that
// started it, so that work on every other goroutine is untouched.
package goid

import (
	"runtime"
	"sync"
)

var bufs = sync.Pool{New: func() any { b := make([]byte, 64); return &b }}

// Current returns the id of the calling goroutine, read from the first line
// of its stack trace ("goroutine 42 [running]:"), whose form has not changed
// since Go 1. It costs about a microsecond, so callers ask only while a
// scope is open somewhere in the process.
func Current() uint64 {
	bp := bufs.Get().(*[]byte)
	b := (*bp)[:runtime.Stack(*bp, false)]
	var id uint64
	const prefix = "goroutine "
	if len(b) > len(prefix) {
		for _, c := range b[len(prefix):] {
			if c < '0' || c > '9' {
				break
			}
			id = id*10 + uint64(c-'0')
		}
	}
	bufs.Put(bp)
	if id == 0 {
		panic("goid: cannot read the goroutine id from " + string(b))
	}
	return id
}
