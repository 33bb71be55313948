// This file defines how fxgen ties the processes it starts to its own life
// on Linux: each runs in its own process group, so that ending it ends its
// children too, and gets SIGKILL from the kernel when fxgen dies, even by
// SIGKILL.

package main

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
)

// supervise sets cmd up to run in its own process group and to die with
// fxgen, and makes ending it end the whole group.
func supervise(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.Cancel = func() error { return killGroup(cmd.Process) }
}

// startTied starts cmd and waits for it on one locked OS thread: the kernel
// sends the parent-death signal when the thread that started the child
// ends, so that thread must live as long as the child.
func startTied(cmd *exec.Cmd) (wait func() error, err error) {
	started := make(chan error, 1)
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		if err := cmd.Start(); err != nil {
			runtime.UnlockOSThread()
			started <- err
			return
		}
		started <- nil
		done <- cmd.Wait()
		runtime.UnlockOSThread()
	}()
	if err := <-started; err != nil {
		return nil, err
	}
	return func() error { return <-done }, nil
}

// killGroup kills p's process group.
func killGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	return syscall.Kill(-p.Pid, syscall.SIGKILL)
}

// askForStacks asks the Go program p to print every goroutine's stack and
// exit.
func askForStacks(p *os.Process) error { return p.Signal(syscall.SIGQUIT) }

// processAlive reports whether a process with the id pid exists.
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
