package main

import (
	goruntime "runtime"
	"syscall"
	"unsafe"
)

// cpuMask is a Linux CPU affinity mask for up to 1024 CPUs.
type cpuMask [16]uint64

// allowedCPUs lists the CPUs this process may run on, or nil if the kernel
// does not say.
func allowedCPUs() []int {
	var m cpuMask
	if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(m), uintptr(unsafe.Pointer(&m))); e != 0 {
		return nil
	}
	var cpus []int
	for i := range len(m) * 64 {
		if m[i/64]&(1<<(i%64)) != 0 {
			cpus = append(cpus, i)
		}
	}
	return cpus
}

// pinToCPU locks the calling goroutine to its thread and that thread to
// cpu; the returned function gives the thread back all the CPUs it had and
// unlocks it.
func pinToCPU(cpu int) (unpin func(), err error) {
	goruntime.LockOSThread()
	var saved, m cpuMask
	if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_GETAFFINITY, 0, unsafe.Sizeof(saved), uintptr(unsafe.Pointer(&saved))); e != 0 {
		goruntime.UnlockOSThread()
		return nil, e
	}
	m[cpu/64] = 1 << (cpu % 64)
	if _, _, e := syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, unsafe.Sizeof(m), uintptr(unsafe.Pointer(&m))); e != 0 {
		goruntime.UnlockOSThread()
		return nil, e
	}
	return func() {
		syscall.RawSyscall(syscall.SYS_SCHED_SETAFFINITY, 0, unsafe.Sizeof(saved), uintptr(unsafe.Pointer(&saved)))
		goruntime.UnlockOSThread()
	}, nil
}
