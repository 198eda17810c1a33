package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/hashicorp/hcl/v2"

	"github.com/tenetplan/tenet/cli/views"
	"github.com/tenetplan/tenet/state/local"
)

// interrupts turns SIGINT and SIGTERM into the two stops of a run, as
// OpenTofu does:
//
//   - the first signal ends stop (the commands' context): plan and apply
//     start no further operation, ask the providers to stop the ones in
//     flight, wait for them, write the state and release the lock, and
//     exit 1 with "execution halted";
//   - the second ends hard (the provider calls' context) and exits at
//     once, after running the guards: the state journal is folded into
//     the state file and the lock is released, so what is on disk is a
//     state OpenTofu can read.
//
// A guard is cleanup that must happen exactly once, either on the normal
// path (resolve) or at the forced exit; mu makes the two exclusive, so the
// forced exit waits for a normal state write that has begun.
type interrupts struct {
	stop, hard             context.Context
	cancelStop, cancelHard context.CancelFunc
	out, errw              io.Writer
	exit                   func(int)
	log                    *coreLog

	mu      sync.Mutex
	signals int
	running bool // plan or apply is under way: "Stopping operation..."
	guards  []*guard
	// jsonLog, set under -json, writes the messages as the JSON stream's
	// log messages, as OpenTofu does, instead of text on out.
	jsonLog func(message string)
	// report shows diagnostics as the command's view does (human or
	// -json); nil until a command sets up its view.
	report func(hcl.Diagnostics)
}

// guard is one cleanup registered with interrupts.guard.
type guard struct {
	fn   func()
	done bool
}

// forcedExitWait bounds the guards of a forced exit: a backend that does
// not answer must not keep the process alive after a second interrupt.
const forcedExitWait = 10 * time.Second

func newInterrupts(out, errw io.Writer, exit func(int), log *coreLog) *interrupts {
	i := &interrupts{out: out, errw: errw, exit: exit, log: log}
	i.stop, i.cancelStop = context.WithCancel(context.Background())
	i.hard, i.cancelHard = context.WithCancel(context.Background())
	return i
}

// watch delivers SIGINT and SIGTERM to the interrupts until the returned
// function is called. signal.Notify installs a handler even when the
// process started with SIGINT ignored (a shell script's background job),
// so an interrupt is never silently dropped.
func (i *interrupts) watch() func() {
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-ch:
				i.signal()
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}

// signal handles one interrupt.
func (i *interrupts) signal() {
	i.mu.Lock()
	i.signals++
	n, running, jsonLog, report := i.signals, i.running, i.jsonLog, i.report
	i.mu.Unlock()
	if n == 1 {
		const received = "\nInterrupt received.\nPlease wait for tenet to exit or data loss may occur.\nGracefully shutting down...\n"
		switch {
		case jsonLog != nil:
			jsonLog(received)
			if running {
				jsonLog("Stopping operation...")
			}
		default:
			fmt.Fprint(i.out, received)
			if running {
				fmt.Fprint(i.out, "\nStopping operation...\n")
			}
		}
		i.log.logf(logWarn, "interrupt received: stopping gracefully")
		i.cancelStop()
		return
	}
	if n == 2 {
		const fatal = "Two interrupts received. Exiting immediately. Note that data loss may have occurred."
		if jsonLog != nil {
			jsonLog("\n" + fatal + "\n")
		} else {
			fmt.Fprint(i.errw, "\n"+views.WordWrap(fatal, 78)+"\n\n")
		}
		i.log.logf(logWarn, "second interrupt: exiting immediately")
		i.cancelStop()
		i.cancelHard()
		if !running {
			report = nil // no operation to fail
		}
		i.forcedExit(report)
	}
}

// operationCanceled is how a plan or apply that a second interrupt ended
// fails, in OpenTofu's words.
var operationCanceled = hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "operation canceled"}}

