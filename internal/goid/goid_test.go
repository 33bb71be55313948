package goid

import (
	"sync"
	"testing"
)

func TestCurrentIsPerGoroutine(t *testing.T) {
	main := Current()
	if main != Current() {
		t.Fatal("two calls on one goroutine disagree")
	}
	ids := make([]uint64, 8)
	var wg sync.WaitGroup
	for i := range ids {
		wg.Add(1)
		go func() { defer wg.Done(); ids[i] = Current() }()
	}
	wg.Wait()
	seen := map[uint64]bool{main: true}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("goroutine id %d seen twice in %v (main %d)", id, ids, main)
		}
		seen[id] = true
	}
}

func BenchmarkCurrent(b *testing.B) {
	for range b.N {
		Current()
	}
}
