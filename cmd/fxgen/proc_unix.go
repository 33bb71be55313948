//go:build unix && !linux

// This file defines how fxgen ties the processes it starts to its own life
// on Unix systems other than Linux: own process groups, killed as a whole;
// there is no parent-death signal, so a SIGKILLed fxgen can leave its
// driver running until the driver ends or times out by itself.

package main

import (
	"os"
	"os/exec"
	"syscall"
)

// supervise sets cmd up to run in its own process group, and makes ending
// it end the whole group.
func supervise(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return killGroup(cmd.Process) }
}

// startTied starts cmd; wait waits for it.
func startTied(cmd *exec.Cmd) (wait func() error, err error) {
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return cmd.Wait, nil
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
