// This file defines how fxgen notices that it was orphaned: when go
// generate is killed, fxgen must stop rather than rewrite the output
// behind the user's back a minute later.

package main

import (
	"context"
	"os"
	"time"
)

// orphanPoll is how often fxgen checks that its parent is still there.
const orphanPoll = 200 * time.Millisecond

// cancelWhenOrphaned calls cancel when fxgen's parent process ends (its
// parent process id changes, as the system re-parents orphans), until ctx
// is done. Where the parent id never changes it does nothing.
func cancelWhenOrphaned(ctx context.Context, cancel context.CancelFunc) {
	ppid := os.Getppid()
	if ppid <= 1 {
		return // already orphaned, or started by init: nothing to watch
	}
	go func() {
		t := time.NewTicker(orphanPoll)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if os.Getppid() != ppid {
					cancel()
					return
				}
			}
		}
	}()
}
