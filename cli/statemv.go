package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/spf13/cobra"

	"github.com/tenetplan/tenet/addrs"
	"github.com/tenetplan/tenet/state"
)

func newStateRmCommand(g *globals) *cobra.Command {
	var sf stateFlags
	var dryRun bool
	cmd := &cobra.Command{
		Use:   "rm [options] ADDRESS...",
		Short: "Remove instances from the state",
		Long:  "Removes the resource instances the addresses name (a module, a resource, or one instance) from the state, without destroying the real objects: tenet stops managing them.",
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColorFlag(cmd), false)
			u.legacyDiags = true
			if len(args) == 0 {
				return wrongArgCount(cmd, g, u.color, "At least one address is required.\n", false, helpToStdout)
			}
			targets, err := parseTargets(u, args)
			if err != nil {
				return err
			}
			return sf.modifyState(cmd.Context(), u, "OperationTypeInvalid", func(st *state.State) (bool, error) {
				var gone []addrs.AbsResourceInstance
				for _, t := range targets {
					matched := instancesIn(st, t)
					if len(matched) == 0 {
						// Worded as OpenTofu's, which does not name the address.
						return false, u.errorf("Invalid target address", "No matching objects found. To view the available instances, use \"tenet state list\". Please modify the address to reference a specific instance.")
					}
					gone = append(gone, matched...)
				}
				gone = uniqueInstances(gone)
				verb := "Removed"
				if dryRun {
					verb = "Would remove"
				}
				for _, a := range gone {
					fmt.Fprintf(u.out, "%s %s\n", verb, a)
					st.ForgetResourceInstanceAll(a)
				}
				if dryRun {
					if len(gone) == 0 {
						fmt.Fprintln(u.out, "Would have removed nothing.")
					}
					return false, nil
				}
				fmt.Fprintf(u.out, "Successfully removed %d resource instance(s).\n", len(gone))
				return true, nil
			})
		},
	}
	sf.registerFor(cmd, true)
	acceptIgnoreRemoteVersion(cmd)
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "only show what would be removed")
	return cmd
}

// parseTargets parses module, resource and instance addresses, reporting
// every one that does not parse.
func parseTargets(u *ui, args []string) ([]*addrs.Target, error) {
	var out []*addrs.Target
	var diags hcl.Diagnostics
	for _, a := range args {
		t, d := addrs.ParseTargetStr(a)
		diags = append(diags, d...)
		out = append(out, t)
	}
	if diags.HasErrors() {
		return nil, u.fail(diags)
	}
	return out, nil
}

// instancesIn lists the instances of st that t names, in address order.
func instancesIn(st *state.State, t *addrs.Target) []addrs.AbsResourceInstance {
	var out []addrs.AbsResourceInstance
	for _, ref := range st.AllResourceInstances() {
		if matchesAny([]*addrs.Target{t}, ref.Addr) {
			out = append(out, ref.Addr)
		}
	}
	return out
}

func uniqueInstances(in []addrs.AbsResourceInstance) []addrs.AbsResourceInstance {
	sort.Slice(in, func(i, j int) bool { return in[i].Less(in[j]) })
	out := in[:0]
	for i, a := range in {
		if i == 0 || !a.Equal(in[i-1]) {
			out = append(out, a)
		}
	}
	return out
}

func newStateMvCommand(g *globals) *cobra.Command {
	var sf stateFlags
	var dryRun bool
	var stateOut, backupOut string
	cmd := &cobra.Command{
		Use:   "mv [options] SOURCE DESTINATION",
		Short: "Move an item in the state",
		Long:  "Moves a module, a resource or a resource instance to another address, in the same state or (with -state-out) into another state file. The real objects are not changed.",
		RunE: func(cmd *cobra.Command, args []string) error {
			u := newUI(cmd, g, noColorFlag(cmd), false)
			u.legacyDiags = true
			if len(args) != 2 {
				return wrongArgCount(cmd, g, u.color, "Exactly two arguments expected.\n", false, helpToStdout)
			}
			targets, err := parseTargets(u, args)
			if err != nil {
				return err
			}
			src, dst := targets[0].Subject, targets[1].Subject
			if err := sf.resolve(cmd.Context(), u, "state mv"); err != nil {
				return err
			}
			defer sf.close()
			if stateOut == "" || samePath(stateOut, sf.path) {
				return sf.modifyState(cmd.Context(), u, "OperationTypeInvalid", func(st *state.State) (bool, error) {
					n, err := moveInState(u, st, src, dst, dryRun)
					if err != nil {
						return false, err
					}
					return reportMoved(u, n, dryRun), nil
				})
			}
			out := stateFlags{path: stateOut, lock: sf.lock, lockTimeout: sf.lockTimeout, backup: backupOut}
			return moveBetweenStates(cmd.Context(), u, &sf, &out, src, dst, dryRun)
		},
	}
	sf.registerFor(cmd, true)
	acceptIgnoreRemoteVersion(cmd)
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "only show what would be moved")
	cmd.Flags().StringVar(&stateOut, "state-out", "", "path of the state file to move into (default: the source state)")
	cmd.Flags().StringVar(&backupOut, "backup-out", "", "path of the backup of the -state-out file (\"-\" to disable)")
	return cmd
}

