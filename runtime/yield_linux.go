// This file holds osYield for Linux.

package runtime

import "syscall"

// osYield hands the CPU to another runnable thread, if the OS has one
// waiting for this CPU (sched_yield). The pool's polling loops call it, so
// that a worker woken onto the CPU of the goroutine that woke it does not
// keep that goroutine's thread off the CPU while it polls. It is a raw
// system call, which keeps the processor (P) as the polling loop does:
// through syscall.Syscall, which hands the P over, the zoo's models on 2
// workers ran 4.5–6 % slower back to back.
func osYield() {
	syscall.RawSyscall(syscall.SYS_SCHED_YIELD, 0, 0, 0)
}
