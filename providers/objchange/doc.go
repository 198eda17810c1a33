// Package objchange holds the core's rules about resource objects as they
// pass through a provider: the proposed new state the engine offers a
// provider to plan from ([ProposedNew], [PlannedDataResourceObject]) and
// the checks the engine runs on what comes back ([AssertPlanValid],
// [AssertObjectCompatible], [AssertObjectConforms], [UnknownPaths]).
//
// It works on schema-conforming cty values with no marks: callers unmark
// sensitive values before calling and re-mark afterwards. Errors are
// cty.PathError values naming the attribute at fault; the engine wraps
// them into diagnostics with the instance address and the summaries of
// semantics.md §2.3. Values of sensitive attributes never appear in the
// messages.
package objchange