func reportMoved(u *ui, n int, dryRun bool) bool {
	if dryRun {
		// As OpenTofu: the lines naming each move are the whole answer.
		if n == 0 {
			fmt.Fprintln(u.out, "Would have moved nothing.")
		}
		return false
	}
	fmt.Fprintf(u.out, "Successfully moved %d object(s).\n", n)
	return n > 0
}

// moveInState performs one move within st, printing it, and returns how
// many objects (modules, resources or instances, as named) moved.
func moveInState(u *ui, st *state.State, src, dst addrs.Targetable, dryRun bool) (int, error) {
	verb := "Move"
	if dryRun {
		verb = "Would move"
	}
	noSource := func() error {
		return u.errorf("Invalid source address", "Cannot move %s: does not match anything in the current state.", src)
	}
	exists := func() error {
		return u.errorf("Invalid target address", "Cannot move to %s: there is already something at that address in the current state.", dst)
	}
	mismatch := func(why string) error {
		return u.errorf("Invalid state move request", "Cannot move %s to %s: %s.", src, dst, why)
	}
	switch s := src.(type) {
	case addrs.ModuleInstance:
		d, ok := dst.(addrs.ModuleInstance)
		if !ok || s.IsRoot() || d.IsRoot() {
			return 0, mismatch("a module can only move to another module address")
		}
		if s.IsAncestorOf(d) {
			return 0, mismatch("a module cannot move into itself")
		}
		var moving []*state.Resource
		for _, m := range st.SortedModules() {
			if d.IsAncestorOf(m.Addr) && len(m.Resources) > 0 {
				return 0, exists()
			}
			if s.IsAncestorOf(m.Addr) {
				moving = append(moving, m.SortedResources()...)
			}
		}
		if len(moving) == 0 {
			return 0, noSource()
		}
		fmt.Fprintf(u.out, "%s %q to %q\n", verb, s.String(), d.String())
		for _, r := range moving {
			to := addrs.AbsResource{Module: append(append(addrs.ModuleInstance{}, d...), r.Addr.Module[len(s):]...), Resource: r.Addr.Resource}
			if err := st.MoveResource(r.Addr, to); err != nil {
				return 0, mismatch(err.Error())
			}
		}
		return 1, nil
	case addrs.AbsResource:
		if st.Resource(s) == nil {
			return 0, noSource()
		}
		switch d := dst.(type) {
		case addrs.AbsResource:
			if err := sameKind(s.Resource, d.Resource); err != "" {
				return 0, mismatch(err)
			}
			if st.Resource(d) != nil {
				return 0, exists()
			}
			fmt.Fprintf(u.out, "%s %q to %q\n", verb, s.String(), d.String())
			return 1, st.MoveResource(s, d)
		case addrs.AbsResourceInstance:
			r := st.Resource(s)
			if _, single := r.Instances[addrs.NoKey]; !single || len(r.Instances) != 1 {
				return 0, mismatch("the source has several instances (or keyed ones), so name the instance to move, such as " + s.Instance(addrs.IntKey(0)).String())
			}
			return moveInstance(u, st, s.Instance(addrs.NoKey), d, verb, exists, mismatch)
		default:
			return 0, mismatch("a resource can only move to a resource or resource instance address")
		}
	case addrs.AbsResourceInstance:
		if ri := st.ResourceInstance(s); ri == nil || !ri.HasObjects() {
			return 0, noSource()
		}
		switch d := dst.(type) {
		case addrs.AbsResourceInstance:
			return moveInstance(u, st, s, d, verb, exists, mismatch)
		case addrs.AbsResource:
			return moveInstance(u, st, s, d.Instance(addrs.NoKey), verb, exists, mismatch)
		default:
			return 0, mismatch("a resource instance can only move to a resource instance address")
		}
	}
	return 0, noSource()
}

