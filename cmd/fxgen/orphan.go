// This file defines how fxgen notices that it was orphaned: when go
// generate is killed, fxgen must stop rather than rewrite the output
// behind the user's back a minute later.

package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"strconv"
	"time"
)

// orphanPoll is how often fxgen checks that its parent is still there.
const orphanPoll = 200 * time.Millisecond

// cancelWhenOrphaned calls cancel when the process that started fxgen
// ends, until ctx is done. It watches fxgen's parent (its parent process
// id changes, as the system re-parents orphans) and, when the parent is
// "go tool" (which outlives a killed go generate), the parent's parent
// too. Where parent ids never change it does nothing.
func cancelWhenOrphaned(ctx context.Context, cancel context.CancelFunc) {
	ppid := os.Getppid()
	if ppid <= 1 {
		return // already orphaned, or started by init: nothing to watch
	}
	gppid, watchGrand := 0, isGoTool(ppid)
	if watchGrand {
		gppid, watchGrand = parentOf(ppid)
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
				if watchGrand {
					if g, ok := parentOf(ppid); ok && g != gppid {
						cancel()
						return
					}
				}
			}
		}
	}()
}

// isGoTool reports whether process pid is "go tool ..." (Linux only).
func isGoTool(pid int) bool {
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil {
		return false
	}
	args := bytes.Split(cmdline, []byte{0})
	return len(args) >= 2 && bytes.HasSuffix(args[0], []byte("go")) && string(args[1]) == "tool"
}

// parentOf returns the parent process id of pid (Linux only).
func parentOf(pid int) (int, bool) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, false
	}
	// pid (comm) state ppid ...; comm may hold spaces and parentheses.
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	fields := bytes.Fields(stat[i+1:])
	if len(fields) < 2 {
		return 0, false
	}
	ppid, err := strconv.Atoi(string(fields[1]))
	return ppid, err == nil
}