// forcedExit runs the pending guards, newest first, reports "operation
// canceled" through report when there is one (an operation was under
// way), and exits 1. report is read before the guards run: a guard that
// never returns keeps i.mu.
func (i *interrupts) forcedExit(report func(hcl.Diagnostics)) {
	done := make(chan struct{})
	go func() {
		defer close(done)
		i.mu.Lock()
		defer i.mu.Unlock()
		for k := len(i.guards) - 1; k >= 0; k-- {
			if g := i.guards[k]; !g.done {
				g.done = true
				g.fn()
			}
		}
		i.guards = nil
	}()
	select {
	case <-done:
	case <-time.After(forcedExitWait):
	}
	if report != nil {
		report(operationCanceled)
	}
	i.exit(1)
}

// useView makes the interrupts speak through a command's view: report
// shows diagnostics, and jsonLog, under -json, makes the messages log
// messages of the JSON stream.
func (i *interrupts) useView(report func(hcl.Diagnostics), jsonLog func(message string)) {
	i.mu.Lock()
	i.report, i.jsonLog = report, jsonLog
	i.mu.Unlock()
}

// operation notes that a plan or apply is under way.
func (i *interrupts) operation() {
	i.mu.Lock()
	i.running = true
	i.mu.Unlock()
}

// guard registers fn to run at a forced exit unless resolve runs first.
func (i *interrupts) guard(fn func()) *guard {
	g := &guard{fn: fn}
	i.mu.Lock()
	i.guards = append(i.guards, g)
	i.mu.Unlock()
	return g
}

// resolve settles g on the normal path: it runs instead (g's own fn when
// instead is nil), unless the forced exit already ran g. While it runs, a
// forced exit waits.
func (i *interrupts) resolve(g *guard, instead func()) {
	i.mu.Lock()
	defer i.mu.Unlock()
	if g.done {
		return
	}
	g.done = true
	for k, x := range i.guards {
		if x == g {
			i.guards = append(i.guards[:k], i.guards[k+1:]...)
			break
		}
	}
	if instead == nil {
		instead = g.fn
	}
	instead()
}

// guardRelease wraps a state release function (unlock, write back a
// remote working copy) so that a forced exit runs it too.
func (i *interrupts) guardRelease(release func()) func() {
	g := i.guard(release)
	return func() { i.resolve(g, nil) }
}

// foldJournal is an apply's state write at a forced exit: the journal of
// the operations completed so far is closed and folded into the state
// file, or, if that write fails, into errored.tfstate, so OpenTofu reading
// the directory finds every object this apply created.
func foldJournal(path, readPath, backup string, journal *local.Journal) {
	journal.Close()
	m := local.Open(path, local.Options{BackupPath: backup, ReadPath: readPath, TerraformVersion: Version})
	f, err := m.Read()
	if err != nil || f == nil || f.State == nil {
		return // nothing readable to fold; the journal stays for recovery
	}
	if err := m.Write(f.State); err != nil {
		_ = writeErroredState(m, f.State)
	}
}

// haltedAsOpenTofu orders the errors of an apply an interrupt stopped as
// OpenTofu shows them: "execution halted" twice (its apply walk and its
// operation each report it), ahead of the other diagnostics in the human
// view and after them in a -json stream. Other applies' diagnostics are
// returned as they are.
func haltedAsOpenTofu(diags hcl.Diagnostics, jsonStream bool) hcl.Diagnostics {
	var rest hcl.Diagnostics
	for _, d := range diags {
		if d.Severity == hcl.DiagError && d.Summary == "execution halted" && d.Detail == "" {
			continue
		}
		rest = append(rest, d)
	}
	if len(rest) == len(diags) {
		return diags
	}
	halted := func() *hcl.Diagnostic { return &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "execution halted"} }
	if jsonStream {
		return append(rest, halted(), halted())
	}
	return append(hcl.Diagnostics{halted(), halted()}, rest...)
}
