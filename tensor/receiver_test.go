package tensor

import (
	"strings"
	"testing"
)

type adder struct{ n int }

func (a *adder) Add(x int) int { return x + a.n }

type other struct{}

func (o *other) Add(x int) int { return x }

func TestMethodReceiver(t *testing.T) {
	a := &adder{n: 3}
	f := a.Add
	if got := MethodReceiver[*adder](f); got != a {
		t.Fatalf("got %p, want %p", got, a)
	}
	for name, bad := range map[string]func(){
		"plain func":   func() { MethodReceiver[*adder](func(x int) int { return x }) },
		"other type":   func() { MethodReceiver[*adder]((&other{}).Add) },
		"not a func":   func() { MethodReceiver[*adder](3) },
		"not pointers": func() { MethodReceiver[adder](f) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "MethodReceiver") {
					t.Errorf("%s: recovered %v, want a MethodReceiver panic", name, r)
				}
			}()
			bad()
		}()
	}
}
