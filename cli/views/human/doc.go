// Package human is the UI people read: the plan as OpenTofu 1.10 draws it
// (from the JSON plan document of `show -json`, format 1.2, and a small
// schema lookup), apply and refresh progress lines (HumanHooks), output
// values, `state show` objects and the notes around a saved plan.
//
// What people see matches OpenTofu 1.10 line for line apart from the
// product name: which unchanged values are shown or counted as hidden,
// jsonencode() for JSON strings, line breaks. The goldens under testdata,
// recorded from OpenTofu by scripts/record-human-goldens.sh, check it
// (also cli/human_golden_test.go).
//
// Plans of 100,000 changes must render in a fraction of a second: long
// change arrays are drawn on all cores, and the result is byte for byte
// what one goroutine would draw. Shared text (diagnostics, values,
// summaries) comes from package views; the plan document from
// engine/plan/planjson.
package human
