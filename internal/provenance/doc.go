// Package provenance names the rules that took part in a planning
// decision: the one type the planning rules (package rules) return with
// each decision and the plan (package engine/plan) records for `tenet
// explain`, the saved plan file and compliance policies.
//
// It owns only that vocabulary. Which rules fire, and how a rule's id,
// file and line are found, stay with package rules; how the plan stores
// and encodes the list stays with engine/plan and its codecs.
//
// It imports nothing of the project, so the rules (a leaf that must not
// import the plan) and the plan (which must not link OPA) can share it.
package provenance