func moveInstance(u *ui, st *state.State, s, d addrs.AbsResourceInstance, verb string, exists func() error, mismatch func(string) error) (int, error) {
	if err := sameKind(s.Resource.Resource, d.Resource.Resource); err != "" {
		return 0, mismatch(err)
	}
	if ri := st.ResourceInstance(d); ri != nil && ri.HasObjects() {
		return 0, exists()
	}
	fmt.Fprintf(u.out, "%s %q to %q\n", verb, s.String(), d.String())
	return 1, st.MoveResourceInstance(s, d)
}

// sameKind explains why a move between these resources is refused ("" if
// it is allowed): an object keeps its type and mode.
func sameKind(a, b addrs.Resource) string {
	switch {
	case a.Mode != b.Mode:
		return "a managed resource and a data resource are not interchangeable"
	case a.Type != b.Type:
		return fmt.Sprintf("the source is a %s resource and the destination a %s resource; an object keeps its resource type", a.Type, b.Type)
	}
	return ""
}

// moveBetweenStates moves src from one state file to dst in another
// (-state-out): the move is made in the source state, and what then sits
// at dst is taken out of it and added to the destination state.
func moveBetweenStates(ctx context.Context, u *ui, from, to *stateFlags, src, dst addrs.Targetable, dryRun bool) error {
	if err := from.resolve(ctx, u, "state mv"); err != nil {
		return err
	}
	from.timedBackup()
	to.timedBackup()
	fromStore := from.openStore("OperationTypeInvalid")
	fromFile, releaseFrom, err := lockAndRead(ctx, u, fromStore, from.path, from.lock, "OperationTypeInvalid")
	if err != nil {
		return err
	}
	defer releaseFrom()
	toStore := to.openStore("OperationTypeInvalid")
	toFile, releaseTo, err := lockAndRead(ctx, u, toStore, to.path, to.lock, "OperationTypeInvalid")
	if err != nil {
		return err
	}
	defer releaseTo()
	if fromFile == nil || fromFile.State == nil {
		return noStateFile(u, u.color)
	}
	fromState, toState := fromFile.State, state.NewState()
	if toFile != nil && toFile.State != nil {
		toState = toFile.State
	}
	scope := &addrs.Target{Subject: dst}
	if len(instancesIn(toState, scope)) > 0 {
		return u.errorf("Invalid target address", "Cannot move to %s: there is already something at that address in %s.", dst, to.path)
	}
	n, err := moveInState(u, fromState, src, dst, dryRun)
	if err != nil {
		return err
	}
	if d, ok := dst.(addrs.AbsResource); ok {
		if _, isInst := src.(addrs.AbsResourceInstance); isInst {
			scope = &addrs.Target{Subject: d.Instance(addrs.NoKey)}
		}
	}
	for _, a := range instancesIn(fromState, scope) {
		provider := fromState.Resource(a.ContainingResource()).ProviderConfig
		ri := fromState.ResourceInstance(a)
		if ri.Current != nil {
			toState.SetResourceInstanceCurrent(a, ri.Current, provider)
		}
		for k, obj := range ri.Deposed {
			toState.SetResourceInstanceDeposed(a, k, obj, provider)
		}
		fromState.ForgetResourceInstanceAll(a)
	}
	if !reportMoved(u, n, dryRun) {
		return nil
	}
	// The destination first: if the source write then fails, the objects
	// are in both files, never in neither.
	if err := toStore.Write(toState); err != nil {
		return u.errorf("Failed to save state", "Writing the destination state %s failed: %s. Neither state file was changed.", to.path, err)
	}
	if err := fromStore.Write(fromState); err != nil {
		return u.fail(hcl.Diagnostics{{Severity: hcl.DiagError, Summary: "Failed to save state", Detail: fmt.Sprintf("The objects were written to %s, but removing them from %s failed: %s. Remove them from %s with \"tenet state rm -state=%s\".", to.path, from.path, err, from.path, from.path)}})
	}
	return nil
}

// samePath reports whether two spellings name the same state file, so a
// move within one file is not taken for a move between two (whose second
// lock would wait for the first).
func samePath(a, b string) bool {
	if a == b {
		return true
	}
	fa, errA := os.Stat(a)
	fb, errB := os.Stat(b)
	if errA == nil && errB == nil {
		return os.SameFile(fa, fb)
	}
	absA, errA := filepath.Abs(a)
	absB, errB := filepath.Abs(b)
	return errA == nil && errB == nil && absA == absB
}
