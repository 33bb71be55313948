// This file runs the built driver under supervision: a time limit that
// shows where the model was stuck, its output kept to explain a crash at
// the model's frame, and the process tied to fxgen's life.

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"time"

	"github.com/fxgen/fxgen/driver"
)

// stackGrace is how long a driver asked for its stacks at the timeout has
// to print them before it is killed.
const stackGrace = 3 * time.Second

// traceError is a failure the driver reported in its error file, in the
// driver's own schema (driver.Error): a trace error at a model position,
// or another error from tracing.
type traceError struct{ report driver.Error }

func (e *traceError) Error() string {
	if e.report.File == "" {
		return e.report.Msg
	}
	return fmt.Sprintf("%s:%d: tracer: %s", relPath(e.report.File), e.report.Line, e.report.Msg)
}

// runDriver runs the built driver with the time limit o.Timeout. The
// model's own output is shown on fxgen's stderr when the run succeeds;
// when it fails, the failure is explained at the model's frame, with the
// whole output under -v.
func runDriver(ctx context.Context, m *model, files driverFiles, o *options) error {
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(runCtx, files.Exe)
	cmd.Dir = m.Dir
	cmd.Env = append(os.Environ(), "GOTRACEBACK=all")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.WaitDelay = 5 * time.Second
	supervise(cmd)
	wait, err := startTied(cmd)
	if err != nil {
		return fmt.Errorf("starting the driver: %v", err)
	}
	done := make(chan error, 1)
	go func() { done <- wait() }()

	timer := time.NewTimer(o.Timeout)
	defer timer.Stop()
	timedOut := false
	select {
	case err = <-done:
	case <-timer.C:
		timedOut = true
		if askForStacks(cmd.Process) == nil {
			select {
			case err = <-done:
			case <-time.After(stackGrace):
				killGroup(cmd.Process)
				err = <-done
			}
		} else {
			killGroup(cmd.Process)
			err = <-done
		}
	case <-ctx.Done():
		err = <-done // CommandContext kills the group
	}
	// Whatever the model started is ended with it.
	killGroup(cmd.Process)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if timedOut {
		return withVerbose(summarizeTimeout(untrimPaths(out.String(), m.Pkg.PkgPath, m.Dir), o.Timeout, m.Dir), o)
	}

	if data, rerr := os.ReadFile(files.Error); rerr == nil {
		// The model's own output first, as it came, then the error.
		os.Stderr.Write(out.Bytes())
		var e traceError
		if jerr := json.Unmarshal(data, &e.report); jerr != nil {
			return fmt.Errorf("the driver failed: %v (and its error report is unreadable: %v)", err, jerr)
		}
		if e.report.File != "" && !filepath.IsAbs(e.report.File) {
			// Graph positions name files by base name, in the model's
			// package directory.
			e.report.File = filepath.Join(m.Dir, e.report.File)
		}
		return &e
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		return fmt.Errorf("running the driver: %v", err)
	}
	if _, serr := os.Stat(files.Graph); code != 0 || serr != nil {
		return withVerbose(summarizeCrash(untrimPaths(out.String(), m.Pkg.PkgPath, m.Dir), code, m.Dir), o)
	}
	os.Stderr.Write(out.Bytes())
	return nil
}

// withVerbose sets e to print the raw output when o asks for it.
func withVerbose(e *crashError, o *options) *crashError {
	e.Verbose = o.Verbose
	return e
}
