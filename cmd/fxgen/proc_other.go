//go:build !unix

// This file is the best effort on systems without process groups or
// signals: the driver is killed alone, and a timeout shows no stacks.

package main

import (
	"errors"
	"os"
	"os/exec"
)

// supervise makes ending cmd kill it.
func supervise(cmd *exec.Cmd) {
	cmd.Cancel = func() error { return cmd.Process.Kill() }
}

// startTied starts cmd; wait waits for it.
func startTied(cmd *exec.Cmd) (wait func() error, err error) {
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return cmd.Wait, nil
}

// killGroup kills p.
func killGroup(p *os.Process) error {
	if p == nil {
		return nil
	}
	return p.Kill()
}

// askForStacks cannot ask for stacks here.
func askForStacks(p *os.Process) error { return errors.New("no SIGQUIT on this system") }

// processAlive reports whether a process with the id pid exists.
func processAlive(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return false
	}
	p.Release()
	return true
}
